/* The wall-time budget's findings: lock_contention (futex share, work,
 * one dominating word, two threads at least), io_bound (disk share),
 * net_wait_dominant (net share, a slow client side of a port whose
 * server side is fast, and the class waking per request). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "finding_asserts.h"
#include "findings/io_bound.h"
#include "findings/lock_contention.h"
#include "findings/net_wait_dominant.h"

#define S 1000000000ull

/* A class of n threads over 1 s each, shares in % by state. */
static struct sched_class_stats cls(const char *name, int n, double oncpu, double runq, int state,
				    double state_pct)
{
	struct sched_class_stats c;

	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "%s", name);
	c.threads = n;
	c.time.thread_ns = (uint64_t)n * S;
	c.time.ns[CT_ONCPU] = (uint64_t)(oncpu / 100 * (double)c.time.thread_ns);
	c.time.ns[CT_RUNQ] = (uint64_t)(runq / 100 * (double)c.time.thread_ns);
	c.time.ns[state] = (uint64_t)(state_pct / 100 * (double)c.time.thread_ns);
	c.time.ns[CT_SLEEP] += c.time.thread_ns - c.time.ns[CT_ONCPU] - c.time.ns[CT_RUNQ] - c.time.ns[state];
	return c;
}

static struct sched_interval one_proc(struct sched_group_stats *p, struct sched_class_stats *c, int n)
{
	*p = (struct sched_group_stats){ .pid = 42, .comm = "mysqld", .classes = c, .n_classes = n };
	for (int i = 0; i < n; i++)
		class_time_finish(&c[i].time);
	return (struct sched_interval){ .dt_s = 1, .groups = p, .n_groups = 1 };
}

static void test_lock_contention(void **state)
{
	struct sched_class_stats c[] = {
		cls("worker-*", 16, 10, 5, CT_FUTEX, 70),   /* one word: fires */
		cls("spread-*", 16, 10, 5, CT_FUTEX, 70),   /* many words: no */
		cls("idle-*", 16, 1, 1, CT_FUTEX, 90),      /* no work: idle, not contended */
		cls("single", 1, 10, 5, CT_FUTEX, 70),      /* one thread: nobody to queue with */
	};
	struct lockc_config cfg;
	struct sched_group_stats p;
	struct sched_interval iv;
	struct finding_list l = { 0 };
	const struct finding *f;

	for (int i = 0; i < 4; i++) {
		c[i].time.n_futex = 1;
		c[i].time.futex_addr[0] = 0x7f0000001000;
		c[i].time.futex_ns[0] = c[i].time.ns[CT_FUTEX] * (i == 1 ? 2 : 9) / 10;
		/* sched_class_finish() takes them from the class's fine histogram */
		c[i].time.futex_p50_us = 1200;
		c[i].time.futex_p99_us = 1500;
	}
	iv = one_proc(&p, c, 4);
	lockc_config_default(&cfg);
	assert_int_equal(lock_contention_check(&iv, &cfg, 2, &l), 0);
	assert_int_equal(l.n, 1);
	f = &l.items[0];
	assert_string_equal(f->id, "lock_contention");
	assert_string_equal(f->class_name, "worker-*");
	assert_int_equal(f->severity, SEV_CRITICAL);
	assert_true(fabs(ev(f, "futex_pct")->num - 70) < 0.01);
	assert_true(fabs(ev(f, "top_futex_blocked_share_pct")->num - 63.0 / 0.85) < 0.1);
	assert_string_equal(ev(f, "top_futex_address")->text, "0x7f0000001000");
	assert_true(ev(f, "futex_wait_p99_us")->num == 1500);
	assert_int_equal(f->first_interval, 2);
	findings_free(&l);
	/* a higher threshold: quiet */
	cfg.futex_pct = 75;
	assert_int_equal(lock_contention_check(&iv, &cfg, 2, &l), 0);
	assert_int_equal(l.n, 0);
	findings_free(&l);
}

