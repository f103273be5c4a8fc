/* The bimodality detector on synthetic log2 µs histograms, and the
 * finding built on it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "findings/bimodal_response.h"

static struct bimodal_config cfg(void)
{
	struct bimodal_config c;

	bimodal_config_default(&c);
	return c;
}

/* The cases below were written for log2 µs slots: AT(i) is the fine
 * bucket of the middle of old slot i (1.5 x 2^i µs), which lies in octave
 * OCT(i) of the fine histogram. */
#define AT(i) dbt_hist_bucket(1500ull << (i))
#define OCT(i) ((i) + 6)

/* The case: 90% of requests at 200 µs, 10% at 5 ms, each with
 * some spread: both modes found, each centre within 5%. */
static void test_two_modes_centres(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	for (int i = 0; i < 9000; i++)
		h[dbt_hist_bucket(196000 + (uint64_t)(i % 81) * 100)]++;       /* 196-204 µs */
	for (int i = 0; i < 1000; i++)
		h[dbt_hist_bucket(4900000 + (uint64_t)(i % 101) * 2000)]++;    /* 4.9-5.1 ms */
	assert_true(bimodal_detect(h, DBT_HIST_BUCKETS, &c, &r));
	assert_true(fabs(r.low_share - 0.9) < 1e-9);
	/* the split lies between the modes, on an octave's edge, and every
	 * sample below it is in the fast group */
	assert_true(r.split_us > 204 && r.split_us <= 4900);
	assert_int_equal(dbt_hist_bucket((uint64_t)(r.split_us * 1000)) % DBT_HIST_SUB, 0);
	assert_int_equal(bimodal_octave(dbt_hist_bucket((uint64_t)(r.split_us * 1000)) - 1), r.valley_slot);
	assert_true(fabs(r.low_p50_us - 200) / 200 < 0.05);
	assert_true(fabs(r.high_p50_us - 5000) / 5000 < 0.05);
}

/* The field case: most requests near 0.1 ms (slot 6: 64-128 us), a
 * rate-limited group near 8 ms (slot 13: 8-16 ms). */
static void test_rate_limiter_shape(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	h[AT(5)] = 300; h[AT(6)] = 5000; h[AT(7)] = 800; h[AT(8)] = 40;
	h[AT(12)] = 300; h[AT(13)] = 900; h[AT(14)] = 100;
	assert_true(bimodal_detect(h, DBT_HIST_BUCKETS, &c, &r));
	assert_int_equal(r.low_slot, OCT(6));
	assert_int_equal(r.high_slot, OCT(13));
	assert_true(r.valley_slot >= OCT(9) && r.valley_slot <= OCT(11));
	assert_true(fabs(r.low_share - 6140.0 / 7440) < 1e-9);
	assert_true(r.low_p50_us >= 64 && r.low_p50_us < 128);
	assert_true(r.high_p50_us >= 8192 && r.high_p50_us < 16384);
}

/* A retransmit path: a small group at the 200 ms RTO. */
static void test_retransmit_group(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	h[AT(7)] = 2000; h[AT(8)] = 3000; h[AT(9)] = 500;
	h[AT(17)] = 200;                        /* 131-262 ms */
	assert_true(bimodal_detect(h, DBT_HIST_BUCKETS, &c, &r));
	assert_int_equal(r.high_slot, OCT(17));
	assert_true(r.high_p50_us >= 131072);
}

