#define _GNU_SOURCE
#include "model/sched_model.h"
#include "core/vec.h"
#include "model/hist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sched_snapshot_init(struct sched_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void sched_snapshot_free(struct sched_snapshot *s)
{
	free(s->t);
	free(s->hists);
	memset(s, 0, sizeof(*s));
}

struct sched_thread_sample *sched_snapshot_add(struct sched_snapshot *s)
{
	if (VEC_RESERVE(s->t, s->cap, (size_t)s->n + 1))
		return NULL;
	memset(&s->t[s->n], 0, sizeof(s->t[0]));
	return &s->t[s->n++];
}

struct sched_name_hist *sched_snapshot_add_name_hist(struct sched_snapshot *s)
{
	if (VEC_RESERVE(s->hists, s->cap_hists, (size_t)s->n_hists + 1))
		return NULL;
	memset(&s->hists[s->n_hists], 0, sizeof(s->hists[0]));
	return &s->hists[s->n_hists++];
}

static int key_cmp(uint32_t pa, const char *ca, uint32_t pb, const char *cb)
{
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return strncmp(ca, cb, 16);
}

static int by_name_hist_key(const void *a, const void *b)
{
	const struct sched_name_hist *x = a, *y = b;
	int c = key_cmp(x->pid, x->comm, y->pid, y->comm);

	return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

static const struct sched_name_hist *find_name_hist(const struct sched_snapshot *s,
						 const struct sched_name_hist *key)
{
	int lo = 0, hi = s->n_hists - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = by_name_hist_key(&s->hists[mid], key);

		if (!c)
			return &s->hists[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* A thread's (pid, name), to find whether a histogram has one. */
struct name_key {
	uint32_t pid;
	const char *comm;
};

static int by_name(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;

	return key_cmp(x->pid, x->comm, y->pid, y->comm);
}

int sched_snapshot_prune_name_hists(struct sched_snapshot *s,
				    void (*gone)(void *ctx, const struct sched_name_hist *h), void *ctx)
{
	struct name_key *idx;
	int kept = 0, n_gone = 0;

	if (!s->n_hists)
		return 0;
	idx = malloc(sizeof(*idx) * (size_t)(s->n ? s->n : 1));
	if (!idx)
		return -ENOMEM;
	for (int i = 0; i < s->n; i++)
		idx[i] = (struct name_key){ s->t[i].pid, s->t[i].comm };
	qsort(idx, (size_t)s->n, sizeof(*idx), by_name);
	for (int r = 0; r < s->n_hists; r++) {
		struct name_key key = { s->hists[r].pid, s->hists[r].comm };

		if (bsearch(&key, idx, (size_t)s->n, sizeof(*idx), by_name)) {
			if (kept != r)
				s->hists[kept] = s->hists[r];
			kept++;
			continue;
		}
		gone(ctx, &s->hists[r]);
		n_gone++;
	}
	s->n_hists = kept;
	free(idx);
	return n_gone;
}

static int by_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct sched_thread_sample *)a)->tid;
	uint32_t y = ((const struct sched_thread_sample *)b)->tid;

	return x < y ? -1 : x > y;
}

/* Of two samples of one thread, the later one. */
static bool later(const struct sched_thread_sample *a, const struct sched_thread_sample *b)
{
	if (a->exited != b->exited)
		return a->exited;
	return a->oncpu_ns + a->vol + a->invol > b->oncpu_ns + b->vol + b->invol;
}

void sched_snapshot_sort(struct sched_snapshot *s)
{
	int kept = 0;

	if (s->n_hists > 1) {
		int k = 1;

		qsort(s->hists, (size_t)s->n_hists, sizeof(s->hists[0]), by_name_hist_key);
		/* a walk of a changing map can meet an entry twice: once each */
		for (int i = 1; i < s->n_hists; i++)
			if (by_name_hist_key(&s->hists[k - 1], &s->hists[i]) && k++ != i)
				s->hists[k - 1] = s->hists[i];
		s->n_hists = k;
	}
	if (s->n < 2)
		return;
	qsort(s->t, (size_t)s->n, sizeof(s->t[0]), by_tid);
	for (int i = 0; i < s->n; i++) {
		if (kept && s->t[kept - 1].tid == s->t[i].tid) {
			if (later(&s->t[i], &s->t[kept - 1]))
				s->t[kept - 1] = s->t[i];
			continue;
		}
		s->t[kept++] = s->t[i];
	}
	s->n = kept;
}

