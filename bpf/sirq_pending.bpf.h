/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Softirq time not yet charged to a thread, per CPU: the softirq family
 * adds each handler run to it; the sched family empties it into the
 * thread leaving the CPU, which is the thread every softirq since the
 * last switch on this CPU ran on top of (the current task cannot change
 * without a switch). So charging costs the softirq exit an add, not a
 * per-thread map lookup. Both objects declare this map; user space has
 * the sched object reuse the softirq object's (bpf_map__reuse_fd).
 */
#ifndef DBTRACE_SIRQ_PENDING_BPF_H
#define DBTRACE_SIRQ_PENDING_BPF_H

#include "dbtrace/softirq.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_softirq_pending);
} sirq_pending SEC(".maps");

#endif
