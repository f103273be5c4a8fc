/* SPDX-License-Identifier: GPL-2.0 */
/*
 * softirq probe family: types shared by bpf/softirq.bpf.c and
 * src/collect/softirq.c.
 *
 * Everything is aggregated per CPU in the kernel (a per-CPU array with one
 * element) and read once per interval; no event per softirq reaches user
 * space.
 */
#ifndef DBTRACE_SOFTIRQ_H
#define DBTRACE_SOFTIRQ_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "dbtrace/hist.h"

/* Mirrors the kernel's enum softirq vectors (include/linux/interrupt.h);
 * bpf/softirq.bpf.c asserts each value against vmlinux.h. */
enum dbt_softirq_vec {
	DBT_SOFTIRQ_HI = 0,
	DBT_SOFTIRQ_TIMER,
	DBT_SOFTIRQ_NET_TX,
	DBT_SOFTIRQ_NET_RX,
	DBT_SOFTIRQ_BLOCK,
	DBT_SOFTIRQ_IRQ_POLL,
	DBT_SOFTIRQ_TASKLET,
	DBT_SOFTIRQ_SCHED,
	DBT_SOFTIRQ_HRTIMER,
	DBT_SOFTIRQ_RCU,
	DBT_SOFTIRQ_VECS,
};

/* Counters of one CPU; monotonic, never reset by the kernel side. */
struct dbt_softirq_cpu {
	__u64 time_ns[DBT_SOFTIRQ_VECS];   /* in the vector, hardirqs inside it excluded */
	__u64 entries[DBT_SOFTIRQ_VECS];   /* handler runs (what /proc/softirqs counts) */
	__u64 raises[DBT_SOFTIRQ_VECS];
	__u64 hardirq_ns;                  /* read at every entry: kept near the counters */
	__u64 hardirq_count;
	/* exits without a matching entry (attached mid-handler) or entries
	 * that found a run still open: counted so data loss is never silent */
	__u64 unmatched;
};

/* The raise -> entry wait of one vector on one CPU (map softirq_wait, a
 * per-CPU array indexed by vector: one 7.9 KB element each, where all ten
 * in one value would pass the 32 KB limit of a per-CPU value). Only the
 * first raise of a pending vector starts the clock, as later raises join
 * the same run; sampled under load (struct dbt_hist_sampled). */
struct dbt_softirq_wait {
	struct dbt_hist_sampled wait;
};

/* Softirq time that ran on top of the current task and is not yet
 * charged to it (map sirq_pending, per CPU; bpf/sirq_pending.bpf.h). The
 * sched family moves it into struct dbt_sched_thread when the task leaves
 * the CPU; the idle task is never charged. A thread's on-CPU time includes
 * these: the share is what the thread lost to softirqs. */
struct dbt_softirq_pending {
	__u64 total_ns;
	__u64 net_ns;                      /* NET_RX + NET_TX */
};

/* Per-CPU bookkeeping between entry and exit events. */
struct dbt_softirq_state {
	__u64 sirq_start_ns;
	__u64 hardirq_ns_at_start;         /* to subtract nested hardirq time */
	__u64 hirq_start_ns;
	__u64 raised_ns[DBT_SOFTIRQ_VECS]; /* 0: not pending; 1: pending, not timed */
	__u8 raised_w[DBT_SOFTIRQ_VECS];   /* the wait's weight (bpf/load_sample.bpf.h) */
	__u8 pad[6];
	__u32 sirq_vec;
	__u8 in_sirq;
	__u8 sirq_w;                       /* the running handler's weight; 0: not timed */
	__u8 pad2[2];
};

#endif /* DBTRACE_SOFTIRQ_H */
