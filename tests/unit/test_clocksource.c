// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/clocksource.h"
#include "fixture_util.h"

static void procfs_tsc(void **state)
{
	struct dbt_clocksource cs;

	assert_int_equal(dbt_clocksource_read(FIXTURES "/prometheus-procfs",
					      &cs), 0);
	assert_string_equal(cs.current, "tsc");
	assert_true(cs.has_available);
	/* "tsc hpet acpi_pm " with the kernel's trailing space. */
	assert_int_equal(cs.n_available, 3);
	assert_string_equal(cs.available[0], "tsc");
	assert_string_equal(cs.available[1], "hpet");
	assert_string_equal(cs.available[2], "acpi_pm");
	assert_true(dbt_clocksource_is_available(&cs, "acpi_pm"));
	assert_false(dbt_clocksource_is_available(&cs, "kvm-clock"));
	assert_int_equal(dbt_clocksource_vdso(cs.current, NULL), DBT_VDSO_YES);
}

static void kvm_guest_tsc_unstable(void **state)
{
	struct dbt_clocksource cs;

	assert_int_equal(dbt_clocksource_read(FIXTURES "/martins3-kvm-guest",
					      &cs), 0);
	assert_string_equal(cs.current, "kvm-clock");
	/* tsc was marked unstable, so the kernel hides it from the list. */
	assert_int_equal(cs.n_available, 1);
	assert_string_equal(cs.available[0], "kvm-clock");
	assert_false(dbt_clocksource_is_available(&cs, "tsc"));
	assert_int_equal(dbt_clocksource_vdso(cs.current, NULL), DBT_VDSO_YES);
}

static void synthetic_hpet_and_clean(void **state)
{
	struct dbt_clocksource cs;
	const char *why = NULL;

	assert_int_equal(dbt_clocksource_read(FIXTURES "/hpet-skewtick-netem",
					      &cs), 0);
	assert_string_equal(cs.current, "hpet");
	assert_int_equal(cs.n_available, 2);
	assert_string_equal(cs.available[0], "hpet");
	assert_string_equal(cs.available[1], "acpi_pm");
	assert_int_equal(dbt_clocksource_vdso(cs.current, &why), DBT_VDSO_NO);
	assert_non_null(strstr(why, "system call"));

	assert_int_equal(dbt_clocksource_read(FIXTURES "/clean", &cs), 0);
	assert_string_equal(cs.current, "tsc");
	assert_int_equal(cs.n_available, 3);
}

static void missing_files(void **state)
{
	struct dbt_clocksource cs;

	assert_int_equal(dbt_clocksource_read(FIXTURES "/ansvu-worker0", &cs),
			 -ENOENT);
	assert_string_equal(cs.current, "");
	assert_int_equal(cs.n_available, 0);
	/* current alone is enough: available is optional. */
	assert_int_equal(dbt_clocksource_read(FIXTURES "/old-kernel-4cpu",
					      &cs), 0);
	assert_string_equal(cs.current, "acpi_pm");
	assert_false(cs.has_available);
	assert_int_equal(dbt_clocksource_vdso(cs.current, NULL), DBT_VDSO_NO);
}

static void vdso_table(void **state)
{
	static const char *const yes[] = {
		"tsc", "kvm-clock", "hyperv_clocksource_tsc_page",
		"arch_sys_counter",
	};
	static const char *const no[] = {
		"hpet", "acpi_pm", "jiffies", "refined-jiffies",
	};
	const char *why = NULL;

	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(dbt_clocksource_vdso(yes[i], &why),
				 DBT_VDSO_YES);
		assert_non_null(why);
		assert_int_equal(dbt_clocksource_vdso(no[i], &why),
				 DBT_VDSO_NO);
		assert_non_null(strstr(why, no[i]));
	}
	assert_int_equal(dbt_clocksource_vdso("xen", &why),
			 DBT_VDSO_UNRELIABLE);
	assert_non_null(strstr(why, "xen"));
	assert_string_equal(dbt_vdso_str(DBT_VDSO_UNRELIABLE), "unreliable");
	assert_int_equal(dbt_clocksource_vdso("TSC", NULL), DBT_VDSO_UNKNOWN);
	assert_int_equal(dbt_clocksource_vdso("", &why), DBT_VDSO_UNKNOWN);
	assert_int_equal(dbt_clocksource_vdso(NULL, NULL), DBT_VDSO_UNKNOWN);
	assert_string_equal(dbt_vdso_str(DBT_VDSO_UNKNOWN), "unknown");
}

