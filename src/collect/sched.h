/* sched family collector: loads bpf/sched.bpf.c through the attach plan
 * and turns its maps into sched snapshots. */
#ifndef DBTRACE_COLLECT_SCHED_H
#define DBTRACE_COLLECT_SCHED_H

#include <stdint.h>
#include "core/bpf_plan.h"
#include "model/sched_snapshot.h"

#define SCHED_CHUNK 256
#define SCHED_RUNQ_CHUNK 16

struct sched_collector {
	struct plan_handle h;
	int threads_fd, cur_fd, stats_fd, pending_fd;
	int iter_fd;                   /* the task iterator's link (typed path); -1: none */
	int runq_fd;                   /* sched_runq */
	struct dbt_sched_runq_key runq_keys[SCHED_RUNQ_CHUNK];
	struct dbt_sched_runq_hist runq_vals[SCHED_RUNQ_CHUNK];
	int sirq_pending_fd;           /* the softirq family's map to share; -1: none */
	int ncpus;
	/* one chunk of a batch or iterator read; records are streamed,
	 * never copied whole */
	uint32_t keys[SCHED_CHUNK];
	struct dbt_sched_thread chunk[SCHED_CHUNK];
	int n_map;                     /* threads read from sched_threads this time */
	/* the interval being read (bpf/sched.bpf.c's ival_gen before the move) */
	uint32_t gen;
	/* its per-thread records as met in the map, then placed parallel to
	 * the newest snapshot */
	struct sched_ival_rec { uint32_t tid; struct dbt_sched_ival iv; } *recs;
	int n_recs;
	size_t recs_cap;
	struct dbt_sched_ival *ival;
	size_t ival_cap;
	struct dbt_sched_cur *cur;     /* ncpus */
	/* CLOCK_MONOTONIC less the runqueue clock the blocks are timed by,
	 * from the CPU that took it last (struct dbt_sched_cur) */
	int64_t mono_minus_rq_ns;
	struct dbt_softirq_pending *pending;  /* ncpus */
	struct dbt_sched_stats *stats; /* ncpus */
	/* exited threads met in this read: their final records, deleted
	 * once read (no switch-out updates them any more) */
	uint32_t *exited;
	uint32_t n_exited;
	size_t exited_cap;
	uint64_t deleted;              /* entries removed by us, so far */
};

/* sirq_pending_fd: the softirq family's sirq_pending map (softirq time is
 * charged to threads through it), or -1 when that family is off. */
int sched_collector_open(struct sched_collector *c, struct probe_report *rep, int sirq_pending_fd,
			 struct bpf_features *kernel);
/* Fills snap (emptied first) and sorts it by tid. */
int sched_collector_read(struct sched_collector *c, struct sched_snapshot *snap);
uint64_t sched_collector_lost(const struct sched_collector *c);
void sched_collector_close(struct sched_collector *c);

#endif
