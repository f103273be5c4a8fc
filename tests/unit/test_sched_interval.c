/* The sched interval: per-thread deltas grouped into groups and classes,
 * rates, percentiles from the name histograms, filters, overrides and
 * the rows' places in the class map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/hist.h"
#include "model/sched_summary.h"
#include "sched_samples.h"

#define NS 1000000000ull

static void test_classes_rates_and_deltas(void **state)
{
	const uint32_t slow = dbt_hist_bucket(1500000);
	struct sched_snapshot a, b;
	struct dbt_sched_ival ival[6];
	struct sched_interval iv;
	const struct sched_class_stats *w, *r;

	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	a.mono_ns = 10 * NS;
	b.mono_ns = 12 * NS;   /* 2 s */
	for (uint32_t i = 0; i < 4; i++)
		sched_sample(&a, 100, 101 + i, "worker-1", "observer", NS / 2, 10, 100);
	sched_sample(&b, 100, 100, "observer", "observer", 0, 0, 0);   /* the leader: names the process */
	for (uint32_t i = 0; i < 4; i++)
		sched_sample(&b, 100, 101 + i, i % 2 ? "worker-2" : "worker-1", "observer", NS / 2 + NS, 10 + 2, 100 + 40);
	sched_sample(&b, 100, 200, "RpcIO", "observer", NS / 10, 5000, 10);   /* new in this interval */
	sched_snapshot_sort(&a);
	sched_snapshot_sort(&b);
	memset(ival, 0, sizeof(ival));
	/* worker threads waited: 12 runs of 1.5 ms in the histograms per
	 * (process, name), and one exact max */
	sched_sample_hist(&a, DBT_SCHED_HIST_RUNQ, 100, "worker-1", 1, slow, 5);
	sched_sample_hist(&b, DBT_SCHED_HIST_RUNQ, 100, "worker-1", 1, slow, 11);
	sched_sample_hist(&a, DBT_SCHED_HIST_RUNQ, 100, "worker-2", 7, slow, 0xfffffffeu);   /* u32 counters wrap */
	sched_sample_hist(&b, DBT_SCHED_HIST_RUNQ, 100, "worker-2", 7, slow, 4);
	sched_sample_hist(&a, DBT_SCHED_HIST_RUNQ, 100, "RpcIO", 1, slow, 50);               /* evicted, made anew: */
	sched_sample_hist(&b, DBT_SCHED_HIST_RUNQ, 100, "RpcIO", 2, slow, 0);                /* counts from zero */
	sched_sample_hist(&b, DBT_SCHED_HIST_RUNQ, 999, "gone", 1, slow, 9);                 /* no thread of it: nowhere */
	/* the budget's futex waits, kept the same way under their own kind:
	 * 3 waits of 40 µs, never mixed into the run-queue delay */
	sched_sample_hist(&a, DBT_SCHED_HIST_FUTEX, 100, "worker-1", 1, dbt_hist_bucket(40000), 2);
	sched_sample_hist(&b, DBT_SCHED_HIST_FUTEX, 100, "worker-1", 1, dbt_hist_bucket(40000), 5);
	sched_snapshot_sort(&a);
	sched_snapshot_sort(&b);
	for (int i = 1; i <= 4; i++) {
		ival[i].runq_max_ns = 1900000;
		ival[i].cpus[0] = 1ull << (i % 2);
	}
	ival[3].runq_max_ns = 2000000;
	b.ival = ival;

	assert_int_equal(sched_sample_interval(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_string_equal(iv.groups[0].comm, "observer");
	assert_int_equal(iv.groups[0].n_classes, 2);   /* the idle leader is left out */
	w = sched_sample_class(&iv, 100, "worker-*");
	r = sched_sample_class(&iv, 100, "RpcIO");
	assert_non_null(w);
	assert_non_null(r);
	assert_int_equal(w->threads, 4);
	/* 4 threads x 1 s on CPU over 2 s = 200 % */
	assert_true(fabs(w->oncpu_pct - 200.0) < 1e-9);
	assert_true(fabs(w->vol_per_s - 4.0) < 1e-9);      /* 4 x 2 / 2 s */
	assert_true(fabs(w->invol_per_s - 80.0) < 1e-9);   /* 4 x 40 / 2 s */
	assert_int_equal(hist_total(w->runq_hist, DBT_HIST_BUCKETS), 12);
	assert_int_equal(hist_total(w->futex_hist, DBT_HIST_BUCKETS), 3);
	assert_true(fabs(w->time.futex_p50_us - 40.0) <= 40.0 / 32);
	assert_null(r->futex_hist);
	assert_true(fabs(w->runq_p50_us - 1500.0) <= 1500.0 / 32);
	assert_true(w->runq_p99_us <= 2000.0 + 1e-9);      /* never above the exact max */
	assert_true(fabs(w->runq_max_us - 2000.0) < 1e-9);
	assert_int_equal(w->cpus[0], 3);
	/* a thread first seen in this interval counts from zero */
	assert_true(fabs(r->vol_per_s - 2500.0) < 1e-9);
	assert_true(isnan(r->runq_p99_us));                /* it never waited */
	assert_true(fabs(iv.groups[0].total.oncpu_pct - 205.0) < 1e-9);
	sched_interval_free(&iv);
	sched_snapshot_free(&a);
	sched_snapshot_free(&b);
}

static void test_filter_and_order(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval iv;
	int pids[] = { 300 };
	struct sched_filter f = { .pids = pids, .n_pids = 1 };

	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	a.mono_ns = 0;
	b.mono_ns = NS;
	sched_sample(&b, 300, 300, "mysqld", "observer", NS / 10, 1, 1);
	sched_sample(&b, 400, 400, "java", "observer", NS / 2, 1, 1);
	sched_sample(&b, 500, 500, "idle", "observer", 0, 0, 0);
	sched_snapshot_sort(&b);
	assert_int_equal(sched_sample_interval(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 2);                   /* "idle" did nothing */
	assert_int_equal(iv.groups[0].pid, 400);            /* busiest first */
	sched_interval_free(&iv);
	assert_int_equal(sched_sample_interval(&a, &b, NULL, &f, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 300);
	sched_interval_free(&iv);
	f.n_pids = 0;
	f.comm = "java";
	assert_int_equal(sched_sample_interval(&a, &b, NULL, &f, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 400);
	sched_interval_free(&iv);
	sched_snapshot_free(&b);
}

static void test_overrides(void **state)
{
	struct tclass_override o[2];
	struct tclass_classifier *c;
	struct sched_snapshot a, b;
	struct sched_interval iv;
	char err[128];

	assert_int_equal(tclass_parse_override("net=RpcIO", &o[0], err, sizeof(err)), 0);
	assert_int_equal(tclass_parse_override("workers=TNT_*", &o[1], err, sizeof(err)), 0);
	assert_int_equal(tclass_classifier_new(o, 2, &c), 0);
	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	b.mono_ns = NS;
	sched_sample(&b, 10, 10, "RpcIO", "observer", 1, 1, 1);
	sched_sample(&b, 10, 11, "TNT_L0_1002", "observer", 1, 1, 1);
	sched_sample(&b, 10, 12, "TNT_L0_1001", "observer", 1, 1, 1);
	sched_snapshot_sort(&b);
	assert_int_equal(sched_sample_interval(&a, &b, c, NULL, &iv), 0);
	assert_non_null(sched_sample_class(&iv, 10, "net"));
	assert_int_equal(sched_sample_class(&iv, 10, "workers")->threads, 2);
	sched_interval_free(&iv);
	sched_snapshot_free(&b);
	tclass_classifier_free(c);
}

/* Rows carry their place in the map; a thread the map lacks is left out;
 * the process is named by the threads' record of its comm when its
 * leader is not among them. Summary rows span maps: they carry none. */
static void test_map_indices(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval iv;
	struct sched_summary sum = { 0 };
	struct class_map_input in = { 0 };
	struct class_map map;
	const struct class_map_member *m;

	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	b.mono_ns = NS;
	sched_sample(&b, 20, 21, "w-1", "observer", NS / 2, 1, 0);
	sched_sample(&b, 20, 22, "w-2", "observer", NS / 2, 1, 0);
	sched_sample(&b, 30, 31, "late", "observer", NS / 2, 1, 0);   /* born after the map was built */
	sched_snapshot_sort(&b);
	for (int i = 0; i < 2; i++)
		assert_int_equal(class_map_input_add(&in, b.t[i].pid, b.t[i].tid, b.t[i].comm,
						     b.t[i].pcomm), 0);
	assert_int_equal(class_map_build(&map, &in, NULL), 0);
	assert_int_equal(sched_interval_compute(&a, &b, &map, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 20);
	assert_string_equal(iv.groups[0].comm, "observer");
	assert_int_equal(iv.groups[0].n_classes, 1);
	m = class_map_find(&map, 20, 21);
	assert_int_equal(iv.groups[0].map_group, (int)m->group);
	assert_int_equal(iv.groups[0].classes[0].map_class, (int)m->cls);
	assert_int_equal(iv.groups[0].total.map_class, -1);
	assert_int_equal(sched_summary_add(&sum, &iv), 0);
	assert_int_equal(sum.groups[0].map_group, -1);
	assert_int_equal(sum.groups[0].total.map_class, -1);
	assert_int_equal(sum.groups[0].classes[0].map_class, -1);
	sched_summary_free(&sum);
	sched_interval_free(&iv);
	class_map_free(&map);
	class_map_input_free(&in);
	sched_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_rates_and_deltas),
		cmocka_unit_test(test_filter_and_order),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_map_indices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
