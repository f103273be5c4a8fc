/* link_saturated: above 90% of the link speed for 3 s in a row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "findings/link_saturated.h"

static struct net_dev_stats dev(const char *name, double speed, double tx, double rx)
{
	struct net_dev_stats d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.speed_mbps = speed;
	d.tx_mbps = tx;
	d.rx_mbps = rx;
	d.tx_pps = tx * 100;
	d.rx_pps = rx * 100;
	d.util_pct = isnan(speed) ? NAN : 100 * fmax(tx, rx) / speed;
	d.txq_p50_us = d.txq_p99_us = NAN;
	return d;
}

/* One interval of dt seconds with the given devices. */
static int step(struct net_dev_stats *d, int n, double dt, struct linksat_state *st, int index,
		struct finding_list *out)
{
	struct net_interval iv = { .dt_s = dt, .devs = d, .n_devs = n };
	struct linksat_config cfg;

	linksat_config_default(&cfg);
	return link_saturated_check(&iv, &cfg, st, index, out);
}

/* The field case: a gigabit port at 117 MB/s (936 Mbit/s). */
static void test_three_seconds_in_a_row(void **state)
{
	struct net_dev_stats d = dev("eth0", 1000, 40, 936);
	struct linksat_state st = { 0 };
	struct finding_list l = { 0 };
	const struct finding *f;

	assert_int_equal(step(&d, 1, 1, &st, 0, &l), 0);
	assert_int_equal(step(&d, 1, 1, &st, 1, &l), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(step(&d, 1, 0.999, &st, 2, &l), 0);   /* a hair short still counts */
	assert_int_equal(l.n, 1);
	f = &l.items[0];
	assert_string_equal(f->id, "link_saturated");
	assert_string_equal(f->class_name, "eth0");
	assert_int_equal(f->first_interval, 0);
	assert_int_equal(f->last_interval, 2);
	assert_non_null(strstr(f->title, "receives 936 of 1000 Mbit/s (94% of the link) for 3 s"));
	assert_non_null(strstr(f->hint, "117 MB/s"));
	assert_int_equal(f->severity, SEV_WARNING);
	findings_free(&l);
	linksat_state_free(&st);
}

/* A dip below the threshold, or an interval without the device, starts
 * the count over; unknown speeds are never judged. */
static void test_runs_restart(void **state)
{
	struct net_dev_stats hot = dev("eth1", 10000, 9500, 10), cool = dev("eth1", 10000, 5000, 10);
	struct net_dev_stats virt = dev("lo", NAN, 50000, 50000), other = dev("eth2", 1000, 1, 1);
	struct linksat_state st = { 0 };
	struct finding_list l = { 0 };

	step(&hot, 1, 1, &st, 0, &l);
	step(&hot, 1, 1, &st, 1, &l);
	step(&cool, 1, 1, &st, 2, &l);
	step(&hot, 1, 1, &st, 3, &l);
	step(&other, 1, 1, &st, 4, &l);   /* eth1 absent */
	step(&hot, 1, 1, &st, 5, &l);
	step(&hot, 1, 1, &st, 6, &l);
	assert_int_equal(l.n, 0);
	step(&hot, 1, 1, &st, 7, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.items[0].first_interval, 5);
	for (int i = 0; i < 5; i++)
		step(&virt, 1, 1, &st, 8 + i, &l);
	assert_int_equal(l.n, 1);
	findings_free(&l);
	linksat_state_free(&st);
}

/* One long interval is enough. */
static void test_long_interval(void **state)
{
	struct net_dev_stats d = dev("eth0", 1000, 990, 0);
	struct linksat_state st = { 0 };
	struct finding_list l = { 0 };

	assert_int_equal(step(&d, 1, 5, &st, 0, &l), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.items[0].severity, SEV_CRITICAL);   /* 99% */
	assert_non_null(strstr(l.items[0].title, "sends 990"));
	findings_free(&l);
	linksat_state_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_seconds_in_a_row),
		cmocka_unit_test(test_runs_restart),
		cmocka_unit_test(test_long_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
