// SPDX-License-Identifier: GPL-2.0
/* Process titles -> classes: PostgreSQL 15's own /proc/PID/cmdline
 * (recorded from a running cluster, NUL padding and all) and the title
 * formats of php-fpm, nginx and Oracle (tests/fixtures/proc_titles). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/proc_title.h"

#define DIR FIXTURES "/proc_titles/"

/* The class of the cmdline file name; "" for none. */
static const char *class_of_file(const char *name, char *out, size_t outlen)
{
	char path[512], buf[4096];
	size_t n;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), DIR "%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 0);
	rc = proc_title_class(buf, n, out, outlen);
	assert_true(rc == 0 || rc == 1);
	assert_int_equal(rc == 1, out[0] != '\0');
	return out;
}

static void test_postgres_cluster(void **state)
{
	char c[64];

	(void)state;
	assert_string_equal(class_of_file("backend-tcp.cmdline", c, sizeof(c)), "postgres: backend");
	assert_string_equal(class_of_file("backend-local.cmdline", c, sizeof(c)), "postgres: backend");
	assert_string_equal(class_of_file("postgres-checkpointer.cmdline", c, sizeof(c)),
			    "postgres: checkpointer");
	assert_string_equal(class_of_file("postgres-background-writer.cmdline", c, sizeof(c)),
			    "postgres: background writer");
	assert_string_equal(class_of_file("postgres-walwriter.cmdline", c, sizeof(c)),
			    "postgres: walwriter");
	assert_string_equal(class_of_file("postgres-autovacuum-launcher.cmdline", c, sizeof(c)),
			    "postgres: autovacuum launcher");
	assert_string_equal(class_of_file("postgres-logical-replication-launcher.cmdline", c, sizeof(c)),
			    "postgres: logical replication launcher");
	/* the postmaster keeps its argv: its comm names it */
	assert_string_equal(class_of_file("postmaster.cmdline", c, sizeof(c)), "");
}

/* Every line of titles.txt: TITLE, a tab, the class or "-". */
static void test_title_table(void **state)
{
	FILE *f = fopen(DIR "titles.txt", "r");
	char line[512];
	int checked = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), out[64];
		const char *want;
		int rc;

		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		want = tab + 1;
		tab[1 + strcspn(tab + 1, "\n")] = '\0';
		rc = proc_title_class(line, strlen(line) + 1, out, sizeof(out));
		if (strcmp(want, "-")) {
			if (rc != 1 || strcmp(out, want))
				fail_msg("'%s': got %d '%s', want '%s'", line, rc, out, want);
		} else if (rc != 0 || out[0]) {
			fail_msg("'%s': got %d '%s', want none", line, rc, out);
		}
		checked++;
	}
	fclose(f);
	assert_true(checked >= 15);
}

static void test_edges(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(proc_title_class(NULL, 0, out, sizeof(out)), -EINVAL);
	assert_int_equal(proc_title_class("x", 1, out, 0), -EINVAL);
	assert_int_equal(proc_title_class("", 0, out, sizeof(out)), 0);
	/* a title not NUL-terminated within len is read up to len */
	assert_int_equal(proc_title_class("nginx: worker processXXX", 21, out, sizeof(out)), 1);
	/* cut to the buffer, still NUL-terminated */
	assert_string_equal(out, "nginx: worker p");
	/* blanks after the title (PostgreSQL pads) are not part of the role */
	assert_int_equal(proc_title_class("pg: walwriter   \0\0", 18, out, sizeof(out)), 1);
	assert_string_equal(out, "pg: walwriter");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_postgres_cluster),
		cmocka_unit_test(test_title_table),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
