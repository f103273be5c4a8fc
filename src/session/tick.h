/* One tick's model: two world snapshots in, the interval of every family
 * out (session/interval.h): the CPU rows, the tick's one thread -> class
 * map, each family's part over it, and last the join step
 * (session/tick_join.h), after which nothing writes into the interval.
 * Pure but for the join's CPU reads, which come through tick_cpus;
 * tests/unit/test_tick.c feeds it snapshots made by hand. */
#ifndef DBTRACE_SESSION_TICK_H
#define DBTRACE_SESSION_TICK_H

#include <stdbool.h>
#include <stdint.h>
#include "model/class_map.h"
#include "model/clock_model.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/sched_interval.h"
#include "model/thread_class.h"
#include "model/world_snapshot.h"
#include "session/interval.h"
#include "session/tick_join.h"

/* What the user asked to see: -p/--comm/--cgroup, --class, --port, --group-by. */
struct tick_filters {
	const struct tclass_classifier *classifier;
	const struct sched_filter *sched;
	const struct net_filter *net;
	/* the processes' groups and titles (session/proc_groups.h), by pid;
	 * none: each process a group of its own, named by its comms */
	const struct class_map_proc *procs;
	size_t n_procs;
};

/* What the session gives a tick besides the two snapshots. */
struct tick_args {
	const struct tick_filters *filters;
	const struct tick_cpus *cpus;  /* the join's CPU reads; NULL: none (unknown) */
	int index;                     /* the interval's 0-based number */
	uint64_t start_ns;             /* CLOCK_MONOTONIC of the run's first snapshot: t = 0 */
	struct cpu_row *rows;          /* room for cur's ncpus rows, lent to the interval */
	const struct clock_fn_table *clock_fns;
	unsigned int clock_hz;
	uint64_t lost_events;          /* so far, all families */
};

/* Computes iv from prev and cur (a family off in cur is left out).
 * Returns 0, or a negative errno with iv empty. */
int tick_compute(const struct world_snapshot *prev, const struct world_snapshot *cur,
		 const struct tick_args *a, struct interval *iv);

/* The net and loss families over a whole run, first to last snapshot,
 * joined as in a tick (either snapshot pair may be NULL: family off).
 * Sets *have_net / *have_loss. Returns 0 or -ENOMEM. */
int tick_net_run(const struct net_snapshot *net_first, const struct net_snapshot *net_last,
		 const struct loss_snapshot *loss_first, const struct loss_snapshot *loss_last,
		 const struct net_filter *filter, struct net_interval *net, bool *have_net,
		 struct loss_interval *loss, bool *have_loss);

/* The clock family over a whole run, first to last snapshot, classed by
 * the threads active in it. */
int tick_clock_run(const struct clock_snapshot *first, const struct clock_snapshot *last,
		   const struct tick_filters *f, struct clock_interval *out);

#endif
