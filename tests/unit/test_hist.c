/* Log2 histograms: the bucketing the kernel runs and the percentiles the
 * model reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "dbtrace/hist.h"
#include "model/hist.h"

static void test_slots(void **state)
{
	assert_int_equal(dbt_log2_slot(0), 0);
	assert_int_equal(dbt_log2_slot(1), 0);
	assert_int_equal(dbt_log2_slot(2), 1);
	assert_int_equal(dbt_log2_slot(3), 1);
	assert_int_equal(dbt_log2_slot(4), 2);
	assert_int_equal(dbt_log2_slot(1023), 9);
	assert_int_equal(dbt_log2_slot(1024), 10);
	assert_int_equal(dbt_log2_slot((1ull << 26) + 5), 26);
	/* everything beyond the last slot lands in it */
	assert_int_equal(dbt_log2_slot(1ull << 40), DBT_HIST_SLOTS - 1);
	assert_int_equal(dbt_log2_slot(~0ull), DBT_HIST_SLOTS - 1);
	for (__u32 s = 1; s < DBT_HIST_SLOTS; s++) {
		assert_int_equal(dbt_log2_slot(dbt_slot_low(s)), s);
		assert_int_equal(dbt_log2_slot(dbt_slot_low(s) - 1), s - 1);
	}
}

static void test_empty(void **state)
{
	__u64 h[DBT_HIST_SLOTS] = { 0 };

	assert_true(isnan(hist_percentile(h, DBT_HIST_SLOTS, 0.99)));
	assert_true(isnan(hist_max_bound(h, DBT_HIST_SLOTS)));
	assert_int_equal(hist_total(h, DBT_HIST_SLOTS), 0);
}

static void test_single_bucket_interpolates(void **state)
{
	__u64 h[DBT_HIST_SLOTS] = { 0 };

	h[6] = 100;  /* 100 values in [64, 128) */
	assert_true(fabs(hist_percentile(h, DBT_HIST_SLOTS, 0.5) - 96.0) < 1e-9);
	assert_true(fabs(hist_percentile(h, DBT_HIST_SLOTS, 0.99) - 127.36) < 1e-9);
	assert_true(hist_percentile(h, DBT_HIST_SLOTS, 0.0) >= 64.0);
	assert_true(hist_percentile(h, DBT_HIST_SLOTS, 1.0) <= 128.0);
	assert_true(hist_max_bound(h, DBT_HIST_SLOTS) == 128.0);
}

static void test_two_modes(void **state)
{
	__u64 h[DBT_HIST_SLOTS] = { 0 };

	h[3] = 98;   /* [8, 16) */
	h[13] = 2;   /* [8192, 16384) */
	/* p50 sits in the low mode, p99 in the high one */
	assert_true(hist_percentile(h, DBT_HIST_SLOTS, 0.5) < 16);
	assert_true(hist_percentile(h, DBT_HIST_SLOTS, 0.99) >= 8192);
	assert_true(hist_percentile(h, DBT_HIST_SLOTS, 0.98) <= 16);  /* bounded by its slot */
	assert_int_equal(hist_total(h, DBT_HIST_SLOTS), 100);
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
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_single_bucket_interpolates),
		cmocka_unit_test(test_two_modes),
		cmocka_unit_test(test_delta_with_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
