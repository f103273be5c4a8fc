// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model/thread_groups.h"

static const char *class_of(const struct tgroups *g, int ti)
{
	return g->class_name[g->class_of[ti]];
}

/* Two processes, input in no order: grouped by pid, pools named. */
static void groups_and_classes(void **state)
{
	const struct tgroup_thread t[] = {
		{ 200, 203, "ib_io_rd-2" }, { 100, 100, "sleep" }, { 200, 200, "mysqld" },
		{ 200, 202, "ib_io_rd-1" }, { 200, 204, "ib_io_rd-3" }, { 200, 205, "conn" },
	};
	struct tgroups g;

	assert_int_equal(tgroups_build(t, 6, NULL, NULL, &g), 0);
	assert_int_equal(g.n_procs, 2);
	assert_int_equal(g.procs[0].pid, 100);
	assert_int_equal(g.procs[0].n, 1);
	assert_string_equal(g.procs[0].comm, "sleep");
	assert_int_equal(g.procs[1].pid, 200);
	assert_string_equal(g.procs[1].comm, "mysqld");   /* the leader's */
	assert_int_equal(g.procs[1].n, 5);
	assert_int_equal(g.procs[1].n_classes, 3);        /* conn, ib_io_rd-*, mysqld */
	assert_string_equal(class_of(&g, 0), "ib_io_rd-*");
	assert_string_equal(class_of(&g, 3), "ib_io_rd-*");
	assert_string_equal(class_of(&g, 5), "conn");
	assert_int_equal(g.class_of[0], g.class_of[4]);
	/* classes of a process are a contiguous, name-sorted range */
	for (int c = 1; c < g.procs[1].n_classes; c++)
		assert_true(strcmp(g.class_name[g.procs[1].first_class + c - 1],
				   g.class_name[g.procs[1].first_class + c]) < 0);
	/* each process's threads follow each other in order[] */
	for (int k = g.procs[1].first; k < g.procs[1].first + g.procs[1].n; k++)
		assert_int_equal(t[g.order[k]].pid, 200);
	tgroups_free(&g);
}

static int name_even_tids(void *ctx, uint32_t pid, uint32_t tid, char *name, size_t len)
{
	(*(int *)ctx)++;
	if (tid % 2)
		return -1;
	snprintf(name, len, "even");
	return 0;
}

/* A namer from another model wins; threads it does not know fall back. */
static void namer_overrides(void **state)
{
	const struct tgroup_thread t[] = {
		{ 1, 1, "a-1" }, { 1, 2, "a-2" }, { 1, 3, "a-3" }, { 1, 4, "x" },
	};
	int calls = 0;
	struct tgroup_namer namer = { &calls, name_even_tids };
	struct tgroups g;

	assert_int_equal(tgroups_build(t, 4, NULL, &namer, &g), 0);
	assert_int_equal(calls, 4);
	assert_string_equal(class_of(&g, 1), "even");
	assert_string_equal(class_of(&g, 3), "even");
	assert_string_equal(class_of(&g, 0), "a-*");
	assert_string_equal(class_of(&g, 2), "a-*");
	assert_int_equal(g.procs[0].n_classes, 2);
	tgroups_free(&g);
}

static void overrides_and_empty(void **state)
{
	const struct tgroup_thread t[] = { { 5, 5, "java" }, { 5, 6, "GC Thread#0" } };
	struct tclass_override o;
	struct tclass_classifier *c;
	struct tgroups g;

	assert_int_equal(tclass_parse_override("gc=GC*", &o, NULL, 0), 0);
	assert_int_equal(tclass_classifier_new(&o, 1, &c), 0);
	assert_int_equal(tgroups_build(t, 2, c, NULL, &g), 0);
	assert_string_equal(class_of(&g, 1), "gc");
	tgroups_free(&g);
	tclass_classifier_free(c);

	assert_int_equal(tgroups_build(t, 0, NULL, NULL, &g), 0);
	assert_int_equal(g.n_procs, 0);
	tgroups_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_and_classes),
		cmocka_unit_test(namer_overrides),
		cmocka_unit_test(overrides_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
