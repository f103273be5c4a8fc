// SPDX-License-Identifier: GPL-2.0
/* irqbalance: found by its comm under ROOT/proc, banned CPUs from its
 * shell-style configuration. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sysinfo/irqbalance.h"

static void fmt_eq(const struct dbt_cpuset *s, const char *want)
{
	char buf[256];

	assert_true(dbt_cpuset_format_list(s, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void running_on_fixture(void **state)
{
	struct dbt_irqbalance ib;

	assert_int_equal(dbt_irqbalance_read(FIXTURES "/hpet-skewtick-netem", &ib), 0);
	assert_true(ib.running);
	assert_int_equal(ib.pid, 1187);
	assert_false(ib.has_config);

	assert_int_equal(dbt_irqbalance_read(FIXTURES "/clean", &ib), 0);
	assert_false(ib.running);
	assert_int_equal(ib.pid, 0);
}

static void no_proc_is_an_error(void **state)
{
	struct dbt_irqbalance ib;

	assert_true(dbt_irqbalance_read(FIXTURES "/prometheus-procfs", &ib) < 0);
	assert_false(ib.running);
}

static void config_list_wins_over_mask(void **state)
{
	/* RHEL's /etc/sysconfig/irqbalance layout, comments and quotes */
	const char *cfg =
		"# irqbalance is a daemon process\n"
		"#IRQBALANCE_ONESHOT=\n"
		"IRQBALANCE_BANNED_CPUS=0000000f\n"
		"IRQBALANCE_BANNED_CPULIST=\"0-1,8\"  # the DB's cores\n"
		"IRQBALANCE_ARGS=\n";
	struct dbt_cpuset set;

	dbt_irqbalance_parse_config(cfg, strlen(cfg), &set);
	fmt_eq(&set, "0-1,8");
}

static void config_mask_and_export(void **state)
{
	const char *cfg = "export IRQBALANCE_BANNED_CPUS='ff,00000003'\n";
	const char *none = "#IRQBALANCE_BANNED_CPULIST=0-3\nIRQBALANCE_ARGS=\"--policyscript=x\"\n";
	const char *bad = "IRQBALANCE_BANNED_CPULIST=zero\n";
	struct dbt_cpuset set;

	dbt_irqbalance_parse_config(cfg, strlen(cfg), &set);
	fmt_eq(&set, "0-1,32-39");
	dbt_irqbalance_parse_config(none, strlen(none), &set);
	assert_true(dbt_cpuset_empty(&set));
	dbt_irqbalance_parse_config(bad, strlen(bad), &set);
	assert_true(dbt_cpuset_empty(&set));
	/* the last assignment wins, as when the shell sources the file */
	const char *twice = "IRQBALANCE_BANNED_CPULIST=1\nIRQBALANCE_BANNED_CPULIST=2-3\n";

	dbt_irqbalance_parse_config(twice, strlen(twice), &set);
	fmt_eq(&set, "2-3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(running_on_fixture),
		cmocka_unit_test(no_proc_is_an_error),
		cmocka_unit_test(config_list_wins_over_mask),
		cmocka_unit_test(config_mask_and_export),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
