/* Table formatting and sorting: the comparator gets the key as data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "render/cpu_table.h"

static void fill(struct cpu_row *rows, int n)
{
	memset(rows, 0, sizeof(*rows) * (size_t)n);
	for (int c = 0; c < n; c++) {
		rows[c].cpu = c;
		rows[c].valid = true;
		rows[c].have_sirq = true;   /* the softirq numbers below were measured */
		rows[c].idle_pct = 10.0 * c;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			rows[c].wait_p99_us[v] = NAN;
		rows[c].wait_all_p99_us = NAN;
	}
	rows[2].softirq_pct[DBT_SOFTIRQ_NET_RX] = 30;
	rows[2].softirq_total_pct = 31;
	rows[0].softirq_pct[DBT_SOFTIRQ_NET_RX] = 5;
	rows[0].softirq_total_pct = 40;   /* mostly TIMER */
	rows[0].softirq_pct[DBT_SOFTIRQ_TIMER] = 35;
}

static void test_sort_keys(void **state)
{
	struct cpu_row rows[4];
	int order[4];

	fill(rows, 4);
	assert_int_equal(cpu_table_sort(rows, 4, 'n', order), 4);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 0);
	assert_int_equal(cpu_table_sort(rows, 4, 'S', order), 4);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);
	assert_int_equal(cpu_table_sort(rows, 4, 'i', order), 4);
	assert_int_equal(order[0], 3);
	/* the CPU column sorts ascending */
	assert_int_equal(cpu_table_sort(rows, 4, 'c', order), 4);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[3], 3);
	/* ties keep CPU order */
	assert_int_equal(cpu_table_sort(rows, 4, 't', order), 4);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[3], 3);
}

static void test_offline_rows_are_skipped(void **state)
{
	struct cpu_row rows[4];
	int order[4];

	fill(rows, 4);
	rows[1].valid = false;
	assert_int_equal(cpu_table_sort(rows, 4, 'c', order), 3);
	assert_int_equal(order[1], 2);
}

static void test_empty_wait_sorts_last(void **state)
{
	struct cpu_row rows[3];
	int order[3];

	fill(rows, 3);
	rows[1].wait_all_p99_us = 40;          /* the model computes it (test_cpu_model) */
	assert_true(cpu_table_valid_key('w'));
	assert_int_equal(cpu_table_sort(rows, 3, 'w', order), 3);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);         /* the rest by CPU */
	assert_int_equal(order[2], 2);
}

static void test_format(void **state)
{
	struct cpu_row rows[3], total;
	char line[512];

	fill(rows, 3);
	rows[2].entries[DBT_SOFTIRQ_NET_RX] = 5000;
	cpu_table_header(line, sizeof(line), 'n');
	assert_non_null(strstr(line, "*NET_RX"));
	assert_null(strstr(line, "*%si"));
	cpu_table_row(line, sizeof(line), &rows[2], 2.0);
	assert_non_null(strstr(line, "30.0"));
	assert_non_null(strstr(line, "2500"));   /* 5000 entries over 2 s */
	assert_int_equal(line[0], '2');
	rows[1].valid = false;
	cpu_table_row(line, sizeof(line), &rows[1], 1.0);
	assert_non_null(strstr(line, "offline"));
	cpu_rows_total(rows, 3, &total);
	cpu_table_row(line, sizeof(line), &total, 1.0);
	assert_int_equal(strncmp(line, "all", 3), 0);
	/* a short buffer truncates, never overflows */
	cpu_table_row(line, 10, &rows[2], 1.0);
	assert_true(strlen(line) < 10);
	assert_false(cpu_table_valid_key('Z'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_offline_rows_are_skipped),
		cmocka_unit_test(test_empty_wait_sorts_last),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
