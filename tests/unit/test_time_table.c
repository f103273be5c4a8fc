/* render/time_table: the time view's rows, and its futex columns (the
 * top word's share of the class's futex time, and its address) beside the
 * states. */
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

/* "%WORD" and "FUTEX-WORD" of a row: fields 17 and 18 */
static void word_fields(const char *row, char *pct, char *addr)
{
	char f[20][40];
	int n = sscanf(row, "%39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s %39s "
			    "%39s %39s", f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
		       f[11], f[12], f[13], f[14], f[15], f[16], f[17]);

	assert_int_equal(n, 18);
	strcpy(pct, f[16]);
	strcpy(addr, f[17]);
}

static void test_futex_word_columns_and_sort(void **state)
{
	static const uint64_t one[] = { 900000000 }, spread[] = { 300000000, 200000000 };
	struct sched_class_stats cls[3];
	struct sched_group_stats p = { .pid = 4242, .comm = "db", .classes = cls, .n_classes = 3 };
	struct sched_interval iv = { .dt_s = 1, .groups = &p, .n_groups = 1 };
	struct class_row *rows = NULL;
	char head[512], row[512], pct[40], addr[40];
	int n;

	(void)state;
	set_class(&cls[0], "spin", 2000000000, 0, NULL, 0);
	set_class(&cls[1], "lockers", 1000000000, 1000000000, one, 1);
	set_class(&cls[2], "waiters", 1000000000, 1000000000, spread, 2);
	time_table_header(head, sizeof(head), 'w');
	assert_non_null(strstr(head, "%KERN *%WORD FUTEX-WORD"));
	assert_non_null(strstr(head, "OTHER-SYSCALLS"));
	assert_true(time_table_valid_key('w'));

	n = time_table_rows(&iv, 'w', &rows);
	assert_int_equal(n, 3);
	/* highest share first, the class without futex waits last */
	assert_string_equal(rows[0].cls->name, "lockers");
	assert_string_equal(rows[1].cls->name, "waiters");
	assert_string_equal(rows[2].cls->name, "spin");
	time_table_row(row, sizeof(row), &rows[0]);
	word_fields(row, pct, addr);
	assert_string_equal(pct, "90");   /* 0.9 s of its 1 s of futex time */
	assert_string_equal(addr, "0x55d0c0a04200");
	time_table_row(row, sizeof(row), &rows[1]);
	word_fields(row, pct, addr);
	assert_string_equal(pct, "30");
	time_table_row(row, sizeof(row), &rows[2]);
	word_fields(row, pct, addr);
	assert_string_equal(pct, "-");
	assert_string_equal(addr, "-");
	free(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_futex_word_columns_and_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
