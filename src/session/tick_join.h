/* The tick's one join step: what one family's rows take from another
 * source, set in one place at the end of the tick, after which the
 * interval is complete (session/interval.h): the clock family's vDSO
 * share beside each sched class and group of the same map index, and
 * the CPUs each group and class may use. The latter is I/O (/proc) the
 * session does through tick_cpus, with its cache, so the tick itself
 * stays pure. (The loss family's numbers join the net rows in the net
 * step of the tick, tick_net_run(), which the whole run shares.) */
#ifndef DBTRACE_SESSION_TICK_JOIN_H
#define DBTRACE_SESSION_TICK_JOIN_H

#include <stdbool.h>
#include "model/class_map.h"
#include "model/clock_model.h"
#include "model/sched_interval.h"
#include "sysinfo/cpuset.h"

/* The groups that get their allowed CPUs, busiest first: as many as a
 * capture lists (CAPTURE_MAX_PROCS), and as the judge's rules look at. */
#define TICK_CPUS_GROUPS 64

/* Where the join reads the CPUs a group and a class may run on. */
struct tick_cpus {
	void *ctx;
	/* The group led by pid (read afresh or kept since a recent
	 * interval before index): its CPUs, and in *n_differ how many of its
	 * threads have a set of their own. 0 or a negative errno. */
	int (*group)(void *ctx, int pid, int index, struct dbt_cpuset *cpus, unsigned int *n_differ);
	/* Whether a class of a group whose threads do not all share one set
	 * is worth reading its own threads for (they are many: only for a
	 * class a rule could name). */
	bool (*wants_class)(void *ctx, const struct sched_class_stats *c);
	/* Class cls of map: its own threads' CPUs; > 0 (threads read) or a
	 * negative errno. */
	int (*cls)(void *ctx, const struct class_map *map, int cls, struct dbt_cpuset *cpus);
};

/* Sets each sched class's and group total's vdso_pct from the clock row
 * of the same map index (NAN where the clock family has none), and,
 * with cpus (NULL: unknown, left 0 and ""), the first TICK_CPUS_GROUPS
 * groups' cpus_allowed and allowed_cpus and their classes'. si and ci
 * (NULL: the clock family is off) were computed over map. Returns 0 or
 * -ENOMEM. */
int tick_join(struct sched_interval *si, const struct clock_interval *ci, const struct class_map *map,
	      const struct tick_cpus *cpus, int index);

#endif
