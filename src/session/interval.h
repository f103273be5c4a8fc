/* One measured interval, as every output sees it. */
#ifndef DBTRACE_SESSION_INTERVAL_H
#define DBTRACE_SESSION_INTERVAL_H

#include <stdint.h>
#include "findings/finding.h"
#include "model/clock_model.h"
#include "model/cpu_model.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/sched_interval.h"

struct interval_view {
	int index;                     /* 0-based */
	double t_s;                    /* end of the interval, seconds since start */
	double dt_s;                   /* its length */
	int ncpus;
	const struct cpu_row *rows;    /* ncpus rows */
	const struct cpu_row *total;   /* mean/sum over valid CPUs */
	const struct sched_interval *sched;   /* NULL when the family is off */
	const struct clock_interval *clock;   /* NULL when the family is off */
	const struct clock_fn_table *clock_fns;  /* names of the vDSO function slots */
	unsigned int clock_hz;                /* its sample rate */
	const struct net_interval *net;       /* NULL when the net and loss families are off */
	const struct loss_interval *loss;     /* NULL when the family is off */
	const struct finding_list *findings;  /* raised in this interval */
	uint64_t lost_events;          /* so far, all families */
	uint64_t thread_evictions;     /* so far: per-thread state the LRU dropped */
};

#endif
