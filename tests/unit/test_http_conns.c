/* Which connection serve cuts off: past the limit the idle one waiting
 * longest (never a busy one, never one already shed), and past the
 * deadline any live one, busy or not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include "render/http_conns.h"

#define S 1000000000ull

static void test_sheds_the_idle_one_waiting_longest(void **state)
{
	struct http_conn c[4] = {
		{ .fd = 10, .since_ns = 5 * S },
		{ .fd = 11, .since_ns = 1 * S, .busy = true },   /* oldest, but answering */
		{ .fd = 12, .since_ns = 3 * S },
		{ .fd = 13, .since_ns = 9 * S },
	};
	struct http_conns t = { 0 };

	for (int i = 0; i < 4; i++)
		assert_int_equal(http_conns_add(&t, &c[i]), 0);
	assert_int_equal(http_conns_live(&t), 4);
	assert_null(http_conns_over_limit(&t, 4));
	assert_ptr_equal(http_conns_over_limit(&t, 3), &c[2]);
	c[2].shed = true;
	assert_int_equal(http_conns_live(&t), 3);
	assert_null(http_conns_over_limit(&t, 3));
	assert_ptr_equal(http_conns_over_limit(&t, 2), &c[0]);
	/* everyone busy: nothing to shed, whatever the count */
	c[0].busy = c[3].busy = true;
	assert_null(http_conns_over_limit(&t, 1));
	http_conns_free(&t);
}

static void test_removal_keeps_the_others(void **state)
{
	struct http_conn c[3] = { { .fd = 1 }, { .fd = 2 }, { .fd = 3 } };
	struct http_conns t = { 0 };

	for (int i = 0; i < 3; i++)
		assert_int_equal(http_conns_add(&t, &c[i]), 0);
	http_conns_remove(&t, &c[1]);
	http_conns_remove(&t, &c[1]);   /* gone already: nothing happens */
	assert_int_equal(t.n, 2);
	assert_ptr_equal(t.items[0], &c[0]);
	assert_ptr_equal(t.items[1], &c[2]);
	http_conns_free(&t);
	assert_int_equal(t.n, 0);
}

static void test_deadline_applies_busy_or_not(void **state)
{
	struct http_conn c[3] = {
		{ .fd = 1, .since_ns = 10 * S },
		{ .fd = 2, .since_ns = 4 * S, .busy = true },
		{ .fd = 3, .since_ns = 2 * S, .shed = true },    /* on its way out */
	};
	struct http_conns t = { 0 };

	for (int i = 0; i < 3; i++)
		assert_int_equal(http_conns_add(&t, &c[i]), 0);
	assert_null(http_conns_expired(&t, 8 * S, 5 * S));
	assert_ptr_equal(http_conns_expired(&t, 9 * S, 5 * S), &c[1]);
	c[1].shed = true;
	assert_null(http_conns_expired(&t, 14 * S, 5 * S));
	assert_ptr_equal(http_conns_expired(&t, 15 * S, 5 * S), &c[0]);
	/* a clock behind since (never in practice) is not an expiry */
	c[0].since_ns = 20 * S;
	assert_null(http_conns_expired(&t, 15 * S, 5 * S));
	http_conns_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sheds_the_idle_one_waiting_longest),
		cmocka_unit_test(test_removal_keeps_the_others),
		cmocka_unit_test(test_deadline_applies_busy_or_not),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
