/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log2 latency histograms shared by the kernel programs and the model.
 *
 * Slot 0 holds values in [0, 2), slot i (i >= 1) holds [2^i, 2^(i+1)) in the
 * histogram's unit (µs for every histogram dbtrace keeps). The same inline
 * function runs in the BPF programs and in the cmocka tests, so the tests
 * check exactly the bucketing the kernel side does.
 */
#ifndef DBTRACE_HIST_H
#define DBTRACE_HIST_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* 2^27 µs is more than two minutes: anything longer lands in the last slot. */
#define DBT_HIST_SLOTS 27

static inline __u32 dbt_log2_slot(__u64 v)
{
	__u32 slot = 0;

	/* Unrolled binary search: no loop for the verifier to bound. */
	if (v >> 32) { v >>= 32; slot += 32; }
	if (v >> 16) { v >>= 16; slot += 16; }
	if (v >> 8) { v >>= 8; slot += 8; }
	if (v >> 4) { v >>= 4; slot += 4; }
	if (v >> 2) { v >>= 2; slot += 2; }
	if (v >> 1) { slot += 1; }
	if (slot >= DBT_HIST_SLOTS)
		slot = DBT_HIST_SLOTS - 1;
	return slot;
}

/* Lower bound of a slot, in the histogram's unit. */
static inline __u64 dbt_slot_low(__u32 slot)
{
	return slot == 0 ? 0 : (__u64)1 << slot;
}

#endif /* DBTRACE_HIST_H */
