// SPDX-License-Identifier: GPL-2.0
/* The session's process groups as check and the misbinding rules use
 * them: a pid's group key, and a CPU list folded per group so that a
 * hundred small backends add up to one busy server. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "session/proc_groups.h"

static void test_key_and_fold(void **state)
{
	struct proc_groups_entry e[4] = { 0 };
	struct class_map_proc procs[4] = {
		{ 100, 100, NULL }, { 200, 200, NULL }, { 201, 200, "postgres: backend" },
		{ 202, 200, "postgres: backend" },
	};
	struct proc_groups g = { .e = e, .n = 4, .procs = procs };
	/* sorted by pid, as dbt_proc_cpu_list gives them */
	struct dbt_proc_cpu cpu[] = {
		{ .pid = 50, .comm = "sshd", .ticks = 1 },
		{ .pid = 100, .comm = "mysqld", .ticks = 30 },
		{ .pid = 201, .comm = "postgres", .ticks = 18 },
		{ .pid = 202, .comm = "postgres", .ticks = 13 },
		{ .pid = 200, .comm = "postgres", .ticks = 0 },
	};
	size_t n = 5;
	int top[2];

	(void)state;
	for (int i = 0; i < 4; i++)
		e[i].id.pid = (int)procs[i].pid;
	assert_int_equal(proc_groups_key(&g, 202), 200);
	assert_int_equal(proc_groups_key(&g, 100), 100);
	assert_int_equal(proc_groups_key(&g, 7), 7);
	assert_int_equal(proc_groups_key(NULL, 202), 202);
	proc_groups_fold_cpu(&g, cpu, &n);
	assert_int_equal(n, 3);
	assert_int_equal(cpu[0].pid, 50);
	assert_int_equal(cpu[1].pid, 100);
	assert_int_equal(cpu[2].pid, 200);
	assert_int_equal(cpu[2].ticks, 31);
	assert_string_equal(cpu[2].comm, "postgres");
	/* the server, not mysqld, is the busiest once its backends add up */
	assert_int_equal(dbt_proc_top_cpu(NULL, 0, cpu, n, 1, top, 2), 2);
	assert_int_equal(top[0], 200);
	assert_int_equal(top[1], 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_and_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
