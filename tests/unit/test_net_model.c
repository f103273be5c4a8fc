/* The net model: windows between two snapshots of devices and ports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/net_model.h"

/* The cases were written for log2 µs slots: AT(i) is the fine bucket of
 * old slot i's middle, 1.5 x 2^i µs. */
#define AT(i) dbt_hist_bucket(1500ull << (i))

#define SELF 4026531840u
#define OTHER 4026532999u

static struct net_dev_sample *link_dev(struct net_snapshot *s, uint32_t netns, const char *name,
				       uint64_t rx_b, uint64_t tx_b, uint64_t rx_p, uint64_t tx_p, long speed)
{
	struct net_dev_sample *d = net_snapshot_add_dev(s);

	assert_non_null(d);
	d->netns = netns;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->have_link = true;
	d->rx_bytes = rx_b;
	d->tx_bytes = tx_b;
	d->rx_packets = rx_p;
	d->tx_packets = tx_p;
	d->speed_mbps = speed;
	return d;
}

static struct net_port_sample *port(struct net_snapshot *s, uint16_t p, uint8_t role, uint64_t req,
				    int slot)
{
	struct net_port_sample *x = net_snapshot_add_port(s);

	assert_non_null(x);
	x->port = p;
	x->role = role;
	x->requests = req;
	x->reads = req;
	x->resp_hist[AT(slot)] = req;
	x->rxq_hist[AT(3)] = req;
	return x;
}

static void snaps(struct net_snapshot *a, struct net_snapshot *b)
{
	net_snapshot_init(a);
	net_snapshot_init(b);
	a->self_netns = b->self_netns = SELF;
	a->mono_ns = 1000000000ull;
	b->mono_ns = 3000000000ull;    /* a 2 s window */
}

static const struct net_dev_stats *find(const struct net_interval *iv, const char *name)
{
	for (int i = 0; i < iv->n_devs; i++)
		if (!strcmp(iv->devs[i].name, name))
			return &iv->devs[i];
	return NULL;
}

static void test_device_rates(void **state)
{
	struct net_snapshot a, b;
	struct net_interval iv;
	const struct net_dev_stats *d;
	struct net_dev_sample *x;

	snaps(&a, &b);
	link_dev(&a, SELF, "eth0", 1000, 1000, 10, 10, 1000);
	x = link_dev(&b, SELF, "eth0", 1000 + 234000000ull, 1000 + 2000000, 10 + 160000, 10 + 4000, 1000);
	x->have_qdisc = true;
	snprintf(x->qdisc.kind, sizeof(x->qdisc.kind), "netem");
	x->qdisc.delay_ns = 1000000;
	link_dev(&a, SELF, "lo", 0, 0, 0, 0, -1);
	link_dev(&b, SELF, "lo", 0, 0, 0, 0, -1);
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	assert_true(iv.dt_s == 2);
	assert_int_equal(iv.n_devs, 2);               /* idle devices of our namespace stay */
	d = &iv.devs[0];                              /* busiest first */
	assert_string_equal(d->name, "eth0");
	assert_false(d->foreign);
	assert_true(fabs(d->rx_mbps - 936) < 1e-9);  /* 117 MB/s */
	assert_true(fabs(d->tx_mbps - 8) < 1e-9);
	assert_true(d->rx_pps == 80000 && d->tx_pps == 2000);
	assert_true(d->speed_mbps == 1000);
	assert_true(fabs(d->util_pct - 93.6) < 1e-9);
	assert_string_equal(d->qdisc_text, "netem delay 1ms");
	assert_true(isnan(d->txq_p50_us));             /* no tx queue sample */
	d = find(&iv, "lo");
	assert_true(isnan(d->speed_mbps) && isnan(d->util_pct));
	assert_string_equal(d->qdisc_text, "");
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);
}

/* Tx queue histograms are deltas; a device of another namespace shows
 * only while it carries traffic, and its send rate comes from the probes
 * when its link counters miss the window's start. */
