/* The sched rows' own arithmetic: the ran-on mask as a CPU list. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpus_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
