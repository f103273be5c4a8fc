/* Which port slots go back to the kernel side: none while fewer than
 * three quarters are taken; past that the ports quiet for 5 s, longest
 * quiet first, down to half; a port whose activity moves is never quiet;
 * a slot handed to another key is a new incarnation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include "model/net_port_slots.h"

#define S 1000000000ull

/* One read at now: slots [0, n) held by ports 1000 + i, activity act(i). */
static void read_all(struct net_port_slots *t, int n, uint64_t now, uint64_t (*act)(int))
{
	net_port_slots_begin(t);
	for (int i = 0; i < n; i++)
		assert_int_not_equal(net_port_slots_observe(t, (uint32_t)i, (uint16_t)(1000 + i),
							    DBT_NET_SERVER, act(i), now), 0);
}

static uint64_t flat(int i)
{
	return 7;
}

static void test_nothing_back_below_three_quarters(void **state)
{
	struct net_port_slots *t = calloc(1, sizeof(*t));
	uint32_t back[DBT_NET_MAX_PORTS];

	net_port_slots_init(t);
	read_all(t, NET_PORT_SLOTS_HIGH, 0, flat);
	assert_int_equal(net_port_slots_end(t, 0, back, DBT_NET_MAX_PORTS), 0);
	/* all quiet for a minute: still no pressure */
	read_all(t, NET_PORT_SLOTS_HIGH, 60 * S, flat);
	assert_int_equal(net_port_slots_end(t, 60 * S, back, DBT_NET_MAX_PORTS), 0);
	free(t);
}

static uint64_t now_busy;
/* the even slots keep moving */
static uint64_t evens_move(int i)
{
	return i % 2 ? 7 : now_busy + (uint64_t)i;
}

static void test_quiet_ones_back_down_to_half(void **state)
{
	struct net_port_slots *t = calloc(1, sizeof(*t));
	uint32_t back[DBT_NET_MAX_PORTS];
	int n;

	net_port_slots_init(t);
	/* every slot taken, slot i's port arriving at i ms */
	for (int i = 0; i < DBT_NET_MAX_PORTS; i++) {
		net_port_slots_begin(t);
		for (int k = 0; k <= i; k++)
			net_port_slots_observe(t, (uint32_t)k, (uint16_t)(1000 + k), DBT_NET_SERVER, 7,
					       (uint64_t)i * 1000000);
		assert_int_equal(net_port_slots_end(t, (uint64_t)i * 1000000, back, DBT_NET_MAX_PORTS), 0);
	}
	/* 4 s later: full, but nothing quiet for 5 s yet */
	now_busy = 4 * S;
	read_all(t, DBT_NET_MAX_PORTS, 4 * S, evens_move);
	assert_int_equal(net_port_slots_end(t, 4 * S, back, DBT_NET_MAX_PORTS), 0);
	/* 6 s: the odd slots have been quiet since their arrival, the even
	 * ones moved at 4 s */
	now_busy = 6 * S;
	read_all(t, DBT_NET_MAX_PORTS, 6 * S, evens_move);
	n = net_port_slots_end(t, 6 * S, back, DBT_NET_MAX_PORTS);
	assert_int_equal(n, DBT_NET_MAX_PORTS / 2);
	for (int i = 0; i < n; i++)
		assert_int_equal(back[i], 2 * i + 1);   /* longest quiet (earliest) first */
	free(t);
}

static void test_stops_at_half_and_at_max(void **state)
{
	struct net_port_slots *t = calloc(1, sizeof(*t));
	uint32_t back[DBT_NET_MAX_PORTS];

	net_port_slots_init(t);
	read_all(t, DBT_NET_MAX_PORTS, 0, flat);
	assert_int_equal(net_port_slots_end(t, 0, back, DBT_NET_MAX_PORTS), 0);
	read_all(t, DBT_NET_MAX_PORTS, 10 * S, flat);
	assert_int_equal(net_port_slots_end(t, 10 * S, back, 3), 3);
	/* given back: the next read does not see them; 253 still > 3/4 */
	net_port_slots_begin(t);
	for (int i = 3; i < DBT_NET_MAX_PORTS; i++)
		net_port_slots_observe(t, (uint32_t)i, (uint16_t)(1000 + i), DBT_NET_SERVER, 7, 11 * S);
	assert_int_equal(net_port_slots_end(t, 11 * S, back, DBT_NET_MAX_PORTS),
			 DBT_NET_MAX_PORTS - 3 - NET_PORT_SLOTS_LOW);
	assert_int_equal(back[0], 3);
	free(t);
}

static void test_a_new_holder_is_a_new_incarnation(void **state)
{
	struct net_port_slots *t = calloc(1, sizeof(*t));
	uint32_t back[1], g1, g2, g3;

	net_port_slots_init(t);
	net_port_slots_begin(t);
	g1 = net_port_slots_observe(t, 4, 3306, DBT_NET_SERVER, 10, 0);
	assert_int_equal(net_port_slots_observe(t, 4, 3306, DBT_NET_SERVER, 12, 0), g1);
	net_port_slots_end(t, 0, back, 1);
	/* same slot, another role: another key */
	net_port_slots_begin(t);
	g2 = net_port_slots_observe(t, 4, 3306, DBT_NET_CLIENT, 1, S);
	assert_int_not_equal(g2, g1);
	net_port_slots_end(t, S, back, 1);
	/* gone from the index for a read, then back in the same slot */
	net_port_slots_begin(t);
	net_port_slots_end(t, 2 * S, back, 1);
	net_port_slots_begin(t);
	g3 = net_port_slots_observe(t, 4, 3306, DBT_NET_CLIENT, 1, 3 * S);
	assert_int_not_equal(g3, g2);
	assert_int_equal(net_port_slots_observe(t, DBT_NET_MAX_PORTS, 1, 0, 0, 0), 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_back_below_three_quarters),
		cmocka_unit_test(test_quiet_ones_back_down_to_half),
		cmocka_unit_test(test_stops_at_half_and_at_max),
		cmocka_unit_test(test_a_new_holder_is_a_new_incarnation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
