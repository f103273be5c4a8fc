/* render/time_table: the time view's rows, and its futex columns (the
 * top word's share of the class's futex time, and its address) beside the
 * states; the classes ranked by cost, the idle ones one "other" row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/time_table.h"

/* A class of the given thread-seconds split into on CPU and futex waits,
 * those on n_words words of the given ns. */
static void set_class(struct sched_class_stats *c, const char *name, uint64_t oncpu,
		      uint64_t futex, const uint64_t *word_ns, int n_words)
{
	struct class_time *t = &c->time;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->threads = 2;
	t->thread_ns = oncpu + futex;
	t->ns[CT_ONCPU] = oncpu;
	t->ns[CT_FUTEX] = futex;
	for (int i = 0; i < n_words; i++) {
		t->futex_addr[i] = 0x55d0c0a04200ull + 64 * (uint64_t)i;
		t->futex_ns[i] = word_ns[i];
	}
	t->n_futex = n_words;
	class_time_finish(t);
}

/* "%WORD" and "FUTEX-WORD" of a row: fields 18 and 19 */
static void word_fields(const char *row, char *pct, char *addr)
{
	char f[20][40];
	int n = sscanf(row, "%39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s "
			    "%39s %39s %39s", f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
		       f[11], f[12], f[13], f[14], f[15], f[16], f[17], f[18]);

	assert_int_equal(n, 19);
	strcpy(pct, f[17]);
	strcpy(addr, f[18]);
}

static void test_futex_word_columns_and_sort(void **state)
{
	static const uint64_t one[] = { 900000000 }, spread[] = { 300000000, 200000000 };
	struct sched_class_stats cls[3];
	struct sched_group_stats p = { .pid = 4242, .comm = "db", .classes = cls, .n_classes = 3 };
	struct sched_interval iv = { .dt_s = 1, .groups = &p, .n_groups = 1 };
	struct class_rows rows;
	char head[512], row[512], pct[40], addr[40];

	(void)state;
	set_class(&cls[0], "spin", 2000000000, 0, NULL, 0);
	set_class(&cls[1], "lockers", 1000000000, 1000000000, one, 1);
	set_class(&cls[2], "waiters", 1000000000, 1000000000, spread, 2);
	class_view_header(&time_table_view, head, sizeof(head), 'w');
	assert_non_null(strstr(head, "%KERN *%WORD FUTEX-WORD"));
	assert_non_null(strstr(head, "OTHER-SYSCALLS"));
	assert_true(class_view_valid_key(&time_table_view, 'w'));

	/* every row (the classes' runnable is 0: none is worth a row) */
	assert_int_equal(class_view_rows(&time_table_view, &iv, 'w', true, &rows), 0);
	assert_int_equal(rows.n, 3);
	assert_int_equal(rows.folded, 0);
	/* highest share first, the class without futex waits last */
	assert_string_equal(rows.row[0].cls->name, "lockers");
	assert_string_equal(rows.row[1].cls->name, "waiters");
	assert_string_equal(rows.row[2].cls->name, "spin");
	class_view_row(&time_table_view, row, sizeof(row), &rows.row[0]);
	word_fields(row, pct, addr);
	assert_string_equal(pct, "90");   /* 0.9 s of its 1 s of futex time */
	assert_string_equal(addr, "0x55d0c0a04200");
	class_view_row(&time_table_view, row, sizeof(row), &rows.row[1]);
	word_fields(row, pct, addr);
	assert_string_equal(pct, "30");
	class_view_row(&time_table_view, row, sizeof(row), &rows.row[2]);
	word_fields(row, pct, addr);
	assert_string_equal(pct, "-");
	assert_string_equal(addr, "-");
	class_rows_free(&rows);
}

/* By default the classes worth a row are ranked by cost (RUNNABLE:
 * thread-seconds on a CPU and waiting for one a second), whatever the
 * key; the idle ones, a kernel thread waking now and then, are one
 * "other" row, last, whose states are theirs together. */
static void test_idle_classes_fold_into_other(void **state)
{
	struct sched_class_stats cls[4];
	struct sched_group_stats g[2] = {
		{ .pid = 4242, .comm = "db", .classes = cls, .n_classes = 2 },
		{ .pid = 17, .comm = "kworker/0:1", .classes = cls + 2, .n_classes = 2 },
	};
	struct sched_interval iv = { .dt_s = 1, .groups = g, .n_groups = 2 };
	struct class_rows rows;
	char head[512], row[512], f[6][40];

	(void)state;
	set_class(&cls[0], "pool", 1000000000, 1000000000, NULL, 0);
	cls[0].runnable_avg = 0.5;
	set_class(&cls[1], "idle", 0, 2000000000, NULL, 0);
	set_class(&cls[2], "kworker/0:1", 1000000, 999000000, NULL, 0);
	cls[2].runnable_avg = 0.001;
	cls[2].threads = 1;
	set_class(&cls[3], "busy", 1900000000, 100000000, NULL, 0);
	cls[3].runnable_avg = 1.9;
	class_view_header(&time_table_view, head, sizeof(head), TIME_TABLE_DEFAULT_SORT);
	assert_non_null(strstr(head, "THR *RUNNABLE %ONCPU"));

	assert_int_equal(class_view_rows(&time_table_view, &iv, TIME_TABLE_DEFAULT_SORT, false, &rows), 0);
	assert_int_equal(rows.n, 3);
	assert_int_equal(rows.folded, 2);
	assert_string_equal(rows.row[0].cls->name, "busy");
	assert_string_equal(rows.row[1].cls->name, "pool");
	assert_null(rows.row[2].group);
	class_view_row(&time_table_view, row, sizeof(row), &rows.row[2]);
	/* PID COMM CLASS... THR RUNNABLE %ONCPU */
	assert_int_equal(sscanf(row, "%39s %39s %39s %39s %39s %39s", f[0], f[1], f[2], f[3], f[4], f[5]), 6);
	assert_string_equal(f[0], "-");
	assert_string_equal(f[1], "-");
	assert_string_equal(f[2], "other");
	assert_non_null(strstr(row, "other (2 classes)"));
	/* 3 threads: 1 ms of CPU in their 3 thread-seconds, the rest futex */
	assert_non_null(strstr(row, "(2 classes)        3      0.0    0.0     -     -    0.0    0.0  100.0  100.0"));
	class_rows_free(&rows);

	/* sorted by another key, the same rows shown, and "other" last */
	assert_int_equal(class_view_rows(&time_table_view, &iv, 'f', false, &rows), 0);
	assert_int_equal(rows.n, 3);
	assert_string_equal(rows.row[0].cls->name, "pool");
	assert_string_equal(rows.row[1].cls->name, "busy");
	assert_null(rows.row[2].group);
	class_rows_free(&rows);

	/* all: every class */
	assert_int_equal(class_view_rows(&time_table_view, &iv, TIME_TABLE_DEFAULT_SORT, true, &rows), 0);
	assert_int_equal(rows.n, 4);
	assert_int_equal(rows.folded, 0);
	assert_string_equal(rows.row[3].cls->name, "idle");
	class_rows_free(&rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_futex_word_columns_and_sort),
		cmocka_unit_test(test_idle_classes_fold_into_other),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
