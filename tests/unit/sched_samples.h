/* The sched family's input made by hand, as the collector would have
 * read it: a thread's sample, a name histogram, and the interval over a
 * class map of the current snapshot's threads (as the tick builds it).
 * The one builder of sched samples the unit tests share. Test code,
 * header only; include after cmocka.h. */
#ifndef DBTRACE_TESTS_SCHED_SAMPLES_H
#define DBTRACE_TESTS_SCHED_SAMPLES_H

#include <stdio.h>
#include "model/sched_interval.h"

/* A thread of process pid (whose comm the thread records as pcomm). */
static inline struct sched_thread_sample *sched_sample(struct sched_snapshot *s, uint32_t pid, uint32_t tid,
						       const char *comm, const char *pcomm, uint64_t oncpu_ns,
						       uint64_t vol, uint64_t invol)
{
	struct sched_thread_sample *t = sched_snapshot_add(s);

	assert_non_null(t);
	t->tid = tid;
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	snprintf(t->pcomm, sizeof(t->pcomm), "%s", pcomm);
	t->oncpu_ns = oncpu_ns;
	t->vol = vol;
	t->invol = invol;
	return t;
}

/* count samples in one fine bucket of (pid, comm)'s histogram of kind. */
static inline void sched_sample_hist(struct sched_snapshot *s, uint32_t kind, uint32_t pid, const char *comm,
				     uint64_t born, uint32_t bucket, uint32_t count)
{
	struct sched_name_hist *h = sched_snapshot_add_name_hist(s);

	assert_non_null(h);
	h->kind = kind;
	h->pid = pid;
	snprintf(h->comm, sizeof(h->comm), "%s", comm);
	h->born_ns = born;
	h->buckets[bucket] = count;
}

/* The interval from a to b over map, built of b's threads. */
static inline int sched_sample_interval_map(const struct sched_snapshot *a, const struct sched_snapshot *b,
					    const struct tclass_classifier *c, const struct sched_filter *f,
					    struct class_map *map, struct sched_interval *iv)
{
	struct class_map_input in = { 0 };

	assert_int_equal(sched_snapshot_threads(b, &in), 0);
	assert_int_equal(class_map_build(map, &in, c), 0);
	class_map_input_free(&in);
	return sched_interval_compute(a, b, map, f, iv);
}

/* The same, the map freed. */
static inline int sched_sample_interval(const struct sched_snapshot *a, const struct sched_snapshot *b,
					const struct tclass_classifier *c, const struct sched_filter *f,
					struct sched_interval *iv)
{
	struct class_map map;
	int err = sched_sample_interval_map(a, b, c, f, &map, iv);

	class_map_free(&map);
	return err;
}

/* The class of pid named name in iv, or NULL. */
static inline const struct sched_class_stats *sched_sample_class(const struct sched_interval *iv, int pid,
								 const char *name)
{
	for (int i = 0; i < iv->n_groups; i++)
		for (int k = 0; iv->groups[i].pid == pid && k < iv->groups[i].n_classes; k++)
			if (!strcmp(iv->groups[i].classes[k].name, name))
				return &iv->groups[i].classes[k];
	return NULL;
}

#endif
