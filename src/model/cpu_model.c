#include "model/cpu_model.h"
#include "model/hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cpu_snapshot_alloc(struct cpu_snapshot *s, int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->cpu = calloc((size_t)ncpus, sizeof(*s->cpu));
	if (!s->cpu)
		return -ENOMEM;
	s->ncpus = ncpus;
	return 0;
}

void cpu_snapshot_free(struct cpu_snapshot *s)
{
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

void cpu_snapshot_copy(struct cpu_snapshot *dst, const struct cpu_snapshot *src)
{
	struct cpu_sample *keep = dst->cpu;

	memcpy(keep, src->cpu, sizeof(*keep) * (size_t)src->ncpus);
	*dst = *src;
	dst->cpu = keep;
}

static double pct(double part, double whole)
{
	double v;

	if (whole <= 0)
		return 0;
	v = 100.0 * part / whole;
	/* probes and /proc are read microseconds apart: clamp the skew */
	return v < 0 ? 0 : v > 100 ? 100 : v;
}

static void stat_shares(const struct procstat_cpu *a, const struct procstat_cpu *b,
			struct cpu_row *r)
{
	uint64_t d[PS_FIELDS], total = 0;

	for (int f = 0; f < PS_FIELDS; f++)
		d[f] = counter_delta(a->ticks[f], b->ticks[f]);
	/* guest time is already inside user and nice */
	for (int f = PS_USER; f <= PS_STEAL; f++)
		total += d[f];
	r->usr_pct = pct((double)(d[PS_USER] + d[PS_NICE]), (double)total);
	r->sys_pct = pct((double)d[PS_SYSTEM], (double)total);
	r->iowait_pct = pct((double)d[PS_IOWAIT], (double)total);
	r->idle_pct = pct((double)d[PS_IDLE], (double)total);
	r->steal_pct = pct((double)d[PS_STEAL], (double)total);
}

/* p99 of the raise->entry wait over all vectors of a row, µs; NAN when
 * no wait was seen. */
static double wait_all_p99(const struct cpu_row *r)
{
	__u64 merged[DBT_HIST_BUCKETS] = { 0 };

	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
		hist_add_to(merged, r->wait_hist[v], DBT_HIST_BUCKETS);
	return hist_percentile_us(merged, DBT_HIST_BUCKETS, 0.99);
}

static void sirq_shares(const struct cpu_sample *sa, const struct cpu_sample *sb,
			double wall_ns, struct cpu_row *r)
{
	const struct dbt_softirq_cpu *a = &sa->sirq, *b = &sb->sirq;
	double total_ns = 0;

	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		double ns = (double)counter_delta(a->time_ns[v], b->time_ns[v]);

		total_ns += ns;
		r->softirq_pct[v] = pct(ns, wall_ns);
		r->raises[v] = counter_delta(a->raises[v], b->raises[v]);
		r->entries[v] = counter_delta(a->entries[v], b->entries[v]);
		hist_delta(sa->sirq_wait[v].buckets, sb->sirq_wait[v].buckets, r->wait_hist[v],
			   DBT_HIST_BUCKETS);
		r->wait_timed[v] = counter_delta(sa->sirq_wait[v].timed, sb->sirq_wait[v].timed);
		r->wait_p99_us[v] = hist_percentile_us(r->wait_hist[v], DBT_HIST_BUCKETS, 0.99);
	}
	r->wait_all_p99_us = wait_all_p99(r);
	r->softirq_total_pct = pct(total_ns, wall_ns);
	r->hardirq_pct = pct((double)counter_delta(a->hardirq_ns, b->hardirq_ns), wall_ns);
	r->unmatched = counter_delta(a->unmatched, b->unmatched);
}

void cpu_rows_compute(const struct cpu_snapshot *prev, const struct cpu_snapshot *cur,
		      struct cpu_row *rows)
{
	double wall_ns = (double)(cur->mono_ns - prev->mono_ns);

	for (int c = 0; c < cur->ncpus; c++) {
		const struct cpu_sample *a = &prev->cpu[c], *b = &cur->cpu[c];
		struct cpu_row *r = &rows[c];

		memset(r, 0, sizeof(*r));
		r->cpu = c;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			r->wait_p99_us[v] = NAN;
		r->wait_all_p99_us = NAN;
		/* without /proc/stat every possible CPU is taken as online */
		r->valid = c < prev->ncpus && (!prev->have_stat || a->stat.online) &&
			   (!cur->have_stat || b->stat.online);
		if (!r->valid)
			continue;
		if (prev->have_stat && cur->have_stat)
			stat_shares(&a->stat, &b->stat, r);
		else
			r->usr_pct = r->sys_pct = r->iowait_pct = r->idle_pct = r->steal_pct = NAN;
		r->have_sirq = prev->have_sirq && cur->have_sirq;
		if (r->have_sirq) {
			sirq_shares(a, b, wall_ns, r);
		} else {
			for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
				r->softirq_pct[v] = NAN;
			r->softirq_total_pct = r->hardirq_pct = NAN;
		}
	}
}

int cpu_rows_total(const struct cpu_row *rows, int n, struct cpu_row *t)
{
	int valid = 0;

	memset(t, 0, sizeof(*t));
	t->cpu = -1;
	for (int c = 0; c < n; c++) {
		const struct cpu_row *r = &rows[c];

		if (!r->valid)
			continue;
		valid++;
		t->have_sirq = r->have_sirq;
		t->usr_pct += r->usr_pct;
		t->sys_pct += r->sys_pct;
		t->iowait_pct += r->iowait_pct;
		t->idle_pct += r->idle_pct;
		t->steal_pct += r->steal_pct;
		t->softirq_total_pct += r->softirq_total_pct;
		t->hardirq_pct += r->hardirq_pct;
		t->unmatched += r->unmatched;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
			t->softirq_pct[v] += r->softirq_pct[v];
			t->raises[v] += r->raises[v];
			t->entries[v] += r->entries[v];
			t->wait_timed[v] += r->wait_timed[v];
			hist_add_to(t->wait_hist[v], r->wait_hist[v], DBT_HIST_BUCKETS);
		}
	}
	t->valid = valid > 0;
	if (valid) {
		double k = 1.0 / valid;

		t->usr_pct *= k;
		t->sys_pct *= k;
		t->iowait_pct *= k;
		t->idle_pct *= k;
		t->steal_pct *= k;
		t->softirq_total_pct *= k;
		t->hardirq_pct *= k;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			t->softirq_pct[v] *= k;
	}
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
		t->wait_p99_us[v] = hist_percentile_us(t->wait_hist[v], DBT_HIST_BUCKETS, 0.99);
	t->wait_all_p99_us = wait_all_p99(t);
	return valid;
}