/* One broad mode, however wide or noisy, is not two. */
static void test_unimodal_is_not_bimodal(void **state)
{
	__u64 wide[DBT_HIST_BUCKETS] = { 0 }, bumpy[DBT_HIST_BUCKETS] = { 0 }, one[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	wide[AT(4)] = 100; wide[AT(5)] = 400; wide[AT(6)] = 900; wide[AT(7)] = 1200; wide[AT(8)] = 900;
	wide[AT(9)] = 500; wide[AT(10)] = 200; wide[AT(11)] = 80; wide[AT(12)] = 20;
	assert_false(bimodal_detect(wide, DBT_HIST_BUCKETS, &c, &r));
	/* a dip between two bumps that is not deep enough (60% of the smaller) */
	bumpy[AT(5)] = 1000; bumpy[AT(6)] = 700; bumpy[AT(7)] = 600; bumpy[AT(8)] = 650; bumpy[AT(9)] = 1000;
	assert_false(bimodal_detect(bumpy, DBT_HIST_BUCKETS, &c, &r));
	one[AT(11)] = 5000;
	assert_false(bimodal_detect(one, DBT_HIST_BUCKETS, &c, &r));
}

/* Two peaks too close (4x apart), a second mode too small, too few
 * samples: each is enough to say no. */
static void test_each_guard(void **state)
{
	__u64 close_[DBT_HIST_BUCKETS] = { 0 }, tiny[DBT_HIST_BUCKETS] = { 0 }, few[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	close_[AT(6)] = 1000; close_[AT(7)] = 10; close_[AT(8)] = 1000;
	assert_false(bimodal_detect(close_, DBT_HIST_BUCKETS, &c, &r));
	c.min_gap_slots = 2;
	assert_true(bimodal_detect(close_, DBT_HIST_BUCKETS, &c, &r));
	c = cfg();
	tiny[AT(6)] = 10000; tiny[AT(14)] = 100;   /* 1% */
	assert_false(bimodal_detect(tiny, DBT_HIST_BUCKETS, &c, &r));
	tiny[AT(14)] = 400;                    /* 3.8% */
	assert_true(bimodal_detect(tiny, DBT_HIST_BUCKETS, &c, &r));
	few[AT(6)] = 40; few[AT(13)] = 40;
	assert_false(bimodal_detect(few, DBT_HIST_BUCKETS, &c, &r));
	few[AT(6)] = 60;
	assert_true(bimodal_detect(few, DBT_HIST_BUCKETS, &c, &r));
}

/* Sampled under load (one request in 16 timed, counting 16): a second
 * mode of one timed request, an outlier drawn once, is no mode; two are.
 * The loss test's intervals look like this: ~350 requests, the slow
 * group one or two timed replies at 200 ms. */
static void test_sampled_mode_needs_two_timed(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	h[dbt_hist_bucket(12000)] = 224; h[dbt_hist_bucket(20000)] = 112; h[dbt_hist_bucket(40000)] = 16;
	h[dbt_hist_bucket(204000000)] = 16;
	/* 368 weighted from 23 timed: the mean weight 16 */
	assert_true(fabs(bimodal_weight(h, DBT_HIST_BUCKETS, 23) - 16) < 1e-9);
	assert_false(bimodal_detect_sampled(h, DBT_HIST_BUCKETS, 16, &c, &r));
	/* every request timed, the same counts: 16 slow requests are a mode */
	assert_true(bimodal_detect_sampled(h, DBT_HIST_BUCKETS, bimodal_weight(h, DBT_HIST_BUCKETS, 368), &c, &r));
	assert_true(bimodal_detect(h, DBT_HIST_BUCKETS, &c, &r));
	h[dbt_hist_bucket(204000000)] = 32;
	assert_true(bimodal_detect_sampled(h, DBT_HIST_BUCKETS, 16, &c, &r));
	assert_true(r.high_p50_us > 190000);
	/* unknown sampling (timed 0: an older capture) weighs 1 */
	assert_true(bimodal_weight(h, DBT_HIST_BUCKETS, 0) == 1);
}

/* Three groups: the most balanced split wins. */
static void test_three_groups(void **state)
{
	__u64 h[DBT_HIST_BUCKETS] = { 0 };
	struct bimodal_config c = cfg();
	struct bimodal_result r;

	h[AT(3)] = 300; h[AT(8)] = 3000; h[AT(14)] = 2500;
	assert_true(bimodal_detect(h, DBT_HIST_BUCKETS, &c, &r));
	assert_int_equal(r.low_slot, OCT(8));
	assert_int_equal(r.high_slot, OCT(14));
}

static void test_finding(void **state)
{
	struct net_port_stats p[2];
	struct net_interval iv = { .dt_s = 1, .ports = p, .n_ports = 2 };
	struct bimodal_config c = cfg();
	struct finding_list l = { 0 };
	const struct finding *f;

	memset(p, 0, sizeof(p));
	p[0].port = 3306;
	p[0].role = DBT_NET_CLIENT;
	p[0].resp_hist[AT(6)] = 5000; p[0].resp_hist[AT(13)] = 1000;
	p[0].requests = 6000;
	p[0].resp_p50_us = 100; p[0].resp_p99_us = 12000;
	p[1].port = 3306;
	p[1].role = DBT_NET_SERVER;
	p[1].resp_hist[AT(6)] = 6000;
	p[1].requests = 6000;
	p[1].resp_p50_us = 96; p[1].resp_p99_us = 127;
	assert_int_equal(bimodal_response_check(&iv, &c, 4, &l), 0);
	assert_int_equal(l.n, 1);
	f = &l.items[0];
	assert_string_equal(f->id, "bimodal_response");
	assert_string_equal(f->class_name, "3306/client");
	assert_int_equal(f->first_interval, 4);
	assert_non_null(strstr(f->title, "port 3306 (client)"));
	assert_non_null(strstr(f->title, "83% near"));
	assert_non_null(strstr(f->hint, "rate limiter"));
	assert_non_null(strstr(f->hint, "server side of port 3306 answers in 127 us"));
	assert_int_equal(f->severity, SEV_CRITICAL);
	for (int i = 0; i < f->n_ev; i++)
		if (!strcmp(f->ev[i].key, "server_response_p99_us"))
			assert_true(f->ev[i].num == 127);
	findings_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_modes_centres),
		cmocka_unit_test(test_rate_limiter_shape),
		cmocka_unit_test(test_retransmit_group),
		cmocka_unit_test(test_unimodal_is_not_bimodal),
		cmocka_unit_test(test_each_guard),
		cmocka_unit_test(test_sampled_mode_needs_two_timed),
		cmocka_unit_test(test_three_groups),
		cmocka_unit_test(test_finding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
