/* Log2 histograms (see include/dbtrace/hist.h for the bucketing). */
#ifndef DBTRACE_MODEL_HIST_H
#define DBTRACE_MODEL_HIST_H

#include <stdint.h>
#include <linux/types.h>

/* Monotonic counter difference. A counter smaller than before was reset
 * (a reloaded probe, a CPU brought back): count from zero. */
static inline uint64_t counter_delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : cur;
}

/* Slots are __u64, the type the kernel side counts in (uint64_t is a
 * different type to the compiler's aliasing rules). */
uint64_t hist_total(const __u64 *slots, int n);

/* q in [0, 1]. Linear interpolation inside the slot that holds the q-th
 * sample, so p50 of values all in [64, 128) lands between 64 and 128
 * instead of on a bucket edge. NAN when the histogram is empty. */
double hist_percentile(const __u64 *slots, int n, double q);

/* Upper edge of the highest non-empty slot (an upper bound of the max);
 * NAN when empty. */
double hist_max_bound(const __u64 *slots, int n);

/* out[i] = counter_delta(prev[i], cur[i]) */
void hist_delta(const __u64 *prev, const __u64 *cur, __u64 *out, int n);

#endif
