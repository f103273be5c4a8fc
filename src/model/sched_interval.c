#include "model/sched_interval.h"
#include "model/hist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	return sched_name_cmp(x->pid, x->comm, y->pid, y->comm);
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
		const struct sched_name_hist *a = sched_snapshot_find_name_hist(prev, b);
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
		err = err ? err : sched_class_add(&p->total, row);
		p->total.threads += row->threads;
		sched_class_finish(row, dt_s);
	}
	p->n_classes = k;
	if (err) {
		sched_group_free(p);
		return err;
	}
	qsort(p->classes, (size_t)k, sizeof(*p->classes), sched_class_by_oncpu);
	snprintf(p->total.name, sizeof(p->total.name), "%s", p->comm);
	p->total.map_class = -1;
	sched_class_finish(&p->total, dt_s);
	return 0;
}

void sched_interval_free(struct sched_interval *iv)
{
	for (int i = 0; i < iv->n_groups; i++)
		sched_group_free(&iv->groups[i]);
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
			sched_group_free(p);
	}
	qsort(out->groups, (size_t)out->n_groups, sizeof(*out->groups), sched_group_by_oncpu);
out:
	for (size_t c = 0; acc && c < map->n_classes; c++)
		sched_class_free(&acc[c]);
	free(acc);
	if (err)
		sched_interval_free(out);
	return err;
}
