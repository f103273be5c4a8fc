// SPDX-License-Identifier: GPL-2.0
/* --cgroup: a path or a systemd unit name resolved below the cgroup v2
 * mount (unified or systemd's hybrid layout), the "0::" line of
 * /proc/PID/cgroup, and which cgroups a selection holds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/proc_groups.h"
#include "sysinfo/cgroup_path.h"
#include "sysinfo/proc_identity.h"

static char root[64];

static void mk(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void touch(const char *rel)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

/* ROOT/sys/fs/cgroup[/unified] with a service and a session scope. */
static void make_tree(bool hybrid)
{
	const char *base = hybrid ? "sys/fs/cgroup/unified" : "sys/fs/cgroup";
	char p[256];

	snprintf(root, sizeof(root), "/tmp/dbtrace-cgroup.XXXXXX");
	assert_non_null(mkdtemp(root));
	mk("sys");
	mk("sys/fs");
	mk("sys/fs/cgroup");
	if (hybrid) {
		mk("sys/fs/cgroup/cpu");   /* a v1 controller beside */
		mk("sys/fs/cgroup/cpu/system.slice");
		mk(base);
	}
	snprintf(p, sizeof(p), "%s/cgroup.controllers", base);
	touch(p);
	snprintf(p, sizeof(p), "%s/system.slice", base);
	mk(p);
	snprintf(p, sizeof(p), "%s/system.slice/postgresql@15-main.service", base);
	mk(p);
	snprintf(p, sizeof(p), "%s/user.slice", base);
	mk(p);
	snprintf(p, sizeof(p), "%s/user.slice/session-4.scope", base);
	mk(p);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void check_resolves(void)
{
	char out[256];

	assert_int_equal(dbt_cgroup_resolve(root, "postgresql@15-main.service", out, sizeof(out)), 0);
	assert_string_equal(out, "/system.slice/postgresql@15-main.service");
	assert_int_equal(dbt_cgroup_resolve(root, "system.slice", out, sizeof(out)), 0);
	assert_string_equal(out, "/system.slice");
	assert_int_equal(dbt_cgroup_resolve(root, "/user.slice/session-4.scope/", out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/session-4.scope");
	assert_int_equal(dbt_cgroup_resolve(root, "/sys/fs/cgroup/system.slice", out, sizeof(out)), 0);
	assert_string_equal(out, "/system.slice");
	assert_int_equal(dbt_cgroup_resolve(root, "/sys/fs/cgroup", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(dbt_cgroup_resolve(root, "session-4.scope", out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/session-4.scope");
	assert_int_equal(dbt_cgroup_resolve(root, "nosuch.service", out, sizeof(out)), -ENOENT);
	assert_int_equal(dbt_cgroup_resolve(root, "system.slice/nosuch", out, sizeof(out)), -ENOENT);
	assert_int_equal(dbt_cgroup_resolve(root, "/system.slice/../..", out, sizeof(out)), -ENOENT);
	assert_int_equal(dbt_cgroup_resolve(root, "postgresql@15-main.service", out, 8), -ENAMETOOLONG);
}

static void test_resolve_unified(void **state)
{
	(void)state;
	make_tree(false);
	check_resolves();
	remove_tree();
}

static void test_resolve_hybrid(void **state)
{
	char out[256];

	(void)state;
	make_tree(true);
	check_resolves();
	assert_int_equal(dbt_cgroup_resolve(root, "/sys/fs/cgroup/unified/system.slice", out,
					    sizeof(out)), 0);
	assert_string_equal(out, "/system.slice");
	remove_tree();
}

static void test_parse(void **state)
{
	/* a hybrid host's /proc/PID/cgroup, as this project's build host has it */
	static const char hybrid[] = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/93665d78\n"
				     "1:cpu:/\n0::/system.slice/postgresql@15-main.service\n";
	char buf[64];

	(void)state;
	assert_int_equal(dbt_proc_cgroup_parse(hybrid, strlen(hybrid), buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/system.slice/postgresql@15-main.service");
	assert_int_equal(dbt_proc_cgroup_parse("0::/\n", 5, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/");
	assert_int_equal(dbt_proc_cgroup_parse("1:cpu:/\n", 8, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(dbt_proc_cgroup_parse(hybrid, strlen(hybrid), buf, 8), -ENAMETOOLONG);
}

static void test_cgroup_in(void **state)
{
	(void)state;
	assert_true(proc_groups_cgroup_in("/system.slice/pg.service", "/system.slice/pg.service"));
	assert_true(proc_groups_cgroup_in("/system.slice/pg.service/x", "/system.slice/pg.service"));
	assert_true(proc_groups_cgroup_in("/system.slice/pg.service", "/system.slice/"));
	assert_false(proc_groups_cgroup_in("/system.slice/pg.service2", "/system.slice/pg.service"));
	assert_false(proc_groups_cgroup_in("/user.slice", "/system.slice"));
	assert_true(proc_groups_cgroup_in("/user.slice", "/"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_unified),
		cmocka_unit_test(test_resolve_hybrid),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_cgroup_in),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
