#include "findings/gettimeofday_hotspot.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void gtod_config_default(struct gtod_config *cfg)
{
	cfg->vdso_pct = 10.0;
	cfg->syscalls_per_s = 10000.0;
	cfg->min_samples = 50;
}

/* Appends "; " and a formatted part to a bounded text. */
struct text {
	char *buf;
	size_t len, at;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->at + 1 >= t->len)
		return;
	if (t->at) {
		n = snprintf(t->buf + t->at, t->len - t->at, "; ");
		t->at += (size_t)n < t->len - t->at ? (size_t)n : t->len - t->at - 1;
	}
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->at, t->len - t->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->at += (size_t)n < t->len - t->at ? (size_t)n : t->len - t->at - 1;
}

/* "TSC found unstable..." without its "[  12.3]" stamp, for a hint. */
static const char *log_text(const char *line)
{
	const char *p = line;

	if (*p == '[') {
		const char *q = strchr(p, ']');

		if (q)
			p = q + 1;
	}
	while (*p == ' ')
		p++;
	return p;
}

static void clocksource_part(const struct clock_env *env, int kinds, struct text *t)
{
	const char *name = env->cs.current;
	bool tsc_avail = dbt_clocksource_is_available(&env->cs, "tsc") && strcmp(name, "tsc");

	if (!env->have_cs || !*name)
		return;
	switch (dbt_clocksource_vdso(name, NULL)) {
	case DBT_VDSO_NO:
		add(t, "clocksource is %s: every clock read is a syscall", name);
		break;
	case DBT_VDSO_UNRELIABLE:
		add(t, "clocksource is %s: clock reads are syscalls unless the hypervisor "
		       "marks the TSC stable", name);
		break;
	case DBT_VDSO_YES:
		if (kinds & GTOD_SYSCALLS)
			add(t, "clocksource %s is read in user space, yet the clock calls enter the "
			       "kernel: the program calls syscall() itself or its libc bypasses the vDSO",
			    name);
		return;
	case DBT_VDSO_UNKNOWN:
		add(t, "clocksource %s: dbtrace does not know whether the vDSO can read it", name);
		return;
	}
	if (env->have_log && env->log.n_unstable) {
		char line[128];
		size_t n;

		snprintf(line, sizeof(line), "%.120s", log_text(env->log.first_unstable));
		n = strlen(line);
		while (n && (line[n - 1] == ':' || line[n - 1] == ' '))
			line[--n] = 0;
		add(t, "the kernel log says: \"%s\"", line);
	}
	if (tsc_avail)
		add(t, "tsc is available: echo tsc > "
		       "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	else if (env->have_log && env->log.n_unstable)
		add(t, "the TSC was dropped, so the fix is in the BIOS/hypervisor or tsc=reliable "
		       "if the TSC is known good");
}

static void cmdline_part(const struct clock_env *env, struct text *t)
{
	const struct dbt_cmdline *c = &env->cmdline;
	char also[200] = "";
	size_t at = 0;

	if (!env->have_cmdline)
		return;
	if (c->skew_tick_present && c->skew_tick) {
		if (env->tuned.profile[0])
			add(t, "skew_tick=%ld on the kernel command line (tuned profile %s): in the "
			       "field case the vDSO clock cost fell back under 5%% with the profile "
			       "throughput-performance",
			    c->skew_tick, env->tuned.profile);
		else
			add(t, "skew_tick=%ld on the kernel command line: in the field case the vDSO "
			       "clock cost fell back under 5%% without it",
			    c->skew_tick);
	}
	/* context, not causes: settings of latency profiles worth seeing */
	if (c->nohz.present && c->nohz.value[0])
		at += (size_t)snprintf(also + at, sizeof(also) - at, " nohz=%s", c->nohz.value);
	if (at < sizeof(also) && c->nohz_full.present)
		at += (size_t)snprintf(also + at, sizeof(also) - at, " nohz_full=%s", c->nohz_full.raw);
	if (at < sizeof(also) && c->isolcpus.present)
		at += (size_t)snprintf(also + at, sizeof(also) - at, " isolcpus=%s", c->isolcpus.raw);
	if (at < sizeof(also) && c->idle.present)
		at += (size_t)snprintf(also + at, sizeof(also) - at, " idle=%s", c->idle.value);
	if (at)
		add(t, "also on the command line:%s", also);
}

size_t gtod_hint(const struct clock_env *env, int kinds, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };

	if (!len)
		return 0;
	buf[0] = 0;
	clocksource_part(env, kinds, &t);
	cmdline_part(env, &t);
	if (!t.at && (kinds & GTOD_VDSO))
		add(&t, "the clock is read in user space%s%s: the cost is the call rate itself; "
			"look for a clock read per row, per lock or per log line",
		    env->have_cs && env->cs.current[0] ? " from " : "",
		    env->have_cs ? env->cs.current : "");
	return t.at;
}

