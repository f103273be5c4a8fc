// SPDX-License-Identifier: GPL-2.0
/* The thread -> class map: groups by pid, classes named over each group's
 * threads, one entry per (pid, tid), lookups. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/class_map.h"

static void build(struct class_map *map, const struct class_map_thread *t, size_t n,
		  const struct tclass_classifier *c)
{
	struct class_map_input in = { 0 };

	for (size_t i = 0; i < n; i++)
		assert_int_equal(class_map_input_add(&in, t[i].pid, t[i].tid, t[i].comm, t[i].pcomm), 0);
	assert_int_equal(class_map_build(map, &in, c), 0);
	class_map_input_free(&in);
}

static const char *class_of(const struct class_map *map, uint32_t pid, uint32_t tid)
{
	const struct class_map_member *m = class_map_find(map, pid, tid);

	assert_non_null(m);
	return map->classes[m->cls].name;
}

/* Two processes, input in no order: grouped by pid, pools named. */
static void groups_and_classes(void **state)
{
	const struct class_map_thread t[] = {
		{ 200, 203, "ib_io_rd-2", NULL, 0 }, { 100, 100, "sleep", NULL, 0 },
		{ 200, 200, "mysqld", NULL, 0 },     { 200, 202, "ib_io_rd-1", NULL, 0 },
		{ 200, 204, "ib_io_rd-3", NULL, 0 }, { 200, 205, "conn", NULL, 0 },
	};
	struct class_map map;
	const struct class_map_group *g;

	build(&map, t, 6, NULL);
	assert_int_equal(map.n_members, 6);
	assert_int_equal(map.n_groups, 2);
	assert_int_equal(map.groups[0].pid, 100);
	assert_string_equal(map.groups[0].comm, "sleep");
	g = &map.groups[1];
	assert_int_equal(g->pid, 200);
	assert_string_equal(g->comm, "mysqld");     /* the leader's */
	assert_int_equal(g->n_classes, 3);           /* conn, ib_io_rd-*, mysqld */
	assert_int_equal(g->first_class, map.groups[0].first_class + map.groups[0].n_classes);
	assert_int_equal(map.n_classes, 4);
	assert_string_equal(class_of(&map, 200, 203), "ib_io_rd-*");
	assert_string_equal(class_of(&map, 200, 202), "ib_io_rd-*");
	assert_string_equal(class_of(&map, 200, 205), "conn");
	assert_int_equal(class_map_find(&map, 200, 202)->cls, class_map_find(&map, 200, 204)->cls);
	assert_int_equal(class_map_find(&map, 200, 204)->group, 1);
	assert_int_equal(class_map_find(&map, 100, 100)->group, 0);
	/* a group's classes are a contiguous, name-sorted range */
	for (size_t c = g->first_class + 1; c < g->first_class + g->n_classes; c++)
		assert_true(strcmp(map.classes[c - 1].name, map.classes[c].name) < 0);
	/* members by tid */
	for (size_t i = 1; i < map.n_members; i++)
		assert_true(map.members[i - 1].tid < map.members[i].tid);
	class_map_free(&map);
}

/* Sched's view first, then the clock's: a thread given twice keeps its
 * first entry; a tid now in another process is another member. */
static void repeated_and_reused_threads(void **state)
{
	const struct class_map_thread t[] = {
		{ 1, 1, "a", NULL, 0 }, { 1, 2, "w-1", NULL, 0 }, { 1, 3, "w-2", NULL, 0 },
		{ 1, 2, "renamed", NULL, 0 },   /* the same thread again */
		{ 9, 3, "x", NULL, 0 },         /* tid 3 in another process */
	};
	struct class_map map;

	build(&map, t, 5, NULL);
	assert_int_equal(map.n_members, 4);
	assert_int_equal(map.n_groups, 2);
	assert_string_equal(class_of(&map, 1, 2), "w-*");
	assert_string_equal(class_of(&map, 1, 3), "w-*");
	assert_string_equal(class_of(&map, 9, 3), "x");
	assert_null(class_map_find(&map, 1, 4));
	assert_null(class_map_find(&map, 2, 2));
	class_map_free(&map);
}

