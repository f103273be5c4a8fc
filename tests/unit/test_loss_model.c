/* The loss model: snapshots made by hand in, window rows out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/loss_model.h"

static struct loss_reason_names names;

static void snap_init(struct loss_snapshot *s, uint64_t t_ns)
{
	loss_snapshot_init(s);
	s->mono_ns = t_ns;
	s->self_netns = 100;
	s->hz = 250;
	s->names = &names;
}

static struct loss_port_sample *port(struct loss_snapshot *s, uint16_t p, uint8_t role)
{
	struct loss_port_sample *x = loss_snapshot_add_port(s);

	assert_non_null(x);
	x->port = p;
	x->role = role;
	return x;
}

static struct loss_drop_sample *drop(struct loss_snapshot *s, uint32_t reason, uint32_t netns,
				     const char *dev, uint64_t n)
{
	struct loss_drop_sample *d = loss_snapshot_add_drop(s);

	assert_non_null(d);
	d->key.reason = reason;
	d->key.netns = netns;
	d->key.ifindex = 3;
	snprintf(d->dev, sizeof(d->dev), "%s", dev);
	d->count = n;
	return d;
}

static void test_names_and_kinds(void **state)
{
	char b[64];

	assert_string_equal(loss_kind_name(DBT_RETX_TIMEOUT), "timeout");
	assert_string_equal(loss_kind_name(DBT_RETX_TLP), "tlp");
	assert_string_equal(loss_kind_name(99), "other");
	loss_reason_format(&names, 64, b, sizeof(b));
	assert_string_equal(b, "qdisc_drop");
	loss_reason_format(&names, 0, b, sizeof(b));
	assert_string_equal(b, "unknown");
	loss_reason_format(&names, 70, b, sizeof(b));
	assert_string_equal(b, "reason_70");
	loss_reason_format(&names, (3u << 16) | 5, b, sizeof(b));
	assert_string_equal(b, "subsys_3_5");
	loss_reason_format(NULL, 64, b, sizeof(b));
	assert_string_equal(b, "reason_64");
}

/* Retransmits by kind over a 2 s window; RTO jiffies become ms at HZ 250. */
static void test_ports(void **state)
{
	struct loss_snapshot a, b;
	struct loss_interval iv;
	const struct loss_port_stats *p;
	struct loss_port_sample *x;

	snap_init(&a, 1000000000ull);
	snap_init(&b, 3000000000ull);
	x = port(&a, 3306, 1);
	x->c.segs[DBT_RETX_FAST] = 10;
	x->c.stalls = 1;
	x->c.stall_rto_jiffies = 50;
	x = port(&b, 3306, 1);
	x->c.segs[DBT_RETX_FAST] = 14;
	x->c.segs[DBT_RETX_TIMEOUT] = 3;
	x->c.segs[DBT_RETX_TLP] = 1;
	x->c.rto_timer = 2;
	x->c.tlp_probes = 1;
	x->c.stalls = 3;
	x->c.stall_rto_jiffies = 50 + 51 + 51;
	x->c.conns = 2;
	port(&a, 5201, 0);
	port(&b, 5201, 0);              /* nothing new: no row */
	x = port(&b, 80, 0);            /* new in the window */
	x->c.segs[DBT_RETX_SYN] = 1;
	assert_int_equal(loss_interval_compute(&a, &b, &iv), 0);
	assert_int_equal(iv.n_ports, 2);
	p = &iv.ports[0];               /* most retransmits first */
	assert_int_equal(p->port, 3306);
	assert_true(p->retrans == 8 && p->segs[DBT_RETX_FAST] == 4 && p->segs[DBT_RETX_TIMEOUT] == 3);
	assert_true(p->rto_timer == 2 && p->tlp_probes == 1 && p->stalls == 2 && p->conns == 2);
	assert_true(fabs(p->retrans_per_s - 4) < 1e-9);
	assert_true(fabs(p->stall_rto_ms - 204) < 1e-9);
	p = loss_interval_port(&iv, 80, 0);
	assert_non_null(p);
	assert_true(p->segs[DBT_RETX_SYN] == 1);
	assert_true(isnan(p->stall_rto_ms));
	assert_null(loss_interval_port(&iv, 5201, 0));
	loss_interval_free(&iv);
	/* HZ unknown: no ms */
	b.hz = 0;
	assert_int_equal(loss_interval_compute(&a, &b, &iv), 0);
	assert_true(isnan(iv.ports[0].stall_rto_ms));
	loss_interval_free(&iv);
	loss_snapshot_free(&a);
	loss_snapshot_free(&b);
}