static void test_tx_queue_and_namespaces(void **state)
{
	struct net_snapshot a, b;
	struct net_interval iv;
	const struct net_dev_stats *d;
	struct net_dev_sample *x;

	snaps(&a, &b);
	x = net_snapshot_add_dev(&a);
	x->netns = OTHER;
	snprintf(x->name, sizeof(x->name), "veth0");
	x->have_txq = true;
	x->txq_hist[AT(13)] = 50;
	x->xmit_packets = 50;
	x->xmit_bytes = 50 * 1500;
	x = net_snapshot_add_dev(&b);
	x->netns = OTHER;
	snprintf(x->name, sizeof(x->name), "veth0");
	snprintf(x->netns_name, sizeof(x->netns_name), "ns1");
	x->have_txq = true;
	x->txq_hist[AT(13)] = 150;                         /* 8-16 ms */
	x->txq_hist[AT(12)] = 100;
	x->xmit_packets = 250;
	x->xmit_bytes = 250 * 1500;
	x->have_link = true;                           /* read from now on */
	x->tx_packets = 99999;
	/* an idle device of the other namespace */
	x = link_dev(&b, OTHER, "lo", 0, 0, 0, 0, -1);
	link_dev(&a, OTHER, "lo", 0, 0, 0, 0, -1);
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	assert_int_equal(iv.n_devs, 1);
	d = &iv.devs[0];
	assert_string_equal(d->name, "veth0");
	assert_true(d->foreign);
	assert_string_equal(d->netns_name, "ns1");
	assert_true(d->txq_samples == 200);
	assert_true(d->txq_p50_us >= 4096 && d->txq_p50_us < 16384);
	assert_true(d->txq_p99_us >= 8192 && d->txq_p99_us < 16384);
	assert_true(d->tx_pps == 100);                 /* 200 packets in 2 s, from the probes */
	assert_true(fabs(d->tx_mbps - 1.2) < 1e-9);
	assert_true(isnan(d->rx_pps));
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);
}

static void test_ports(void **state)
{
	struct net_snapshot a, b, c;
	struct net_interval iv, copy;
	uint16_t only[] = { 3306 };
	struct net_filter f = { only, 1 };
	struct net_port_sample *x;

	snaps(&a, &b);
	port(&a, 3306, DBT_NET_SERVER, 100, 6);
	port(&b, 3306, DBT_NET_SERVER, 1100, 6);      /* 1000 in the window, 64-128 us */
	port(&a, 3306, DBT_NET_CLIENT, 100, 13);
	port(&b, 3306, DBT_NET_CLIENT, 600, 13);
	port(&b, 8080, DBT_NET_SERVER, 4000, 2);       /* new in the window */
	port(&a, 22, DBT_NET_SERVER, 7, 2);
	port(&b, 22, DBT_NET_SERVER, 7, 2);            /* idle: left out */
	x = port(&b, 5001, DBT_NET_SERVER, 0, 2);      /* reads only */
	x->reads = 10;
	x->rxq_hist[AT(12)] = 10;
	b.stats.port_failed = 5;
	a.stats.port_failed = 2;
	a.stats.skipped = 4;
	b.stats.skipped = 11;                          /* counted, not lost */
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	assert_int_equal(iv.n_ports, 4);
	assert_true(iv.lost == 3);
	assert_true(iv.skipped == 7);
	assert_int_equal(iv.ports[0].port, 8080);      /* most requests first */
	assert_int_equal(iv.ports[1].port, 3306);
	assert_int_equal(iv.ports[1].role, DBT_NET_SERVER);
	assert_true(iv.ports[1].requests == 1000);
	assert_true(iv.ports[1].requests_per_s == 500);
	assert_true(iv.ports[1].resp_p50_us >= 64 && iv.ports[1].resp_p50_us < 128);
	assert_int_equal(iv.ports[2].role, DBT_NET_CLIENT);
	assert_true(iv.ports[2].resp_p50_us >= 8192);
	assert_int_equal(iv.ports[3].port, 5001);
	assert_true(isnan(iv.ports[3].resp_p50_us));
	assert_true(iv.ports[3].rxq_p50_us >= 4096);
	assert_string_equal(net_role_name(iv.ports[2].role), "client");
	assert_int_equal(net_interval_copy(&copy, &iv), 0);
	assert_int_equal(copy.n_ports, 4);
	assert_true(copy.ports != iv.ports && copy.ports[1].requests == 1000);
	net_interval_free(&copy);
	net_interval_free(&iv);

	/* --port keeps both roles of the port asked for */
	assert_int_equal(net_interval_compute(&a, &b, &f, &iv), 0);
	assert_int_equal(iv.n_ports, 2);
	assert_int_equal(iv.ports[0].port, 3306);
	assert_int_equal(iv.ports[1].port, 3306);
	net_interval_free(&iv);

	/* a copy computes the same window */
	net_snapshot_init(&c);
	assert_int_equal(net_snapshot_copy(&c, &b), 0);
	assert_int_equal(net_interval_compute(&a, &c, NULL, &iv), 0);
	assert_int_equal(iv.n_ports, 4);
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);
	net_snapshot_free(&c);
}

