// SPDX-License-Identifier: GPL-2.0
/* Groups of processes: by parent (PostgreSQL's postmaster and backends,
 * php-fpm's master and pools, a shell's workers), by cgroup, by pid; and
 * the log of the groups a run reported. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "model/proc_group.h"

#define PG "/usr/lib/postgresql/15/bin/postgres"
#define FPM "/usr/sbin/php-fpm8.2"

/* A host: systemd, a PostgreSQL server, php-fpm, a shell running two
 * workers and a lone process, a kernel thread pair and a process gone. */
static struct proc_group_proc host[] = {
	{ .pid = 1, .ppid = 0, .exe = "/usr/lib/systemd/systemd", .comm = "systemd", .cgroup = "/init.scope" },
	{ .pid = 2, .ppid = 0, .exe = "", .comm = "kthreadd", .cgroup = "/" },
	{ .pid = 900, .ppid = 1, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg.service" },
	{ .pid = 901, .ppid = 900, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg.service" },
	{ .pid = 950, .ppid = 900, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg.service" },
	{ .pid = 7000, .ppid = 900, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg.service" },
	/* a parallel worker's child would chain up the same way */
	{ .pid = 7100, .ppid = 7000, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg.service" },
	/* a second cluster under systemd, with its walwriter */
	{ .pid = 990, .ppid = 1, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg2.service" },
	{ .pid = 991, .ppid = 990, .exe = PG, .comm = "postgres", .cgroup = "/system.slice/pg2.service" },
	/* two more php-fpm masters with no workers: one group */
	{ .pid = 520, .ppid = 1, .exe = FPM, .comm = "php-fpm8.2", .cgroup = "/x" },
	{ .pid = 510, .ppid = 1, .exe = FPM, .comm = "php-fpm8.2", .cgroup = "/x" },
	{ .pid = 500, .ppid = 1, .exe = FPM, .comm = "php-fpm8.2", .cgroup = "/system.slice/fpm.service" },
	{ .pid = 501, .ppid = 500, .exe = FPM, .comm = "php-fpm8.2", .cgroup = "/system.slice/fpm.service" },
	{ .pid = 300, .ppid = 1, .exe = "/usr/bin/bash", .comm = "bash", .cgroup = "/user.slice" },
	{ .pid = 310, .ppid = 300, .exe = "/opt/w", .comm = "worker", .cgroup = "/user.slice" },
	{ .pid = 305, .ppid = 300, .exe = "/opt/w", .comm = "worker", .cgroup = "/user.slice" },
	{ .pid = 320, .ppid = 300, .exe = "/opt/w", .comm = "w2", .cgroup = "/user.slice" },
	{ .pid = 330, .ppid = 300, .exe = "/usr/bin/pgbench", .comm = "pgbench", .cgroup = "/user.slice" },
	{ .pid = 10, .ppid = 2, .exe = "", .comm = "kworker/0:1", .cgroup = "/" },
	{ .pid = 11, .ppid = 2, .exe = "", .comm = "kworker/1:1", .cgroup = "/" },
	/* read as gone: its own parent, nothing known */
	{ .pid = 8000, .ppid = 8000, .exe = "", .comm = "", .cgroup = "" },
	{ .pid = 8001, .ppid = 8001, .exe = "", .comm = "", .cgroup = "" },
};
#define N (sizeof(host) / sizeof(host[0]))

static const struct proc_group_proc *find(uint32_t pid)
{
	for (size_t i = 0; i < N; i++)
		if (host[i].pid == pid)
			return &host[i];
	fail_msg("no pid %u", pid);
	return NULL;
}

static void test_by_parent(void **state)
{
	(void)state;
	assert_int_equal(proc_group_form(host, N, PROC_GROUP_PARENT), 0);
	/* the postmaster leads its backends, aux processes and their children */
	for (uint32_t pid = 900; pid; pid = pid == 900 ? 901 : pid == 901 ? 950 : pid == 950 ? 7000 :
	     pid == 7000 ? 7100 : 0) {
		assert_int_equal(find(pid)->key, 900);
		assert_int_equal(find(pid)->n_members, 5);
	}
	assert_int_equal(find(501)->key, 500);
	assert_int_equal(find(500)->n_members, 2);
	/* each server with its own processes is a group of its own */
	assert_int_equal(find(991)->key, 990);
	assert_int_equal(find(990)->n_members, 2);
	/* childless siblings of one program are one */
	assert_int_equal(find(520)->key, 510);
	assert_int_equal(find(510)->n_members, 2);
	/* siblings of one program under a parent of another: lowest pid leads */
	assert_int_equal(find(310)->key, 305);
	assert_int_equal(find(305)->key, 305);
	assert_int_equal(find(305)->n_members, 2);
	/* same executable, another name: its own */
	assert_int_equal(find(320)->key, 320);
	assert_int_equal(find(330)->key, 330);
	assert_int_equal(find(300)->key, 300);
	assert_int_equal(find(1)->key, 1);
	/* kernel threads: no executable, their comms differ */
	assert_int_equal(find(10)->key, 10);
	assert_int_equal(find(11)->key, 11);
	/* unknown processes never join each other */
	assert_int_equal(find(8000)->key, 8000);
	assert_int_equal(find(8001)->n_members, 1);
}

static void test_by_cgroup(void **state)
{
	(void)state;
	assert_int_equal(proc_group_form(host, N, PROC_GROUP_CGROUP), 0);
	assert_int_equal(find(7100)->key, 900);
	assert_int_equal(find(900)->n_members, 5);
	assert_int_equal(find(501)->key, 500);
	assert_int_equal(find(991)->key, 990);
	assert_int_equal(find(330)->key, 300);
	assert_int_equal(find(330)->n_members, 5);
	assert_int_equal(find(11)->key, 2);
	assert_int_equal(find(8001)->key, 8001);
	assert_int_equal(find(8000)->key, 8000);
}

/* Pids wrap: the postmaster (32700) forked its auxiliaries at 624 and 627
 * after the wrap; the cgroup's group is still led by the process whose
 * parent (a shell) is outside it. A loop (pids reused while /proc was read)
 * with no such head falls back to the lowest pid. */
static void test_cgroup_pid_wrap(void **state)
{
	struct proc_group_proc p[] = {
		{ .pid = 627, .ppid = 32700, .exe = PG, .comm = "postgres", .cgroup = "/pg.service" },
		{ .pid = 500, .ppid = 1, .exe = "/usr/bin/bash", .comm = "bash", .cgroup = "/user.slice" },
		{ .pid = 32700, .ppid = 500, .exe = PG, .comm = "postgres", .cgroup = "/pg.service" },
		{ .pid = 624, .ppid = 32700, .exe = PG, .comm = "postgres", .cgroup = "/pg.service" },
		{ .pid = 32673, .ppid = 32700, .exe = PG, .comm = "postgres", .cgroup = "/pg.service" },
		{ .pid = 5, .ppid = 6, .exe = "/x", .comm = "x", .cgroup = "/loop" },
		{ .pid = 6, .ppid = 5, .exe = "/x", .comm = "x", .cgroup = "/loop" },
	};

	(void)state;
	assert_int_equal(proc_group_form(p, 7, PROC_GROUP_CGROUP), 0);
	for (size_t i = 0; i < 5; i++)
		if (p[i].pid != 500)
			assert_int_equal(p[i].key, 32700);
	assert_int_equal(p[2].n_members, 4);
	assert_int_equal(p[1].key, 500);
	assert_int_equal(p[5].key, 5);
	assert_int_equal(p[6].key, 5);
}

static void test_by_pid(void **state)
{
	(void)state;
	assert_int_equal(proc_group_form(host, N, PROC_GROUP_PID), 0);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(host[i].key, host[i].pid);
		assert_int_equal(host[i].n_members, 1);
	}
}

/* A parent loop (pids reused while /proc was read) ends. */
static void test_parent_loop(void **state)
{
	struct proc_group_proc p[] = {
		{ .pid = 5, .ppid = 6, .exe = "/x", .comm = "x" },
		{ .pid = 6, .ppid = 5, .exe = "/x", .comm = "x" },
	};

	(void)state;
	assert_int_equal(proc_group_form(p, 2, PROC_GROUP_PARENT), 0);
	assert_int_equal(p[0].n_members + p[1].n_members >= 2, 1);
	assert_int_equal(proc_group_form(NULL, 0, PROC_GROUP_PARENT), 0);
	assert_int_equal(proc_group_form(NULL, 1, PROC_GROUP_PARENT), -EINVAL);
	assert_int_equal(proc_group_form(p, 2, (enum proc_group_by)7), -EINVAL);
}

static void test_names(void **state)
{
	enum proc_group_by by = PROC_GROUP_PID;

	(void)state;
	assert_int_equal(proc_group_by_parse("cgroup", &by), 0);
	assert_int_equal(by, PROC_GROUP_CGROUP);
	assert_int_equal(proc_group_by_parse("parent", &by), 0);
	assert_int_equal(by, PROC_GROUP_PARENT);
	assert_int_equal(proc_group_by_parse("pid", &by), 0);
	assert_int_equal(by, PROC_GROUP_PID);
	assert_int_equal(proc_group_by_parse("process", &by), -EINVAL);
	assert_int_equal(proc_group_by_parse(NULL, &by), -EINVAL);
	assert_string_equal(proc_group_by_name(PROC_GROUP_PARENT), "parent");
	assert_string_equal(proc_group_by_name(PROC_GROUP_CGROUP), "cgroup");
}

static void test_log(void **state)
{
	struct proc_group_log log = { .by = PROC_GROUP_PARENT };
	const uint32_t a[] = { 950, 900, 901 }, b[] = { 901, 7000, 900 };
	const struct proc_group_seen *g;

	(void)state;
	assert_int_equal(proc_group_log_add(&log, 900, "postgres", a, 3), 0);
	assert_int_equal(proc_group_log_add(&log, 300, "bash", NULL, 0), 0);
	assert_int_equal(proc_group_log_add(&log, 900, "postgres", b, 3), 0);
	assert_int_equal(log.n, 2);
	g = proc_group_log_find(&log, 900);
	assert_non_null(g);
	assert_string_equal(g->comm, "postgres");
	assert_int_equal(g->n_pids, 4);
	assert_int_equal(g->pids[0], 900);
	assert_int_equal(g->pids[1], 901);
	assert_int_equal(g->pids[2], 950);
	assert_int_equal(g->pids[3], 7000);
	assert_null(proc_group_log_find(&log, 1));
	proc_group_log_free(&log);
	assert_int_equal(log.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_parent),
		cmocka_unit_test(test_by_cgroup),
		cmocka_unit_test(test_cgroup_pid_wrap),
		cmocka_unit_test(test_by_pid),
		cmocka_unit_test(test_parent_loop),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
