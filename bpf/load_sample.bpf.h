/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clock reads under load. On the VMs measured a clock read
 * (bpf_ktime_get_ns) costs 60-75 ns, more than all the rest a socket or
 * softirq-raise program does, so where a latency distribution is all a
 * clock read buys, it is sampled under load (the softirq family also
 * samples its handler time, a sum: the weights keep it unbiased): past
 * DBT_BUSY_PER_JIFFY measurement starts in one jiffy on a CPU (2 per ms at
 * Debian's HZ=250; jiffies cost no clock read), one start in
 * DBT_BUSY_KEEP, drawn at random, is timed and counts DBT_BUSY_KEEP times
 * in its histogram. Percentiles and histogram totals stay unbiased, and
 * the plain counts beside them stay exact. Below that rate every start is
 * timed. One in sixteen, not four: at 70k loopback transactions a second
 * on one CPU that still times over 10k requests a second, and the clock
 * reads it saves were a tenth of dbtrace's cost on that load.
 */
#ifndef DBTRACE_LOAD_SAMPLE_BPF_H
#define DBTRACE_LOAD_SAMPLE_BPF_H

#include "dbtrace/hist.h"

/* per jiffy, not per ms: CONFIG_HZ as a __kconfig extern fails the load
 * where no kernel config can be read (the test VMs), and tracing programs
 * may not read the coarse clock */
#define DBT_BUSY_PER_JIFFY 8
/* DBT_BUSY_KEEP, one in this many, is in dbtrace/hist.h: the capture
 * records it beside each sampled histogram */
#define DBT_UNTIMED 1                  /* a stamp whose time was not read */

/* Per CPU: each object that includes this header gets its own map. */
struct dbt_busy_window {
	__u64 jiffy;
	__u64 starts;                  /* measurement starts in this jiffy */
	__u64 rnd;                     /* xorshift64 state: a draw without a helper call */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_busy_window);
} dbt_busy SEC(".maps");

/* The weight of a measurement starting now: 1 (timed), DBT_BUSY_KEEP
 * (timed, standing for that many) or 0 (not timed). */
static __always_inline __u8 dbt_start_weight(void)
{
	__u32 zero = 0;
	struct dbt_busy_window *b = bpf_map_lookup_elem(&dbt_busy, &zero);
	__u64 j;

	if (!b)
		return 1;
	j = bpf_jiffies64();
	if (b->jiffy != j) {
		b->jiffy = j;
		b->starts = 0;
	}
	if (++b->starts <= DBT_BUSY_PER_JIFFY)
		return 1;
	if (!b->rnd)
		b->rnd = bpf_get_prandom_u32() | 1;
	b->rnd ^= b->rnd << 13;
	b->rnd ^= b->rnd >> 7;
	b->rnd ^= b->rnd << 17;
	return (b->rnd >> 32) & (DBT_BUSY_KEEP - 1) ? 0 : DBT_BUSY_KEEP;
}

#endif