/* A later view (the clock's) names only the threads no earlier view
 * holds, among its own threads of the group: the earlier view's classes
 * stay as they were. */
static void later_view_never_renames(void **state)
{
	struct class_map_input in = { 0 };
	struct class_map map;

	assert_int_equal(class_map_input_add(&in, 1, 1, "a", NULL), 0);
	assert_int_equal(class_map_input_add(&in, 1, 2, "w-1", NULL), 0);
	class_map_input_next_view(&in);
	assert_int_equal(class_map_input_add(&in, 1, 2, "w-1", NULL), 0);
	assert_int_equal(class_map_input_add(&in, 1, 6, "w-4", NULL), 0);
	assert_int_equal(class_map_input_add(&in, 1, 5, "w-3", NULL), 0);
	assert_int_equal(class_map_input_add(&in, 9, 10, "lone", NULL), 0);
	assert_int_equal(class_map_input_add(&in, 9, 11, "b", "proc9"), 0);
	assert_int_equal(class_map_build(&map, &in, NULL), 0);
	assert_int_equal(map.n_members, 6);
	assert_string_equal(class_of(&map, 1, 2), "w-1");   /* alone in the first view */
	assert_string_equal(class_of(&map, 1, 5), "w-*");   /* among w-1, w-3, w-4 */
	assert_string_equal(class_of(&map, 1, 6), "w-*");
	assert_int_equal(map.groups[0].n_classes, 3);      /* a, w-*, w-1 */
	assert_string_equal(map.classes[map.groups[0].first_class + 2].name, "w-1");
	assert_string_equal(map.groups[0].comm, "a");
	assert_string_equal(map.groups[1].comm, "lone");    /* held by the later view alone */
	class_map_free(&map);
	class_map_input_free(&in);
}

/* The process's comm as the threads saw it names a group whose leader is
 * not among them; without it, the lowest tid's comm. */
static void group_comm_without_leader(void **state)
{
	const struct class_map_thread t[] = {
		{ 7, 9, "worker", "postgres", 0 }, { 7, 8, "bgwriter", "postgres", 0 },
		{ 5, 12, "b", NULL, 0 }, { 5, 11, "a", "", 0 },
	};
	struct class_map map;

	build(&map, t, 4, NULL);
	assert_string_equal(map.groups[0].comm, "a");
	assert_string_equal(map.groups[1].comm, "postgres");
	class_map_free(&map);
}

static void overrides_empty_and_errors(void **state)
{
	const struct class_map_thread t[] = { { 5, 5, "java", NULL, 0 }, { 5, 6, "GC Thread#0", NULL, 0 } };
	struct class_map_input in = { 0 };
	struct tclass_override o;
	struct tclass_classifier *c;
	struct class_map map;

	assert_int_equal(tclass_parse_override("gc=GC*", &o, NULL, 0), 0);
	assert_int_equal(tclass_classifier_new(&o, 1, &c), 0);
	build(&map, t, 2, c);
	assert_string_equal(class_of(&map, 5, 6), "gc");
	assert_string_equal(class_of(&map, 5, 5), "java");
	class_map_free(&map);
	tclass_classifier_free(c);

	assert_int_equal(class_map_build(&map, &in, NULL), 0);
	assert_int_equal(map.n_groups, 0);
	assert_int_equal(map.n_classes, 0);
	assert_null(class_map_find(&map, 1, 1));
	class_map_free(&map);

	assert_int_equal(class_map_input_add(&in, 1, 1, NULL, NULL), 0);
	assert_int_equal(class_map_build(&map, &in, NULL), -EINVAL);
	assert_int_equal(map.n_members, 0);
	class_map_input_free(&in);
}

/* Many threads of one pool: one class, looked up from every tid. */
static void large_pool(void **state)
{
	static char comm[5000][16];
	struct class_map_input in = { 0 };
	struct class_map map;

	for (uint32_t i = 0; i < 5000; i++) {
		snprintf(comm[i], sizeof(comm[i]), "pool-%u", i);
		assert_int_equal(class_map_input_add(&in, 42, 10000 - i, comm[i], NULL), 0);
	}
	assert_int_equal(class_map_build(&map, &in, NULL), 0);
	assert_int_equal(map.n_groups, 1);
	assert_int_equal(map.n_classes, 1);
	assert_string_equal(map.classes[0].name, "pool-*");
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(class_map_find(&map, 42, 10000 - i)->cls, 0);
	class_map_free(&map);
	class_map_input_free(&in);
}

