#include "model/clock_model.h"
#include "core/vec.h"
#include "model/hist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The functions a clock hotspot is about get a slot whatever their
 * address; the first one also names the slot people look for first. */
static const char *const clock_fns[] = {
	"clock_gettime", "gettimeofday", "time", "clock_getres", "getcpu",
};

static void set_slot(struct clock_fn_table *t, int slot, const struct vdso_func *f)
{
	snprintf(t->name[slot], sizeof(t->name[slot]), "%s", f->name);
	t->range[slot].start = f->start;
	t->range[slot].end = f->end;
}

void clock_fn_table_build(const struct vdso_syms *syms, uint64_t text_len,
			  struct clock_fn_table *t)
{
	bool used[VDSO_MAX_FUNCS] = { false };
	int slot = 1;

	memset(t, 0, sizeof(*t));
	t->text_len = text_len;
	for (size_t k = 0; k < sizeof(clock_fns) / sizeof(clock_fns[0]); k++)
		for (int i = 0; i < syms->n && slot < DBT_CLOCK_FN_SLOTS; i++)
			if (!used[i] && !strcmp(syms->f[i].name, clock_fns[k])) {
				set_slot(t, slot++, &syms->f[i]);
				used[i] = true;
			}
	for (int i = 0; i < syms->n && slot < DBT_CLOCK_FN_SLOTS; i++)
		if (!used[i])
			set_slot(t, slot++, &syms->f[i]);
}

const char *clock_fn_name(const struct clock_fn_table *t, int slot)
{
	if (!t || slot <= 0 || slot >= DBT_CLOCK_FN_SLOTS || !t->name[slot][0])
		return "other";
	return t->name[slot];
}

int clock_fn_slot(struct clock_fn_table *t, const char *name)
{
	if (!name || !strcmp(name, "other"))
		return 0;
	for (int i = 1; i < DBT_CLOCK_FN_SLOTS; i++) {
		if (!strcmp(t->name[i], name))
			return i;
		if (!t->name[i][0]) {
			snprintf(t->name[i], sizeof(t->name[i]), "%s", name);
			return i;
		}
	}
	return 0;
}

const char *clock_sys_name(int k)
{
	static const char *const names[DBT_CLOCK_SYS_N] = {
		[DBT_CLOCK_SYS_CLOCK_GETTIME] = "clock_gettime",
		[DBT_CLOCK_SYS_GETTIMEOFDAY] = "gettimeofday",
		[DBT_CLOCK_SYS_TIME] = "time",
		[DBT_CLOCK_SYS_CLOCK_NANOSLEEP] = "clock_nanosleep",
	};

	return k >= 0 && k < DBT_CLOCK_SYS_N ? names[k] : "?";
}

void clock_snapshot_init(struct clock_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void clock_snapshot_free(struct clock_snapshot *s)
{
	free(s->t);
	memset(s, 0, sizeof(*s));
}

struct clock_thread_sample *clock_snapshot_add(struct clock_snapshot *s)
{
	if (VEC_RESERVE(s->t, s->cap, (size_t)s->n + 1))
		return NULL;
	memset(&s->t[s->n], 0, sizeof(s->t[0]));
	return &s->t[s->n++];
}

static int by_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct clock_thread_sample *)a)->tid;
	uint32_t y = ((const struct clock_thread_sample *)b)->tid;

	return x < y ? -1 : x > y;
}

void clock_snapshot_sort(struct clock_snapshot *s)
{
	if (s->n > 1)
		qsort(s->t, (size_t)s->n, sizeof(s->t[0]), by_tid);
}

const struct clock_thread_sample *clock_snapshot_find(const struct clock_snapshot *s, uint32_t tid)
{
	struct clock_thread_sample key = { .tid = tid };

	if (!s->n)
		return NULL;
	return bsearch(&key, s->t, (size_t)s->n, sizeof(s->t[0]), by_tid);
}

int clock_snapshot_copy(struct clock_snapshot *dst, const struct clock_snapshot *src)
{
	if (VEC_RESERVE(dst->t, dst->cap, src->n))
		return -ENOMEM;
	if (src->n)
		memcpy(dst->t, src->t, sizeof(src->t[0]) * (size_t)src->n);
	dst->n = src->n;
	dst->mono_ns = src->mono_ns;
	dst->stats = src->stats;
	dst->syscall_method = src->syscall_method;
	return 0;
}

static uint64_t evicted(const struct clock_snapshot *s)
{
	return s->stats.inserts > (uint64_t)s->n ? s->stats.inserts - (uint64_t)s->n : 0;
}

