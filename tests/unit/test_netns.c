/* Finding a network namespace's file by inode: `ip netns` names first,
 * then any process inside it. Namespace files are stood in for by plain
 * files in a temporary tree (only inode numbers are compared). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sysinfo/netns.h"

static char root[64];

static uint32_t make_file(const char *rel)
{
	char path[256], dir[256];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(dir, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(stat(path, &st), 0);
	return (uint32_t)st.st_ino;
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/dbtrace-netns.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static void test_named_first_then_processes(void **state)
{
	uint32_t named = make_file("/run/netns/blue");
	uint32_t proc = make_file("/proc/4242/ns/net");
	char path[300] = "", name[40] = "x", want[300];

	make_file("/proc/1/ns/net");
	make_file("/proc/self/ns/net");   /* not a pid: skipped by the walk */
	assert_int_equal(netns_find(root, named, path, sizeof(path), name, sizeof(name)), 0);
	snprintf(want, sizeof(want), "%s/run/netns/blue", root);
	assert_string_equal(path, want);
	assert_string_equal(name, "blue");

	path[0] = 0;
	assert_int_equal(netns_find(root, proc, path, sizeof(path), name, sizeof(name)), 0);
	snprintf(want, sizeof(want), "%s/proc/4242/ns/net", root);
	assert_string_equal(path, want);
	assert_string_equal(name, "");
	/* the hint is used while it still names the namespace */
	assert_int_equal(netns_find(root, proc, path, sizeof(path), name, sizeof(name)), 0);
	assert_string_equal(path, want);
	assert_int_equal(netns_find(root, proc + 100000, path, sizeof(path), name, sizeof(name)), -ENOENT);
	assert_string_equal(path, "");
	assert_int_equal(netns_find(root, 0, path, sizeof(path), name, sizeof(name)), -ENOENT);
}

static void test_self_and_run(void **state)
{
	int ran = 0;

	assert_true(netns_self(NULL) != 0);
	assert_true(netns_self("/nonexistent") == 0);   /* no proc/self/ns/net there */
	assert_int_equal(netns_run("/nonexistent/ns", NULL, &ran), -ENOENT);
	assert_int_equal(ran, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_first_then_processes),
		cmocka_unit_test(test_self_and_run),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
