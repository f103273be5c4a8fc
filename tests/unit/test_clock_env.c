// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sysinfo/clock_env.h"

static void hpet_tree(void **state)
{
	struct clock_env e;

	clock_env_read(FIXTURES "/hpet-skewtick-netem", &e);
	assert_true(e.have_cs);
	assert_string_equal(e.cs.current, "hpet");
	assert_true(e.have_log);             /* ROOT/dmesg */
	assert_true(e.log.n_unstable >= 1);
	assert_true(e.have_cmdline);
	assert_true(e.cmdline.skew_tick_present);
	assert_int_equal(e.cmdline.skew_tick, 1);
	assert_string_equal(e.tuned.profile, "network-latency");
}

/* Missing pieces leave their flags down; nothing fails. */
static void partial_trees(void **state)
{
	struct clock_env e;

	clock_env_read(FIXTURES "/martins3-kvm-guest", &e);
	assert_true(e.have_cs);
	assert_string_equal(e.cs.current, "kvm-clock");
	assert_true(e.have_log);
	assert_false(e.have_cmdline);
	assert_false(e.tuned.file_present);

	clock_env_read(FIXTURES "/ansvu-worker0", &e);
	assert_false(e.have_cs);
	assert_false(e.have_log);
	assert_true(e.have_cmdline);
	assert_true(e.cmdline.skew_tick_present);

	clock_env_read(FIXTURES "/does-not-exist", &e);
	assert_false(e.have_cs || e.have_log || e.have_cmdline || e.tuned.file_present);
}

/* The live system: a clocksource always, the log when permitted. */
static void live_system(void **state)
{
	struct clock_env e;

	clock_env_read(NULL, &e);
	assert_true(e.have_cs);
	assert_true(e.cs.current[0] != 0);
	assert_true(e.have_cmdline);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hpet_tree),
		cmocka_unit_test(partial_trees),
		cmocka_unit_test(live_system),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
