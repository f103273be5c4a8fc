#include "model/sched_stats.h"
#include "model/hist.h"
#include "sysinfo/cpuset.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sched_class_finish(struct sched_class_stats *c, double dt_s)
{
	double ns = dt_s * 1e9;

	c->oncpu_pct = ns > 0 ? 100.0 * (double)c->oncpu_ns / ns : 0;
	c->vol_per_s = dt_s > 0 ? (double)c->vol / dt_s : 0;
	c->invol_per_s = dt_s > 0 ? (double)c->invol / dt_s : 0;
	c->migrations_per_s = dt_s > 0 ? (double)c->migrations / dt_s : 0;
	c->runnable_avg = ns > 0 ? (double)(c->oncpu_ns + c->runq_ns) / ns : 0;
	c->vdso_pct = NAN;   /* the clock family's: the tick's join sets it (session/tick_join.h) */
	c->softirq_lost_pct = c->oncpu_ns ? 100.0 * (double)c->sirq_ns / (double)c->oncpu_ns : 0;
	c->net_softirq_lost_pct = c->oncpu_ns ? 100.0 * (double)c->net_sirq_ns / (double)c->oncpu_ns : 0;
	/* charge and on-CPU time are read microseconds apart */
	if (c->softirq_lost_pct > 100)
		c->softirq_lost_pct = 100;
	if (c->net_softirq_lost_pct > 100)
		c->net_softirq_lost_pct = 100;
	sched_class_derive(c);
	class_time_finish(&c->time);
	c->time.futex_p50_us = c->futex_hist ? hist_percentile_us(c->futex_hist, DBT_HIST_BUCKETS, 0.50) : NAN;
	c->time.futex_p99_us = c->futex_hist ? hist_percentile_us(c->futex_hist, DBT_HIST_BUCKETS, 0.99) : NAN;
	c->runq_p50_us = c->runq_p99_us = c->runq_max_us = NAN;
	if (!c->runq_hist)
		return;
	c->runq_p50_us = hist_percentile_us(c->runq_hist, DBT_HIST_BUCKETS, 0.50);
	c->runq_p99_us = hist_percentile_us(c->runq_hist, DBT_HIST_BUCKETS, 0.99);
	c->runq_max_us = hist_total(c->runq_hist, DBT_HIST_BUCKETS) ? (double)c->runq_max_ns / 1000.0 : NAN;
	/* interpolation inside a bucket can overshoot the exact maximum */
	if (c->runq_p99_us > c->runq_max_us)
		c->runq_p99_us = c->runq_max_us;
	if (c->runq_p50_us > c->runq_max_us)
		c->runq_p50_us = c->runq_max_us;
}

void sched_class_derive(struct sched_class_stats *c)
{
	/* of the time its threads wanted a CPU, the share they waited for
	 * one: independent of how many threads the class has (RUNNABLE is
	 * not), 50% when they wait as long as they run */
	double oncpu = c->oncpu_pct / 100;

	c->runq_wait_pct = c->runnable_avg > 0 && c->runnable_avg >= oncpu
				   ? 100 * (c->runnable_avg - oncpu) / c->runnable_avg
				   : NAN;
}

int sched_hist_merge(__u64 **dst, const __u64 *src)
{
	if (!src)
		return 0;
	if (!*dst) {
		*dst = calloc(DBT_HIST_BUCKETS, sizeof(**dst));
		if (!*dst)
			return -ENOMEM;
	}
	hist_add_to(*dst, src, DBT_HIST_BUCKETS);
	return 0;
}

void sched_class_free(struct sched_class_stats *c)
{
	free(c->runq_hist);
	free(c->futex_hist);
	c->runq_hist = c->futex_hist = NULL;
}

void sched_group_free(struct sched_group_stats *p)
{
	sched_class_free(&p->total);
	for (int k = 0; k < p->n_classes; k++)
		sched_class_free(&p->classes[k]);
	free(p->classes);
	p->classes = NULL;
}

int sched_class_add(struct sched_class_stats *a, const struct sched_class_stats *b)
{
	a->oncpu_ns += b->oncpu_ns;
	a->runq_ns += b->runq_ns;
	a->vol += b->vol;
	a->invol += b->invol;
	a->migrations += b->migrations;
	a->sirq_ns += b->sirq_ns;
	a->net_sirq_ns += b->net_sirq_ns;
	if (b->runq_max_ns > a->runq_max_ns)
		a->runq_max_ns = b->runq_max_ns;
	for (int w = 0; w < DBT_SCHED_CPU_WORDS; w++)
		a->cpus[w] |= b->cpus[w];
	a->cpus_beyond |= b->cpus_beyond;
	class_time_add(&a->time, &b->time);
	return sched_hist_merge(&a->runq_hist, b->runq_hist) ?: sched_hist_merge(&a->futex_hist, b->futex_hist);
}

int sched_class_by_oncpu(const void *a, const void *b)
{
	const struct sched_class_stats *x = a, *y = b;

	if (x->oncpu_ns != y->oncpu_ns)
		return x->oncpu_ns > y->oncpu_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

int sched_group_by_oncpu(const void *a, const void *b)
{
	const struct sched_group_stats *x = a, *y = b;

	if (x->total.oncpu_ns != y->total.oncpu_ns)
		return x->total.oncpu_ns > y->total.oncpu_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void sched_cpus_format(const uint64_t *cpus, bool beyond, char *buf, size_t len)
{
	size_t at = 0;
	int start = -1, ncpu = DBT_SCHED_CPU_WORDS * 64;

	if (!len)
		return;
	buf[0] = 0;
	for (int c = 0; c <= ncpu; c++) {
		bool on = c < ncpu && (cpus[c / 64] >> (c % 64)) & 1;
		int w;

		if (on && start < 0)
			start = c;
		if (on || start < 0)
			continue;
		if (start == c - 1)
			w = snprintf(buf + at, len - at, "%s%d", at ? "," : "", start);
		else
			w = snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", start, c - 1);
		if (w < 0 || (size_t)w >= len - at)
			return;
		at += (size_t)w;
		start = -1;
	}
	if (beyond)
		snprintf(buf + at, len - at, "%s", at ? ",+" : "+");
}

void sched_cpus_parse(const char *text, uint64_t *cpus, bool *beyond)
{
	struct dbt_cpuset set;
	char list[256];
	char *plus;

	snprintf(list, sizeof(list), "%s", text);
	plus = strchr(list, '+');
	if (plus) {
		*beyond = true;
		*plus = 0;
		if (plus > list && plus[-1] == ',')
			plus[-1] = 0;
	}
	if (!dbt_cpuset_parse_list(&set, list))
		for (int w = 0; w < DBT_SCHED_CPU_WORDS; w++)
			cpus[w] = set.bits[w];
}
