/* One tick's model: the tick's one thread -> class map and every family's
 * interval between two world snapshots, with the clock's vDSO share set
 * beside each sched class. Pure: what the collectors read goes in, what
 * every output shows comes out; tests/unit/test_tick.c feeds it
 * snapshots made by hand. */
#ifndef DBTRACE_SESSION_TICK_H
#define DBTRACE_SESSION_TICK_H

#include <stdbool.h>
#include "model/class_map.h"
#include "model/clock_model.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/sched_interval.h"
#include "model/thread_class.h"
#include "model/world_snapshot.h"

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

struct tick {
	struct sched_interval sched;
	struct clock_interval clock;
	struct net_interval net;
	bool have_sched, have_clock, have_net;   /* the families in both snapshots */
	struct loss_interval loss;     /* its port and drop numbers also joined into net */
	bool have_loss;
	/* the tick's thread -> class map: which processes a class's threads
	 * belong to (sched's map_group and map_class index it) */
	struct class_map classes;
};

/* Computes t from prev and cur (a family off in cur is left out). Returns
 * 0, or a negative errno with t empty. */
int tick_compute(const struct world_snapshot *prev, const struct world_snapshot *cur,
		 const struct tick_filters *f, struct tick *t);
void tick_free(struct tick *t);

/* The clock family over a whole run, first to last snapshot, classed by
 * the threads active in it. */
/* The net and loss families over a whole run, first to last snapshot,
 * joined as in a tick (either snapshot pair may be NULL: family off).
 * Sets *have_net / *have_loss. Returns 0 or -ENOMEM. */
int tick_net_run(const struct net_snapshot *net_first, const struct net_snapshot *net_last,
		 const struct loss_snapshot *loss_first, const struct loss_snapshot *loss_last,
		 const struct net_filter *filter, struct net_interval *net, bool *have_net,
		 struct loss_interval *loss, bool *have_loss);

int tick_clock_run(const struct clock_snapshot *first, const struct clock_snapshot *last,
		   const struct tick_filters *f, struct clock_interval *out);

#endif
