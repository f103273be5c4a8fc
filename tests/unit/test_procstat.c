/* /proc/stat parsing: this machine's file, and one with an offline CPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include "sysinfo/procstat.h"

static void test_two_cpus(void **state)
{
	struct procstat_cpu cpus[8];

	assert_int_equal(procstat_read(FIXTURES "/procstat-2cpu", cpus, 8), 2);
	assert_true(cpus[0].online);
	assert_true(cpus[1].online);
	assert_false(cpus[2].online);
	/* cpu0 4443 0 2586 47170 90 0 61 848 0 0 */
	assert_int_equal(cpus[0].ticks[PS_USER], 4443);
	assert_int_equal(cpus[0].ticks[PS_SYSTEM], 2586);
	assert_int_equal(cpus[0].ticks[PS_IDLE], 47170);
	assert_int_equal(cpus[0].ticks[PS_SOFTIRQ], 61);
	assert_int_equal(cpus[0].ticks[PS_STEAL], 848);
	assert_int_equal(cpus[1].ticks[PS_USER], 6350);
}

static void test_offline_cpu_is_absent(void **state)
{
	struct procstat_cpu cpus[8];

	/* cpu2 is missing: offline CPUs are not listed */
	assert_int_equal(procstat_read(FIXTURES "/procstat-offline", cpus, 8), 4);
	assert_true(cpus[0].online);
	assert_true(cpus[1].online);
	assert_false(cpus[2].online);
	assert_true(cpus[3].online);
	assert_int_equal(cpus[3].ticks[PS_IDLE], 45000);
}

static void test_garbage_and_short_lines(void **state)
{
	struct procstat_cpu cpus[4];

	assert_int_equal(procstat_parse("cpu  1 2 3\ncpu0 5 6\ncpuX 1 2\ncpu9 1 1 1\n", cpus, 4), 1);
	assert_true(cpus[0].online);
	assert_int_equal(cpus[0].ticks[PS_USER], 5);
	assert_int_equal(cpus[0].ticks[PS_NICE], 6);
	assert_int_equal(cpus[0].ticks[PS_SYSTEM], 0);  /* an old kernel's short line */
	assert_int_equal(procstat_parse("", cpus, 4), -ENODATA);
	assert_int_equal(procstat_parse("cpu0", cpus, 4), -ENODATA);
	assert_int_equal(procstat_read(FIXTURES "/does-not-exist", cpus, 4), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cpus),
		cmocka_unit_test(test_offline_cpu_is_absent),
		cmocka_unit_test(test_garbage_and_short_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
