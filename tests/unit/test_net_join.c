/* Two hosts joined: a port's client row on one, its server row on the
 * other, the client's outside split into the server's time on host and
 * the network between. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "model/net_join.h"

static void row(struct net_port_stats *p, uint16_t port, int role, const double *mean)
{
	memset(p, 0, sizeof(*p));
	p->port = port;
	p->role = (uint8_t)role;
	p->staged = 100;
	p->total_mean_us = 0;
	for (int st = 0; st < DBT_NET_STAGES; st++) {
		p->stage_mean_us[st] = mean[st];
		if (!isnan(mean[st]))
			p->total_mean_us += mean[st];
	}
}

static void test_join(void **state)
{
	/* the server: rx 2, socket_wait 30, server 200, tx 3 (235 on host);
	 * the client: tx 4, outside 2235 (2 ms between), rx 5 */
	static const double srv[DBT_NET_STAGES] = { 2, 30, 200, 3, NAN };
	static const double cli[DBT_NET_STAGES] = { 5, NAN, NAN, 4, 2235 };
	struct net_port_stats crow[2], srow[1];
	struct net_interval client = { .ports = crow, .n_ports = 2 }, server = { .ports = srow, .n_ports = 1 };
	const struct net_interval *hosts[] = { &client, &server };
	struct net_joined j[4];

	(void)state;
	row(&crow[0], 3306, DBT_NET_CLIENT, cli);
	row(&crow[1], 5432, DBT_NET_CLIENT, cli);   /* no server end anywhere */
	row(&srow[0], 3306, DBT_NET_SERVER, srv);
	assert_int_equal(net_join_paths(hosts, 2, j, 4), 1);
	assert_int_equal(j[0].port, 3306);
	assert_int_equal(j[0].client_host, 0);
	assert_int_equal(j[0].server_host, 1);
	assert_float_equal(j[0].part_us[NJ_NETWORK], 2000, 1e-9);
	assert_float_equal(j[0].part_us[NJ_SERVER_SERVER], 200, 1e-9);
	assert_float_equal(j[0].part_us[NJ_CLIENT_TX], 4, 1e-9);
	assert_float_equal(j[0].part_us[NJ_CLIENT_RX], 5, 1e-9);
	assert_float_equal(j[0].server_host_us, 235, 1e-9);
	assert_float_equal(j[0].client_total_us, 2244, 1e-9);
	{
		double sum = 0;

		for (int p = 0; p < NJ_PARTS; p++)
			sum += j[0].part_us[p];
		assert_float_equal(sum, j[0].client_total_us, 1e-9);   /* the parts make the whole */
	}
	assert_string_equal(net_join_part_name(NJ_NETWORK), "network");

	/* the order of the hosts does not matter */
	hosts[0] = &server;
	hosts[1] = &client;
	assert_int_equal(net_join_paths(hosts, 2, j, 4), 1);
	assert_int_equal(j[0].client_host, 1);
	assert_int_equal(j[0].server_host, 0);

	/* one capture with both ends joins with itself; a server row with
	 * nothing staged joins nothing */
	crow[1] = srow[0];
	hosts[0] = &client;
	assert_int_equal(net_join_paths(hosts, 1, j, 4), 1);
	assert_int_equal(j[0].client_host, 0);
	assert_int_equal(j[0].server_host, 0);
	crow[1].staged = 0;
	assert_int_equal(net_join_paths(hosts, 1, j, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