/* Counters that went backwards (a reloaded probe, a recreated device)
 * count from zero rather than wrap. */
static void test_counter_reset(void **state)
{
	struct net_snapshot a, b;
	struct net_interval iv;

	snaps(&a, &b);
	link_dev(&a, SELF, "eth0", 5000000, 5000000, 5000, 5000, 1000);
	link_dev(&b, SELF, "eth0", 250000, 0, 200, 0, 1000);
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	assert_true(iv.devs[0].rx_pps == 100);
	assert_true(iv.devs[0].rx_mbps == 1);
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);
}

/* A port whose kernel-side slot was given back and that came back in
 * another starts over: the new slot's counts are the window's, even when
 * they exceed the old slot's (a plain difference would take 70 of 100). */
static void test_port_in_a_new_slot_counts_from_zero(void **state)
{
	struct net_snapshot a, b;
	struct net_interval iv;

	snaps(&a, &b);
	port(&a, 3306, DBT_NET_SERVER, 30, 5)->gen = 1;
	port(&b, 3306, DBT_NET_SERVER, 100, 5)->gen = 2;
	port(&a, 5432, DBT_NET_SERVER, 30, 5)->gen = 3;    /* same slot: a difference */
	port(&b, 5432, DBT_NET_SERVER, 100, 5)->gen = 3;
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	assert_int_equal(iv.n_ports, 2);
	assert_int_equal(iv.ports[0].port, 3306);
	assert_int_equal(iv.ports[0].requests, 100);
	assert_int_equal(iv.ports[0].resp_hist[AT(5)], 100);
	assert_int_equal(iv.ports[1].port, 5432);
	assert_int_equal(iv.ports[1].requests, 70);
	assert_int_equal(iv.ports[1].rxq_hist[AT(3)], 70);
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);
}

/* Stages: the window's weighted sums by position become each role's
 * named stages, whose means add up to the total; a stage the role has
 * not is NAN. */
