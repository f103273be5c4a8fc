/* Scheduler model: per-thread deltas grouped into processes and classes,
 * rates, percentiles, and the summary over intervals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/hist.h"
#include "model/sched_model.h"

#define NS 1000000000ull

static struct sched_thread_sample *add(struct sched_snapshot *s, uint32_t tid, uint32_t pid,
				       const char *comm, uint64_t oncpu, uint64_t vol, uint64_t invol)
{
	struct sched_thread_sample *t = sched_snapshot_add(s);

	t->tid = tid;
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	snprintf(t->pcomm, sizeof(t->pcomm), "observer");
	t->oncpu_ns = oncpu;
	t->vol = vol;
	t->invol = invol;
	return t;
}

/* The interval over a map of cur's threads, as the session builds it. */
static int compute(const struct sched_snapshot *a, const struct sched_snapshot *b,
		   const struct tclass_classifier *c, const struct sched_filter *f,
		   struct sched_interval *iv)
{
	struct class_map_input in = { 0 };
	struct class_map map;
	int err;

	assert_int_equal(sched_snapshot_threads(b, &in), 0);
	assert_int_equal(class_map_build(&map, &in, c), 0);
	err = sched_interval_compute(a, b, &map, f, iv);
	class_map_free(&map);
	class_map_input_free(&in);
	return err;
}

static const struct sched_class_stats *find_class(const struct sched_interval *iv, int pid,
						  const char *name)
{
	for (int i = 0; i < iv->n_groups; i++)
		for (int k = 0; iv->groups[i].pid == pid && k < iv->groups[i].n_classes; k++)
			if (!strcmp(iv->groups[i].classes[k].name, name))
				return &iv->groups[i].classes[k];
	return NULL;
}

/* A thread that died while the collector read it comes twice: once as it
 * was, once final. Counted twice, it made a fifth worker of four. */
static void test_sort_keeps_one_sample_per_thread(void **state)
{
	struct sched_snapshot s;

	(void)state;
	sched_snapshot_init(&s);
	add(&s, 7, 1, "w", NS, 10, 200);
	add(&s, 5, 1, "w", NS, 10, 100)->exited = true;
	add(&s, 6, 1, "w", NS, 10, 100);
	add(&s, 5, 1, "w", NS, 10, 90);
	add(&s, 7, 1, "w", NS, 10, 150);
	sched_snapshot_sort(&s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.t[0].tid, 5);
	assert_true(s.t[0].exited);
	assert_int_equal(s.t[0].invol, 100);
	assert_int_equal(s.t[1].tid, 6);
	assert_int_equal(s.t[2].tid, 7);
	assert_int_equal(s.t[2].invol, 200);
	assert_int_equal(sched_snapshot_index(&s, 7), 2);
	sched_snapshot_free(&s);
}

static void name_hist(struct sched_snapshot *s, uint32_t kind, uint32_t pid, const char *comm,
		      uint64_t born, uint32_t bucket, uint32_t count)
{
	struct sched_name_hist *r = sched_snapshot_add_name_hist(s);

	assert_non_null(r);
	r->kind = kind;
	r->pid = pid;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	r->born_ns = born;
	r->buckets[bucket] = count;
}

static void runq(struct sched_snapshot *s, uint32_t pid, const char *comm, uint64_t born,
		 uint32_t bucket, uint32_t count)
{
	name_hist(s, DBT_SCHED_HIST_RUNQ, pid, comm, born, bucket, count);
}

/* The names of the histograms pruned, in order. */
struct gone_list {
	struct sched_name_hist h[4];
	int n;
};

static void note_gone(void *ctx, const struct sched_name_hist *h)
{
	struct gone_list *g = ctx;

	assert_true(g->n < 4);
	g->h[g->n++] = *h;
}