static void log_server_cpu67(void **state)
{
	struct dbt_clocksource_log log;

	assert_int_equal(dbt_clocksource_scan_log(
			FIXTURES "/lkml-server-cpu67-tsc-hpet/dmesg", &log), 0);
	assert_int_equal(log.n_lines, 7);
	/* The watchdog line and tsc's echo of it are one event. */
	assert_int_equal(log.n_unstable, 1);
	assert_string_equal(log.first_unstable,
		"[1196945.314929] clocksource: timekeeping watchdog on CPU67: "
		"Marking clocksource 'tsc' as unstable because the skew is "
		"too large:");
	assert_string_equal(log.last_switch, "hpet");
	assert_int_equal(log.n_switches, 1);
}

static void log_coffeelake_and_eviden(void **state)
{
	struct dbt_clocksource_log log;

	assert_int_equal(dbt_clocksource_scan_log(
			FIXTURES "/lkml-coffeelake-tsc-hpet/dmesg", &log), 0);
	assert_int_equal(log.n_unstable, 1);
	assert_string_equal(log.first_unstable,
		"clocksource: timekeeping watchdog on CPU3: Marking clocksource "
		"'tsc' as unstable because the skew is too large:");
	assert_string_equal(log.last_switch, "hpet");

	assert_int_equal(dbt_clocksource_scan_log(
			FIXTURES "/lkml-eviden-manysocket-tsc-hpet/dmesg", &log),
			 0);
	assert_int_equal(log.n_lines, 10);
	assert_int_equal(log.n_unstable, 1);
	assert_non_null(strstr(log.first_unstable, "CPU1750"));
	assert_string_equal(log.last_switch, "hpet");
	assert_int_equal(log.n_switches, 1);
}

static void log_kvm_forced(void **state)
{
	struct dbt_clocksource_log log;

	assert_int_equal(dbt_clocksource_scan_log(
			FIXTURES "/martins3-kvm-guest/dmesg", &log), 0);
	assert_int_equal(log.n_lines, 3);
	assert_int_equal(log.n_unstable, 1);
	assert_string_equal(log.first_unstable,
			    "tsc: Marking TSC unstable due to martins3");
	assert_string_equal(log.last_switch, "kvm-clock");
}

/* The runqueue clocks of the CPUs: one clock with a TSC or paravirtual
 * clocksource, per-CPU clocks once the kernel rejected the TSC (it then
 * reads hpet or acpi_pm), and, where the clocksource says nothing, the
 * kernel log decides. */
static void sched_clock_per_cpu(void **state)
{
	struct dbt_clocksource cs;
	struct dbt_clocksource_log log;

	assert_int_equal(dbt_clocksource_read(FIXTURES "/prometheus-procfs", &cs), 0);
	assert_false(dbt_sched_clock_per_cpu(&cs, NULL));
	/* kvm-clock: the hypervisor's sched_clock, whatever the log says of the TSC */
	assert_int_equal(dbt_clocksource_read(FIXTURES "/martins3-kvm-guest", &cs), 0);
	assert_int_equal(dbt_clocksource_scan_log(FIXTURES "/martins3-kvm-guest/dmesg", &log), 0);
	assert_int_equal(log.n_unstable, 1);
	assert_false(dbt_sched_clock_per_cpu(&cs, &log));
	assert_int_equal(dbt_clocksource_read(FIXTURES "/hpet-skewtick-netem", &cs), 0);
	assert_true(dbt_sched_clock_per_cpu(&cs, NULL));
	/* unknown clocksource: the log's word */
	memset(&cs, 0, sizeof(cs));
	assert_false(dbt_sched_clock_per_cpu(&cs, NULL));
	assert_true(dbt_sched_clock_per_cpu(&cs, &log));
	memset(&log, 0, sizeof(log));
	assert_false(dbt_sched_clock_per_cpu(&cs, &log));
}

