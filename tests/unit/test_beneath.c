/* Opening inside a tree without leaving it: links and ".." that stay
 * inside are followed, those that leave are refused with -EXDEV, a loop
 * with -ELOOP; the same through openat2 and through the component walk
 * used where openat2 is refused. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include "sysinfo/beneath.h"
#include "hostile_tree.h"

typedef int (*open_fn)(int dirfd, const char *path, int flags);

/* The first line of what fn opened, "" when it failed (err set). */
static void first(open_fn fn, int dirfd, const char *path, char *buf, size_t len, int *err)
{
	int fd = fn(dirfd, path, O_RDONLY);
	ssize_t n;

	buf[0] = 0;
	*err = fd < 0 ? fd : 0;
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	close(fd);
}

static void check_both(open_fn fn)
{
	struct hostile_tree t;
	char buf[64];
	int rootfd, err, fd;

	ht_build(&t);
	rootfd = open(t.root, O_PATH | O_DIRECTORY);
	assert_true(rootfd >= 0);

	first(fn, rootfd, "proc/cmdline", buf, sizeof(buf), &err);
	assert_int_equal(err, 0);
	assert_string_equal(buf, "quiet");
	/* inside: a link through "..", a directory link, ".." that comes back */
	first(fn, rootfd, "proc/sub/cmd", buf, sizeof(buf), &err);
	assert_string_equal(buf, "quiet");
	first(fn, rootfd, "proc/subdir/cmd", buf, sizeof(buf), &err);
	assert_string_equal(buf, "quiet");
	first(fn, rootfd, "proc/sub/../cmdline", buf, sizeof(buf), &err);
	assert_string_equal(buf, "quiet");
	/* out */
	first(fn, rootfd, "proc/abs", buf, sizeof(buf), &err);
	assert_int_equal(err, -EXDEV);
	first(fn, rootfd, "proc/up", buf, sizeof(buf), &err);
	assert_int_equal(err, -EXDEV);
	assert_string_equal(buf, "");
	first(fn, rootfd, "proc/updir/outside", buf, sizeof(buf), &err);
	assert_int_equal(err, -EXDEV);
	first(fn, rootfd, "../outside", buf, sizeof(buf), &err);
	assert_int_equal(err, -EXDEV);
	first(fn, rootfd, "proc/../../outside", buf, sizeof(buf), &err);
	assert_int_equal(err, -EXDEV);
	first(fn, rootfd, "/etc/hostname", buf, sizeof(buf), &err);
	assert_int_equal(err, -EXDEV);
	first(fn, rootfd, "proc/loop1", buf, sizeof(buf), &err);
	assert_int_equal(err, -ELOOP);
	first(fn, rootfd, "proc/none", buf, sizeof(buf), &err);
	assert_int_equal(err, -ENOENT);
	first(fn, rootfd, "proc/cmdline/x", buf, sizeof(buf), &err);
	assert_int_equal(err, -ENOTDIR);
	/* the root itself, and a directory by a path ending in "/" */
	fd = fn(rootfd, "", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	close(fd);
	fd = fn(rootfd, "proc/sub/", O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	close(fd);
	/* O_PATH of a FIFO: nothing blocks */
	fd = fn(rootfd, "proc/fifo", O_PATH);
	assert_true(fd >= 0);
	close(fd);
	close(rootfd);
	ht_remove(&t);
}

static void test_openat2_path(void **state)
{
	check_both(beneath_open);
}

static void test_component_walk(void **state)
{
	check_both(beneath_open_walk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openat2_path),
		cmocka_unit_test(test_component_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
