/* What each NIC carried: the NICs of the layout taken from the net
 * model's rows of dbtrace's own namespace, the busiest interval kept,
 * unknown rates and other namespaces' namesakes left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "findings/nic_traffic.h"

static void test_peaks_and_what_counts(void **state)
{
	struct dbt_nic nics[2] = { { .dev = "eth0" }, { .dev = "eth1" } };
	struct dbt_nic_layout l = { .n = 2, .nics = nics };
	struct net_dev_stats d[4] = {
		{ .name = "eth0", .rx_pps = 900, .tx_pps = 100 },
		{ .name = "eth1", .foreign = true, .rx_pps = 5000, .tx_pps = 5000 },  /* a container's eth1 */
		{ .name = "lo", .rx_pps = 7, .tx_pps = 7 },                           /* not a NIC of the layout */
		{ .name = "eth1", .rx_pps = NAN, .tx_pps = NAN },                     /* no counters yet */
	};
	struct net_interval ni = { .dt_s = 1, .devs = d, .n_devs = 4 };
	struct nic_traffic_table t = { 0 };
	const struct nic_traffic *e;

	assert_int_equal(nic_traffic_update(&t, &l, NULL), 0);
	assert_false(t.measured);
	assert_int_equal(t.n, 0);
	assert_int_equal(nic_traffic_update(&t, &l, &ni), 0);
	assert_true(t.measured);
	assert_int_equal(t.n, 1);
	e = nic_traffic_find(&t, "eth0");
	assert_non_null(e);
	assert_true(e->rx_pps == 900 && e->tx_pps == 100 && e->peak_pps == 1000);
	assert_null(nic_traffic_find(&t, "eth1"));
	assert_null(nic_traffic_find(&t, "lo"));

	/* quieter, then eth1 read: eth0 keeps its peak, eth1 starts one */
	d[0].rx_pps = 10;
	d[0].tx_pps = 5;
	d[3].rx_pps = 3;
	d[3].tx_pps = 1;
	assert_int_equal(nic_traffic_update(&t, &l, &ni), 0);
	e = nic_traffic_find(&t, "eth0");
	assert_true(e->rx_pps == 10 && e->tx_pps == 5 && e->peak_pps == 1000);
	e = nic_traffic_find(&t, "eth1");
	assert_non_null(e);
	assert_true(e->peak_pps == 4);

	/* an interval without the NIC's rates keeps what it had */
	d[0].rx_pps = NAN;
	assert_int_equal(nic_traffic_update(&t, &l, &ni), 0);
	assert_true(nic_traffic_find(&t, "eth0")->rx_pps == 10);
	nic_traffic_free(&t);
	assert_int_equal(t.n, 0);
	assert_false(t.measured);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peaks_and_what_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
