/* Softirq vector names: the capture's keys and the kernel's names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/softirq_vec.h"

static void test_names(void **state)
{
	assert_string_equal(softirq_vec_key(DBT_SOFTIRQ_IRQ_POLL), "irq_poll");
	assert_string_equal(softirq_vec_key(DBT_SOFTIRQ_NET_RX), "net_rx");
	assert_string_equal(softirq_vec_name(DBT_SOFTIRQ_HRTIMER), "HRTIMER");
	assert_string_equal(softirq_vec_name(DBT_SOFTIRQ_HI), "HI");
	assert_string_equal(softirq_vec_key(99), "?");
	assert_string_equal(softirq_vec_name(-1), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
