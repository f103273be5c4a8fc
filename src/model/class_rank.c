#include "model/class_rank.h"
#include "model/hist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double class_cost(const struct sched_class_stats *c)
{
	return isfinite(c->runnable_avg) && c->runnable_avg > 0 ? c->runnable_avg : 0;
}

bool class_worth_showing(const struct sched_class_stats *c)
{
	return class_cost(c) >= CLASS_RANK_SHOWN_MIN;
}

int class_row_by_cost(const void *a, const void *b)
{
	const struct class_row *x = a, *y = b;
	double cx = class_cost(x->cls), cy = class_cost(y->cls);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	if (x->group->pid != y->group->pid)
		return x->group->pid < y->group->pid ? -1 : 1;
	return strcmp(x->cls->name, y->cls->name);
}

int class_rank_split(struct class_row *rows, int n, int max_shown, bool all)
{
	struct class_row *rest;
	int shown = 0, folded = 0;

	if (all || n <= 0)
		return n > 0 ? n : 0;
	rest = malloc(sizeof(*rest) * (size_t)n);
	if (!rest) {
		/* no room to keep the order of the rest: show everything */
		return n;
	}
	for (int i = 0; i < n; i++) {
		if (class_worth_showing(rows[i].cls) && (max_shown <= 0 || shown < max_shown))
			rows[shown++] = rows[i];
		else
			rest[folded++] = rows[i];
	}
	memcpy(rows + shown, rest, sizeof(*rest) * (size_t)folded);
	free(rest);
	return shown;
}

static double num(double v)
{
	return isfinite(v) ? v : 0;
}

int class_fold(struct sched_class_stats *o, const struct class_row *rows, int n)
{
	double sirq = 0, net_sirq = 0;
	uint64_t user_ns = 0, sys_ns = 0;
	int err = 0;

	memset(o, 0, sizeof(*o));
	o->map_class = -1;
	snprintf(o->name, sizeof(o->name), "other (%d class%s)", n, n == 1 ? "" : "es");
	o->runq_max_us = NAN;
	for (int i = 0; i < n && !err; i++) {
		const struct sched_class_stats *c = rows[i].cls;

		o->threads += c->threads;
		o->oncpu_pct += num(c->oncpu_pct);
		o->vol_per_s += num(c->vol_per_s);
		o->invol_per_s += num(c->invol_per_s);
		o->migrations_per_s += num(c->migrations_per_s);
		o->runnable_avg += num(c->runnable_avg);
		sirq += num(c->softirq_lost_pct) * num(c->oncpu_pct);
		net_sirq += num(c->net_softirq_lost_pct) * num(c->oncpu_pct);
		o->runq_max_us = fmax(o->runq_max_us, c->runq_max_us);
		user_ns += c->time.oncpu_user_ns;
		sys_ns += c->time.oncpu_sys_ns;
		/* the raw sums, the CPUs ran on, the budget, the histograms */
		err = sched_class_add(o, c);
	}
	if (err) {
		sched_class_free(o);
		return err;
	}
	o->softirq_lost_pct = o->oncpu_pct > 0 ? sirq / o->oncpu_pct : 0;
	o->net_softirq_lost_pct = o->oncpu_pct > 0 ? net_sirq / o->oncpu_pct : 0;
	o->vdso_pct = NAN;
	sched_class_derive(o);
	/* the split of the on-CPU time by the classes' own splits (what
	 * class_time_finish splits by: it takes them as tick counts) */
	o->time.tick_user_ns = user_ns;
	o->time.tick_sys_ns = sys_ns;
	/* futex words are addresses in one process each: not comparable */
	o->time.n_futex = 0;
	class_time_finish(&o->time);
	o->time.futex_p50_us = o->futex_hist ? hist_percentile_us(o->futex_hist, DBT_HIST_BUCKETS, 0.50) : NAN;
	o->time.futex_p99_us = o->futex_hist ? hist_percentile_us(o->futex_hist, DBT_HIST_BUCKETS, 0.99) : NAN;
	o->runq_p50_us = o->runq_p99_us = NAN;
	if (o->runq_hist && hist_total(o->runq_hist, DBT_HIST_BUCKETS)) {
		o->runq_p50_us = fmin(hist_percentile_us(o->runq_hist, DBT_HIST_BUCKETS, 0.50), o->runq_max_us);
		o->runq_p99_us = fmin(hist_percentile_us(o->runq_hist, DBT_HIST_BUCKETS, 0.99), o->runq_max_us);
	}
	return 0;
}

int class_rank(const struct sched_group_stats *groups, int n_groups, bool timed_only, int max_shown, bool all,
	       struct class_ranking *out)
{
	int n = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < n_groups; i++)
		n += groups[i].n_classes;
	out->row = calloc(n ? (size_t)n : 1, sizeof(*out->row));
	if (!out->row)
		return -ENOMEM;
	for (int i = 0; i < n_groups; i++)
		for (int k = 0; k < groups[i].n_classes; k++)
			if (!timed_only || groups[i].classes[k].time.thread_ns)
				out->row[out->n++] = (struct class_row){ &groups[i], &groups[i].classes[k] };
	qsort(out->row, (size_t)out->n, sizeof(*out->row), class_row_by_cost);
	out->shown = class_rank_split(out->row, out->n, max_shown, all);
	if (out->shown < out->n) {
		int err = class_fold(&out->other, out->row + out->shown, out->n - out->shown);

		if (err) {
			free(out->row);
			memset(out, 0, sizeof(*out));
			return err;
		}
	}
	return 0;
}

void class_ranking_free(struct class_ranking *r)
{
	if (r->shown < r->n)
		sched_class_free(&r->other);
	free(r->row);
	memset(r, 0, sizeof(*r));
}
