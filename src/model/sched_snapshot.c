#include "model/sched_snapshot.h"
#include "core/vec.h"

#include <errno.h>
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

int sched_name_cmp(uint32_t pa, const char *ca, uint32_t pb, const char *cb)
{
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return strncmp(ca, cb, 16);
}

static int by_name_hist_key(const void *a, const void *b)
{
	const struct sched_name_hist *x = a, *y = b;
	int c = sched_name_cmp(x->pid, x->comm, y->pid, y->comm);

	return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

const struct sched_name_hist *sched_snapshot_find_name_hist(const struct sched_snapshot *s,
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

	return sched_name_cmp(x->pid, x->comm, y->pid, y->comm);
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