static void test_io_bound(void **state)
{
	struct sched_class_stats c[] = {
		cls("ib_io_rd-*", 4, 5, 1, CT_DISK, 45),
		cls("ib_io_wr-*", 4, 5, 1, CT_DISK, 25),
	};
	struct iobound_config cfg;
	struct sched_group_stats p;
	struct sched_interval iv = one_proc(&p, c, 2);
	struct finding_list l = { 0 };

	iobound_config_default(&cfg);
	assert_int_equal(io_bound_check(&iv, &cfg, 0, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0].class_name, "ib_io_rd-*");
	assert_int_equal(l.items[0].severity, SEV_WARNING);
	assert_true(fabs(ev(&l.items[0], "disk_pct")->num - 45) < 0.01);
	findings_free(&l);
	cfg.disk_pct = 20;
	assert_int_equal(io_bound_check(&iv, &cfg, 0, &l), 0);
	assert_int_equal(l.n, 2);
	findings_free(&l);
}

/* A fake of the /proc question: only group *arg serves. */
static int serves_only(const struct sched_group_stats *p, const struct sched_class_stats *c,
		       uint16_t port, void *arg)
{
	(void)c;
	(void)port;
	return p->pid == *(int *)arg;
}

static void test_net_wait_dominant(void **state)
{
	struct sched_class_stats c[] = {
		cls("conn", 8, 10, 2, CT_NET, 80),
		cls("bg", 1, 1, 0, CT_NET, 95),     /* waits on the network, but rarely wakes */
	};
	struct net_port_stats ports[] = {
		{ .port = 5432, .role = DBT_NET_SERVER, .requests_per_s = 2000, .resp_p99_us = 400 },
		{ .port = 5432, .role = DBT_NET_CLIENT, .requests = 2000, .requests_per_s = 2000, .resp_p99_us = 12000 },
	};
	struct net_interval ni = { .dt_s = 1, .ports = ports, .n_ports = 2 };
	struct netwait_config cfg;
	struct sched_group_stats p;
	struct sched_interval iv;
	struct finding_list l = { 0 };

	c[0].vol_per_s = 2100;
	c[1].vol_per_s = 3;
	iv = one_proc(&p, c, 2);
	netwait_config_default(&cfg);
	assert_int_equal(net_wait_dominant_check(&iv, &ni, &cfg, NULL, NULL, 0, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0].id, "net_wait_dominant");
	assert_string_equal(l.items[0].class_name, "conn");
	assert_true(ev(&l.items[0], "port")->num == 5432);
	assert_true(ev(&l.items[0], "client_resp_p99_us")->num == 12000);
	findings_free(&l);
	/* the same numbers in a process that does not hold the port (its
	 * client, waiting in recv() for each reply): not the server */
	{
		int other = p.pid + 1;

		assert_int_equal(net_wait_dominant_check(&iv, &ni, &cfg, serves_only, &other, 0, &l), 0);
		assert_int_equal(l.n, 0);
		other = p.pid;
		assert_int_equal(net_wait_dominant_check(&iv, &ni, &cfg, serves_only, &other, 0, &l), 0);
		assert_int_equal(l.n, 1);
		findings_free(&l);
	}
	/* a handful of requests (clients connecting late in the interval):
	 * their p99 is one request, and a thread that woke once passes the
	 * wakeups test against them */
	ports[1].requests = 19;
	ports[0].requests_per_s = ports[1].requests_per_s = 19;
	c[1].vol_per_s = 10;
	assert_int_equal(net_wait_dominant_check(&iv, &ni, &cfg, NULL, NULL, 0, &l), 0);
	assert_int_equal(l.n, 0);
	ports[1].requests = 2000;
	ports[0].requests_per_s = ports[1].requests_per_s = 2000;
	c[1].vol_per_s = 3;
	findings_free(&l);
	/* the server as slow as its clients see it: the database's own time */
	ports[0].resp_p99_us = 11000;
	assert_int_equal(net_wait_dominant_check(&iv, &ni, &cfg, NULL, NULL, 0, &l), 0);
	assert_int_equal(l.n, 0);
	/* no client side on this host: not judged */
	ports[0].resp_p99_us = 400;
	ni.n_ports = 1;
	assert_int_equal(net_wait_dominant_check(&iv, &ni, &cfg, NULL, NULL, 0, &l), 0);
	assert_int_equal(l.n, 0);
	findings_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_contention),
		cmocka_unit_test(test_io_bound),
		cmocka_unit_test(test_net_wait_dominant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
