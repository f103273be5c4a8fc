/* Reading files below a root directory: path joining, opening, the size
 * limit, first lines, directories, links and the line walk. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo/procfile.h"
#include "hostile_tree.h"

static void path_join(void **state)
{
	char p[64];

	assert_int_equal(procfile_path(p, sizeof(p), "", "proc/cmdline"), 0);
	assert_string_equal(p, "/proc/cmdline");
	assert_int_equal(procfile_path(p, sizeof(p), "/", "proc/cmdline"), 0);
	assert_string_equal(p, "/proc/cmdline");
	assert_int_equal(procfile_path(p, sizeof(p), NULL, "/proc/x"), 0);
	assert_string_equal(p, "/proc/x");
	assert_int_equal(procfile_path(p, sizeof(p), "/fx/a/", "proc/x"), 0);
	assert_string_equal(p, "/fx/a/proc/x");
	/* a leading slash on the path changes nothing */
	assert_int_equal(procfile_path(p, sizeof(p), "/fx/a", "/proc/x"), 0);
	assert_string_equal(p, "/fx/a/proc/x");
	/* a relative root stays relative */
	assert_int_equal(procfile_path(p, sizeof(p), "fx", "/dmesg"), 0);
	assert_string_equal(p, "fx/dmesg");
	assert_int_equal(procfile_path(p, 8, "/fx/a", "proc/x"), -ENAMETOOLONG);
	assert_int_equal(procfile_path(p, sizeof(p), "/fx", NULL), -EINVAL);
}

static void slurp_limits(void **state)
{
	const char *root = FIXTURES "/vc2004-bnx2x";
	const char *rps = "sys/class/net/eth1/queues/rx-0/rps_cpus";
	char *buf;
	size_t len;

	assert_int_equal(procfile_slurp(root, rps, 4096, &buf, &len), 0);
	assert_int_equal(len, 144);
	assert_int_equal(buf[143], '\n');
	assert_int_equal(buf[144], '\0');
	free(buf);
	/* 144 bytes do not fit in 100, nor exactly in 143: cut there */
	assert_int_equal(procfile_slurp(root, rps, 100, &buf, &len), 0);
	assert_int_equal(len, 100);
	assert_int_equal(strlen(buf), 100);
	free(buf);
	assert_int_equal(procfile_slurp(root, rps, 143, &buf, &len), 0);
	assert_int_equal(len, 143);
	assert_int_equal(buf[142], 'f');   /* the newline is what was cut */
	free(buf);
	assert_int_equal(procfile_slurp(root, rps, 144, &buf, NULL), 0);
	assert_int_equal(strlen(buf), 144);
	free(buf);
	assert_int_equal(procfile_slurp(FIXTURES "/nonexistent", "x", 10, &buf, &len), -ENOENT);
	assert_int_equal(procfile_slurp(FIXTURES, "vc2004-bnx2x", 10, &buf, &len), -EISDIR);
}

static void first_line(void **state)
{
	char line[16];

	assert_int_equal(procfile_line(FIXTURES "/vc2004-bnx2x", "/proc/interrupts", line,
				       sizeof(line)), 0);
	assert_string_equal(line, "            CPU");
	assert_int_equal(procfile_line(FIXTURES "/nonexistent", "x", line, sizeof(line)), -ENOENT);
	assert_int_equal(procfile_line(FIXTURES, "x", line, 0), -EINVAL);
}

static void opens(void **state)
{
	const char *root = FIXTURES "/vc2004-bnx2x";
	char line[16];
	FILE *f;
	int fd;

	fd = procfile_open(root, "proc/interrupts", O_RDONLY);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	assert_int_equal(procfile_open(root, "proc/none", O_RDONLY), -ENOENT);
	assert_int_equal(procfile_fopen(root, "/proc/interrupts", &f), 0);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "            CPU");
	fclose(f);
	assert_int_equal(procfile_fopen(root, "proc/none", &f), -ENOENT);
	assert_null(f);
}

static void dirs_and_links(void **state)
{
	const char *root = FIXTURES "/build-host-virtio";
	char name[16];
	DIR *d;

	assert_int_equal(procfile_opendir(root, "sys/class/net", &d), 0);
	closedir(d);
	assert_int_equal(procfile_opendir(root, "sys/class/none", &d), -ENOENT);
	assert_null(d);
	assert_int_equal(procfile_link_name(root, "sys/class/net/eth0/device/subsystem", name,
					    sizeof(name)), 0);
	assert_string_equal(name, "virtio");
	assert_int_equal(procfile_link_name(root, "sys/class/net/eth0/device/subsystem", name, 6),
			 -ENAMETOOLONG);
	assert_int_equal(procfile_link_name(root, "sys/class/net/eth0/queues", name, sizeof(name)),
			 -EINVAL);
}

