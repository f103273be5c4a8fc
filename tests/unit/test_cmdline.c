// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/cmdline.h"
#include "fixture_util.h"

static struct dbt_cmdline cl; /* 3 KiB of cpusets: keep it off the stack */

static void parse_str(const char *s)
{
	dbt_cmdline_parse(s, strlen(s), &cl);
}

static void fmt_eq(const struct dbt_cpuset *s, const char *want)
{
	char buf[128];

	assert_true(dbt_cpuset_format_list(s, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void ansvu_worker0(void **state)
{
	assert_int_equal(dbt_cmdline_read(FIXTURES "/ansvu-worker0", &cl), 0);
	assert_int_equal(cl.n_params, 24);
	assert_true(cl.skew_tick_present);
	assert_int_equal(cl.skew_tick, 1);
	assert_true(cl.nohz.present);
	assert_string_equal(cl.nohz.value, "on");
	assert_true(cl.rcu_nocbs.present);
	assert_int_equal(cl.rcu_nocbs.parse_err, 0);
	fmt_eq(&cl.rcu_nocbs.cpus, "26-51");
	assert_int_equal(dbt_cpuset_count(&cl.rcu_nocbs.cpus), 26);
	assert_true(cl.nohz_full.present);
	fmt_eq(&cl.nohz_full.cpus, "26-51");
	assert_true(cl.isolcpus.present);
	assert_int_equal(cl.isolcpus.parse_err, 0);
	fmt_eq(&cl.isolcpus.cpus, "26-51");
	assert_string_equal(cl.isolcpus.raw, "managed_irq,26-51");
	/* An explicit flag replaces the default "domain": these CPUs are
	 * kept free of managed IRQs only, not of the scheduler. */
	assert_int_equal(cl.isolcpus_flags, DBT_ISOL_MANAGED_IRQ);
	assert_true(cl.tsc.present);
	assert_string_equal(cl.tsc.value, "nowatchdog");
	assert_int_equal(cl.tsc_flags, DBT_TSC_NOWATCHDOG);
	assert_true(cl.idle.present);
	assert_string_equal(cl.idle.value, "poll");
	assert_false(cl.mitigations.present);
	assert_false(cl.clocksource.present);
}

static void ansvu_cnfdf06(void **state)
{
	assert_int_equal(dbt_cmdline_read(FIXTURES "/ansvu-cnfdf06", &cl), 0);
	assert_int_equal(cl.n_params, 23);
	assert_true(cl.skew_tick_present);
	assert_int_equal(cl.skew_tick, 1);
	assert_string_equal(cl.nohz.value, "on");
	fmt_eq(&cl.rcu_nocbs.cpus, "0-8");
	fmt_eq(&cl.isolcpus.cpus, "0-8");
	assert_int_equal(dbt_cpuset_count(&cl.isolcpus.cpus), 9);
	assert_int_equal(cl.isolcpus_flags, DBT_ISOL_MANAGED_IRQ);
	assert_false(cl.nohz_full.present);
	assert_true(dbt_cpuset_empty(&cl.nohz_full.cpus));
	assert_false(cl.idle.present);
	assert_int_equal(cl.tsc_flags, DBT_TSC_NOWATCHDOG);
}

static void host_style_without_options(void **state)
{
	assert_int_equal(dbt_cmdline_read(FIXTURES "/clean", &cl), 0);
	assert_int_equal(cl.n_params, 4);
	assert_false(cl.skew_tick_present);
	assert_int_equal(cl.skew_tick, 0);
	assert_false(cl.nohz.present);
	assert_false(cl.nohz_full.present);
	assert_false(cl.isolcpus.present);
	assert_int_equal(cl.isolcpus_flags, 0);
	assert_false(cl.rcu_nocbs.present);
	assert_false(cl.idle.present);
	assert_false(cl.mitigations.present);
	assert_false(cl.tsc.present);
	assert_int_equal(cl.tsc_flags, 0);

	assert_int_equal(dbt_cmdline_read(FIXTURES "/hpet-skewtick-netem", &cl),
			 0);
	assert_int_equal(cl.n_params, 10);
	assert_true(cl.skew_tick_present);
	assert_int_equal(cl.skew_tick, 1);
	assert_false(cl.tsc.present);

	assert_int_equal(dbt_cmdline_read(FIXTURES "/nonexistent", &cl),
			 -ENOENT);
}

/* The shape of this build host's own command line: the kernel stops at
 * "--" and hands the rest to init. */
static void firecracker_style(void **state)
{
	parse_str("mitigations=auto,no_guest_host,no_guest_guest console=ttyS0 "
		  "quiet reboot=k panic=1 rdinit=/process_api -- "
		  "--firecracker-init skew_tick=1 --addr 0.0.0.0:2024\n");
	assert_int_equal(cl.n_params, 6);
	assert_true(cl.mitigations.present);
	assert_string_equal(cl.mitigations.value,
			    "auto,no_guest_host,no_guest_guest");
	assert_false(cl.skew_tick_present);
}

static void kernel_tokenizer_rules(void **state)
{
	parse_str("skew-tick=2 idle=halt idle=poll \"nohz=off\" "
		  "mitigations=\"auto,nosmt\" foo=\"a b\" tsc=reliable "
		  "tsc=nowatchdog clocksource=hpet");
	assert_int_equal(cl.n_params, 9);
	assert_int_equal(cl.skew_tick, 2);		/* '-' == '_' */
	assert_string_equal(cl.idle.value, "poll");	/* last wins */
	assert_string_equal(cl.nohz.value, "off");	/* quoted token */
	assert_string_equal(cl.mitigations.value, "auto,nosmt");
	assert_string_equal(cl.tsc.value, "nowatchdog");
	assert_int_equal(cl.tsc_flags, DBT_TSC_RELIABLE | DBT_TSC_NOWATCHDOG);
	assert_string_equal(cl.clocksource.value, "hpet");

	parse_str("skew_tick=0x10");
	assert_int_equal(cl.skew_tick, 16);
	parse_str("skew_tick=abc");
	assert_true(cl.skew_tick_present);
	assert_int_equal(cl.skew_tick, 0);
	parse_str("skew_tick=99999999999999999999999999");
	assert_int_equal(cl.skew_tick, LONG_MAX);
	parse_str("skew_tick=-1");
	assert_int_equal(cl.skew_tick, -1);
	parse_str("skew_tick");
	assert_true(cl.skew_tick_present);
	assert_int_equal(cl.skew_tick, 0);
	parse_str("tsc=whatever nohz");
	assert_int_equal(cl.tsc_flags, DBT_TSC_OTHER);
	assert_true(cl.nohz.present);
	assert_string_equal(cl.nohz.value, "");
}

static void cpulist_options(void **state)
{
	parse_str("rcu_nocbs");
	assert_true(cl.rcu_nocbs.present);
	assert_false(cl.rcu_nocbs.has_value);
	assert_int_equal(cl.rcu_nocbs.parse_err, 0);
	assert_true(dbt_cpuset_empty(&cl.rcu_nocbs.cpus));

	parse_str("rcu_nocbs=all nohz_full=1-3,5");
	assert_true(cl.rcu_nocbs.has_value);
	assert_int_equal(cl.rcu_nocbs.parse_err, -EINVAL);
	assert_string_equal(cl.rcu_nocbs.raw, "all");
	fmt_eq(&cl.nohz_full.cpus, "1-3,5");

	parse_str("isolcpus=1-3");
	assert_int_equal(cl.isolcpus_flags, DBT_ISOL_DOMAIN);
	fmt_eq(&cl.isolcpus.cpus, "1-3");
	parse_str("isolcpus=nohz,domain,managed_irq,2-3");
	assert_int_equal(cl.isolcpus_flags,
			 DBT_ISOL_NOHZ | DBT_ISOL_DOMAIN | DBT_ISOL_MANAGED_IRQ);
	fmt_eq(&cl.isolcpus.cpus, "2-3");
	parse_str("isolcpus=future_flag,4");
	assert_int_equal(cl.isolcpus_flags,
			 DBT_ISOL_UNKNOWN | DBT_ISOL_DOMAIN);
	fmt_eq(&cl.isolcpus.cpus, "4");
	/* A flag with a character the kernel rejects voids the option. */
	parse_str("isolcpus=bad$flag,4");
	assert_true(cl.isolcpus.present);
	assert_int_equal(cl.isolcpus.parse_err, -EINVAL);
	assert_true(dbt_cpuset_empty(&cl.isolcpus.cpus));
	parse_str("isolcpus=domain,");
	assert_int_equal(cl.isolcpus.parse_err, 0);
	assert_true(dbt_cpuset_empty(&cl.isolcpus.cpus));
	parse_str("isolcpus=nohz");		/* no comma: unknown word */
	assert_int_equal(cl.isolcpus_flags,
			 DBT_ISOL_UNKNOWN | DBT_ISOL_DOMAIN);
	parse_str("nohz_full=99999");
	assert_int_equal(cl.nohz_full.parse_err, -ERANGE);
}

static void truncated_and_garbage(void **state)
{
	static char buf[4096];
	unsigned int seed = 7;
	static const char alphabet[] = "skew_tic=\"-, 0123456789isolcpusnohz"
				       "_fullmanaged_irq,rcu_nocbs\t\n\x01\xff";

	/* A cut in the middle of the value: nothing read past len. */
	dbt_cmdline_parse("skew_tick=15", 11, &cl);
	assert_int_equal(cl.skew_tick, 1);
	dbt_cmdline_parse("isolcpus=managed_irq,26-51", 24, &cl);
	assert_int_equal(cl.isolcpus.parse_err, -EINVAL);
	dbt_cmdline_parse("isolcpus=managed_irq,26-51", 23, &cl);
	fmt_eq(&cl.isolcpus.cpus, "26");
	dbt_cmdline_parse("\"unterminated quote skew_tick=1", 31, &cl);
	assert_int_equal(cl.n_params, 1);
	assert_false(cl.skew_tick_present);
	dbt_cmdline_parse(NULL, 0, &cl);
	assert_int_equal(cl.n_params, 0);
	dbt_cmdline_parse("", 0, &cl);
	assert_int_equal(cl.n_params, 0);

	/* Random token soup: only checks that nothing crashes or overruns
	 * (run under valgrind) and that strings stay terminated. */
	for (int iter = 0; iter < 2000; iter++) {
		size_t n = (size_t)rand_r(&seed) % sizeof(buf);

		for (size_t i = 0; i < n; i++)
			buf[i] = alphabet[(size_t)rand_r(&seed) %
					  (sizeof(alphabet) - 1)];
		dbt_cmdline_parse(buf, n, &cl);
		assert_true(strlen(cl.isolcpus.raw) < DBT_CMDLINE_VALUE_MAX);
		assert_true(strlen(cl.idle.value) < DBT_CMDLINE_VALUE_MAX);
	}
	/* One very long value is truncated in raw, parsed in full. */
	memset(buf, 0, sizeof(buf));
	strcpy(buf, "nohz_full=");
	for (int cpu = 0; cpu < 500; cpu += 2) {
		char item[8];

		snprintf(item, sizeof(item), "%s%d", cpu ? "," : "", cpu);
		strcat(buf, item);
	}
	parse_str(buf);
	assert_int_equal(cl.nohz_full.parse_err, 0);
	assert_int_equal(dbt_cpuset_count(&cl.nohz_full.cpus), 250);
	assert_int_equal(strlen(cl.nohz_full.raw), DBT_CMDLINE_VALUE_MAX - 1);
}

static void verbatim_copies(void **state)
{
	static const char *const copies[] = {
		"ansvu-worker0/proc/cmdline",
		"ansvu-cnfdf06/proc/cmdline",
	};

	assert_verbatim_copies(copies);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ansvu_worker0),
		cmocka_unit_test(ansvu_cnfdf06),
		cmocka_unit_test(host_style_without_options),
		cmocka_unit_test(firecracker_style),
		cmocka_unit_test(kernel_tokenizer_rules),
		cmocka_unit_test(cpulist_options),
		cmocka_unit_test(truncated_and_garbage),
		cmocka_unit_test(verbatim_copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
