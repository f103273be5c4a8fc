/* dbtrace's own BPF run time: the windows' arithmetic (model/bpf_cost.h),
 * the capture's overhead.bpf written and read back, diff's rows of it,
 * and the words top and the report show. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "capture/capture_diff.h"
#include "capture/capture_overhead.h"
#include "capture/capture_read.h"
#include "model/bpf_cost.h"
#include "render/bpf_cost_text.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* Two windows of 100 ms: sched 4 ms in 20 000 runs, net 1 ms in 10 000,
 * loss loaded and never run, clock not loaded. */
static struct bpf_cost two_windows(void)
{
	struct bpf_cost w = { 0 }, total = { 0 };

	w.on_ns = 100000000;
	w.fam_on[FAM_SCHED] = w.fam_on[FAM_NET] = w.fam_on[FAM_LOSS] = true;
	w.fam[FAM_SCHED] = (struct bpf_runs){ 2000000, 10000 };
	w.fam[FAM_NET] = (struct bpf_runs){ 500000, 5000 };
	bpf_cost_add(&total, &w);
	bpf_cost_add(&total, &w);
	return total;
}

static void test_rows(void **state)
{
	struct bpf_cost c = two_windows();
	struct bpf_cost_row all = bpf_cost_row(&c, FAM_COUNT), sched = bpf_cost_row(&c, FAM_SCHED),
			    loss = bpf_cost_row(&c, FAM_LOSS);

	(void)state;
	assert_true(c.on_ns == 200000000);
	/* 5 ms of run time in 200 ms of windows: 2.5% of one CPU */
	assert_true(near(all.cpu_pct, 2.5));
	assert_true(all.run_ns == 5000000 && all.runs == 30000);
	assert_true(near(all.ns_per_event, 5000000.0 / 30000));
	assert_true(near(all.events_per_s, 150000));
	assert_true(near(sched.cpu_pct, 2.0));
	assert_true(near(sched.ns_per_event, 200));
	/* a family that never ran: no time, and no time per event */
	assert_true(loss.cpu_pct == 0 && loss.runs == 0 && isnan(loss.ns_per_event));
}

static void test_never_measured(void **state)
{
	struct bpf_cost c = { 0 };
	struct bpf_cost_row all = bpf_cost_row(&c, FAM_COUNT);
	char buf[64];

	(void)state;
	assert_false(bpf_cost_measured(&c));
	assert_true(isnan(all.cpu_pct) && isnan(all.events_per_s) && isnan(all.ns_per_event));
	assert_string_equal(bpf_cost_text(&all, buf, sizeof(buf)), "bpf n/a");
}

static void test_delta(void **state)
{
	struct bpf_runs a = { 1000, 10 }, b = { 3500, 35 }, d = bpf_runs_delta(&a, &b);

	(void)state;
	assert_true(d.run_ns == 2500 && d.runs == 25);
	/* counters that went back (another program in the slot): nothing */
	d = bpf_runs_delta(&b, &a);
	assert_true(d.run_ns == 0 && d.runs == 0);
}

static void test_text(void **state)
{
	struct bpf_cost c = two_windows();
	struct bpf_cost_row all = bpf_cost_row(&c, FAM_COUNT);
	char buf[64];

	(void)state;
	assert_string_equal(bpf_cost_text(&all, buf, sizeof(buf)), "bpf 2.5% of a CPU, 167 ns/event");
}

/* The object a capture carries, read back: every family that loaded, in
 * order, with the figures the model made. */
static void test_round_trip(void **state)
{
	struct bpf_cost c = two_windows();
	json_object *o = capture_bpf_object(&c, NULL);
	struct capture_bpf r;

	(void)state;
	capture_bpf_read(o, &r);
	assert_true(r.have);
	assert_true(near(r.measured_s, 0.2));
	assert_string_equal(r.error, "");
	assert_true(near(r.total.cpu_pct, 2.5));
	assert_true(r.total.runs == 30000);
	assert_true(near((double)r.total.run_ns, 5000000));
	assert_int_equal(r.n, 3);
	assert_int_equal(r.fams[0].family, FAM_SCHED);
	assert_int_equal(r.fams[1].family, FAM_NET);
	assert_int_equal(r.fams[2].family, FAM_LOSS);
	assert_true(near(r.fams[1].ns_per_event, 100));
	assert_true(isnan(r.fams[2].ns_per_event));
	json_object_put(o);

	/* not measured: the reason, and no numbers */
	memset(&c, 0, sizeof(c));
	o = capture_bpf_object(&c, "the kernel cannot switch BPF run-time statistics on");
	capture_bpf_read(o, &r);
	assert_true(r.have && r.measured_s == 0);
	assert_string_equal(r.error, "the kernel cannot switch BPF run-time statistics on");
	assert_true(isnan(r.total.cpu_pct));
	json_object_put(o);

	/* an older capture has no object */
	capture_bpf_read(NULL, &r);
	assert_false(r.have);
}

/* diff: all of them first, then each family; a capture without the
 * object has no such section. */
static void test_diff(void **state)
{
	const char *old = "{\"schema\":\"dbtrace.capture/2\",\"intervals\":[],\"cpus\":[],"
			  "\"overhead\":{\"cpu_pct\":0.5,\"max_rss_kb\":1,\"lost_events\":0}}";
	struct bpf_cost c = two_windows();
	json_object *doc = json_tokener_parse(old), *ov;
	struct capture a, b;
	struct capture_diff d;
	const struct cdiff_row *r;
	char err[256];
	const char *text;

	(void)state;
	json_object_object_get_ex(doc, "overhead", &ov);
	json_object_object_add(ov, "bpf", capture_bpf_object(&c, NULL));
	text = json_object_to_json_string(doc);
	assert_int_equal(capture_read_buf(old, strlen(old), "a.json", &a, err, sizeof(err)), 0);
	assert_int_equal(capture_read_buf(text, strlen(text), "b.json", &b, err, sizeof(err)), 0);
	assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
	assert_false(d.sec[CDIFF_OVERHEAD].in_before);
	assert_true(d.sec[CDIFF_OVERHEAD].in_after);
	assert_string_equal(d.sec[CDIFF_OVERHEAD].rows[0].key, "all");
	r = cdiff_find(&d, CDIFF_OVERHEAD, "sched", "bpf_ns_per_event");
	assert_non_null(r);
	assert_true(isnan(r->before) && near(r->after, 200));
	assert_int_equal(r->dir, CDIFF_NEW);
	capture_diff_free(&d);

	/* the same on both sides: every row the same */
	assert_int_equal(capture_diff_compute(&b, &b, NULL, &d), 0);
	for (int i = 0; i < d.sec[CDIFF_OVERHEAD].n; i++)
		assert_int_equal(d.sec[CDIFF_OVERHEAD].rows[i].dir, CDIFF_SAME);
	assert_non_null(cdiff_find(&d, CDIFF_OVERHEAD, "all", "bpf_cpu_pct"));
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_never_measured),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