/* Groups spanning processes: a PostgreSQL server's postmaster, backends
 * and walwriter form one group whose classes come from their titles; a
 * titled process's thread that named itself keeps its own name; a
 * process procs does not hold stays alone. */
static void processes_grouped_by_title(void **state)
{
	const struct class_map_thread t[] = {
		{ 903, 903, "postgres", "postgres", 0 },
		{ 900, 900, "postgres", "postgres", 0 },
		{ 902, 902, "postgres", "postgres", 0 },
		{ 901, 901, "postgres", "postgres", 0 },
		{ 902, 905, "bgio", "postgres", 0 },
		{ 902, 899, "postgres", "postgres", 0 },   /* a lower tid: 902 before 901 */
		{ 700, 700, "pgbench", "pgbench", 0 },
		{ 700, 701, "pgbench", "pgbench", 0 },
	};
	const struct class_map_proc procs[] = {
		{ 900, 900, NULL },
		{ 901, 900, "postgres: backend" },
		{ 902, 900, "postgres: backend" },
		{ 903, 900, "postgres: walwriter" },
	};
	struct class_map_input in = { 0 };
	struct class_map map;
	const struct class_map_group *g;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(class_map_input_add(&in, t[i].pid, t[i].tid, t[i].comm, t[i].pcomm), 0);
	assert_int_equal(class_map_build_grouped(&map, &in, NULL, procs, 4), 0);
	class_map_input_free(&in);
	assert_int_equal(map.n_groups, 2);
	g = &map.groups[1];
	assert_int_equal(g->pid, 900);
	assert_string_equal(g->comm, "postgres");
	assert_int_equal(g->n_pids, 4);
	assert_int_equal(g->n_classes, 4);
	assert_string_equal(class_of(&map, 901, 901), "postgres: backend");
	assert_string_equal(class_of(&map, 902, 902), "postgres: backend");
	assert_string_equal(class_of(&map, 903, 903), "postgres: walwriter");
	assert_string_equal(class_of(&map, 900, 900), "postgres");
	assert_string_equal(class_of(&map, 902, 905), "bgio");
	/* members keep their pid: one class, two processes */
	assert_int_equal(class_map_find(&map, 901, 901)->cls, class_map_find(&map, 902, 902)->cls);
	assert_int_equal(class_map_find(&map, 902, 902)->group, 1);
	assert_true(class_map_group_has(&map, 1, 903));
	assert_false(class_map_group_has(&map, 1, 700));
	assert_true(class_map_group_has(&map, 0, 700));
	assert_int_equal(map.groups[0].n_pids, 1);
	/* the processes of a class: the backends, ascending, cut at max */
	{
		uint32_t pids[4] = { 0 };
		uint32_t backend = class_map_find(&map, 902, 902)->cls;

		assert_int_equal(class_map_class_pids(&map, backend, pids, 4), 2);
		assert_int_equal(pids[0], 901);
		assert_int_equal(pids[1], 902);
		assert_int_equal(class_map_class_pids(&map, backend, pids, 1), 1);
		assert_int_equal(pids[0], 901);
		assert_int_equal(class_map_class_pids(&map, backend, pids, 0), 0);
		assert_int_equal(class_map_class_pids(&map, class_map_find(&map, 700, 701)->cls, pids, 4), 1);
		assert_int_equal(pids[0], 700);
	}
	class_map_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_and_classes),
		cmocka_unit_test(repeated_and_reused_threads),
		cmocka_unit_test(later_view_never_renames),
		cmocka_unit_test(group_comm_without_leader),
		cmocka_unit_test(overrides_empty_and_errors),
		cmocka_unit_test(large_pool),
		cmocka_unit_test(processes_grouped_by_title),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
