/* The network view's text rows and sorting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/net_table.h"

static struct net_dev_stats dev(const char *name, double tx_mbps, double txq99)
{
	struct net_dev_stats d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.speed_mbps = NAN;
	d.util_pct = NAN;
	d.tx_pps = tx_mbps * 100;
	d.rx_pps = 10;
	d.tx_mbps = tx_mbps;
	d.rx_mbps = 0.5;
	d.txq_p50_us = txq99 / 2;
	d.txq_p99_us = txq99;
	return d;
}

static void test_device_rows(void **state)
{
	struct net_dev_stats d = dev("eth0", 936.04, 16384);
	struct net_dev_loss drops = { .drops = 175, .drops_per_s = 174.8 };
	char line[256];

	d.speed_mbps = 1000;
	d.util_pct = 93.6;
	snprintf(d.qdisc_text, sizeof(d.qdisc_text), "tbf rate 20Mbit burst 100Kb limit 344.1Kb");
	net_dev_header(line, sizeof(line), 'Q');
	assert_string_equal(line, "DEVICE                     SPEED     TXpps     RXpps   TXMbit   RXMbit  %LINK  "
				  "TXQp50us *TXQp99us  DROP/s QDISC");
	net_dev_row(line, sizeof(line), &d, &drops);
	assert_string_equal(line, "eth0                        1000     93604        10    936.0      0.5   93.6"
				  "      8192     16384     175 tbf rate 20Mbit burst 100Kb limit 344.1Kb");
	/* unknowns are dashes; another namespace's device says which */
	d = dev("veth0", NAN, NAN);
	d.foreign = true;
	snprintf(d.netns_name, sizeof(d.netns_name), "ns1");
	net_dev_row(line, sizeof(line), &d, NULL);
	assert_string_equal(line, "veth0@ns1                      -         -        10        -      0.5      -"
				  "         -         -       - -");
	/* cut, terminated */
	net_dev_row(line, 12, &d, NULL);
	assert_string_equal(line, "veth0@ns1  ");
}

static void test_port_rows(void **state)
{
	struct net_port_loss loss = { .retrans_per_s = 41.6, .rto_per_s = 0.333, .drops_per_s = 0 };
	struct net_port_stats p;
	char line[256];

	memset(&p, 0, sizeof(p));
	p.port = 3306;
	p.role = DBT_NET_CLIENT;
	p.requests_per_s = 1234.4;
	p.reads_per_s = 1234;
	p.resp_p50_us = 3072;
	p.resp_p99_us = 4055.9;
	p.rxq_p50_us = 6.3;
	p.rxq_p99_us = NAN;
	net_port_header(line, sizeof(line), 'R');
	assert_string_equal(line, "PORT   ROLE      *REQ/s  RESPp50us  RESPp99us   READS/s  RXQp50us  RXQp99us"
				  "  RETX/s  RTO/s  DROP/s");
	net_port_row(line, sizeof(line), &p, NULL);
	assert_string_equal(line, "3306   client      1234       3072       4056      1234         6         -"
				  "       -      -       -");
	/* with the loss family: retransmits, RTO expirations and drops per second */
	net_port_row(line, sizeof(line), &p, &loss);
	assert_string_equal(line, "3306   client      1234       3072       4056      1234         6         -"
				  "      42    0.3       0");
	/* sampled under load (10 timed stand for 160): the response
	 * percentiles are marked, the rx queue's (all timed) are not */
	p.resp_hist[dbt_hist_bucket(3000000)] = 160;
	p.resp_timed = 10;
	p.rxq_hist[dbt_hist_bucket(6000)] = 5;
	p.rxq_timed = 5;
	net_port_row(line, sizeof(line), &p, NULL);
	assert_string_equal(line, "3306   client      1234      3072~      4056~      1234         6         -"
				  "       -      -       -");
}

static void test_sorting(void **state)
{
	struct net_dev_stats d[] = { dev("a", 1, 50), dev("b", 300, NAN), dev("c", 20, 9000) };
	struct net_port_stats p[3];
	struct net_interval iv = { .devs = d, .n_devs = 3, .ports = p, .n_ports = 3 };
	int order[3];

	memset(p, 0, sizeof(p));
	p[0].requests_per_s = 5; p[0].resp_p99_us = 100; p[0].rxq_p99_us = 7;
	p[1].requests_per_s = 50; p[1].resp_p99_us = NAN; p[1].rxq_p99_us = 9;
	p[2].requests_per_s = 1; p[2].resp_p99_us = 900; p[2].rxq_p99_us = 8;
	assert_int_equal(net_dev_sort(&iv, 'M', order), 3);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 2);
	assert_int_equal(order[2], 0);
	net_dev_sort(&iv, 'Q', order);                 /* unknown last */
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 1);
	net_dev_sort(&iv, '9', order);                 /* a port key: devices by default */
	assert_int_equal(order[0], 1);
	net_port_sort(&iv, 'R', order);
	assert_int_equal(order[0], 1);
	net_port_sort(&iv, '9', order);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[2], 1);
	net_port_sort(&iv, 'X', order);
	assert_int_equal(order[0], 1);
	net_port_sort(&iv, 'M', order);                /* a device key: ports by default */
	assert_int_equal(order[0], 1);
	assert_true(net_table_valid_key('M') && net_table_valid_key('X') && net_table_valid_key('9'));
	assert_false(net_table_valid_key('z'));
	assert_true(net_table_valid_key(NET_TABLE_DEFAULT_SORT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_rows),
		cmocka_unit_test(test_port_rows),
		cmocka_unit_test(test_sorting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
