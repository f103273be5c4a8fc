/* The loss family's numbers joined into the net family's rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/net_loss.h"

/* A net window of 1 s: devices eth0 (own namespace 100) and rb@200, and
 * port 3306 in both roles with 1000 requests each. */
static void net_window(struct net_interval *ni)
{
	memset(ni, 0, sizeof(*ni));
	ni->dt_s = 1;
	ni->n_devs = 2;
	ni->devs = calloc(2, sizeof(*ni->devs));
	snprintf(ni->devs[0].name, 16, "eth0");
	ni->devs[0].netns = 100;
	snprintf(ni->devs[1].name, 16, "rb");
	ni->devs[1].netns = 200;
	ni->n_ports = 2;
	ni->ports = calloc(2, sizeof(*ni->ports));
	ni->ports[0] = (struct net_port_stats){ .port = 3306, .role = 0, .requests = 1000 };
	ni->ports[1] = (struct net_port_stats){ .port = 3306, .role = 1, .requests = 1000 };
}

static void loss_window(struct loss_interval *li)
{
	memset(li, 0, sizeof(*li));
	li->dt_s = 1;
	li->n_ports = 2;
	li->ports = calloc(2, sizeof(*li->ports));
	li->ports[0] = (struct loss_port_stats){ .port = 3306, .role = 1, .retrans = 6, .rto_timer = 2,
						 .tlp_probes = 2, .stalls = 4, .stall_rto_ms = 204 };
	li->ports[0].segs[DBT_RETX_TIMEOUT] = 4;
	li->ports[0].segs[DBT_RETX_TLP] = 2;
	li->ports[1] = (struct loss_port_stats){ .port = 5201, .role = 1, .retrans = 100 };
	li->ports[1].segs[DBT_RETX_FAST] = 100;
	li->n_drops = 2;
	li->drops = calloc(2, sizeof(*li->drops));
	li->drops[0] = (struct loss_drop_stats){ .netns = 200, .count = 50 };
	snprintf(li->drops[0].dev, 16, "rb");
	li->drops[1] = (struct loss_drop_stats){ .netns = 100, .count = 3, .port = 3306, .role = 0 };
	snprintf(li->drops[1].dev, 16, "eth0");
}

static void test_join(void **state)
{
	struct net_interval ni, copy;
	struct loss_interval li;

	net_window(&ni);
	loss_window(&li);
	assert_int_equal(net_loss_join(&ni, &li, NULL), 0);
	assert_int_equal(ni.n_ports, 3);
	assert_non_null(ni.port_loss);
	/* the client row of 3306 carries its retransmits and stall share */
	assert_true(ni.port_loss[1].retrans == 6 && ni.port_loss[1].segs[DBT_RETX_TIMEOUT] == 4);
	assert_true(ni.port_loss[1].stalls == 4);
	assert_true(fabs(ni.port_loss[1].stall_pct - 0.4) < 1e-9);
	assert_true(fabs(ni.port_loss[1].stall_rto_ms - 204) < 1e-9);
	assert_true(fabs(ni.port_loss[1].rto_per_s - 2) < 1e-9);
	/* the server row: no retransmit, but the drop whose socket was its */
	assert_true(ni.port_loss[0].retrans == 0 && ni.port_loss[0].drops == 3);
	assert_true(fabs(ni.port_loss[0].retrans_per_s) < 1e-9);
	assert_true(isnan(ni.port_loss[0].stall_pct) == 0);
	/* a bulk sender's port, with no request: a row of its own */
	assert_int_equal(ni.ports[2].port, 5201);
	assert_int_equal(ni.ports[2].role, 1);
	assert_true(ni.ports[2].requests == 0);
	assert_true(isnan(ni.ports[2].resp_p99_us) && isnan(ni.ports[2].requests_per_s));
	assert_true(ni.port_loss[2].retrans == 100);
	assert_true(isnan(ni.port_loss[2].stall_pct));
	/* device drops by namespace and name */
	assert_true(ni.dev_loss[0].drops == 3 && ni.dev_loss[1].drops == 50);
	assert_true(fabs(ni.dev_loss[1].drops_per_s - 50) < 1e-9);
	/* a copy (the UI keeps one) has its own loss arrays */
	assert_int_equal(net_interval_copy(&copy, &ni), 0);
	assert_ptr_not_equal(copy.port_loss, ni.port_loss);
	assert_true(copy.port_loss[2].retrans == 100 && copy.dev_loss[1].drops == 50);
	net_interval_free(&copy);
	net_interval_free(&ni);
	loss_interval_free(&li);
}

/* --port keeps only its ports, also among the rows the join adds. */
static void test_filter(void **state)
{
	static const uint16_t keep[] = { 3306 };
	struct net_filter f = { keep, 1 };
	struct net_interval ni;
	struct loss_interval li;

	net_window(&ni);
	loss_window(&li);
	assert_int_equal(net_loss_join(&ni, &li, &f), 0);
	assert_int_equal(ni.n_ports, 2);
	net_interval_free(&ni);
	loss_interval_free(&li);
}

/* Without the net family the rows come from the loss family alone. */
static void test_loss_only(void **state)
{
	struct net_interval ni;
	struct loss_interval li;

	net_interval_empty(&ni, 2);
	loss_window(&li);
	assert_true(ni.loss_only);
	assert_int_equal(net_loss_join(&ni, &li, NULL), 0);
	assert_int_equal(ni.n_ports, 3);   /* 3306/client, 5201/client, 3306/server (a drop) */
	assert_int_equal(ni.n_devs, 0);
	assert_true(fabs(ni.port_loss[0].retrans_per_s - 3) < 1e-9);
	net_interval_free(&ni);
	loss_interval_free(&li);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_loss_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