static void test_stages(void **state)
{
	struct net_snapshot a, b;
	struct net_interval iv;
	struct net_port_sample *s0, *s1, *c1;
	const struct net_port_stats *srv, *cli;

	snaps(&a, &b);
	s0 = port(&a, 3306, DBT_NET_SERVER, 100, 6);
	s1 = port(&b, 3306, DBT_NET_SERVER, 1100, 6);
	/* 10 requests before, 40 in the window: rx 2, socket_wait 30,
	 * server 200, tx 3 us each */
	s0->staged = 10;
	s0->staged_timed = 10;
	s0->stage_ns[0] = 10 * 5000;
	s1->staged = 50;
	s1->staged_timed = 50;
	s1->stage_ns[0] = 10 * 5000 + 40 * 2000;
	s1->stage_ns[1] = 40 * 30000;
	s1->stage_ns[2] = 40 * 200000;
	s1->stage_ns[3] = 40 * 3000;
	s1->stage_hist[2][dbt_hist_bucket(200000)] = 40;
	s1->staged_hist[dbt_hist_bucket(235000)] = 40;
	c1 = port(&b, 3306, DBT_NET_CLIENT, 500, 13);   /* new in the window */
	c1->staged = 32;
	c1->staged_timed = 2;
	c1->stage_ns[0] = 32 * 4000;                   /* tx */
	c1->stage_ns[1] = 32 * 240000;                 /* outside */
	c1->stage_ns[2] = 32 * 6000;                   /* rx */
	c1->stage_ns[3] = 999;                         /* no fourth client stage: ignored */
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	srv = iv.ports[0].role == DBT_NET_SERVER ? &iv.ports[0] : &iv.ports[1];
	cli = iv.ports[0].role == DBT_NET_CLIENT ? &iv.ports[0] : &iv.ports[1];
	assert_true(srv->staged == 40 && srv->staged_timed == 40);
	assert_float_equal(srv->stage_mean_us[DBT_NET_STAGE_RX], 2, 1e-9);
	assert_float_equal(srv->stage_mean_us[DBT_NET_STAGE_SOCKET_WAIT], 30, 1e-9);
	assert_float_equal(srv->stage_mean_us[DBT_NET_STAGE_SERVER], 200, 1e-9);
	assert_float_equal(srv->stage_mean_us[DBT_NET_STAGE_TX], 3, 1e-9);
	assert_true(isnan(srv->stage_mean_us[DBT_NET_STAGE_OUTSIDE]));
	assert_float_equal(srv->total_mean_us, 235, 1e-9);
	assert_float_equal(srv->stage_pct[DBT_NET_STAGE_SERVER], 100.0 * 200 / 235, 1e-9);
	assert_true(fabs(srv->stage_p50_us[DBT_NET_STAGE_SERVER] - 200) < 200.0 / 32);
	assert_true(fabs(srv->total_p50_us - 235) < 235.0 / 32);
	assert_true(srv->stage_timed[DBT_NET_STAGE_SERVER] == 40 && srv->stage_timed[DBT_NET_STAGE_OUTSIDE] == 0);
	assert_true(cli->staged == 32 && cli->staged_timed == 2);
	assert_float_equal(cli->stage_mean_us[DBT_NET_STAGE_TX], 4, 1e-9);
	assert_float_equal(cli->stage_mean_us[DBT_NET_STAGE_OUTSIDE], 240, 1e-9);
	assert_float_equal(cli->stage_mean_us[DBT_NET_STAGE_RX], 6, 1e-9);
	assert_true(isnan(cli->stage_mean_us[DBT_NET_STAGE_SERVER]));
	assert_true(isnan(cli->stage_mean_us[DBT_NET_STAGE_SOCKET_WAIT]));
	assert_float_equal(cli->total_mean_us, 250, 1e-9);
	assert_true(net_role_has_stage(DBT_NET_CLIENT, DBT_NET_STAGE_OUTSIDE));
	assert_false(net_role_has_stage(DBT_NET_SERVER, DBT_NET_STAGE_OUTSIDE));
	assert_string_equal(net_stage_name(DBT_NET_STAGE_SOCKET_WAIT), "socket_wait");
	net_interval_free(&iv);

	/* nothing staged: every stage unknown */
	s1->staged = s0->staged;
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	srv = iv.ports[0].role == DBT_NET_SERVER ? &iv.ports[0] : &iv.ports[1];
	assert_true(isnan(srv->total_mean_us) && isnan(srv->stage_mean_us[DBT_NET_STAGE_RX]));
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);
}

/* The slow tail against the rest: per stage, the tail's mean less the
 * rest's, adding up to the extra total, the largest named; the next
 * interval's threshold is the upper edge of the p90's bucket. */
