/* /proc/net/dev and link speed parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include "sysinfo/netdev.h"

static void test_host_proc_net_dev(void **state)
{
	struct netdev_counters d[8];
	int n = netdev_read_proc(FIXTURES "/netdev-host", d, 8);

	assert_int_equal(n, 4);
	assert_string_equal(d[0].name, "lo");
	assert_true(d[0].rx_bytes == 1964202305ull && d[0].rx_packets == 16933363ull);
	assert_true(d[0].tx_bytes == 1964202305ull && d[0].tx_packets == 16933363ull);
	assert_string_equal(d[1].name, "ifb0");
	assert_true(d[1].tx_packets == 0);
	assert_string_equal(d[3].name, "eth0");
	assert_true(d[3].rx_bytes == 371094412ull && d[3].rx_packets == 8345);
	assert_true(d[3].tx_bytes == 311954 && d[3].tx_packets == 4335);
}

/* The kernel pads names and numbers; a long name runs into its colon;
 * counters beyond 2^32 are plain decimals. */
static void test_layout_variants(void **state)
{
	const char *text =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
		"bond0:18446744073709551615 5 0 7 0 0 0 0 9000000000000 6 0 8 0 0 0 0\n"
		"  veth1234abcd: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
	struct netdev_counters d[4];

	assert_int_equal(netdev_parse_proc(text, d, 4), 2);
	assert_string_equal(d[0].name, "bond0");
	assert_true(d[0].rx_bytes == 18446744073709551615ull);
	assert_true(d[0].rx_drop == 7 && d[0].tx_drop == 8);
	assert_true(d[0].tx_bytes == 9000000000000ull && d[0].tx_packets == 6);
	assert_string_equal(d[1].name, "veth1234abcd");
	assert_true(d[1].rx_bytes == 1 && d[1].rx_packets == 2 && d[1].rx_drop == 4);
	assert_true(d[1].tx_bytes == 9 && d[1].tx_packets == 10 && d[1].tx_drop == 12);
	/* max bounds what is returned */
	assert_int_equal(netdev_parse_proc(text, d, 1), 1);
}

static void test_truncated_line_is_an_error(void **state)
{
	struct netdev_counters d[2];

	assert_int_equal(netdev_parse_proc("  eth0: 1 2 3\n", d, 2), -EINVAL);
	assert_int_equal(netdev_parse_proc("", d, 2), 0);
	assert_int_equal(netdev_read_proc(FIXTURES "/no-such-tree", d, 2), -ENOENT);
}

static void test_speed(void **state)
{
	assert_int_equal(netdev_parse_speed("1000\n"), 1000);
	assert_int_equal(netdev_parse_speed("25000"), 25000);
	assert_int_equal(netdev_parse_speed("-1\n"), -1);   /* link down, or the driver does not say */
	assert_int_equal(netdev_parse_speed(""), -1);
	assert_int_equal(netdev_parse_speed("fast"), -1);
	assert_int_equal(netdev_parse_speed("0"), -1);
	assert_int_equal(netdev_speed_mbps(FIXTURES "/netdev-host", "eth0"), -1);
	assert_int_equal(netdev_speed_mbps(FIXTURES "/clean", "eth0"), 10000);
	/* virtual devices have no readable speed file */
	assert_int_equal(netdev_speed_mbps(FIXTURES "/netdev-host", "lo"), -1);
	assert_int_equal(netdev_speed_mbps(FIXTURES "/netdev-host", "../eth0"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_proc_net_dev),
		cmocka_unit_test(test_layout_variants),
		cmocka_unit_test(test_truncated_line_is_an_error),
		cmocka_unit_test(test_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
