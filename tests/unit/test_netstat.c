/* /proc/net/netstat and /proc/net/snmp counters by name, and the queue
 * sysctls of a namespace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include "sysinfo/netstat.h"

/* tests/fixtures/netloss-host: the build host's files with the counters
 * the loss family reads set to known values. */
static void test_host_counters(void **state)
{
	struct tcp_netstat t;

	assert_int_equal(netstat_read(FIXTURES "/netloss-host", &t), 0);
	assert_true(t.have);
	assert_true(t.listen_overflows == 12);
	assert_true(t.listen_drops == 14);
	assert_true(t.memory_pressures == 2);
	assert_true(t.memory_pressure_ms == 150);
	assert_true(t.abort_on_memory == 1);
	assert_true(t.timeouts == 445);
	assert_true(t.loss_probes == 151);
	assert_true(t.retrans_segs == 8521);
}

static void test_value_lookup(void **state)
{
	const char *text = "TcpExt: SyncookiesSent ListenOverflows ListenDrops\n"
			   "TcpExt: 0 7 9\n"
			   "IpExt: InNoRoutes ListenDrops\n"
			   "IpExt: 1 99\n"
			   "Tcp: RtoAlgorithm MaxConn RetransSegs\n"
			   "Tcp: 1 -1 42\n"
			   "Short: A B\n"
			   "Short: 1\n";
	uint64_t v = 1234;

	assert_int_equal(netstat_value(text, "TcpExt", "ListenDrops", &v), 0);
	assert_true(v == 9);
	/* the same name in another section is another counter */
	assert_int_equal(netstat_value(text, "IpExt", "ListenDrops", &v), 0);
	assert_true(v == 99);
	/* Tcp's MaxConn is printed signed */
	assert_int_equal(netstat_value(text, "Tcp", "MaxConn", &v), 0);
	assert_true(v == 0);
	assert_int_equal(netstat_value(text, "Tcp", "RetransSegs", &v), 0);
	assert_true(v == 42);
	/* a section name that is a prefix of another is not it */
	assert_int_equal(netstat_value(text, "Tc", "RetransSegs", &v), -ENOENT);
	assert_int_equal(netstat_value(text, "TcpExt", "TCPMemoryPressures", &v), -ENOENT);
	assert_int_equal(netstat_value(text, "Short", "B", &v), -EINVAL);
	assert_int_equal(netstat_value("", "TcpExt", "ListenDrops", &v), -ENOENT);
}

/* A kernel without a counter leaves it 0; no snmp file leaves RetransSegs 0. */
static void test_missing(void **state)
{
	struct tcp_netstat t;

	netstat_parse("TcpExt: ListenOverflows\nTcpExt: 3\n", NULL, &t);
	assert_true(t.have);
	assert_true(t.listen_overflows == 3 && t.listen_drops == 0 && t.retrans_segs == 0);
	netstat_parse(NULL, NULL, &t);
	assert_false(t.have);
	assert_int_equal(netstat_read(FIXTURES "/no-such-tree", &t), -ENOENT);
	assert_false(t.have);
}

static void test_limits(void **state)
{
	struct net_limits l;

	net_limits_read(FIXTURES "/netloss-host", &l);
	assert_int_equal(l.somaxconn, 4096);
	assert_int_equal(l.tcp_max_syn_backlog, 2048);
	assert_int_equal(l.netdev_max_backlog, 1000);
	net_limits_read(FIXTURES "/no-such-tree", &l);
	assert_int_equal(l.somaxconn, -1);
	assert_int_equal(l.netdev_max_backlog, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_counters),
		cmocka_unit_test(test_value_lookup),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
