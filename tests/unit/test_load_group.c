/* The recorded command's processes as one group, the load: whatever
 * --group-by formed, a sysbench under a shell script under dbtrace is
 * one group keyed by the command's pid; nothing else joins it, and a
 * process of it that was reparented stays in it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "model/load_group.h"

#define DBT "/usr/sbin/dbtrace"
#define SH "/usr/bin/dash"
#define SB "/usr/bin/sysbench"

/* dbtrace (400) ran `sh run.sh` (500), which runs two sysbench (510,
 * 520), one of which forked a helper (530); a second dash (600) and its
 * sysbench (610) are the user's, not dbtrace's; 700 was the command's
 * and now has init for a parent. All in one login session's cgroup. */
static struct proc_group_proc host[] = {
	{ .pid = 1, .ppid = 0, .exe = "/usr/lib/systemd/systemd", .comm = "systemd", .cgroup = "/init.scope" },
	{ .pid = 300, .ppid = 1, .exe = SH, .comm = "sh", .cgroup = "/user.slice/s1" },
	{ .pid = 400, .ppid = 300, .exe = DBT, .comm = "dbtrace", .cgroup = "/user.slice/s1" },
	{ .pid = 500, .ppid = 400, .exe = SH, .comm = "sh", .cgroup = "/user.slice/s1" },
	{ .pid = 510, .ppid = 500, .exe = SB, .comm = "sysbench", .cgroup = "/user.slice/s1" },
	{ .pid = 520, .ppid = 500, .exe = SB, .comm = "sysbench", .cgroup = "/user.slice/s1" },
	{ .pid = 530, .ppid = 520, .exe = SB, .comm = "sysbench", .cgroup = "/user.slice/s1" },
	{ .pid = 600, .ppid = 300, .exe = SH, .comm = "sh", .cgroup = "/user.slice/s1" },
	{ .pid = 610, .ppid = 600, .exe = SB, .comm = "sysbench", .cgroup = "/user.slice/s1" },
	{ .pid = 700, .ppid = 1, .exe = SB, .comm = "sysbench", .cgroup = "/user.slice/s1", .load = true },
};
#define N (sizeof(host) / sizeof(host[0]))

static struct proc_group_proc *find(struct proc_group_proc *p, uint32_t pid)
{
	for (size_t i = 0; i < N; i++)
		if (p[i].pid == pid)
			return &p[i];
	fail_msg("no pid %u", pid);
	return NULL;
}

static void formed(enum proc_group_by by, struct proc_group_proc *p)
{
	memcpy(p, host, sizeof(host));
	assert_int_equal(proc_group_form(p, N, by), 0);
	assert_int_equal(proc_group_join_load(p, N, 500), 0);
}

static void assert_load(struct proc_group_proc *p)
{
	static const uint32_t load[] = { 500, 510, 520, 530, 700 };

	for (size_t i = 0; i < sizeof(load) / sizeof(load[0]); i++) {
		assert_true(find(p, load[i])->load);
		assert_int_equal(find(p, load[i])->key, 500);
		assert_int_equal(find(p, load[i])->n_members, 5);
	}
	assert_false(find(p, 400)->load);
	assert_false(find(p, 600)->load);
	assert_false(find(p, 610)->load);
	assert_int_not_equal(find(p, 610)->key, 500);
	assert_int_not_equal(find(p, 400)->key, 500);
}

static void test_by_parent(void **state)
{
	struct proc_group_proc p[N];

	formed(PROC_GROUP_PARENT, p);
	assert_load(p);
	/* the user's own sysbench keeps its group of one */
	assert_int_equal(find(p, 610)->key, 610);
	assert_int_equal(find(p, 610)->n_members, 1);
}

static void test_by_pid(void **state)
{
	struct proc_group_proc p[N];

	formed(PROC_GROUP_PID, p);
	assert_load(p);
	assert_int_equal(find(p, 400)->key, 400);
}

/* by cgroup every process of the session was one group: the load leaves
 * it, the rest stay together under their lowest pid */
static void test_by_cgroup(void **state)
{
	struct proc_group_proc p[N];

	formed(PROC_GROUP_CGROUP, p);
	assert_load(p);
	assert_int_equal(find(p, 300)->key, 300);
	assert_int_equal(find(p, 610)->key, 300);
	assert_int_equal(find(p, 400)->key, 300);
	assert_int_equal(find(p, 300)->n_members, 4);
}

/* the command itself keyed the others' group (the lowest pid of a
 * cgroup): they stay a group under their own lowest pid */
static void test_load_led_others(void **state)
{
	struct proc_group_proc p[] = {
		{ .pid = 100, .ppid = 1, .exe = SB, .comm = "sysbench", .cgroup = "/c" },
		{ .pid = 200, .ppid = 1, .exe = SH, .comm = "sh", .cgroup = "/c" },
		{ .pid = 201, .ppid = 200, .exe = SH, .comm = "sh", .cgroup = "/c" },
	};

	assert_int_equal(proc_group_form(p, 3, PROC_GROUP_CGROUP), 0);
	assert_int_equal(p[1].key, 100);
	assert_int_equal(proc_group_join_load(p, 3, 100), 0);
	assert_int_equal(p[0].key, 100);
	assert_int_equal(p[0].n_members, 1);
	assert_int_equal(p[1].key, 200);
	assert_int_equal(p[2].key, 200);
	assert_int_equal(p[2].n_members, 2);
}

/* no load: nothing changes; a parent loop does not hang */
static void test_none_and_loop(void **state)
{
	struct proc_group_proc p[N], q[] = {
		{ .pid = 5, .ppid = 6, .comm = "a" },
		{ .pid = 6, .ppid = 5, .comm = "b" },
	};

	memcpy(p, host, sizeof(host));
	p[N - 1].load = false;
	assert_int_equal(proc_group_form(p, N, PROC_GROUP_PARENT), 0);
	assert_int_equal(proc_group_join_load(p, N, 0), 0);
	for (size_t i = 0; i < N; i++)
		assert_false(p[i].load);
	assert_int_equal(proc_group_join_load(q, 2, 7), 0);
	assert_false(q[0].load);
	assert_false(q[1].load);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_parent),
		cmocka_unit_test(test_by_pid),
		cmocka_unit_test(test_by_cgroup),
		cmocka_unit_test(test_load_led_others),
		cmocka_unit_test(test_none_and_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
