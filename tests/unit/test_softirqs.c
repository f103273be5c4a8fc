/* /proc/softirqs parsing on real dumps, a partial one included: verbatim
 * copies in tests/fixtures (provenance in tests/fixtures/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/softirqs.h"
#include "fixture_util.h"

static void test_martins3_32cpu(void **state)
{
	struct softirqs_table t;

	assert_int_equal(softirqs_read(FIXTURES "/martins3-softirqs-32cpu", &t), 0);
	assert_int_equal(t.ncpus, 32);
	assert_int_equal(t.present, (1u << DBT_SOFTIRQ_VECS) - 1);
	/* NET_RX concentrated: CPU15 2 571 482, CPU28 1 789 414, CPU1 2 851 */
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][15], 2571482);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][28], 1789414);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][1], 2851);
	assert_int_equal(t.count[DBT_SOFTIRQ_TIMER][0], 2032453);
	assert_int_equal(t.count[DBT_SOFTIRQ_SCHED][0], 17421142);
	softirqs_free(&t);
}

static void test_partial_net_rx_only(void **state)
{
	struct softirqs_table t;

	assert_int_equal(softirqs_read(FIXTURES "/irq-heatmap", &t), 0);
	assert_int_equal(t.ncpus, 32);
	assert_int_equal(t.present, 1u << DBT_SOFTIRQ_NET_RX);
	assert_null(t.count[DBT_SOFTIRQ_TIMER]);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][0], 81883188);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][1], 197652);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][31], 0);   /* possible, offline */
	softirqs_free(&t);
}

static void test_this_machine(void **state)
{
	struct softirqs_table t;

	assert_int_equal(softirqs_read(FIXTURES "/procstat-2cpu", &t), 0);
	assert_int_equal(t.ncpus, 2);
	assert_int_equal(t.present, (1u << DBT_SOFTIRQ_VECS) - 1);
	softirqs_free(&t);
}

static void test_broken_input(void **state)
{
	struct softirqs_table t;

	assert_int_equal(softirqs_parse("NET_RX: 1 2 3\n", &t), -ENODATA);  /* no header */
	assert_int_equal(softirqs_parse("", &t), -ENODATA);
	/* a short row leaves the missing CPUs at zero; an unknown row is skipped */
	assert_int_equal(softirqs_parse(" CPU0 CPU1 CPU2\nNET_RX: 5\nFOO: 1 2 3\nRCU: 1 x 3", &t), 0);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][0], 5);
	assert_int_equal(t.count[DBT_SOFTIRQ_NET_RX][2], 0);
	assert_int_equal(t.count[DBT_SOFTIRQ_RCU][0], 1);
	assert_int_equal(t.count[DBT_SOFTIRQ_RCU][1], 0);
	softirqs_free(&t);
}

static void test_names(void **state)
{
	assert_int_equal(softirq_vec_from_name("NET_RX", 6), DBT_SOFTIRQ_NET_RX);
	assert_int_equal(softirq_vec_from_name("NET_RXX", 7), -1);
	assert_string_equal(softirq_vec_key(DBT_SOFTIRQ_IRQ_POLL), "irq_poll");
	assert_string_equal(softirq_vec_name(DBT_SOFTIRQ_HRTIMER), "HRTIMER");
	assert_string_equal(softirq_vec_key(99), "?");
}

static void verbatim_copies(void **state)
{
	static const char *const copies[] = {
		"martins3-softirqs-32cpu/proc/softirqs",
		"irq-heatmap/proc/softirqs",
	};

	assert_verbatim_copies(copies);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_martins3_32cpu),
		cmocka_unit_test(test_partial_net_rx_only),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_broken_input),
		cmocka_unit_test(test_names),
		cmocka_unit_test(verbatim_copies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