int sched_snapshot_index(const struct sched_snapshot *s, uint32_t tid)
{
	int lo = 0, hi = s->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (s->t[mid].tid == tid)
			return mid;
		if (s->t[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

const struct sched_thread_sample *sched_snapshot_find(const struct sched_snapshot *s, uint32_t tid)
{
	int i = sched_snapshot_index(s, tid);

	return i < 0 ? NULL : &s->t[i];
}

int sched_snapshot_threads(const struct sched_snapshot *s, struct class_map_input *in)
{
	for (int i = 0; i < s->n; i++) {
		const struct sched_thread_sample *t = &s->t[i];

		if (class_map_input_add(in, t->pid, t->tid, t->comm, t->pcomm))
			return -ENOMEM;
	}
	return 0;
}

void sched_class_finish(struct sched_class_stats *c, double dt_s)
{
	double ns = dt_s * 1e9;

	c->oncpu_pct = ns > 0 ? 100.0 * (double)c->oncpu_ns / ns : 0;
	c->vol_per_s = dt_s > 0 ? (double)c->vol / dt_s : 0;
	c->invol_per_s = dt_s > 0 ? (double)c->invol / dt_s : 0;
	c->migrations_per_s = dt_s > 0 ? (double)c->migrations / dt_s : 0;
	c->runnable_avg = ns > 0 ? (double)(c->oncpu_ns + c->runq_ns) / ns : 0;
	c->vdso_pct = NAN;   /* joined from the clock family by the caller */
	c->softirq_lost_pct = c->oncpu_ns ? 100.0 * (double)c->sirq_ns / (double)c->oncpu_ns : 0;
	c->net_softirq_lost_pct = c->oncpu_ns ? 100.0 * (double)c->net_sirq_ns / (double)c->oncpu_ns : 0;
	/* charge and on-CPU time are read microseconds apart */
	if (c->softirq_lost_pct > 100)
		c->softirq_lost_pct = 100;
	if (c->net_softirq_lost_pct > 100)
		c->net_softirq_lost_pct = 100;
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

/* *dst += src, *dst made on first need. */
static int runq_merge(__u64 **dst, const __u64 *src)
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

static void class_free(struct sched_class_stats *c)
{
	free(c->runq_hist);
	free(c->futex_hist);
	c->runq_hist = c->futex_hist = NULL;
}

static void group_free(struct sched_group_stats *p)
{
	class_free(&p->total);
	for (int k = 0; k < p->n_classes; k++)
		class_free(&p->classes[k]);
	free(p->classes);
	p->classes = NULL;
}

/* Adds b's raw sums into a. Returns 0 or -ENOMEM. */
static int class_add(struct sched_class_stats *a, const struct sched_class_stats *b)
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
	return runq_merge(&a->runq_hist, b->runq_hist) ?: runq_merge(&a->futex_hist, b->futex_hist);
}

static struct class_time_sample time_sample(const struct sched_snapshot *s,
					    const struct sched_thread_sample *t)
{
	return (struct class_time_sample){ s->mono_ns, t->oncpu_ns, t->runq_ns, t->sirq_ns, &t->blk,
					   t->utime_ns, t->stime_ns };
}

static void thread_add(struct sched_class_stats *c, const struct sched_snapshot *prev,
		       const struct sched_thread_sample *a, const struct sched_snapshot *cur,
		       const struct sched_thread_sample *b, const struct dbt_sched_ival *iv)
{
	static const struct sched_thread_sample zero;
	struct class_time_sample ta, tb = time_sample(cur, b);

	if (a)
		ta = time_sample(prev, a);
	class_time_thread(&c->time, a ? &ta : NULL, &tb, prev->mono_ns);

	if (!a)
		a = &zero;   /* first seen in this interval: its counters started at 0 */
	c->oncpu_ns += counter_delta(a->oncpu_ns, b->oncpu_ns);
	c->runq_ns += counter_delta(a->runq_ns, b->runq_ns);
	c->vol += counter_delta(a->vol, b->vol);
	c->invol += counter_delta(a->invol, b->invol);
	c->migrations += counter_delta(a->migrations, b->migrations);
	c->sirq_ns += counter_delta(a->sirq_ns, b->sirq_ns);
	c->net_sirq_ns += counter_delta(a->net_sirq_ns, b->net_sirq_ns);
	c->threads++;
	if (!iv)
		return;
	if (iv->runq_max_ns > c->runq_max_ns)
		c->runq_max_ns = iv->runq_max_ns;
	for (int w = 0; w < DBT_SCHED_CPU_WORDS; w++)
		c->cpus[w] |= iv->cpus[w];
	c->cpus_beyond |= iv->cpus_beyond != 0;
}

static bool active(const struct sched_class_stats *c)
{
	return c->oncpu_ns || c->vol || c->invol;
}

static bool wanted(const struct sched_filter *f, const struct class_map *map, size_t g,
		   const char *comm)
{
	bool ok = true;

	if (!f)
		return true;
	if (f->n_pids || f->by_pids) {
		ok = false;
		for (int i = 0; i < f->n_pids && !ok; i++)
			ok = class_map_group_has(map, g, (uint32_t)f->pids[i]);
	}
	if (ok && f->comm && *f->comm)
		ok = !strcmp(f->comm, comm);
	return ok;
}

static int by_oncpu_desc(const void *a, const void *b)
{
	const struct sched_class_stats *x = a, *y = b;

	if (x->oncpu_ns != y->oncpu_ns)
		return x->oncpu_ns > y->oncpu_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int group_by_oncpu_desc(const void *a, const void *b)
{
	const struct sched_group_stats *x = a, *y = b;

	if (x->total.oncpu_ns != y->total.oncpu_ns)
		return x->total.oncpu_ns > y->total.oncpu_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* A thread's (pid, name) and its class, to find where a run-queue
 * histogram goes. */
struct named_class {
	uint32_t pid;
	const char *comm;
	uint32_t cls;
};

static int by_name_key(const void *a, const void *b)
{
	const struct named_class *x = a, *y = b;

	return key_cmp(x->pid, x->comm, y->pid, y->comm);
}

/* Each run-queue (and futex wait) histogram's change since prev, into
 * the class of a thread of cur with its process and name. */
static int fold_name_hists(const struct sched_snapshot *prev, const struct sched_snapshot *cur,
		     const struct class_map *map, struct sched_class_stats *acc)
{
	struct named_class *idx;
	int n = 0;

	if (!cur->n_hists)
		return 0;
	idx = malloc(sizeof(*idx) * (size_t)cur->n);
	if (!idx)
		return -ENOMEM;
	for (int i = 0; i < cur->n; i++) {
		const struct class_map_member *m = class_map_find(map, cur->t[i].pid, cur->t[i].tid);

		if (m)
			idx[n++] = (struct named_class){ cur->t[i].pid, cur->t[i].comm, m->cls };
	}
	qsort(idx, (size_t)n, sizeof(*idx), by_name_key);
	for (int r = 0; r < cur->n_hists; r++) {
		const struct sched_name_hist *b = &cur->hists[r];
		const struct sched_name_hist *a = find_name_hist(prev, b);
		struct named_class key = { b->pid, b->comm, 0 }, *hit;
		__u64 **dst;

		hit = bsearch(&key, idx, (size_t)n, sizeof(*idx), by_name_key);
		if (!hit)
			continue;
		if (a && a->born_ns != b->born_ns)
			a = NULL;   /* evicted and made anew: counts from zero */
		dst = b->kind == DBT_SCHED_HIST_FUTEX ? &acc[hit->cls].futex_hist : &acc[hit->cls].runq_hist;
		if (!*dst && !(*dst = calloc(DBT_HIST_BUCKETS, sizeof(__u64)))) {
			free(idx);
			return -ENOMEM;
		}
		for (int i = 0; i < DBT_HIST_BUCKETS; i++)
			/* u32 counters wrap: the difference modulo 2^32 */
			(*dst)[i] += (__u32)(b->buckets[i] - (a ? a->buckets[i] : 0));
	}
	free(idx);
	return 0;
}

/* One process from its group's class sums acc (indexed by map class),
 * whose histograms its classes take over. */
static int build_group(const struct class_map *map, size_t group, struct sched_class_stats *acc,
		      double dt_s, struct sched_group_stats *p)
{
	const struct class_map_group *g = &map->groups[group];
	int k = 0, err = 0;

	memset(p, 0, sizeof(*p));
	p->classes = malloc(sizeof(*p->classes) * (g->n_classes ? g->n_classes : 1));
	if (!p->classes)
		return -ENOMEM;
	p->pid = (int)g->pid;
	p->n_procs = (int)g->n_pids;
	p->map_group = (int)group;
	snprintf(p->comm, sizeof(p->comm), "%s", g->comm);
	/* keep only the classes that did something */
	for (size_t c = g->first_class; c < g->first_class + g->n_classes; c++) {
		struct sched_class_stats *row = &p->classes[k];

		if (!active(&acc[c]))
			continue;
		*row = acc[c];
		acc[c].runq_hist = acc[c].futex_hist = NULL;
		snprintf(row->name, sizeof(row->name), "%s", map->classes[c].name);
		row->map_class = (int)c;
		k++;
		err = err ? err : class_add(&p->total, row);
		p->total.threads += row->threads;
		sched_class_finish(row, dt_s);
	}
	p->n_classes = k;
	if (err) {
		group_free(p);
		return err;
	}
	qsort(p->classes, (size_t)k, sizeof(*p->classes), by_oncpu_desc);
	snprintf(p->total.name, sizeof(p->total.name), "%s", p->comm);
	p->total.map_class = -1;
	sched_class_finish(&p->total, dt_s);
	return 0;
}

void sched_interval_free(struct sched_interval *iv)
{
	for (int i = 0; i < iv->n_groups; i++)
		group_free(&iv->groups[i]);
	free(iv->groups);
	memset(iv, 0, sizeof(*iv));
}

int sched_interval_compute(const struct sched_snapshot *prev, const struct sched_snapshot *cur,
			   const struct class_map *map, const struct sched_filter *filter,
			   struct sched_interval *out)
{
	struct sched_class_stats *acc = NULL;   /* per class of the map */
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->dt_s = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	if (!cur->n || !map->n_groups)
		return 0;
	acc = calloc(map->n_classes ? map->n_classes : 1, sizeof(*acc));
	out->groups = calloc(map->n_groups, sizeof(*out->groups));
	if (!acc || !out->groups) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < cur->n; i++) {
		const struct sched_thread_sample *b = &cur->t[i];
		const struct class_map_member *m = class_map_find(map, b->pid, b->tid);

		if (m)
			thread_add(&acc[m->cls], prev, sched_snapshot_find(prev, b->tid), cur, b,
				   cur->ival ? &cur->ival[i] : NULL);
	}
	err = fold_name_hists(prev, cur, map, acc);
	if (err)
		goto out;
	for (size_t g = 0; g < map->n_groups; g++) {
		struct sched_group_stats *p = &out->groups[out->n_groups];

		err = build_group(map, g, acc, out->dt_s, p);
		if (err)
			goto out;
		if (p->n_classes && wanted(filter, map, g, p->comm))
			out->n_groups++;
		else
			group_free(p);
	}
	qsort(out->groups, (size_t)out->n_groups, sizeof(*out->groups), group_by_oncpu_desc);
out:
	for (size_t c = 0; acc && c < map->n_classes; c++)
		class_free(&acc[c]);
	free(acc);
	if (err)
		sched_interval_free(out);
	return err;
}

int sched_interval_copy(struct sched_interval *dst, const struct sched_interval *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->dt_s = src->dt_s;
	dst->groups = calloc(src->n_groups ? (size_t)src->n_groups : 1, sizeof(*dst->groups));
	if (!dst->groups)
		return -ENOMEM;
	for (int i = 0; i < src->n_groups; i++) {
		struct sched_group_stats *p = &dst->groups[i];

		int err = 0;

		*p = src->groups[i];
		p->total.runq_hist = p->total.futex_hist = NULL;
		p->classes = malloc(sizeof(*p->classes) * (size_t)(p->n_classes ? p->n_classes : 1));
		p->classes_cap = 0;   /* sized once */
		if (!p->classes) {
			sched_interval_free(dst);
			return -ENOMEM;
		}
		memcpy(p->classes, src->groups[i].classes, sizeof(*p->classes) * (size_t)p->n_classes);
		for (int k = 0; k < p->n_classes; k++)
			p->classes[k].runq_hist = p->classes[k].futex_hist = NULL;
		dst->n_groups++;
		err = runq_merge(&p->total.runq_hist, src->groups[i].total.runq_hist) ?:
		      runq_merge(&p->total.futex_hist, src->groups[i].total.futex_hist);
		for (int k = 0; k < p->n_classes && !err; k++)
			err = runq_merge(&p->classes[k].runq_hist, src->groups[i].classes[k].runq_hist) ?:
			      runq_merge(&p->classes[k].futex_hist, src->groups[i].classes[k].futex_hist);
		if (err) {
			sched_interval_free(dst);
			return err;
		}
	}
	return 0;
}

static struct sched_class_stats *summary_class(struct sched_group_stats *p, const char *name)
{
	struct sched_class_stats *c;

	for (int i = 0; i < p->n_classes; i++)
		if (!strcmp(p->classes[i].name, name))
			return &p->classes[i];
	if (VEC_RESERVE(p->classes, p->classes_cap, (size_t)p->n_classes + 1))
		return NULL;
	c = &p->classes[p->n_classes++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->map_class = -1;   /* each interval had its own map */
	return c;
}

static struct sched_group_stats *summary_group(struct sched_summary *s, const struct sched_group_stats *src)
{
	struct sched_group_stats *p;

	for (int i = 0; i < s->n_groups; i++)
		if (s->groups[i].pid == src->pid)
			return &s->groups[i];
	if (VEC_RESERVE(s->groups, s->cap, (size_t)s->n_groups + 1))
		return NULL;
	p = &s->groups[s->n_groups++];
	memset(p, 0, sizeof(*p));
	p->pid = src->pid;
	p->map_group = -1;
	p->total.map_class = -1;
	return p;
}

int sched_summary_add(struct sched_summary *s, const struct sched_interval *iv)
{
	s->seconds += iv->dt_s;
	for (int i = 0; i < iv->n_groups; i++) {
		const struct sched_group_stats *src = &iv->groups[i];
		struct sched_group_stats *p = summary_group(s, src);

		if (!p)
			return -ENOMEM;
		snprintf(p->comm, sizeof(p->comm), "%s", src->comm);
		if (class_add(&p->total, &src->total))
			return -ENOMEM;
		if (src->total.threads > p->total.threads)
			p->total.threads = src->total.threads;
		if (src->n_procs > p->n_procs)
			p->n_procs = src->n_procs;
		if (src->total.allowed_cpus) {
			p->total.allowed_cpus = src->total.allowed_cpus;
			snprintf(p->cpus_allowed, sizeof(p->cpus_allowed), "%s", src->cpus_allowed);
		}
		for (int k = 0; k < src->n_classes; k++) {
			struct sched_class_stats *c = summary_class(p, src->classes[k].name);

			if (!c || class_add(c, &src->classes[k]))
				return -ENOMEM;
			/* a pool's size is the most threads it had at once */
			if (src->classes[k].threads > c->threads)
				c->threads = src->classes[k].threads;
		}
	}
	return 0;
}

void sched_summary_finish(struct sched_summary *s)
{
	for (int i = 0; i < s->n_groups; i++) {
		struct sched_group_stats *p = &s->groups[i];

		snprintf(p->total.name, sizeof(p->total.name), "%s", p->comm);
		sched_class_finish(&p->total, s->seconds);
		for (int k = 0; k < p->n_classes; k++)
			sched_class_finish(&p->classes[k], s->seconds);
		qsort(p->classes, (size_t)p->n_classes, sizeof(*p->classes), by_oncpu_desc);
	}
	qsort(s->groups, (size_t)s->n_groups, sizeof(*s->groups), group_by_oncpu_desc);
}

void sched_summary_free(struct sched_summary *s)
{
	for (int i = 0; i < s->n_groups; i++)
		group_free(&s->groups[i]);
	free(s->groups);
	memset(s, 0, sizeof(*s));
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
