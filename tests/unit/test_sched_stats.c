/* The sched rows' own arithmetic: the ran-on mask as a CPU list, and the
 * figures derived from the raw sums and from the other figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/sched_stats.h"

#define NS 1000000000ull

static void test_cpus_format(void **state)
{
	uint64_t cpus[DBT_SCHED_CPU_WORDS] = { 0xf | (1ull << 8), 1, 0, 0 };
	char buf[64];

	sched_cpus_format(cpus, false, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,64");
	sched_cpus_format(cpus, true, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,64,+");
	memset(cpus, 0, sizeof(cpus));
	sched_cpus_format(cpus, false, buf, sizeof(buf));
	assert_string_equal(buf, "");
	cpus[3] = 1ull << 63;
	sched_cpus_format(cpus, false, buf, 4);   /* too small: cut, terminated */
	assert_true(strlen(buf) < 4);
}

/* The share of the runnable time spent waiting for a CPU: 3 threads on
 * one CPU for a second, runnable all of it, ran 1 s and waited 2. */
static void test_runq_wait(void **state)
{
	struct sched_class_stats c = { .oncpu_ns = 1 * NS, .runq_ns = 2 * NS };

	(void)state;
	sched_class_finish(&c, 1.0);
	assert_true(fabs(c.runnable_avg - 3) < 1e-9);
	assert_true(fabs(c.runq_wait_pct - 100.0 * 2 / 3) < 1e-9);
	/* never runnable: unknown, not 0 */
	memset(&c, 0, sizeof(c));
	sched_class_finish(&c, 1.0);
	assert_true(isnan(c.runq_wait_pct));
	/* from the figures alone, as the views' "other" row has them */
	memset(&c, 0, sizeof(c));
	c.runnable_avg = 0.5;
	c.oncpu_pct = 40;
	sched_class_derive(&c);
	assert_true(fabs(c.runq_wait_pct - 20) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpus_format),
		cmocka_unit_test(test_runq_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
