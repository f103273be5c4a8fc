/* Log-linear histograms: the bucketing the kernel runs and the percentiles the
 * model reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "dbtrace/hist.h"
#include "model/hist.h"

static void test_exact_below_32ns(void **state)
{
	for (__u64 v = 0; v < 32; v++) {
		assert_int_equal(dbt_hist_bucket(v), v);
		assert_int_equal(dbt_hist_low((__u32)v), v);
		assert_int_equal(dbt_hist_high((__u32)v), v + 1);
	}
}

static void test_octave_edges(void **state)
{
	/* each power of two starts a run of 32 buckets */
	assert_int_equal(dbt_hist_bucket(32), 32);
	assert_int_equal(dbt_hist_bucket(63), 63);
	assert_int_equal(dbt_hist_bucket(64), 64);
	assert_int_equal(dbt_hist_bucket(65), 64);     /* width 2 from 64 */
	assert_int_equal(dbt_hist_bucket(66), 65);
	for (__u32 m = 5; m < DBT_HIST_TOP_BIT; m++) {
		__u64 p = 1ull << m;
		__u32 b = (m - 4) * 32;

		assert_int_equal(dbt_hist_bucket(p), b);
		assert_int_equal(dbt_hist_bucket(p - 1), b - 1);
		assert_int_equal(dbt_hist_bucket(2 * p - 1), b + 31);
		assert_true(dbt_hist_low(b) == p);
	}
}

static void test_every_bucket_round_trips(void **state)
{
	for (__u32 b = 0; b < DBT_HIST_BUCKETS; b++) {
		__u64 lo = dbt_hist_low(b), hi = dbt_hist_high(b);

		assert_true(hi > lo);
		assert_int_equal(dbt_hist_bucket(lo), b);
		assert_int_equal(dbt_hist_bucket(hi - 1), b);
		if (b)
			assert_true(dbt_hist_high(b - 1) == lo);   /* no gap, no overlap */
		/* never wider than 1/32 of its lower bound */
		assert_true((hi - lo) * 32 <= (lo > 32 ? lo : 32));
	}
}

static void test_top_is_open(void **state)
{
	assert_int_equal(DBT_HIST_BUCKETS, 992);
	assert_int_equal(dbt_hist_bucket((1ull << 35) - 1), DBT_HIST_BUCKETS - 1);
	assert_int_equal(dbt_hist_bucket(1ull << 35), DBT_HIST_BUCKETS - 1);
	assert_int_equal(dbt_hist_bucket(1ull << 50), DBT_HIST_BUCKETS - 1);
	assert_int_equal(dbt_hist_bucket(~0ull), DBT_HIST_BUCKETS - 1);
	assert_true(dbt_hist_high(DBT_HIST_BUCKETS - 1) == 1ull << 35);
}

static void test_empty(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };

	assert_true(isnan(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.99)));
	assert_true(isnan(hist_max_bound_us(h, DBT_HIST_BUCKETS)));
	assert_int_equal(hist_total(h, DBT_HIST_BUCKETS), 0);
}

/* The field case: every request took 2.0-2.1 ms; log2 slots
 * reported p50 1548 µs and p99 3277 µs. */
static void test_percentiles_within_bucket_error(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	double v[1000];

	for (int i = 0; i < 1000; i++) {
		v[i] = 2000000.0 + 100000.0 * i / 999.0;   /* 2.0 .. 2.1 ms, sorted */
		h[dbt_hist_bucket((__u64)v[i])]++;
	}
	/* nearest rank: p50 is sample 500, p99 sample 990 */
	assert_true(fabs(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.50) * 1000 - v[499]) / v[499] < 1.0 / 32);
	assert_true(fabs(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.99) * 1000 - v[989]) / v[989] < 1.0 / 32);
	assert_true(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.0) >= 1900.0);
	assert_true(hist_max_bound_us(h, DBT_HIST_BUCKETS) <= 2100.0 * 33 / 32);
	assert_true(hist_max_bound_us(h, DBT_HIST_BUCKETS) >= 2100.0);
}

static void test_lone_sample_at_midpoint(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	__u32 b = dbt_hist_bucket(5000000);      /* 5 ms */

	h[b] = 1;
	assert_true(fabs(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.5) * 1000 -
			 (double)(dbt_hist_low(b) + dbt_hist_high(b)) / 2) < 1e-6);
	/* worst case for a lone sample: half a bucket, at most 1/64 */
	assert_true(fabs(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.5) - 5000.0) / 5000.0 <= 1.0 / 64);
}

static void test_two_modes(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };

	h[dbt_hist_bucket(12000)] = 98;      /* 12 µs */
	h[dbt_hist_bucket(9000000)] = 2;     /* 9 ms */
	assert_true(fabs(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.5) - 12.0) < 12.0 / 32);
	assert_true(fabs(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.99) - 9000.0) < 9000.0 / 32);
	assert_true(hist_percentile_us(h, DBT_HIST_BUCKETS, 0.98) < 12.0 * 33 / 32);
	assert_int_equal(hist_total(h, DBT_HIST_BUCKETS), 100);
}

static void test_from_log2_keeps_total_and_shape(void **state)
{
	__u64 old[27] = { 0 }, fine[DBT_HIST_BUCKETS] = { 0 };

	old[0] = 3;        /* [0, 2) µs */
	old[10] = 1000;    /* [1024, 2048) µs */
	old[26] = 7;       /* open above */
	hist_from_log2_us(old, 27, fine);
	assert_int_equal(hist_total(fine, DBT_HIST_BUCKETS), 1010);
	/* the old reader's p50 for this slot: linear inside [1024, 2048) */
	assert_true(fabs(hist_percentile_us(fine, DBT_HIST_BUCKETS, 0.5) - 1536.0) < 1536.0 / 32);
	assert_true(hist_percentile_us(fine, DBT_HIST_BUCKETS, 0.001) < 2.0);
	assert_int_equal(fine[DBT_HIST_BUCKETS - 1] > 0, 1);
}

static void test_delta_with_reset(void **state)
{
	__u64 a[4] = { 10, 20, 30, 40 }, b[4] = { 15, 20, 5, 41 }, d[4];

	hist_delta(a, b, d, 4);
	assert_int_equal(d[0], 5);
	assert_int_equal(d[1], 0);
	assert_int_equal(d[2], 5);  /* reset: counted from zero */
	assert_int_equal(d[3], 1);
	assert_int_equal(counter_delta(7, 3), 3);
	assert_int_equal(counter_delta(3, 7), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_below_32ns),
		cmocka_unit_test(test_octave_edges),
		cmocka_unit_test(test_every_bucket_round_trips),
		cmocka_unit_test(test_top_is_open),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_percentiles_within_bucket_error),
		cmocka_unit_test(test_lone_sample_at_midpoint),
		cmocka_unit_test(test_two_modes),
		cmocka_unit_test(test_from_log2_keeps_total_and_shape),
		cmocka_unit_test(test_delta_with_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
