#include "capture/capture_clock.h"
#include "capture/capture_figures.h"
#include "capture/capture_json.h"
#include "capture/capture_sched.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A group: its figures, then what only a group has: samples per vDSO
 * function and the clock syscalls counted (null when sampled: nothing
 * counted them, which is not 0). */
static json_object *group_object(const struct clock_group_stats *g, const struct clock_fn_table *fns,
				 bool counted)
{
	json_object *o = json_object_new_object(), *classes = json_object_new_array();
	json_object *fn = json_object_new_object(), *sys = json_object_new_object();

	json_object_object_add(o, "pid", json_object_new_int(g->pid));
	json_object_object_add(o, "comm", json_object_new_string(g->comm));
	capture_figs_write(o, &fig_clock, &g->total, fns);
	for (int i = 0; i < DBT_CLOCK_FN_SLOTS; i++)
		if (g->total.vdso[i])
			json_object_object_add(fn, clock_fn_name(fns, i), capture_u64(g->total.vdso[i]));
	json_object_object_add(o, "vdso_samples", fn);
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		json_object_object_add(sys, clock_sys_name(k), counted ? capture_u64(g->total.syscalls[k]) : NULL);
	json_object_object_add(o, "clock_syscalls", sys);
	for (int k = 0; k < g->n_classes; k++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "name", json_object_new_string(g->classes[k].name));
		capture_figs_write(c, &fig_clock, &g->classes[k], fns);
		json_object_array_add(classes, c);
	}
	json_object_object_add(o, "classes", classes);
	return o;
}

json_object *capture_clock_object(const struct clock_interval *iv, const struct clock_fn_table *fns,
				  unsigned int hz)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	int shown = iv->n_groups < CAPTURE_MAX_PROCS ? iv->n_groups : CAPTURE_MAX_PROCS;

	json_object_object_add(o, "sample_hz", json_object_new_int((int)hz));
	json_object_object_add(o, "syscall_method",
			       json_object_new_string(iv->syscall_method ? iv->syscall_method : "sampled"));
	json_object_object_add(o, "samples", capture_u64(iv->samples));
	json_object_object_add(o, "idle_samples", capture_u64(iv->idle_samples));
	json_object_object_add(o, "lost_samples", capture_u64(iv->update_failed));
	json_object_object_add(o, "evicted_threads", capture_u64(iv->evictions));
	for (int i = 0; i < shown; i++)
		json_object_array_add(a, group_object(&iv->groups[i], fns,
						      clock_syscalls_counted(iv->syscall_method)));
	json_object_object_add(o, "processes", a);
	json_object_object_add(o, "processes_omitted", json_object_new_int(iv->n_groups - shown));
	return o;
}

/* --- reading back --------------------------------------------------------- */

/* A row's figures, and the sample counts its shares stand for. */
static int read_stats(json_object *o, struct clock_stats *s, struct clock_fn_table *fns)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->map_class = -1;
	capture_jcopy(s->name, sizeof(s->name), o, "name");
	err = capture_figs_read(o, &fig_clock, s, fns);
	if (isfinite(s->vdso_pct))
		s->vdso_samples = (uint64_t)llround(s->vdso_pct * (double)s->samples / 100.0);
	if (isfinite(s->sys_pct))
		s->sys_samples = (uint64_t)llround(s->sys_pct * (double)s->samples / 100.0);
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		s->per_s[k] = NAN;
	return err;
}

/* The capture's syscall_method as one of the writer's own literals (the
 * JSON tree's strings do not outlive the read); NULL when absent (older
 * captures, which always counted) or unknown. */
static const char *syscall_method(json_object *o)
{
	static const char *const known[] = { "fentry", "tracepoint", "raw_syscalls", "sampled" };
	const char *m = capture_jstr(o, "syscall_method");

	for (size_t i = 0; m && i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(m, known[i]))
			return known[i];
	return NULL;
}

int capture_clock_read(json_object *o, double seconds, struct clock_interval *ci, struct clock_fn_table *fns,
		       unsigned int *hz, int *omitted)
{
	json_object *a = capture_jarray(o, "processes");
	size_t n = a ? json_object_array_length(a) : 0;
	int err = 0;

	*hz = (unsigned int)capture_jint(o, "sample_hz", 0);
	*omitted = (int)capture_jint(o, "processes_omitted", 0);
	ci->dt_s = seconds;
	ci->samples = capture_jcount(o, "samples");
	ci->idle_samples = capture_jcount(o, "idle_samples");
	ci->update_failed = capture_jcount(o, "lost_samples");
	ci->evictions = capture_jcount(o, "evicted_threads");
	ci->syscall_method = syscall_method(o);
	ci->groups = calloc(n ? n : 1, sizeof(*ci->groups));
	if (!ci->groups)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		json_object *p = json_object_array_get_idx(a, i), *cls = capture_jarray(p, "classes");
		json_object *fn = capture_jobject(p, "vdso_samples"), *sys = capture_member(p, "clock_syscalls");
		struct clock_group_stats *g = &ci->groups[ci->n_groups++];
		size_t nc = cls ? json_object_array_length(cls) : 0;

		g->pid = (int)capture_jint(p, "pid", 0);
		g->map_group = -1;
		capture_jcopy(g->comm, sizeof(g->comm), p, "comm");
		err = read_stats(p, &g->total, fns);
		snprintf(g->total.name, sizeof(g->total.name), "%s", g->comm);
		if (fn) {
			json_object_object_foreach(fn, key, val)
				g->total.vdso[clock_fn_slot(fns, key)] += (uint64_t)
					(json_object_get_int64(val) > 0 ? json_object_get_int64(val) : 0);
		}
		for (int k = 0; k < DBT_CLOCK_SYS_N; k++) {
			g->total.syscalls[k] = capture_jcount(sys, clock_sys_name(k));
			if (seconds > 0 && capture_member(sys, clock_sys_name(k)))
				g->total.per_s[k] = (double)g->total.syscalls[k] / seconds;
		}
		g->classes = calloc(nc ? nc : 1, sizeof(*g->classes));
		if (!g->classes)
			return -ENOMEM;
		for (size_t k = 0; k < nc && !err; k++)
			err = read_stats(json_object_array_get_idx(cls, k), &g->classes[g->n_classes++], fns);
	}
	return err;
}
