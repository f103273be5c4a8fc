#include "model/hist.h"

#include <math.h>

uint64_t hist_total(const __u64 *b, int n)
{
	uint64_t sum = 0;

	for (int i = 0; i < n; i++)
		sum += b[i];
	return sum;
}

double hist_percentile_us(const __u64 *b, int n, double q)
{
	uint64_t total = hist_total(b, n), seen = 0;
	double rank;

	if (!total)
		return NAN;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* nearest rank, 1-based; the epsilon keeps 0.99 * 100 from
	 * becoming 99.000000001 and spilling into the next bucket */
	rank = ceil(q * (double)total - 1e-9);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < n; i++) {
		if (!b[i])
			continue;
		if ((double)(seen + b[i]) >= rank) {
			double lo = (double)dbt_hist_low((__u32)i);
			double hi = (double)dbt_hist_high((__u32)i);
			double frac = (rank - 0.5 - (double)seen) / (double)b[i];

			return (lo + (hi - lo) * frac) / 1000.0;
		}
		seen += b[i];
	}
	return NAN;  /* unreachable: rank <= total */
}

double hist_max_bound_us(const __u64 *b, int n)
{
	for (int i = n - 1; i >= 0; i--)
		if (b[i])
			return (double)dbt_hist_high((__u32)i) / 1000.0;
	return NAN;
}

void hist_delta(const __u64 *prev, const __u64 *cur, __u64 *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = counter_delta(prev[i], cur[i]);
}

void hist_add_to(__u64 *out, const __u64 *in, int n)
{
	for (int i = 0; i < n; i++)
		out[i] += in[i];
}

/* Adds count spread evenly over [lo, hi) ns to the fine buckets. Each
 * bucket gets the rounded share of the count up to its upper edge less
 * that up to its lower edge, so the sum is exact and no bucket takes more
 * than its share plus one. */
static void spread(__u64 *out, double lo, double hi, __u64 count)
{
	__u32 first = dbt_hist_bucket((__u64)lo), last = dbt_hist_bucket((__u64)(hi - 1));
	__u64 given = 0;

	for (__u32 b = first; b <= last; b++) {
		double h = fmin(hi, (double)dbt_hist_high(b));
		__u64 upto = b == last ? count : (__u64)llround((double)count * (h - lo) / (hi - lo));

		out[b] += upto - given;
		given = upto;
	}
}

void hist_from_log2_us(const __u64 *slots, int n, __u64 *out)
{
	for (int i = 0; i < n; i++) {
		double lo = i ? 1000.0 * (double)(1ull << i) : 0;
		double hi = 1000.0 * (double)(2ull << i);

		if (!slots[i])
			continue;
		if (hi > (double)dbt_hist_low(DBT_HIST_BUCKETS - 1))
			hi = (double)dbt_hist_high(DBT_HIST_BUCKETS - 1);
		if (lo >= hi)
			lo = hi - 1;
		spread(out, lo, hi, slots[i]);
	}
}
