/* The sched summary: intervals summed per group and class. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/sched_summary.h"
#include "sched_samples.h"

#define NS 1000000000ull

static void test_summary_sums_intervals(void **state)
{
	struct sched_snapshot s[3];
	struct sched_interval iv;
	struct sched_summary sum = { 0 };

	for (int i = 0; i < 3; i++) {
		sched_snapshot_init(&s[i]);
		s[i].mono_ns = (uint64_t)i * NS;
		sched_sample(&s[i], 7, 7, "pg", "observer", (uint64_t)i * NS / 4, (uint64_t)i * 100, 0);
	}
	for (int i = 1; i < 3; i++) {
		assert_int_equal(sched_sample_interval(&s[i - 1], &s[i], NULL, NULL, &iv), 0);
		assert_int_equal(sched_summary_add(&sum, &iv), 0);
		sched_interval_free(&iv);
	}
	sched_summary_finish(&sum);
	assert_int_equal(sum.n_groups, 1);
	assert_true(fabs(sum.seconds - 2.0) < 1e-9);
	assert_true(fabs(sum.groups[0].classes[0].vol_per_s - 100.0) < 1e-9);
	assert_true(fabs(sum.groups[0].classes[0].oncpu_pct - 25.0) < 1e-9);
	assert_int_equal(sum.groups[0].classes[0].threads, 1);
	sched_summary_free(&sum);
	for (int i = 0; i < 3; i++)
		sched_snapshot_free(&s[i]);
}

/* A summary of many processes and classes grows its lists. */
static void test_summary_grows(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval iv;
	struct sched_summary sum = { 0 };
	char comm[16];

	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	b.mono_ns = NS;
	for (uint32_t p = 0; p < 40; p++)
		for (uint32_t t = 0; t < 20; t++) {
			/* distinct comms: each thread its own class */
			snprintf(comm, sizeof(comm), "c%u_x%u", t, t);
			sched_sample(&b, 1000 + p * 100, 1000 + p * 100 + t, comm, "observer", NS / 100, 1, 0);
		}
	sched_snapshot_sort(&b);
	assert_int_equal(sched_sample_interval(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 40);
	assert_int_equal(sched_summary_add(&sum, &iv), 0);
	assert_int_equal(sched_summary_add(&sum, &iv), 0);
	sched_summary_finish(&sum);
	assert_int_equal(sum.n_groups, 40);
	for (int i = 0; i < sum.n_groups; i++) {
		assert_int_equal(sum.groups[i].n_classes, 20);
		assert_int_equal(sum.groups[i].classes[0].vol, 2);
	}
	sched_summary_free(&sum);
	sched_interval_free(&iv);
	sched_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_sums_intervals),
		cmocka_unit_test(test_summary_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