void clock_stats_finish(struct clock_stats *s, double dt_s)
{
	uint64_t best = 0;

	s->vdso_pct = s->samples ? 100.0 * (double)s->vdso_samples / (double)s->samples : NAN;
	s->sys_pct = s->samples ? 100.0 * (double)s->sys_samples / (double)s->samples : NAN;
	s->top_fn = -1;
	/* a named function wins a tie against "other" (slot 0) */
	for (int i = DBT_CLOCK_FN_SLOTS - 1; i >= 0; i--)
		if (s->vdso[i] > best) {
			best = s->vdso[i];
			s->top_fn = i;
		}
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		s->per_s[k] = dt_s > 0 ? (double)s->syscalls[k] / dt_s : 0;
	s->reads_per_s = s->per_s[DBT_CLOCK_SYS_CLOCK_GETTIME] + s->per_s[DBT_CLOCK_SYS_GETTIMEOFDAY] +
			 s->per_s[DBT_CLOCK_SYS_TIME];
}

/* d = b - a, counter by counter (a may be NULL: started at 0). */
static void thread_delta(const struct dbt_clock_thread *a, const struct dbt_clock_thread *b,
			 struct clock_stats *d)
{
	static const struct dbt_clock_thread zero;

	if (!a || a->pid != b->pid)
		a = &zero;   /* new, or its tid now belongs to another process */
	memset(d, 0, sizeof(*d));
	d->samples = counter_delta(a->samples, b->samples);
	d->user_samples = counter_delta(a->user_samples, b->user_samples);
	d->sys_samples = counter_delta(a->sys_samples, b->sys_samples);
	for (int i = 0; i < DBT_CLOCK_FN_SLOTS; i++) {
		d->vdso[i] = counter_delta(a->vdso[i], b->vdso[i]);
		d->vdso_samples += d->vdso[i];
	}
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		d->syscalls[k] = counter_delta(a->syscalls[k], b->syscalls[k]);
	d->threads = 1;
}

static bool active(const struct clock_stats *d)
{
	if (d->samples)
		return true;
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		if (d->syscalls[k])
			return true;
	return false;
}

static void stats_add(struct clock_stats *a, const struct clock_stats *b)
{
	a->threads += b->threads;
	a->samples += b->samples;
	a->user_samples += b->user_samples;
	a->vdso_samples += b->vdso_samples;
	a->sys_samples += b->sys_samples;
	for (int i = 0; i < DBT_CLOCK_FN_SLOTS; i++)
		a->vdso[i] += b->vdso[i];
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		a->syscalls[k] += b->syscalls[k];
}