static void test_tail(void **state)
{
	struct net_snapshot a, b;
	struct net_interval iv;
	struct net_port_sample *s1;
	const struct net_port_stats *r;
	__u64 cur[DBT_HIST_BUCKETS] = { 0 }, prev[DBT_HIST_BUCKETS] = { 0 };

	snaps(&a, &b);
	port(&a, 3306, DBT_NET_SERVER, 0, 6);
	s1 = port(&b, 3306, DBT_NET_SERVER, 100, 6);
	/* 90 requests: rx 2, socket_wait 30, server 200, tx 3; 10 more with
	 * tx 5003 (a shaper): the tail */
	s1->staged = 100;
	s1->staged_timed = 100;
	s1->stage_ns[0] = 100 * 2000;
	s1->stage_ns[1] = 100 * 30000;
	s1->stage_ns[2] = 100 * 200000;
	s1->stage_ns[3] = 90 * 3000 + 10 * 5003000;
	s1->tail = 10;
	s1->tail_timed = 10;
	s1->tail_ns[0] = 10 * 2000;
	s1->tail_ns[1] = 10 * 30000;
	s1->tail_ns[2] = 10 * 200000;
	s1->tail_ns[3] = 10 * 5003000;
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	r = &iv.ports[0];
	assert_true(r->tail == 10);
	assert_float_equal(r->tail_pct, 10, 1e-9);
	assert_float_equal(r->tail_total_mean_us, 5235, 1e-6);
	assert_float_equal(r->rest_total_mean_us, 235, 1e-6);
	assert_float_equal(r->tail_extra_us, 5000, 1e-6);
	assert_float_equal(r->tail_extra_by_stage_us[DBT_NET_STAGE_TX], 5000, 1e-6);
	assert_float_equal(r->tail_extra_by_stage_us[DBT_NET_STAGE_SERVER], 0, 1e-6);
	assert_true(isnan(r->tail_extra_by_stage_us[DBT_NET_STAGE_OUTSIDE]));
	assert_int_equal(r->tail_stage, DBT_NET_STAGE_TX);
	assert_float_equal(r->tail_stage_pct, 100, 1e-6);
	net_interval_free(&iv);

	/* every staged request in the tail: nothing to set it against */
	s1->tail = s1->staged;
	assert_int_equal(net_interval_compute(&a, &b, NULL, &iv), 0);
	assert_int_equal(iv.ports[0].tail_stage, -1);
	assert_true(isnan(iv.ports[0].tail_extra_us));
	net_interval_free(&iv);
	net_snapshot_free(&a);
	net_snapshot_free(&b);

	/* thresholds: the p90 of the window's totals, its bucket's upper
	 * edge; too few requests give none */
	cur[dbt_hist_bucket(235000)] = 90;
	cur[dbt_hist_bucket(5235000)] = 10;
	assert_true(net_tail_threshold_ns(NULL, cur) == dbt_hist_high(dbt_hist_bucket(235000)));
	cur[dbt_hist_bucket(5235000)] = 11;            /* the p90 now falls among the slow */
	assert_true(net_tail_threshold_ns(NULL, cur) == dbt_hist_high(dbt_hist_bucket(5235000)));
	memcpy(prev, cur, sizeof(prev));
	cur[dbt_hist_bucket(1000)] += NET_TAIL_MIN - 1;
	assert_true(net_tail_threshold_ns(prev, cur) == 0);
	cur[dbt_hist_bucket(1000)] += 1;
	assert_true(net_tail_threshold_ns(prev, cur) == dbt_hist_high(dbt_hist_bucket(1000)));
}

static void test_dev_subject(void **state)
{
	struct net_dev_stats d = { .name = "veth0", .netns_name = "db" };
	char buf[64];

	net_dev_subject(&d, buf, sizeof(buf));
	assert_string_equal(buf, "veth0");
	d.foreign = true;
	net_dev_subject(&d, buf, sizeof(buf));
	assert_string_equal(buf, "veth0@db");
	net_dev_subject(&d, buf, 6);                       /* cut, never overflows */
	assert_string_equal(buf, "veth0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_rates),
		cmocka_unit_test(test_tx_queue_and_namespaces),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_counter_reset),
		cmocka_unit_test(test_port_in_a_new_slot_counts_from_zero),
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_dev_subject),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