static void test_drops_and_reasons(void **state)
{
	struct loss_snapshot a, b, c;
	struct loss_interval iv;
	struct loss_ns_sample *ns;

	snap_init(&a, 0);
	snap_init(&b, 1000000000ull);
	drop(&a, 64, 200, "rb", 100);
	drop(&b, 64, 200, "rb", 1150);
	drop(&b, 2, 100, "eth0", 5)->key.port = 3306;
	drop(&b, 2, 100, "eth0", 0);    /* an entry with no drop yet */
	ns = loss_snapshot_add_ns(&b);
	ns->netns = 200;
	snprintf(ns->name, sizeof(ns->name), "router");
	a.reasons[64] = 100;
	b.reasons[64] = 1150;
	b.reasons[2] = 5;
	b.reasons[DBT_LOSS_REASON_OTHER] = 1;
	assert_int_equal(loss_interval_compute(&a, &b, &iv), 0);
	assert_int_equal(iv.n_drops, 2);
	assert_string_equal(iv.drops[0].reason_name, "qdisc_drop");
	assert_true(iv.drops[0].count == 1050);
	assert_true(iv.drops[0].foreign);
	assert_string_equal(iv.drops[0].netns_name, "router");
	assert_string_equal(iv.drops[0].dev, "rb");
	assert_string_equal(iv.drops[1].reason_name, "not_specified");
	assert_false(iv.drops[1].foreign);
	assert_int_equal(iv.drops[1].port, 3306);
	assert_int_equal(iv.n_reasons, 3);
	assert_string_equal(iv.reasons[0].name, "qdisc_drop");
	assert_string_equal(iv.reasons[2].name, "other");
	assert_true(iv.drops_total == 1056);
	assert_true(fabs(iv.drops_per_s - 1056) < 1e-9);
	loss_interval_free(&iv);
	/* a snapshot copied keeps everything */
	snap_init(&c, 0);
	assert_int_equal(loss_snapshot_copy(&c, &b), 0);
	assert_int_equal(c.n_drop, 3);
	assert_true(c.reasons[64] == 1150);
	assert_ptr_equal(c.names, &names);
	loss_snapshot_free(&a);
	loss_snapshot_free(&b);
	loss_snapshot_free(&c);
}

/* softnet counters are 32 bits and wrap; a CPU new in the window has no row. */
static void test_softnet(void **state)
{
	struct loss_snapshot a, b;
	struct loss_interval iv;

	snap_init(&a, 0);
	snap_init(&b, 2000000000ull);
	assert_int_equal(loss_snapshot_reserve_softnet(&a, 2), 0);
	assert_int_equal(loss_snapshot_reserve_softnet(&b, 3), 0);
	a.softnet[0] = (struct softnet_cpu){ .cpu = 1, .dropped = 0xfffffff0u, .time_squeeze = 4 };
	a.n_softnet = 1;
	b.softnet[0] = (struct softnet_cpu){ .cpu = 1, .dropped = 0x10, .time_squeeze = 10 };
	b.softnet[1] = (struct softnet_cpu){ .cpu = 2, .dropped = 7 };
	b.n_softnet = 2;
	assert_int_equal(loss_interval_compute(&a, &b, &iv), 0);
	assert_int_equal(iv.n_cpus, 1);
	assert_int_equal(iv.cpus[0].cpu, 1);
	assert_true(iv.cpus[0].backlog_drops == 0x20);
	assert_true(iv.cpus[0].time_squeezes == 6);
	assert_true(fabs(iv.cpus[0].backlog_drops_per_s - 16) < 1e-9);
	assert_true(iv.backlog_drops == 0x20);
	loss_interval_free(&iv);
	loss_snapshot_free(&a);
	loss_snapshot_free(&b);
}

