#include "session/interval.h"

#include <string.h>

void interval_free(struct interval *iv)
{
	class_map_free(&iv->classes);
	sched_interval_free(&iv->sched);
	clock_interval_free(&iv->clock);
	net_interval_free(&iv->net);
	loss_interval_free(&iv->loss);
	memset(iv, 0, sizeof(*iv));
}
