/* Log-linear histograms (see include/dbtrace/hist.h for the bucketing):
 * DBT_HIST_BUCKETS counters over nanoseconds; percentiles in µs, the unit
 * of every *_us figure dbtrace reports. */
#ifndef DBTRACE_MODEL_HIST_H
#define DBTRACE_MODEL_HIST_H

#include <stdint.h>
#include <linux/types.h>
#include "dbtrace/hist.h"

/* Monotonic counter difference. A counter smaller than before was reset
 * (a reloaded probe, a CPU brought back): count from zero. */
static inline uint64_t counter_delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : cur;
}

/* Buckets are __u64, the type the kernel side counts in (uint64_t is a
 * different type to the compiler's aliasing rules). */
uint64_t hist_total(const __u64 *b, int n);

/* q in [0, 1], in µs. The q-th sample (nearest rank) is placed inside its
 * bucket by its rank among the bucket's samples, at the middle of its
 * share: a lone sample is reported at the bucket's midpoint. Worst-case
 * error against the sample's true value: half a bucket's width for a lone
 * sample (1/64 of the value, 1.6%), a whole width (1/32, 3.1%) only when
 * many samples crowd one edge of one bucket. NAN when empty. */
double hist_percentile_us(const __u64 *b, int n, double q);

/* Upper edge of the highest non-empty bucket in µs (an upper bound of the
 * max); NAN when empty. */
double hist_max_bound_us(const __u64 *b, int n);

/* out[i] = counter_delta(prev[i], cur[i]) */
void hist_delta(const __u64 *prev, const __u64 *cur, __u64 *out, int n);

/* out[i] += in[i] */
void hist_add_to(__u64 *out, const __u64 *in, int n);

/* Captures before schema 2 kept log2 µs slots (slot 0: [0, 2) µs, slot i:
 * [2^i, 2^(i+1)) µs, the last open above). Spreads each slot's count over
 * the fine buckets it covers in proportion to their overlap, the uniform
 * density the old percentile interpolation assumed, so the total is kept
 * exactly and percentiles read back as the old reader computed them
 * (within a fine bucket). out[DBT_HIST_BUCKETS] is added to. */
void hist_from_log2_us(const __u64 *slots, int n, __u64 *out);

#endif
