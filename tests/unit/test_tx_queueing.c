/* tx_queueing: a device's tx queue p99 over 1 ms, with a hint from its
 * root qdisc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "findings/tx_queueing.h"

static struct net_dev_stats dev(const char *name, double p50, double p99, uint64_t samples)
{
	struct net_dev_stats d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.txq_p50_us = p50;
	d.txq_p99_us = p99;
	d.txq_samples = samples;
	d.speed_mbps = d.util_pct = NAN;
	d.tx_pps = 1000;
	d.tx_mbps = 12;
	return d;
}

static void set_qdisc(struct net_dev_stats *d, struct qdisc_info q)
{
	d->have_qdisc = true;
	d->qdisc = q;
	qdisc_format(&q, d->qdisc_text, sizeof(d->qdisc_text));
}

static const struct finding_evidence *ev(const struct finding *f, const char *key)
{
	for (int i = 0; i < f->n_ev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	fail_msg("no evidence %s", key);
	return NULL;
}

static int check(struct net_dev_stats *d, int n, struct finding_list *out)
{
	struct net_interval iv = { .dt_s = 1, .devs = d, .n_devs = n };
	struct txq_config cfg;

	txq_config_default(&cfg);
	return tx_queueing_check(&iv, &cfg, 2, out);
}

static void test_tbf_named_with_its_rate(void **state)
{
	struct net_dev_stats d = dev("veth0", 6200, 16000, 400);
	struct finding_list l = { 0 };
	const struct finding *f;

	set_qdisc(&d, (struct qdisc_info){ .kind = "tbf", .rate_bps = 20000000, .burst_bytes = 102400,
					   .limit = 352400, .parent = 0xffffffff });
	d.foreign = true;
	snprintf(d.netns_name, sizeof(d.netns_name), "ns1");
	assert_int_equal(check(&d, 1, &l), 0);
	assert_int_equal(l.n, 1);
	f = &l.items[0];
	assert_string_equal(f->id, "tx_queueing");
	assert_string_equal(f->class_name, "veth0@ns1");
	assert_int_equal(f->severity, SEV_CRITICAL);           /* p99 over 10 ms */
	assert_int_equal(f->first_interval, 2);
	assert_non_null(strstr(f->title, "packets wait 16 ms (p99; p50 6.2 ms)"));
	assert_non_null(strstr(f->title, "tbf rate 20Mbit"));
	assert_string_equal(ev(f, "qdisc_kind")->text, "tbf");
	assert_true(ev(f, "qdisc_rate_mbit")->num == 20);
	assert_string_equal(ev(f, "netns")->text, "ns1");
	assert_non_null(strstr(f->hint, "shaped by tbf to 20Mbit"));
	findings_free(&l);
}

static void test_netem_hint(void **state)
{
	struct net_dev_stats d = dev("bond0", 1010, 1100, 5000);
	struct finding_list l = { 0 };
	const struct finding *f;

	set_qdisc(&d, (struct qdisc_info){ .kind = "netem", .delay_ns = 1000000, .parent = 0xffffffff });
	assert_int_equal(check(&d, 1, &l), 0);
	assert_int_equal(l.n, 1);
	f = &l.items[0];
	assert_string_equal(f->class_name, "bond0");
	assert_int_equal(f->severity, SEV_WARNING);
	assert_true(ev(f, "netem_delay_us")->num == 1000);
	assert_non_null(strstr(f->hint, "delays every packet by 1 ms"));
	assert_non_null(strstr(f->hint, "tc qdisc del dev bond0 root"));
	findings_free(&l);
}

/* No shaper: a full link, or a limit below the qdisc. */
static void test_hints_without_a_shaper(void **state)
{
	struct net_dev_stats d = dev("eth0", 900, 3000, 5000);
	char hint[512];

	set_qdisc(&d, (struct qdisc_info){ .kind = "pfifo_fast", .parent = 0xffffffff });
	tx_queueing_hint(&d, hint, sizeof(hint));
	assert_non_null(strstr(hint, "120k packets/s"));
	d.speed_mbps = 1000;
	d.util_pct = 96;
	tx_queueing_hint(&d, hint, sizeof(hint));
	assert_non_null(strstr(hint, "96% of its 1000 Mbit/s link"));
	d.have_qdisc = false;
	d.util_pct = NAN;
	tx_queueing_hint(&d, hint, sizeof(hint));
	assert_non_null(strstr(hint, "the qdisc (unknown)"));
	/* cut, terminated */
	assert_int_equal(tx_queueing_hint(&d, hint, 10), 9);
	assert_int_equal(strlen(hint), 9);
}

static void test_thresholds(void **state)
{
	struct net_dev_stats d[] = {
		dev("low", 100, 1000, 5000),       /* p99 exactly 1 ms: not over */
		dev("few", 5000, 9000, 19),        /* too few packets to say */
		dev("none", NAN, NAN, 0),
		dev("hot", 500, 1001, 20),
	};
	struct finding_list l = { 0 };

	assert_int_equal(check(d, 4, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0].class_name, "hot");
	findings_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tbf_named_with_its_rate),
		cmocka_unit_test(test_netem_hint),
		cmocka_unit_test(test_hints_without_a_shaper),
		cmocka_unit_test(test_thresholds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
