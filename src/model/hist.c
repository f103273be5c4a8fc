#include "model/hist.h"
#include "dbtrace/hist.h"

#include <math.h>

uint64_t hist_total(const __u64 *slots, int n)
{
	uint64_t sum = 0;

	for (int i = 0; i < n; i++)
		sum += slots[i];
	return sum;
}

double hist_percentile(const __u64 *slots, int n, double q)
{
	uint64_t total = hist_total(slots, n), seen = 0;
	double rank;

	if (!total)
		return NAN;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* nearest rank, 1-based; the epsilon keeps 0.99 * 100 from
	 * becoming 99.000000001 and spilling into the next slot */
	rank = ceil(q * (double)total - 1e-9);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		if ((double)(seen + slots[i]) >= rank) {
			double lo = (double)dbt_slot_low((uint32_t)i);
			double hi = (double)((uint64_t)2 << i);
			double frac = (rank - (double)seen) / (double)slots[i];

			return lo + (hi - lo) * frac;
		}
		seen += slots[i];
	}
	return NAN;  /* unreachable: rank <= total */
}

double hist_max_bound(const __u64 *slots, int n)
{
	for (int i = n - 1; i >= 0; i--)
		if (slots[i])
			return (double)((uint64_t)2 << i);
	return NAN;
}

void hist_delta(const __u64 *prev, const __u64 *cur, __u64 *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = counter_delta(prev[i], cur[i]);
}
