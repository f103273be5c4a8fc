#include "capture/capture_sched.h"
#include "capture/capture_figures.h"
#include "capture/capture_json.h"
#include "capture/capture_read.h"
#include "capture/capture_time.h"

#include <errno.h>
#include <stdbool.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "load": true on the recorded command's rows; absent on the others. */
static void mark_load(json_object *o, int pid, int load_pid)
{
	if (load_pid && pid == load_pid)
		json_object_object_add(o, "load", json_object_new_boolean(1));
}

/* Whether the i-th busiest row is written: the CAPTURE_MAX_PROCS
 * busiest, and the recorded command's wherever it ranks (a load that
 * sleeps on its server is still the load). */
static bool group_listed(const struct sched_group_stats *g, int i, int load_pid)
{
	return i < CAPTURE_MAX_PROCS || (load_pid && g->pid == load_pid);
}

static json_object *group_object(const struct sched_group_stats *g, int load_pid)
{
	json_object *o = json_object_new_object(), *classes = json_object_new_array();

	json_object_object_add(o, "pid", json_object_new_int(g->pid));
	json_object_object_add(o, "comm", json_object_new_string(g->comm));
	mark_load(o, g->pid, load_pid);
	json_object_object_add(o, "cpus_allowed", json_object_new_string(g->cpus_allowed));
	if (g->n_procs)
		json_object_object_add(o, "procs", json_object_new_int(g->n_procs));
	capture_figs_write(o, &fig_classes, &g->total, NULL);
	for (int k = 0; k < g->n_classes; k++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "name", json_object_new_string(g->classes[k].name));
		capture_figs_write(c, &fig_classes, &g->classes[k], NULL);
		json_object_array_add(classes, c);
	}
	json_object_object_add(o, "classes", classes);
	return o;
}

void capture_sched_write(json_object *o, const struct sched_group_stats *groups, int n, int load_pid)
{
	json_object *a = json_object_new_array();
	int shown = 0;

	for (int i = 0; i < n; i++)
		if (group_listed(&groups[i], i, load_pid)) {
			json_object_array_add(a, group_object(&groups[i], load_pid));
			shown++;
		}
	json_object_object_add(o, "processes", a);
	json_object_object_add(o, "processes_omitted", json_object_new_int(n - shown));
}

json_object *capture_sched_groups(const struct proc_group_log *log, const struct sched_summary *s, int load_pid)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < s->n_groups; i++) {
		const struct proc_group_seen *g = proc_group_log_find(log, s->groups[i].pid);
		json_object *o, *pids;

		if (!g || !group_listed(&s->groups[i], i, load_pid))
			continue;
		o = json_object_new_object();
		pids = json_object_new_array();
		json_object_object_add(o, "pid", json_object_new_int(g->pid));
		json_object_object_add(o, "comm", json_object_new_string(g->comm));
		json_object_object_add(o, "formed_by", json_object_new_string(
			g->pid == load_pid ? "command" : g->n_pids > 1 ? proc_group_by_name(log->by) : "pid"));
		mark_load(o, g->pid, load_pid);
		for (size_t k = 0; k < g->n_pids; k++)
			json_object_array_add(pids, json_object_new_int64(g->pids[k]));
		json_object_object_add(o, "pids", pids);
		json_object_object_add(o, "pids_truncated",
				       json_object_new_boolean(g->n_pids >= PROC_GROUP_SEEN_MAX));
		json_object_array_add(a, o);
	}
	return a;
}

/* --- reading back --------------------------------------------------------- */

static int read_class(json_object *o, struct sched_class_stats *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->map_class = -1;
	capture_jcopy(c->name, sizeof(c->name), o, "name");
	err = capture_figs_read(o, &fig_classes, c, NULL);
	capture_time_derive(&c->time);
	return err;
}

int capture_sched_read(json_object *a, struct sched_summary *s, double seconds)
{
	size_t n = json_object_array_length(a);
	int err = 0;

	s->groups = calloc(n ? n : 1, sizeof(*s->groups));
	if (!s->groups)
		return -ENOMEM;
	s->cap = n;
	s->seconds = seconds;
	for (size_t i = 0; i < n && !err; i++) {
		json_object *o = json_object_array_get_idx(a, i), *cls = capture_jarray(o, "classes");
		struct sched_group_stats *g = &s->groups[s->n_groups++];
		size_t nc = cls ? json_object_array_length(cls) : 0;

		g->pid = (int)capture_jint(o, "pid", 0);
		g->n_procs = (int)capture_jint(o, "procs", 0);   /* older captures: unknown */
		g->map_group = -1;
		capture_jcopy(g->comm, sizeof(g->comm), o, "comm");
		capture_jcopy(g->cpus_allowed, sizeof(g->cpus_allowed), o, "cpus_allowed");
		err = read_class(o, &g->total);
		snprintf(g->total.name, sizeof(g->total.name), "%s", g->comm);
		g->classes = calloc(nc ? nc : 1, sizeof(*g->classes));
		if (!g->classes)
			return -ENOMEM;
		for (size_t k = 0; k < nc && !err; k++)
			err = read_class(json_object_array_get_idx(cls, k), &g->classes[g->n_classes++]);
	}
	return err;
}

int capture_sched_read_interval(json_object *procs, struct capture_interval *iv)
{
	size_t n = 0, np = procs ? json_object_array_length(procs) : 0;

	for (size_t i = 0; i < np; i++) {
		json_object *cls = capture_jarray(json_object_array_get_idx(procs, i), "classes");

		n += cls ? json_object_array_length(cls) : 0;
	}
	iv->classes = calloc(n ? n : 1, sizeof(*iv->classes));
	if (!iv->classes)
		return -ENOMEM;
	for (size_t i = 0; i < np; i++) {
		json_object *p = json_object_array_get_idx(procs, i), *cls = capture_jarray(p, "classes");

		for (size_t k = 0; cls && k < json_object_array_length(cls); k++) {
			json_object *c = json_object_array_get_idx(cls, k);
			struct capture_interval_class *ic = &iv->classes[iv->n_classes];

			if (!capture_time_read_shares(c, ic->pct))
				continue;
			ic->thread_s = (float)capture_jnum(capture_jobject(c, "time"), "thread_seconds");
			ic->pid = (int)capture_jint(p, "pid", 0);
			capture_jcopy(ic->name, sizeof(ic->name), c, "name");
			iv->n_classes++;
		}
	}
	return 0;
}
