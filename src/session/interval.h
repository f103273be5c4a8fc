/* One measured interval of every family: what the tick computes
 * (session/tick.h) and the judge and every output read. It is complete
 * when tick_compute() returns, the joins between families included (the
 * clock's vDSO share beside each sched class, the CPUs each group and
 * class may use: session/tick_join.h); nothing writes into it after, so
 * the judge and the outputs get it const. A family that was off (or not
 * in both snapshots) has its have_ flag false and its part empty. */
#ifndef DBTRACE_SESSION_INTERVAL_H
#define DBTRACE_SESSION_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>
#include "model/bpf_cost.h"
#include "model/class_map.h"
#include "model/clock_model.h"
#include "model/cpu_model.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/sched_interval.h"

struct interval {
	int index;                     /* 0-based */
	double t_s;                    /* end of the interval, seconds since start */
	double dt_s;                   /* its length */
	int ncpus;
	const struct cpu_row *rows;    /* ncpus rows, in storage the session lends */
	struct cpu_row total;          /* mean/sum over valid CPUs */
	struct sched_interval sched;
	bool have_sched;
	struct clock_interval clock;
	bool have_clock;
	const struct clock_fn_table *clock_fns;  /* names of the vDSO function slots */
	unsigned int clock_hz;                   /* its sample rate */
	struct net_interval net;       /* with the loss family's port and drop numbers joined */
	bool have_net;                 /* the net family, or the loss family's rows alone */
	struct loss_interval loss;
	bool have_loss;
	/* the tick's thread -> class map: which processes a class's threads
	 * belong to (sched's and clock's map_group and map_class index it) */
	struct class_map classes;
	uint64_t lost_events;          /* so far, all families */
	uint64_t thread_evictions;     /* so far: per-thread state the LRU dropped */
	/* dbtrace's own BPF run time, over the interval's window (none
	 * measured: on_ns 0) */
	struct bpf_cost bpf;
};

/* Frees what the interval owns (not the rows it was lent). */
void interval_free(struct interval *iv);

#endif
