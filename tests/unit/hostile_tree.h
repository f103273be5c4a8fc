/* A tree built the way a hostile --root could be: links out of it
 * (absolute, and relative with "..") next to links that stay inside, a
 * loop of links, a FIFO, a device node where root may make one, and an
 * oversized file. Shared by test_beneath.c and test_procfile.c; include
 * after <cmocka.h>. */
#ifndef DBTRACE_TESTS_HOSTILE_TREE_H
#define DBTRACE_TESTS_HOSTILE_TREE_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct hostile_tree {
	char base[64];                 /* mkdtemp: holds "outside" and "tree" */
	char root[96];                 /* base/tree */
	int have_dev;                  /* a character device could be made */
};

static inline void ht_write(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static inline void ht_build(struct hostile_tree *t)
{
	char p[PATH_MAX], big[10000];

	snprintf(t->base, sizeof(t->base), "/tmp/dbtrace-hostile.XXXXXX");
	assert_non_null(mkdtemp(t->base));
	snprintf(t->root, sizeof(t->root), "%s/tree", t->base);
	snprintf(p, sizeof(p), "%s/outside", t->base);
	ht_write(p, "secret\n", 7);
	assert_int_equal(mkdir(t->root, 0755), 0);
	snprintf(p, sizeof(p), "%s/proc", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/proc/sub", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/proc/cmdline", t->root);
	ht_write(p, "quiet\n", 6);
	memset(big, 'x', sizeof(big));
	snprintf(p, sizeof(p), "%s/proc/big", t->root);
	ht_write(p, big, sizeof(big));
	/* out: absolute, relative up past the root, and through a directory link */
	snprintf(p, sizeof(p), "%s/proc/abs", t->root);
	assert_int_equal(symlink("/etc/hostname", p), 0);
	snprintf(p, sizeof(p), "%s/proc/up", t->root);
	assert_int_equal(symlink("../../outside", p), 0);
	snprintf(p, sizeof(p), "%s/proc/updir", t->root);
	assert_int_equal(symlink("../..", p), 0);
	/* in: relative links that stay inside, one through "..", one to a directory */
	snprintf(p, sizeof(p), "%s/proc/sub/cmd", t->root);
	assert_int_equal(symlink("../cmdline", p), 0);
	snprintf(p, sizeof(p), "%s/proc/subdir", t->root);
	assert_int_equal(symlink("sub", p), 0);
	snprintf(p, sizeof(p), "%s/proc/loop1", t->root);
	assert_int_equal(symlink("loop2", p), 0);
	snprintf(p, sizeof(p), "%s/proc/loop2", t->root);
	assert_int_equal(symlink("loop1", p), 0);
	snprintf(p, sizeof(p), "%s/proc/fifo", t->root);
	assert_int_equal(mkfifo(p, 0644), 0);
	/* /dev/null's numbers: harmless if it were ever opened */
	snprintf(p, sizeof(p), "%s/proc/dev", t->root);
	t->have_dev = mknod(p, S_IFCHR | 0644, makedev(1, 3)) == 0;
}

static inline void ht_remove(struct hostile_tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->base);
	assert_int_equal(system(cmd), 0);
}

#endif