static struct loss_listener_sample *lis(struct loss_snapshot *s, uint32_t netns, uint32_t inode,
					 uint16_t port, uint32_t q, uint32_t backlog, uint32_t drops)
{
	struct loss_listener_sample *l = loss_snapshot_add_listener(s);

	assert_non_null(l);
	*l = (struct loss_listener_sample){ netns, inode, port, q, backlog, true, drops };
	return l;
}

/* Sockets of one port add up; a socket made anew counts from zero. */
static void test_listeners_and_netstat(void **state)
{
	struct loss_snapshot a, b;
	struct loss_interval iv;
	struct loss_ns_sample *ns;
	const struct loss_listener_stats *l;

	snap_init(&a, 0);
	snap_init(&b, 1000000000ull);
	lis(&a, 100, 11, 3306, 0, 128, 5);
	lis(&b, 100, 11, 3306, 3, 128, 9);     /* +4 */
	lis(&b, 100, 12, 3306, 1, 128, 2);     /* new socket (SO_REUSEPORT): +2 */
	lis(&a, 100, 20, 8080, 0, 1, 7);
	lis(&b, 100, 21, 8080, 2, 1, 3);       /* re-made: its 3 are new */
	lis(&b, 200, 30, 22, 0, 4096, 0);
	ns = loss_snapshot_add_ns(&a);
	ns->netns = 100;
	ns->tcp = (struct tcp_netstat){ .have = true, .listen_overflows = 10, .listen_drops = 11 };
	ns->limits = (struct net_limits){ 4096, 1024, 1000 };
	ns = loss_snapshot_add_ns(&b);
	ns->netns = 100;
	ns->tcp = (struct tcp_netstat){ .have = true, .listen_overflows = 19, .listen_drops = 22,
					.memory_pressures = 1 };
	ns->limits = (struct net_limits){ 4096, 1024, 1000 };
	ns = loss_snapshot_add_ns(&b);
	ns->netns = 200;
	snprintf(ns->name, sizeof(ns->name), "nsb");
	ns->limits = (struct net_limits){ 128, -1, -1 };
	assert_int_equal(loss_interval_compute(&a, &b, &iv), 0);
	assert_int_equal(iv.n_listeners, 3);
	l = &iv.listeners[0];                  /* most overflows first */
	assert_int_equal(l->port, 3306);
	assert_int_equal(l->sockets, 2);
	assert_int_equal(l->queue, 4);
	assert_int_equal(l->backlog, 256);
	assert_int_equal(l->max_backlog, 128);
	assert_true(l->overflows == 6);
	assert_int_equal(l->somaxconn, 4096);
	l = &iv.listeners[1];
	assert_int_equal(l->port, 8080);
	assert_true(l->overflows == 3);
	l = &iv.listeners[2];
	assert_int_equal(l->port, 22);
	assert_true(l->foreign);
	assert_string_equal(l->netns_name, "nsb");
	assert_int_equal(l->somaxconn, 128);
	assert_int_equal(iv.n_ns, 2);
	assert_true(iv.ns[0].have && iv.ns[0].listen_overflows == 9 && iv.ns[0].listen_drops == 11);
	assert_true(iv.ns[0].memory_pressures == 1);
	assert_false(iv.ns[1].have);           /* no netstat at the start */
	assert_true(isnan(iv.ns[1].listen_overflows_per_s));
	assert_int_equal(iv.netdev_max_backlog, 1000);
	loss_interval_free(&iv);
	loss_snapshot_free(&a);
	loss_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_kinds),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_drops_and_reasons),
		cmocka_unit_test(test_softnet),
		cmocka_unit_test(test_listeners_and_netstat),
	};

	snprintf(names.name[2], sizeof(names.name[2]), "not_specified");
	snprintf(names.name[64], sizeof(names.name[64]), "qdisc_drop");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