/* Clock time first (what the findings are about), then CPU, then name. */
static int cmp_stats(const struct clock_stats *x, const struct clock_stats *y)
{
	uint64_t cx = x->vdso_samples + x->sys_samples, cy = y->vdso_samples + y->sys_samples;

	if (cx != cy)
		return cx > cy ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int class_cmp(const void *a, const void *b)
{
	return cmp_stats(a, b);
}

static int group_cmp(const void *a, const void *b)
{
	const struct clock_group_stats *x = a, *y = b;
	int r = cmp_stats(&x->total, &y->total);

	if (r)
		return r;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void clock_interval_free(struct clock_interval *iv)
{
	for (int i = 0; i < iv->n_groups; i++)
		free(iv->groups[i].classes);
	free(iv->groups);
	memset(iv, 0, sizeof(*iv));
}

/* Whether the filter takes group g (a -p pid or --cgroup member in it). */
static bool wanted(const struct sched_filter *f, const struct class_map *map, size_t g)
{
	if (!f || (f->n_pids <= 0 && !f->by_pids))
		return true;
	for (int i = 0; i < f->n_pids; i++)
		if (class_map_group_has(map, g, (uint32_t)f->pids[i]))
			return true;
	return false;
}

int clock_window_threads(const struct clock_snapshot *prev, const struct clock_snapshot *cur,
			 struct class_map_input *in)
{
	for (int i = 0; i < cur->n; i++) {
		const struct clock_thread_sample *b = &cur->t[i];
		const struct clock_thread_sample *a = clock_snapshot_find(prev, b->tid);
		struct clock_stats d;

		thread_delta(a ? &a->c : NULL, &b->c, &d);
		if (active(&d) && class_map_input_add(in, b->c.pid, b->tid, b->c.comm, NULL))
			return -ENOMEM;
	}
	return 0;
}

/* A group's name as the window shows it: its leader's comm if the leader
 * was active, else its lowest active tid's (threads come by tid). */
struct group_seen {
	int threads;
	char comm[TCLASS_COMM_LEN];
};

static void group_see(struct group_seen *g, const struct clock_thread_sample *t)
{
	if (!g->threads++ || t->tid == t->c.pid)
		snprintf(g->comm, sizeof(g->comm), "%s", t->c.comm);
}

/* One process from its group's class sums acc (indexed by map class). */
static int build_group(const struct class_map *map, size_t group, const struct clock_stats *acc,
		      const char *comm, double dt_s, struct clock_group_stats *p)
{
	const struct class_map_group *g = &map->groups[group];

	memset(p, 0, sizeof(*p));
	p->pid = (int)g->pid;
	p->map_group = (int)group;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	snprintf(p->total.name, sizeof(p->total.name), "%s", comm);
	p->total.map_class = -1;
	p->classes = malloc(sizeof(*p->classes) * (g->n_classes ? g->n_classes : 1));
	if (!p->classes)
		return -ENOMEM;
	/* the classes with a thread active in the window */
	for (size_t c = g->first_class; c < g->first_class + g->n_classes; c++) {
		struct clock_stats *row = &p->classes[p->n_classes];

		if (!acc[c].threads)
			continue;
		*row = acc[c];
		snprintf(row->name, sizeof(row->name), "%s", map->classes[c].name);
		row->map_class = (int)c;
		stats_add(&p->total, row);
		clock_stats_finish(row, dt_s);
		p->n_classes++;
	}
	clock_stats_finish(&p->total, dt_s);
	qsort(p->classes, (size_t)p->n_classes, sizeof(*p->classes), class_cmp);
	return 0;
}

bool clock_syscalls_counted(const char *method)
{
	return !method || strcmp(method, "sampled");
}

/* Sampled: nothing counted the calls, so their rates are unknown, not 0
 * (the sampled share, sys_pct, is the measurement then). */
static void uncount_stats(struct clock_stats *s)
{
	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		s->per_s[k] = NAN;
	s->reads_per_s = NAN;
}

static void uncount_group(struct clock_group_stats *p)
{
	uncount_stats(&p->total);
	for (int c = 0; c < p->n_classes; c++)
		uncount_stats(&p->classes[c]);
}

int clock_interval_compute(const struct clock_snapshot *prev, const struct clock_snapshot *cur,
			   const struct class_map *map, const struct sched_filter *filter,
			   struct clock_interval *out)
{
	struct clock_stats *acc = NULL;        /* per class of the map */
	struct group_seen *seen = NULL;        /* per group of the map */
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->dt_s = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	out->samples = counter_delta(prev->stats.samples, cur->stats.samples);
	out->idle_samples = counter_delta(prev->stats.idle_samples, cur->stats.idle_samples);
	out->kthread_samples = counter_delta(prev->stats.kthread_samples, cur->stats.kthread_samples);
	out->update_failed = counter_delta(prev->stats.update_failed, cur->stats.update_failed);
	/* entries are never deleted: every one made is live or was evicted */
	out->evictions = counter_delta(evicted(prev), evicted(cur));
	out->syscall_method = cur->syscall_method;
	if (!cur->n || !map->n_groups)
		return 0;
	acc = calloc(map->n_classes ? map->n_classes : 1, sizeof(*acc));
	seen = calloc(map->n_groups, sizeof(*seen));
	out->groups = calloc(map->n_groups, sizeof(*out->groups));
	if (!acc || !seen || !out->groups) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < cur->n; i++) {
		const struct clock_thread_sample *b = &cur->t[i];
		const struct clock_thread_sample *a = clock_snapshot_find(prev, b->tid);
		const struct class_map_member *m;
		struct clock_stats d;

		thread_delta(a ? &a->c : NULL, &b->c, &d);
		if (!active(&d))
			continue;
		m = class_map_find(map, b->c.pid, b->tid);
		if (!m || !wanted(filter, map, m->group))
			continue;
		stats_add(&acc[m->cls], &d);
		group_see(&seen[m->group], b);
	}
	for (size_t g = 0; g < map->n_groups; g++) {
		struct clock_group_stats *p = &out->groups[out->n_groups];

		if (!seen[g].threads)
			continue;
		err = build_group(map, g, acc, seen[g].comm, out->dt_s, p);
		if (err)
			goto out;
		/* the process comm is known only once its threads are grouped */
		if (filter && filter->comm && *filter->comm && strcmp(filter->comm, p->comm)) {
			free(p->classes);
			continue;
		}
		out->n_groups++;
	}
	qsort(out->groups, (size_t)out->n_groups, sizeof(*out->groups), group_cmp);
	if (!clock_syscalls_counted(out->syscall_method))
		for (int i = 0; i < out->n_groups; i++)
			uncount_group(&out->groups[i]);
out:
	free(acc);
	free(seen);
	if (err)
		clock_interval_free(out);
	return err;
}
