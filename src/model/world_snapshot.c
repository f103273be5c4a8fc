#include "model/world_snapshot.h"

#include <string.h>

int world_snapshot_alloc(struct world_snapshot *w, int ncpus)
{
	memset(w, 0, sizeof(*w));
	sched_snapshot_init(&w->sched);
	clock_snapshot_init(&w->clock);
	net_snapshot_init(&w->net);
	loss_snapshot_init(&w->loss);
	return cpu_snapshot_alloc(&w->cpu, ncpus);
}

void world_snapshot_free(struct world_snapshot *w)
{
	cpu_snapshot_free(&w->cpu);
	sched_snapshot_free(&w->sched);
	clock_snapshot_free(&w->clock);
	net_snapshot_free(&w->net);
	loss_snapshot_free(&w->loss);
}