/* Which thresholds s passes; 0 when none (or too few samples to say). */
static int hot(const struct clock_stats *s, const struct gtod_config *cfg)
{
	int kinds = 0;

	if (s->samples >= cfg->min_samples) {
		if (s->vdso_pct > cfg->vdso_pct)
			kinds |= GTOD_VDSO;
		/* real clock syscalls as a share of CPU count too: the hpet case
		 * at a rate under the threshold can still eat the CPU */
		if (s->sys_pct > cfg->vdso_pct)
			kinds |= GTOD_SYSCALLS;
	}
	if (s->reads_per_s > cfg->syscalls_per_s)
		kinds |= GTOD_SYSCALLS;
	return kinds;
}

static void describe(struct finding *f, const struct clock_group_stats *p, const struct clock_stats *s,
		     bool is_class, int kinds, const struct clock_fn_table *fns,
		     const struct clock_env *env, const struct gtod_config *cfg, double dt_s)
{
	const char *fn = s->top_fn >= 0 ? clock_fn_name(fns, s->top_fn) : "-";
	char who[120], what[160];
	double vdso = isnan(s->vdso_pct) ? 0 : s->vdso_pct, sys = isnan(s->sys_pct) ? 0 : s->sys_pct;

	snprintf(f->id, sizeof(f->id), "gettimeofday_hotspot");
	f->severity = vdso + sys >= 3 * cfg->vdso_pct || s->reads_per_s >= 10 * cfg->syscalls_per_s
			      ? SEV_CRITICAL : SEV_WARNING;
	f->pid = p->pid;
	if (is_class) {
		snprintf(f->class_name, sizeof(f->class_name), "%s", s->name);
		snprintf(who, sizeof(who), "%s (pid %d) class %s", p->comm, p->pid, s->name);
	} else {
		snprintf(who, sizeof(who), "%s (pid %d)", p->comm, p->pid);
	}
	if (kinds & GTOD_VDSO)
		snprintf(what, sizeof(what), "%.1f%% of its CPU in the vDSO clock (%s)", vdso, fn);
	else if (sys >= 1)
		snprintf(what, sizeof(what), "%.1f%% of its CPU in clock syscalls", sys);
	else
		snprintf(what, sizeof(what), "clock syscalls");
	if (s->reads_per_s >= 1)
		snprintf(f->title, sizeof(f->title), "%.110s: %.60s, %.0f clock syscalls/s", who, what,
			 s->reads_per_s);
	else
		snprintf(f->title, sizeof(f->title), "%.110s: %.60s", who, what);
	finding_num(f, "samples", (double)s->samples);
	finding_num(f, "vdso_pct", vdso);
	finding_text(f, "vdso_top_function", "%s", fn);
	finding_num(f, "clock_sys_pct", sys);
	finding_num(f, "clock_syscalls_per_s", s->reads_per_s);
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++) {
		char key[32];

		if (!s->syscalls[k])
			continue;
		snprintf(key, sizeof(key), "%s_per_s", clock_sys_name(k));
		finding_num(f, key, s->per_s[k]);
	}
	if (!is_class && p->n_classes > 0)
		finding_text(f, "top_class", "%s (%.1f%% vDSO)", p->classes[0].name,
			     isnan(p->classes[0].vdso_pct) ? 0 : p->classes[0].vdso_pct);
	if (env->have_cs && env->cs.current[0])
		finding_text(f, "clocksource", "%s", env->cs.current);
	if (env->have_cmdline && env->cmdline.skew_tick_present)
		finding_num(f, "skew_tick", (double)env->cmdline.skew_tick);
	if (env->tuned.profile[0])
		finding_text(f, "tuned_profile", "%s", env->tuned.profile);
	finding_num(f, "interval_s", dt_s);
	gtod_hint(env, kinds, f->hint, sizeof(f->hint));
}

static int raise_one(const struct clock_group_stats *p, const struct clock_stats *s, bool is_class,
		 int kinds, const struct clock_fn_table *fns, const struct clock_env *env,
		 const struct gtod_config *cfg, double dt_s, int interval_index,
		 struct finding_list *out)
{
	struct finding f;

	memset(&f, 0, sizeof(f));
	describe(&f, p, s, is_class, kinds, fns, env, cfg, dt_s);
	f.first_interval = f.last_interval = interval_index;
	return findings_merge(out, &f);
}

int gettimeofday_hotspot_check(const struct clock_interval *iv, const struct clock_fn_table *fns,
			       const struct clock_env *env, const struct gtod_config *cfg,
			       int interval_index, struct finding_list *out)
{
	for (int i = 0; i < iv->n_groups; i++) {
		const struct clock_group_stats *p = &iv->groups[i];
		int kinds = hot(&p->total, cfg), err;

		if (kinds) {
			err = raise_one(p, &p->total, false, kinds, fns, env, cfg, iv->dt_s,
				    interval_index, out);
			if (err)
				return err;
			continue;
		}
		/* one hot pool in a big process that is not hot as a whole */
		for (int k = 0; k < p->n_classes; k++) {
			kinds = hot(&p->classes[k], cfg);
			if (!kinds)
				continue;
			err = raise_one(p, &p->classes[k], true, kinds, fns, env, cfg, iv->dt_s,
				    interval_index, out);
			if (err)
				return err;
		}
	}
	return 0;
}
