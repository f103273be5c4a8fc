/* /proc/net/softnet_stat: the 6.x layout with the CPU number, the old
 * layout without it, and what the parser refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include "sysinfo/softnet.h"

/* A 2-CPU 6.18 host (tests/fixtures/netloss-host: the build host's file,
 * CPU 1 given 31 backlog drops and 3 time squeezes). */
static void test_host_layout(void **state)
{
	struct softnet_cpu c[4];

	assert_int_equal(softnet_read(FIXTURES "/netloss-host", c, 4), 2);
	assert_int_equal(c[0].cpu, 0);
	assert_true(c[0].cpu_listed);
	assert_int_equal(c[0].processed, 0x0045c6ad);
	assert_int_equal(c[0].dropped, 0);
	assert_int_equal(c[1].cpu, 1);
	assert_int_equal(c[1].dropped, 31);
	assert_int_equal(c[1].time_squeeze, 3);
	assert_int_equal(c[1].received_rps, 0x0007c96d);
}

/* Kernels before 5.10 print 11 counters and no CPU number; offline CPUs
 * have no line, so the CPU number of a later line is only a position. */
static void test_old_layout_and_cpu_index(void **state)
{
	const char *old = "00000010 00000002 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000005 00000000\n"
			  "00000020 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001\n";
	/* 5.10+ on a host whose CPU 1 is offline: the third column set says 2 */
	const char *gap = "00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
			  "00000002 ffffffff 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000002\n";
	struct softnet_cpu c[4];

	assert_int_equal(softnet_parse(old, c, 4), 2);
	assert_false(c[0].cpu_listed);
	assert_int_equal(c[0].cpu, 0);
	assert_int_equal(c[0].dropped, 2);
	assert_int_equal(c[0].time_squeeze, 1);
	assert_int_equal(c[0].received_rps, 5);
	assert_int_equal(c[1].cpu, 1);
	assert_int_equal(c[1].flow_limit, 1);
	assert_int_equal(softnet_parse(gap, c, 4), 2);
	assert_int_equal(c[1].cpu, 2);
	assert_true(c[1].dropped == 0xffffffffu);
	/* max bounds the rows */
	assert_int_equal(softnet_parse(gap, c, 1), 1);
}

static void test_refused(void **state)
{
	struct softnet_cpu c[2];

	assert_int_equal(softnet_parse("00000001 00000002 00000003\n", c, 2), -EINVAL);
	assert_int_equal(softnet_parse("0000000g 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n", c, 2), -EINVAL);
	assert_int_equal(softnet_parse("", c, 2), 0);
	assert_int_equal(softnet_parse("\n\n", c, 2), 0);
	assert_int_equal(softnet_read(FIXTURES "/no-such-tree", c, 2), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_layout),
		cmocka_unit_test(test_old_layout_and_cpu_index),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
