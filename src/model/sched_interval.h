/* The sched family over one interval: two snapshots in, each group of
 * processes with its thread classes out (per-thread deltas summed into
 * the tick's class map), busiest first. Pure. */
#ifndef DBTRACE_MODEL_SCHED_INTERVAL_H
#define DBTRACE_MODEL_SCHED_INTERVAL_H

#include <stdbool.h>
#include "model/class_map.h"
#include "model/sched_snapshot.h"
#include "model/sched_stats.h"

struct sched_interval {
	double dt_s;
	struct sched_group_stats *groups;  /* sorted by on-CPU time, highest first */
	int n_groups;
};

/* Which groups to report: those holding one of pids (all when n_pids == 0
 * and !by_pids: --cgroup may select none) and led by a process of comm. */
struct sched_filter {
	const int *pids;
	int n_pids;
	const char *comm;              /* process comm, exact */
	bool by_pids;
};

/* Computes the interval between two snapshots: per-thread deltas summed
 * into the groups and classes of map, which holds cur's threads (a thread
 * it does not hold is left out). A name histogram goes to the class of a
 * thread of cur with its pid and name; with none (all its threads gone)
 * its waits still count in runq_ns but not in the percentiles. Classes
 * with no activity in the interval are left out, and so are groups with
 * none. */
int sched_interval_compute(const struct sched_snapshot *prev, const struct sched_snapshot *cur,
			   const struct class_map *map, const struct sched_filter *filter,
			   struct sched_interval *out);
void sched_interval_free(struct sched_interval *iv);
/* Deep copy (dst is overwritten, not freed first). */
int sched_interval_copy(struct sched_interval *dst, const struct sched_interval *src);

#endif
