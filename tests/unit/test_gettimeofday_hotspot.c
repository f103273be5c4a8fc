// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/gettimeofday_hotspot.h"

static void hint_of(const char *tree, int kinds, char *buf, size_t len)
{
	struct clock_env e;

	clock_env_read(tree, &e);
	gtod_hint(&e, kinds, buf, len);
	printf("  %s: %s\n", tree + strlen(FIXTURES) + 1, buf);
}

/* The field case: hpet, skew_tick=1 from tuned network-latency. */
static void hint_hpet_skew_tick_tuned(void **state)
{
	char h[512];

	hint_of(FIXTURES "/hpet-skewtick-netem", GTOD_VDSO | GTOD_SYSCALLS, h, sizeof(h));
	assert_non_null(strstr(h, "clocksource is hpet: every clock read is a syscall"));
	assert_non_null(strstr(h, "skew_tick=1 on the kernel command line (tuned profile network-latency)"));
	/* the kernel log's verdict on the TSC, without its timestamp */
	assert_non_null(strstr(h, "Marking clocksource 'tsc' as unstable"));
	assert_null(strstr(h, "[1196945"));
	/* tsc is not offered any more: no advice to switch to it */
	assert_null(strstr(h, "echo tsc"));
	/* hpet first: it explains every call, skew_tick only the vDSO cost */
	assert_true(strstr(h, "hpet") < strstr(h, "skew_tick"));
}

/* tsc and a clean command line: nothing to blame but the call rate. */
static void hint_tsc_clean(void **state)
{
	char h[512];

	hint_of(FIXTURES "/clean", GTOD_VDSO, h, sizeof(h));
	assert_null(strstr(h, "skew_tick"));
	assert_null(strstr(h, "syscall"));
	assert_non_null(strstr(h, "from tsc"));
	assert_non_null(strstr(h, "call rate"));

	/* the same host with real clock syscalls: the vDSO is bypassed */
	hint_of(FIXTURES "/clean", GTOD_SYSCALLS, h, sizeof(h));
	assert_non_null(strstr(h, "clocksource tsc is read in user space"));
	assert_non_null(strstr(h, "bypasses the vDSO"));
}

/* kvm-clock is vDSO-capable even with the TSC marked unstable. */
static void hint_kvm_clock(void **state)
{
	char h[512];

	hint_of(FIXTURES "/martins3-kvm-guest", GTOD_VDSO, h, sizeof(h));
	assert_null(strstr(h, "every clock read is a syscall"));
	assert_null(strstr(h, "unstable"));
	assert_non_null(strstr(h, "kvm-clock"));
}

/* xen: depends on the hypervisor; tsc offered; skew_tick without tuned. */
static void hint_xen_skew_tick_no_tuned(void **state)
{
	char h[512];

	hint_of(FIXTURES "/xen-guest", GTOD_VDSO, h, sizeof(h));
	assert_non_null(strstr(h, "clocksource is xen"));
	assert_non_null(strstr(h, "hypervisor"));
	assert_non_null(strstr(h, "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource"));
	assert_non_null(strstr(h, "skew_tick=1 on the kernel command line"));
	assert_null(strstr(h, "tuned profile"));
	assert_non_null(strstr(h, "nohz=on"));
}

/* acpi_pm on an old kernel, no tuned, no log. */
static void hint_acpi_pm(void **state)
{
	char h[512];

	hint_of(FIXTURES "/old-kernel-4cpu", GTOD_SYSCALLS, h, sizeof(h));
	assert_non_null(strstr(h, "clocksource is acpi_pm: every clock read is a syscall"));
}

/* A real RT command line: skew_tick plus the isolation settings. */
static void hint_rt_cmdline(void **state)
{
	char h[512];

	hint_of(FIXTURES "/ansvu-worker0", GTOD_VDSO, h, sizeof(h));
	assert_non_null(strstr(h, "skew_tick=1"));
	assert_non_null(strstr(h, "nohz_full=26-51"));
	assert_non_null(strstr(h, "isolcpus=managed_irq,26-51"));
	assert_non_null(strstr(h, "idle=poll"));
}

static void hint_is_bounded(void **state)
{
	struct clock_env e;
	char small[40];
	size_t n;

	clock_env_read(FIXTURES "/hpet-skewtick-netem", &e);
	n = gtod_hint(&e, GTOD_VDSO, small, sizeof(small));
	assert_true(n < sizeof(small));
	assert_int_equal(strlen(small), n);
	assert_int_equal(gtod_hint(&e, GTOD_VDSO, small, 0), 0);
}

/* --- the rule ----------------------------------------------------------- */

static struct clock_stats stats(const char *name, uint64_t samples, uint64_t vdso_slot1,
				uint64_t sys, uint64_t cgt_calls, double dt)
{
	struct clock_stats s;

	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.threads = 1;
	s.samples = samples;
	s.vdso[1] = vdso_slot1;
	s.vdso_samples = vdso_slot1;
	s.sys_samples = sys;
	s.syscalls[DBT_CLOCK_SYS_CLOCK_GETTIME] = cgt_calls;
	clock_stats_finish(&s, dt);
	return s;
}

static struct clock_fn_table fns(void)
{
	struct clock_fn_table t;

	memset(&t, 0, sizeof(t));
	strcpy(t.name[1], "gettimeofday");
	return t;
}

