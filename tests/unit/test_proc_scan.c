// SPDX-License-Identifier: GPL-2.0
/* Walking ROOT/proc: CPU time per process for default targets, and the
 * union of a process's threads' allowed CPUs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/proc_scan.h"

static void fmt_eq(const struct dbt_cpuset *s, const char *want)
{
	char buf[256];

	assert_true(dbt_cpuset_format_list(s, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void stat_line_parse(void **state)
{
	/* a comm with a space and a ')' of its own, as prctl(PR_SET_NAME) allows */
	const char *line = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 88211 0 12 0 "
			   "987654 123456 0 0 20 0 212 0 1834 33712095232\n";
	struct dbt_proc_cpu pc;

	assert_int_equal(dbt_proc_stat_parse(line, strlen(line), &pc), 0);
	assert_int_equal(pc.pid, 4242);
	assert_int_equal(pc.ppid, 1);
	assert_string_equal(pc.comm, "a) b (c)");
	assert_int_equal(pc.ticks, 987654 + 123456);
}

static void stat_line_rejects(void **state)
{
	struct dbt_proc_cpu pc;
	const char *short_line = "12 (x) S 1 2 3";
	const char *no_paren = "12 x S 1 2 3 4 5 6 7 8 9 10 11 12";

	assert_int_equal(dbt_proc_stat_parse(short_line, strlen(short_line), &pc), -EINVAL);
	assert_int_equal(dbt_proc_stat_parse(no_paren, strlen(no_paren), &pc), -EINVAL);
	assert_int_equal(dbt_proc_stat_parse("", 0, &pc), -EINVAL);
}

/* Fuzzing regression (fuzz_proc_pid): the parser takes a length, and the
 * bytes after it are not its to read (sscanf and strtoull ran on to a
 * NUL past the end). Here stime ends at len: "34", not "3456". */
static void stat_line_stops_at_len(void **state)
{
	const char text[] = "42 (x) S 1 42 42 0 -1 0 0 0 0 0 12 3456";
	struct dbt_proc_cpu pc;

	assert_int_equal(dbt_proc_stat_parse(text, sizeof(text) - 3, &pc), 0);
	assert_int_equal(pc.ticks, 12 + 34);
	/* and a pid cut by len is not read on */
	assert_int_equal(dbt_proc_stat_parse("7(x) S 1 2 3 4 5 6 7 8 9 10 11 12", 33, &pc), 0);
	assert_int_equal(pc.pid, 7);
	assert_int_equal(dbt_proc_stat_parse("(x) S 1 2 3 4 5 6 7 8 9 10 11 12", 32, &pc), -EINVAL);
}

static void cpu_list_on_fixture(void **state)
{
	struct dbt_proc_cpu *v;
	size_t n;

	assert_int_equal(dbt_proc_cpu_list(FIXTURES "/hpet-skewtick-netem", &v, &n), 0);
	assert_int_equal(n, 2);		/* irqbalance 1187, observer 4242 */
	assert_int_equal(v[0].pid, 1187);
	assert_string_equal(v[1].comm, "observer");
	assert_int_equal(v[1].ticks, 1111110);
	free(v);
	assert_int_equal(dbt_proc_cpu_list(FIXTURES "/prometheus-procfs", &v, &n), -ENOENT);
	assert_null(v);
}

static void top_by_growth_then_total(void **state)
{
	struct dbt_proc_cpu prev[] = {
		{ .pid = 10, .ticks = 1000 }, { .pid = 20, .ticks = 5 }, { .pid = 30, .ticks = 50 },
	};
	struct dbt_proc_cpu cur[] = {
		{ .pid = 10, .ticks = 1001 }, { .pid = 20, .ticks = 45 }, { .pid = 30, .ticks = 90 },
		{ .pid = 40, .ticks = 7 }, { .pid = 50, .ticks = 2 },
	};
	int pids[4] = { 0 };

	/* growth: 20 and 30 by 40 (tie: lower pid first), 40 new with 7 */
	assert_int_equal(dbt_proc_top_cpu(prev, 3, cur, 5, 3, pids, 4), 3);
	assert_int_equal(pids[0], 20);
	assert_int_equal(pids[1], 30);
	assert_int_equal(pids[2], 40);
	/* totals, cut to two */
	assert_int_equal(dbt_proc_top_cpu(NULL, 0, cur, 5, 1, pids, 2), 2);
	assert_int_equal(pids[0], 10);
	assert_int_equal(pids[1], 30);
	/* nothing busy enough */
	assert_int_equal(dbt_proc_top_cpu(prev, 3, cur, 5, 100, pids, 4), 0);
}

static void task_cpus_union(void **state)
{
	struct dbt_task_cpus tc;

	/* main thread and RpcIO on 0-1, the worker bound to 1 */
	assert_int_equal(dbt_proc_task_cpus(FIXTURES "/hpet-skewtick-netem", 4242, &tc), 0);
	assert_string_equal(tc.comm, "observer");
	assert_int_equal(tc.n_threads, 3);
	assert_int_equal(tc.n_differ, 1);
	fmt_eq(&tc.allowed, "0-1");

	assert_int_equal(dbt_proc_task_cpus(FIXTURES "/clean", 4242, &tc), 0);
	assert_int_equal(tc.n_differ, 0);
	fmt_eq(&tc.allowed, "0-3");

	assert_int_equal(dbt_proc_task_cpus(FIXTURES "/clean", 77, &tc), -ENOENT);
}

static int count(void *ctx, int pid)
{
	(*(int *)ctx)++;
	return pid == 4243 ? 7 : 0;	/* stop at the worker */
}

static void walk_stops_on_nonzero(void **state)
{
	int n = 0;
	int rc = dbt_proc_for_each_task(FIXTURES "/hpet-skewtick-netem", 4242, count, &n);

	/* directory order is the filesystem's: 4243 comes first, second or
	 * third, and the walk ends there */
	assert_int_equal(rc, 7);
	assert_true(n >= 1 && n <= 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_line_parse),
		cmocka_unit_test(stat_line_rejects),
		cmocka_unit_test(stat_line_stops_at_len),
		cmocka_unit_test(cpu_list_on_fixture),
		cmocka_unit_test(top_by_growth_then_total),
		cmocka_unit_test(task_cpus_union),
		cmocka_unit_test(walk_stops_on_nonzero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