static void log_buf_cases(void **state)
{
	struct dbt_clocksource_log log;
	static const char old[] =
		"Switching to clocksource hpet\n"
		"Clocksource tsc unstable (delta = -95937516 ns)\n"
		"Marking TSC unstable due to clocksource watchdog\n"
		"Switched to clocksource hpet\n"
		"tsc: Marking TSC unstable due to TSC halts in idle\n"
		"sched_clock: Marking unstable (1, 2)<-(3, 4)\n"
		"TSC found unstable after boot, most likely due to broken BIOS.\n"
		"clocksource: Switched to clocksource acpi_pm";

	dbt_clocksource_scan_log_buf(old, strlen(old), &log);
	assert_int_equal(log.n_lines, 8);
	/* 3.x watchdog + its echo, then an independent TSC mark. */
	assert_int_equal(log.n_unstable, 2);
	assert_string_equal(log.first_unstable,
			    "Clocksource tsc unstable (delta = -95937516 ns)");
	assert_int_equal(log.n_switches, 3);
	assert_string_equal(log.last_switch, "acpi_pm");

	/* A switch line cut right after the keyword names nothing. */
	dbt_clocksource_scan_log_buf("Switched to clocksource ", 24, &log);
	assert_int_equal(log.n_switches, 0);
	assert_string_equal(log.last_switch, "");
	dbt_clocksource_scan_log_buf(NULL, 0, &log);
	assert_int_equal(log.n_lines, 0);
}

static void log_overlong_and_garbage(void **state)
{
	struct dbt_clocksource_log log;
	size_t n = 20000;
	char *buf = malloc(n);

	assert_non_null(buf);
	/* One huge line with an embedded NUL and a long switch target. */
	memset(buf, 'x', n);
	memcpy(buf + 10, "Marking TSC unstable", 20);
	buf[40] = '\0';
	memcpy(buf + 100, "Switched to clocksource ", 24);
	dbt_clocksource_scan_log_buf(buf, n, &log);
	assert_int_equal(log.n_lines, 1);
	assert_int_equal(log.n_unstable, 1);
	assert_int_equal(strlen(log.first_unstable), 40);
	/* The name runs into the 4 KiB line cut: truncated, terminated. */
	assert_int_equal(log.n_switches, 0);
	assert_int_equal(strlen(log.last_switch), 0);
	free(buf);
	assert_int_equal(dbt_clocksource_scan_log(FIXTURES "/none/dmesg", &log),
			 -ENOENT);
}

static void verbatim_copies(void **state)
{
	static const char *const copies[] = {
		"prometheus-procfs/sys/devices/system/clocksource/clocksource0/current_clocksource",
		"prometheus-procfs/sys/devices/system/clocksource/clocksource0/available_clocksource",
		"martins3-kvm-guest/sys/devices/system/clocksource/clocksource0/current_clocksource",
		"martins3-kvm-guest/sys/devices/system/clocksource/clocksource0/available_clocksource",
		"martins3-kvm-guest/dmesg",
		"lkml-server-cpu67-tsc-hpet/dmesg",
		"lkml-coffeelake-tsc-hpet/dmesg",
		"lkml-eviden-manysocket-tsc-hpet/dmesg",
		"hpet-skewtick-netem/dmesg",
	};

	assert_verbatim_copies(copies);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(procfs_tsc),
		cmocka_unit_test(kvm_guest_tsc_unstable),
		cmocka_unit_test(synthetic_hpet_and_clean),
		cmocka_unit_test(missing_files),
		cmocka_unit_test(vdso_table),
		cmocka_unit_test(log_server_cpu67),
		cmocka_unit_test(log_coffeelake_and_eviden),
		cmocka_unit_test(log_kvm_forced),
		cmocka_unit_test(log_buf_cases),
		cmocka_unit_test(sched_clock_per_cpu),
		cmocka_unit_test(log_overlong_and_garbage),
		cmocka_unit_test(verbatim_copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