static const struct finding_evidence *ev(const struct finding *f, const char *key)
{
	for (int i = 0; i < f->n_ev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	return NULL;
}

static void rule_vdso_share(void **state)
{
	struct clock_stats cls[2] = { stats("worker-*", 400, 200, 0, 0, 1),
				      stats("io", 100, 0, 0, 0, 1) };
	struct clock_group_stats p = { .pid = 42, .comm = "mysqld", .classes = cls, .n_classes = 2 };
	struct clock_interval iv = { .dt_s = 1, .groups = &p, .n_groups = 1 };
	struct clock_fn_table t = fns();
	struct finding_list out = { 0 };
	struct gtod_config cfg;
	struct clock_env env;

	p.total = stats("mysqld", 500, 200, 0, 0, 1);
	gtod_config_default(&cfg);
	clock_env_read(FIXTURES "/hpet-skewtick-netem", &env);
	assert_int_equal(gettimeofday_hotspot_check(&iv, &t, &env, &cfg, 3, &out), 0);
	assert_int_equal(out.n, 1);   /* the process, not also its class */
	assert_string_equal(out.items[0].id, "gettimeofday_hotspot");
	assert_int_equal(out.items[0].pid, 42);
	assert_string_equal(out.items[0].class_name, "");
	assert_int_equal(out.items[0].severity, SEV_CRITICAL);   /* 40% >= 3 x 10% */
	assert_int_equal(out.items[0].first_interval, 3);
	assert_float_equal(ev(&out.items[0], "vdso_pct")->num, 40.0, 1e-9);
	assert_string_equal(ev(&out.items[0], "vdso_top_function")->text, "gettimeofday");
	assert_string_equal(ev(&out.items[0], "clocksource")->text, "hpet");
	assert_string_equal(ev(&out.items[0], "tuned_profile")->text, "network-latency");
	assert_non_null(strstr(out.items[0].title, "mysqld (pid 42)"));
	assert_non_null(strstr(out.items[0].title, "40.0% of its CPU in the vDSO clock (gettimeofday)"));
	assert_non_null(strstr(out.items[0].hint, "skew_tick=1"));
	findings_free(&out);
}

static void rule_thresholds(void **state)
{
	struct clock_stats cls[1];
	struct clock_group_stats p = { .pid = 7, .comm = "app", .classes = cls, .n_classes = 1 };
	struct clock_interval iv = { .dt_s = 2, .groups = &p, .n_groups = 1 };
	struct finding_list out = { 0 };
	struct gtod_config cfg;
	struct clock_env env;

	gtod_config_default(&cfg);
	clock_env_read(FIXTURES "/clean", &env);

	/* 9% of 1000 samples and 19k calls in 2 s: under both thresholds */
	cls[0] = p.total = stats("app", 1000, 90, 0, 19000, 2);
	assert_int_equal(gettimeofday_hotspot_check(&iv, NULL, &env, &cfg, 0, &out), 0);
	assert_int_equal(out.n, 0);

	/* 30% but only 10 samples: too few to say anything */
	cls[0] = p.total = stats("app", 10, 3, 0, 0, 2);
	assert_int_equal(gettimeofday_hotspot_check(&iv, NULL, &env, &cfg, 0, &out), 0);
	assert_int_equal(out.n, 0);

	/* 21k calls in 2 s with hardly a sample: the rate alone raises it */
	cls[0] = p.total = stats("app", 10, 0, 1, 21000, 2);
	assert_int_equal(gettimeofday_hotspot_check(&iv, NULL, &env, &cfg, 0, &out), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.items[0].severity, SEV_WARNING);
	assert_float_equal(ev(&out.items[0], "clock_syscalls_per_s")->num, 10500, 1e-9);
	assert_float_equal(ev(&out.items[0], "clock_gettime_per_s")->num, 10500, 1e-9);
	assert_non_null(strstr(out.items[0].hint, "bypasses the vDSO"));
	findings_clear(&out);

	/* configurable: 5% and 100k/s */
	cfg.vdso_pct = 5;
	cfg.syscalls_per_s = 100000;
	cls[0] = p.total = stats("app", 1000, 90, 0, 21000, 2);
	assert_int_equal(gettimeofday_hotspot_check(&iv, NULL, &env, &cfg, 0, &out), 0);
	assert_int_equal(out.n, 1);
	assert_string_equal(ev(&out.items[0], "vdso_top_function")->text, "other");
	findings_free(&out);
}

/* A hot pool inside a process that is not hot as a whole. */
static void rule_class_only(void **state)
{
	struct clock_stats cls[2] = { stats("TNT_L0_1002", 100, 50, 0, 0, 1),
				      stats("RpcIO", 1900, 0, 0, 0, 1) };
	struct clock_group_stats p = { .pid = 9, .comm = "observer", .classes = cls, .n_classes = 2 };
	struct clock_interval iv = { .dt_s = 1, .groups = &p, .n_groups = 1 };
	struct finding_list out = { 0 };
	struct gtod_config cfg;
	struct clock_env env;

	p.total = stats("observer", 2000, 50, 0, 0, 1);
	gtod_config_default(&cfg);
	clock_env_read(FIXTURES "/clean", &env);
	assert_int_equal(gettimeofday_hotspot_check(&iv, NULL, &env, &cfg, 0, &out), 0);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.items[0].class_name, "TNT_L0_1002");
	assert_non_null(strstr(out.items[0].title, "class TNT_L0_1002"));
	findings_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hint_hpet_skew_tick_tuned),
		cmocka_unit_test(hint_tsc_clean),
		cmocka_unit_test(hint_kvm_clock),
		cmocka_unit_test(hint_xen_skew_tick_no_tuned),
		cmocka_unit_test(hint_acpi_pm),
		cmocka_unit_test(hint_rt_cmdline),
		cmocka_unit_test(hint_is_bounded),
		cmocka_unit_test(rule_vdso_share),
		cmocka_unit_test(rule_thresholds),
		cmocka_unit_test(rule_class_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