/* Histograms of names no thread has any more are dropped and named. */
static void test_prune_name_hists(void **state)
{
	struct sched_snapshot s;
	struct gone_list gone = { .n = 0 };

	(void)state;
	sched_snapshot_init(&s);
	add(&s, 101, 100, "worker-1", NS, 1, 1);
	runq(&s, 100, "worker-1", 1, 5, 1);
	runq(&s, 100, "worker-2", 1, 5, 1);     /* renamed or exited */
	runq(&s, 300, "worker-1", 1, 5, 1);     /* a process gone */
	runq(&s, 100, "worker-1", 1, 5, 1);     /* met twice by the walk */
	sched_snapshot_sort(&s);
	assert_int_equal(sched_snapshot_prune_name_hists(&s, note_gone, &gone), 2);
	assert_int_equal(gone.n, 2);
	assert_int_equal(s.n_hists, 1);
	assert_string_equal(s.hists[0].comm, "worker-1");
	assert_int_equal(s.hists[0].pid, 100);
	assert_true(gone.h[0].pid == 100 && !strcmp(gone.h[0].comm, "worker-2"));
	assert_true(gone.h[1].pid == 300 && !strcmp(gone.h[1].comm, "worker-1"));
	sched_snapshot_free(&s);
}

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
		add(&a, 101 + i, 100, "worker-1", NS / 2, 10, 100);
	add(&b, 100, 100, "observer", 0, 0, 0);   /* the leader: names the process */
	for (uint32_t i = 0; i < 4; i++)
		add(&b, 101 + i, 100, i % 2 ? "worker-2" : "worker-1", NS / 2 + NS, 10 + 2, 100 + 40);
	add(&b, 200, 100, "RpcIO", NS / 10, 5000, 10);   /* new in this interval */
	sched_snapshot_sort(&a);
	sched_snapshot_sort(&b);
	memset(ival, 0, sizeof(ival));
	/* worker threads waited: 12 runs of 1.5 ms in the histograms per
	 * (process, name), and one exact max */
	runq(&a, 100, "worker-1", 1, slow, 5);
	runq(&b, 100, "worker-1", 1, slow, 11);
	runq(&a, 100, "worker-2", 7, slow, 0xfffffffeu);   /* u32 counters wrap */
	runq(&b, 100, "worker-2", 7, slow, 4);
	runq(&a, 100, "RpcIO", 1, slow, 50);               /* evicted, made anew: */
	runq(&b, 100, "RpcIO", 2, slow, 0);                /* counts from zero */
	runq(&b, 999, "gone", 1, slow, 9);                 /* no thread of it: nowhere */
	/* the budget's futex waits, kept the same way under their own kind:
	 * 3 waits of 40 µs, never mixed into the run-queue delay */
	name_hist(&a, DBT_SCHED_HIST_FUTEX, 100, "worker-1", 1, dbt_hist_bucket(40000), 2);
	name_hist(&b, DBT_SCHED_HIST_FUTEX, 100, "worker-1", 1, dbt_hist_bucket(40000), 5);
	sched_snapshot_sort(&a);
	sched_snapshot_sort(&b);
	for (int i = 1; i <= 4; i++) {
		ival[i].runq_max_ns = 1900000;
		ival[i].cpus[0] = 1ull << (i % 2);
	}
	ival[3].runq_max_ns = 2000000;
	b.ival = ival;

	assert_int_equal(compute(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_string_equal(iv.groups[0].comm, "observer");
	assert_int_equal(iv.groups[0].n_classes, 2);   /* the idle leader is left out */
	w = find_class(&iv, 100, "worker-*");
	r = find_class(&iv, 100, "RpcIO");
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
	add(&b, 300, 300, "mysqld", NS / 10, 1, 1);
	add(&b, 400, 400, "java", NS / 2, 1, 1);
	add(&b, 500, 500, "idle", 0, 0, 0);
	sched_snapshot_sort(&b);
	assert_int_equal(compute(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 2);                   /* "idle" did nothing */
	assert_int_equal(iv.groups[0].pid, 400);            /* busiest first */
	sched_interval_free(&iv);
	assert_int_equal(compute(&a, &b, NULL, &f, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 300);
	sched_interval_free(&iv);
	f.n_pids = 0;
	f.comm = "java";
	assert_int_equal(compute(&a, &b, NULL, &f, &iv), 0);
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
	add(&b, 10, 10, "RpcIO", 1, 1, 1);
	add(&b, 11, 10, "TNT_L0_1002", 1, 1, 1);
	add(&b, 12, 10, "TNT_L0_1001", 1, 1, 1);
	sched_snapshot_sort(&b);
	assert_int_equal(compute(&a, &b, c, NULL, &iv), 0);
	assert_non_null(find_class(&iv, 10, "net"));
	assert_int_equal(find_class(&iv, 10, "workers")->threads, 2);
	sched_interval_free(&iv);
	sched_snapshot_free(&b);
	tclass_classifier_free(c);
}

static void test_summary_sums_intervals(void **state)
{
	struct sched_snapshot s[3];
	struct sched_interval iv;
	struct sched_summary sum = { 0 };

	for (int i = 0; i < 3; i++) {
		sched_snapshot_init(&s[i]);
		s[i].mono_ns = (uint64_t)i * NS;
		add(&s[i], 7, 7, "pg", (uint64_t)i * NS / 4, (uint64_t)i * 100, 0);
	}
	for (int i = 1; i < 3; i++) {
		assert_int_equal(compute(&s[i - 1], &s[i], NULL, NULL, &iv), 0);
		assert_int_equal(sched_summary_add(&sum, &iv), 0);
		sched_interval_free(&iv);
	}
	sched_summary_finish(&sum);
	assert_int_equal(sum.n_groups, 1);
	assert_true(fabs(sum.seconds - 2.0) < 1e-9);
	assert_true(fabs(sum.groups[0].classes[0].vol_per_s - 100.0) < 1e-9);
	assert_true(fabs(sum.groups[0].classes[0].oncpu_pct - 25.0) < 1e-9);
	assert_int_equal(sum.groups[0].classes[0].threads, 1);
	sched_summary_free(&sum);
	for (int i = 0; i < 3; i++)
		sched_snapshot_free(&s[i]);
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
	add(&b, 21, 20, "w-1", NS / 2, 1, 0);
	add(&b, 22, 20, "w-2", NS / 2, 1, 0);
	add(&b, 31, 30, "late", NS / 2, 1, 0);   /* born after the map was built */
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

/* A summary of many processes and classes grows its lists. */
static void test_summary_grows(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval iv;
	struct sched_summary sum = { 0 };
	char comm[16];

	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	b.mono_ns = NS;
	for (uint32_t p = 0; p < 40; p++)
		for (uint32_t t = 0; t < 20; t++) {
			/* distinct comms: each thread its own class */
			snprintf(comm, sizeof(comm), "c%u_x%u", t, t);
			add(&b, 1000 + p * 100 + t, 1000 + p * 100, comm, NS / 100, 1, 0);
		}
	sched_snapshot_sort(&b);
	assert_int_equal(compute(&a, &b, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 40);
	assert_int_equal(sched_summary_add(&sum, &iv), 0);
	assert_int_equal(sched_summary_add(&sum, &iv), 0);
	sched_summary_finish(&sum);
	assert_int_equal(sum.n_groups, 40);
	for (int i = 0; i < sum.n_groups; i++) {
		assert_int_equal(sum.groups[i].n_classes, 20);
		assert_int_equal(sum.groups[i].classes[0].vol, 2);
	}
	sched_summary_free(&sum);
	sched_interval_free(&iv);
	sched_snapshot_free(&b);
}

static void test_cpus_format(void **state)
{
	uint64_t cpus[DBT_SCHED_CPU_WORDS] = { 0xf | (1ull << 8), 1, 0, 0 };
	char buf[64];

	sched_cpus_format(cpus, false, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,64");
	sched_cpus_format(cpus, true, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,64,+");
	memset(cpus, 0, sizeof(cpus));
	sched_cpus_format(cpus, false, buf, sizeof(buf));
	assert_string_equal(buf, "");
	cpus[3] = 1ull << 63;
	sched_cpus_format(cpus, false, buf, 4);   /* too small: cut, terminated */
	assert_true(strlen(buf) < 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_keeps_one_sample_per_thread),
		cmocka_unit_test(test_prune_name_hists),
		cmocka_unit_test(test_classes_rates_and_deltas),
		cmocka_unit_test(test_filter_and_order),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_summary_sums_intervals),
		cmocka_unit_test(test_map_indices),
		cmocka_unit_test(test_summary_grows),
		cmocka_unit_test(test_cpus_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
