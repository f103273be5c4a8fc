/* The deep copy of a sched interval: the copy owns its classes and
 * histograms, so it outlives the interval it was made from (the top
 * view redraws the last interval from its copy). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>
#include "dbtrace/hist.h"
#include "model/hist.h"
#include "sched_samples.h"

#define NS 1000000000ull

static void test_copy_owns_its_histograms(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval iv, copy;
	const struct sched_class_stats *c;

	(void)state;
	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	b.mono_ns = NS;
	sched_sample(&b, 10, 11, "worker-1", "db", NS / 2, 3, 1);
	sched_sample(&b, 20, 20, "other", "other", NS / 4, 1, 0);
	sched_sample_hist(&b, DBT_SCHED_HIST_RUNQ, 10, "worker-1", 1, dbt_hist_bucket(5000), 7);
	sched_sample_hist(&b, DBT_SCHED_HIST_FUTEX, 10, "worker-1", 1, dbt_hist_bucket(9000), 2);
	sched_snapshot_sort(&b);
	assert_int_equal(sched_sample_interval(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(sched_interval_copy(&copy, &iv), 0);
	c = sched_sample_class(&copy, 10, "worker-1");
	assert_non_null(c);
	assert_ptr_not_equal(c->runq_hist, sched_sample_class(&iv, 10, "worker-1")->runq_hist);
	sched_interval_free(&iv);
	/* the source is gone: the copy's rows and histograms are its own */
	assert_int_equal(copy.n_groups, 2);
	assert_int_equal(copy.groups[0].pid, 10);
	assert_int_equal(hist_total(c->runq_hist, DBT_HIST_BUCKETS), 7);
	assert_int_equal(hist_total(c->futex_hist, DBT_HIST_BUCKETS), 2);
	assert_int_equal(hist_total(copy.groups[0].total.runq_hist, DBT_HIST_BUCKETS), 7);
	assert_null(sched_sample_class(&copy, 20, "other")->runq_hist);
	sched_interval_free(&copy);
	sched_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_owns_its_histograms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