/* n: lines, truncated lines, bytes, and the line to stop at (0: none) */
static int count_line(void *ctx, const char *line, size_t len, bool truncated)
{
	size_t *n = ctx;

	n[0]++;
	n[1] += truncated;
	n[2] += len;
	return n[0] == n[3] ? 7 : 0;
}

static void line_walks(void **state)
{
	const char text[] = "ab\n\nlonger line\nlast";
	size_t n[4] = { 0 };

	assert_int_equal(procfile_each_line_buf(text, sizeof(text) - 1, 4, count_line, n), 0);
	assert_int_equal(n[0], 4);
	assert_int_equal(n[1], 1);
	assert_int_equal(n[2], 2 + 0 + 4 + 4);
	memset(n, 0, sizeof(n));
	n[3] = 2;
	assert_int_equal(procfile_each_line_buf(text, sizeof(text) - 1, 4, count_line, n), 7);
	assert_int_equal(n[0], 2);
	memset(n, 0, sizeof(n));
	assert_int_equal(procfile_each_line(FIXTURES "/vc2004-bnx2x/proc/interrupts", 16,
					    count_line, n), 0);
	assert_int_equal(n[0], 10);
	assert_int_equal(n[1], 10);
	assert_int_equal(n[2], 10 * 16);
	assert_int_equal(procfile_each_line(FIXTURES "/none", 16, count_line, n), -ENOENT);
}

static void on_alarm(int sig)
{
	/* a read that blocked: fail loudly instead of hanging the suite */
	_exit(99);
}

/* A hostile tree: links out of it refused, links inside followed, a FIFO
 * and a device refused without blocking, an oversized file cut. */
static void hostile_tree(void **state)
{
	struct hostile_tree t;
	char *buf, name[32], full[PATH_MAX], line[32];
	size_t len, n[4] = { 0 };
	DIR *d;

	ht_build(&t);
	signal(SIGALRM, on_alarm);
	alarm(10);
	assert_int_equal(procfile_slurp(t.root, "proc/sub/cmd", 100, &buf, &len), 0);
	assert_string_equal(buf, "quiet\n");
	free(buf);
	assert_int_equal(procfile_slurp(t.root, "proc/abs", 100, &buf, &len), -EXDEV);
	assert_null(buf);
	assert_int_equal(procfile_slurp(t.root, "proc/up", 100, &buf, &len), -EXDEV);
	assert_int_equal(procfile_slurp(t.root, "proc/updir/outside", 100, &buf, &len), -EXDEV);
	assert_int_equal(procfile_slurp(t.root, "../outside", 100, &buf, &len), -EXDEV);
	assert_int_equal(procfile_line(t.root, "proc/up", line, sizeof(line)), -EXDEV);
	assert_int_equal(procfile_opendir(t.root, "proc/updir", &d), -EXDEV);
	assert_null(d);
	assert_int_equal(procfile_opendir(t.root, "proc/subdir", &d), 0);
	closedir(d);
	/* the link itself is read, but not through a directory link out */
	assert_int_equal(procfile_link_name(t.root, "proc/up", name, sizeof(name)), 0);
	assert_string_equal(name, "outside");
	assert_int_equal(procfile_link_name(t.root, "proc/updir/tree", name, sizeof(name)), -EXDEV);
	/* a FIFO never blocks: refused, by every way in */
	assert_int_equal(procfile_slurp(t.root, "proc/fifo", 100, &buf, &len), -ENXIO);
	assert_int_equal(procfile_line(t.root, "proc/fifo", line, sizeof(line)), -ENXIO);
	assert_int_equal(procfile_each_line_at(t.root, "proc/fifo", 16, count_line, n), -ENXIO);
	snprintf(full, sizeof(full), "%s/proc/fifo", t.root);
	assert_int_equal(procfile_each_line(full, 16, count_line, n), -ENXIO);
	assert_int_equal(procfile_slurp(NULL, full, 100, &buf, &len), -ENXIO);
	assert_int_equal(n[0], 0);
	if (t.have_dev)
		assert_int_equal(procfile_slurp(t.root, "proc/dev", 100, &buf, &len), -ENXIO);
	assert_int_equal(procfile_slurp(t.root, "proc/sub", 100, &buf, &len), -EISDIR);
	/* oversized: its first max bytes */
	assert_int_equal(procfile_slurp(t.root, "proc/big", 100, &buf, &len), 0);
	assert_int_equal(len, 100);
	assert_int_equal(strspn(buf, "x"), 100);
	free(buf);
	alarm(0);
	ht_remove(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(path_join),
		cmocka_unit_test(slurp_limits),
		cmocka_unit_test(first_line),
		cmocka_unit_test(opens),
		cmocka_unit_test(dirs_and_links),
		cmocka_unit_test(line_walks),
		cmocka_unit_test(hostile_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
