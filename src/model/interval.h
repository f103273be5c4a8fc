/* One measured interval, as every output sees it. */
#ifndef DBTRACE_MODEL_INTERVAL_H
#define DBTRACE_MODEL_INTERVAL_H

#include <stdint.h>
#include "model/cpu_model.h"

struct interval_view {
	double t_s;                    /* end of the interval, seconds since start */
	double dt_s;                   /* its length */
	int ncpus;
	const struct cpu_row *rows;    /* ncpus rows */
	const struct cpu_row *total;   /* mean/sum over valid CPUs */
	uint64_t lost_events;          /* so far */
};

#endif
