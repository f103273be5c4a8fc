/* Everything the collectors read at one instant: the raw material of an
 * interval, one snapshot per family. Pure. */
#ifndef DBTRACE_MODEL_WORLD_SNAPSHOT_H
#define DBTRACE_MODEL_WORLD_SNAPSHOT_H

#include <stdbool.h>
#include "model/clock_model.h"
#include "model/cpu_model.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/sched_snapshot.h"

struct world_snapshot {
	struct cpu_snapshot cpu;
	struct sched_snapshot sched;
	bool have_sched;
	struct clock_snapshot clock;
	bool have_clock;
	struct net_snapshot net;
	bool have_net;
	struct loss_snapshot loss;
	bool have_loss;
};

int world_snapshot_alloc(struct world_snapshot *w, int ncpus);
void world_snapshot_free(struct world_snapshot *w);

#endif
