// SPDX-License-Identifier: GPL-2.0
/* CPU frequency governors grouped by (governor, driver). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sysinfo/cpufreq.h"

static void fmt_eq(const struct dbt_cpuset *s, const char *want)
{
	char buf[256];

	assert_true(dbt_cpuset_format_list(s, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void groups_by_governor_and_driver(void **state)
{
	struct dbt_cpufreq cf;

	memset(&cf, 0, sizeof(cf));
	dbt_cpufreq_add(&cf, 0, "performance", "intel_pstate");
	dbt_cpufreq_add(&cf, 1, "powersave", "intel_pstate");
	dbt_cpufreq_add(&cf, 2, "performance", "intel_pstate");
	dbt_cpufreq_add(&cf, 3, "powersave", "acpi-cpufreq");
	dbt_cpufreq_add(&cf, 4, "", "");	/* offline CPU: no cpufreq dir */
	assert_int_equal(cf.n_cpus, 5);
	assert_int_equal(cf.n_with_governor, 4);
	assert_int_equal(cf.n_groups, 3);
	assert_string_equal(cf.groups[0].governor, "performance");
	fmt_eq(&cf.groups[0].cpus, "0,2");
	assert_string_equal(cf.groups[1].driver, "intel_pstate");
	fmt_eq(&cf.groups[1].cpus, "1");
	assert_string_equal(cf.groups[2].driver, "acpi-cpufreq");
	fmt_eq(&cf.groups[2].cpus, "3");
}

static void too_many_groups_are_counted(void **state)
{
	struct dbt_cpufreq cf;
	char gov[16];

	memset(&cf, 0, sizeof(cf));
	for (unsigned int i = 0; i < DBT_CPUFREQ_GROUPS_MAX + 3; i++) {
		snprintf(gov, sizeof(gov), "g%u", i);
		dbt_cpufreq_add(&cf, i, gov, "d");
	}
	assert_int_equal(cf.n_groups, DBT_CPUFREQ_GROUPS_MAX);
	assert_int_equal(cf.n_other_cpus, 3);
	/* a CPU beyond the set's range is counted, not dropped silently */
	dbt_cpufreq_add(&cf, DBT_CPUSET_MAX, "g0", "d");
	assert_int_equal(cf.n_other_cpus, 4);
}

static void fixture_trees(void **state)
{
	struct dbt_cpufreq cf;

	assert_int_equal(dbt_cpufreq_read(FIXTURES "/clean", &cf), 0);
	assert_int_equal(cf.n_cpus, 4);
	assert_int_equal(cf.n_with_governor, 4);
	assert_int_equal(cf.n_groups, 1);
	assert_string_equal(cf.groups[0].governor, "performance");
	assert_string_equal(cf.groups[0].driver, "intel_pstate");
	fmt_eq(&cf.groups[0].cpus, "0-3");

	/* a tree without sys/devices/system/cpu */
	assert_int_equal(dbt_cpufreq_read(FIXTURES "/old-kernel-4cpu", &cf), -ENOENT);
	assert_int_equal(cf.n_with_governor, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_by_governor_and_driver),
		cmocka_unit_test(too_many_groups_are_counted),
		cmocka_unit_test(fixture_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
