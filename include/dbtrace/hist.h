/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear (HDR-style) latency histograms shared by the kernel programs
 * and the model. Input in nanoseconds.
 *
 * Values below 32 ns have a bucket each (exact). Above, each power of two
 * [2^m, 2^(m+1)) is split into 32 linear sub-buckets of width 2^(m-5), so
 * a bucket is never wider than 1/32 of its lower bound. Why 32 and not 16:
 * a percentile is reported from inside the bucket holding the sample it
 * names (src/model/hist.c), so its error is bounded by the bucket's width
 * relative to the value: 1/16 (6.3%) with 16 sub-buckets, 1/32 (3.1%)
 * with 32 at the very worst and 1/64 (1.6%) from the bucket's middle. The
 * top is 2^35 ns (34 s): a longer wait lands in the last bucket, and the
 * histogram's max says how long it was where one is kept.
 *
 * The same inline functions run in the BPF programs and in the cmocka
 * tests, so the tests check exactly the bucketing the kernel side does.
 */
#ifndef DBTRACE_HIST_H
#define DBTRACE_HIST_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define DBT_HIST_SUB_BITS 5
#define DBT_HIST_SUB (1 << DBT_HIST_SUB_BITS)       /* sub-buckets per power of two */
#define DBT_HIST_TOP_BIT 35                          /* 2^35 ns = 34.4 s */
/* 32 exact buckets, then 32 per power of two from 2^5 to 2^34 */
#define DBT_HIST_BUCKETS ((DBT_HIST_TOP_BIT - DBT_HIST_SUB_BITS + 1) * DBT_HIST_SUB)

/* Index of the highest set bit of v (v > 0). Unrolled binary search: no
 * loop for the verifier to bound. */
static inline __u32 dbt_hist_msb(__u64 v)
{
	__u32 m = 0;

	if (v >> 32) { v >>= 32; m += 32; }
	if (v >> 16) { v >>= 16; m += 16; }
	if (v >> 8) { v >>= 8; m += 8; }
	if (v >> 4) { v >>= 4; m += 4; }
	if (v >> 2) { v >>= 2; m += 2; }
	if (v >> 1) { m += 1; }
	return m;
}

/* The bucket of a value in ns, in [0, DBT_HIST_BUCKETS). */
static inline __u32 dbt_hist_bucket(__u64 ns)
{
	__u32 m, b;

	if (ns < DBT_HIST_SUB)
		return (__u32)ns;
	if (ns >> DBT_HIST_TOP_BIT)
		return DBT_HIST_BUCKETS - 1;
	m = dbt_hist_msb(ns);                       /* 5 .. 34 */
	b = (m - DBT_HIST_SUB_BITS + 1) * DBT_HIST_SUB +
	    (__u32)((ns >> (m - DBT_HIST_SUB_BITS)) & (DBT_HIST_SUB - 1));
	/* cannot trigger; tells the verifier the index is in bounds */
	if (b > DBT_HIST_BUCKETS - 1)
		b = DBT_HIST_BUCKETS - 1;
	return b;
}

/* Lower bound of a bucket, in ns: the smallest value it holds. */
static inline __u64 dbt_hist_low(__u32 b)
{
	__u32 m;

	if (b < DBT_HIST_SUB)
		return b;
	m = b / DBT_HIST_SUB + DBT_HIST_SUB_BITS - 1;   /* its power of two */
	return (__u64)(DBT_HIST_SUB + b % DBT_HIST_SUB) << (m - DBT_HIST_SUB_BITS);
}

/* Upper bound of a bucket, in ns: one past the largest value it holds
 * (the last bucket is open above; this is where its linear part ends). */
static inline __u64 dbt_hist_high(__u32 b)
{
	__u32 m;

	if (b < DBT_HIST_SUB)
		return (__u64)b + 1;
	m = b / DBT_HIST_SUB + DBT_HIST_SUB_BITS - 1;
	return dbt_hist_low(b) + ((__u64)1 << (m - DBT_HIST_SUB_BITS));
}

/* Under load one measurement in this many is timed (a power of 2; see
 * bpf/load_sample.bpf.h) */
#define DBT_BUSY_KEEP 16

/* One histogram and how it was sampled: under load the families that
 * sample (bpf/load_sample.bpf.h) time one measurement in DBT_BUSY_KEEP,
 * which counts that many times, so the buckets sum to an estimate of all
 * measurements while `timed` says how many were really timed. */
struct dbt_hist_sampled {
	__u64 timed;                      /* measurements timed */
	__u64 buckets[DBT_HIST_BUCKETS];  /* weighted counts */
};

#endif /* DBTRACE_HIST_H */
