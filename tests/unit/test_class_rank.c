/* model/class_rank: classes ranked by cost (thread-seconds on a CPU and
 * waiting for one), the ones worth a row split from the rest, and the
 * rest folded into one "other" row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/class_rank.h"
#include "model/hist.h"

static void set(struct sched_class_stats *c, const char *name, double runnable)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->runnable_avg = runnable;
	c->runq_p50_us = c->runq_p99_us = c->runq_max_us = c->vdso_pct = NAN;
}

static void test_rank_and_split(void **state)
{
	struct sched_class_stats c[5];
	struct sched_group_stats g[2] = { { .pid = 10 }, { .pid = 2 } };
	struct class_row r[5] = {
		{ &g[0], &c[0] }, { &g[0], &c[1] }, { &g[1], &c[2] }, { &g[1], &c[3] }, { &g[0], &c[4] },
	};

	(void)state;
	set(&c[0], "idle", 0);
	set(&c[1], "pool", 0.8);
	set(&c[2], "kworker", 0.001);
	set(&c[3], "ksoftirqd", 0.8);      /* ties with pool: the lower pid first */
	set(&c[4], "unknown", NAN);
	assert_true(class_cost(&c[4]) == 0);
	assert_false(class_worth_showing(&c[2]));
	assert_true(class_worth_showing(&c[1]));
	c[2].runnable_avg = CLASS_RANK_SHOWN_MIN;
	assert_true(class_worth_showing(&c[2]));
	c[2].runnable_avg = 0.001;

	qsort(r, 5, sizeof(r[0]), class_row_by_cost);
	assert_string_equal(r[0].cls->name, "ksoftirqd");
	assert_string_equal(r[1].cls->name, "pool");
	assert_string_equal(r[2].cls->name, "kworker");
	/* the two at 0 by pid, then name */
	assert_string_equal(r[3].cls->name, "idle");
	assert_string_equal(r[4].cls->name, "unknown");

	assert_int_equal(class_rank_split(r, 5, 0, false), 2);
	assert_int_equal(class_rank_split(r, 5, 0, true), 5);
	/* at most one shown: the next busiest joins the rest, first */
	assert_int_equal(class_rank_split(r, 5, 1, false), 1);
	assert_string_equal(r[0].cls->name, "ksoftirqd");
	assert_string_equal(r[1].cls->name, "pool");
	assert_string_equal(r[2].cls->name, "kworker");
	assert_int_equal(class_rank_split(r, 0, 0, false), 0);
}

/* The "other" row: sums where the figures add up, the rest combined as
 * they mean, futex words and the vDSO share unknown. */
static void test_fold(void **state)
{
	struct sched_class_stats c[2], o;
	struct sched_group_stats g = { .pid = 7 };
	struct class_row r[2] = { { &g, &c[0] }, { &g, &c[1] } };
	__u64 *h = calloc(DBT_HIST_BUCKETS, sizeof(*h));

	(void)state;
	assert_non_null(h);
	set(&c[0], "a", 0.002);
	c[0].threads = 3;
	c[0].oncpu_pct = 0.1;
	c[0].vol_per_s = 10;
	c[0].invol_per_s = 1;
	c[0].softirq_lost_pct = 10;
	c[0].runq_max_us = 40;
	c[0].time.thread_ns = 3000000000ull;
	c[0].time.ns[CT_ONCPU] = 1000000;
	c[0].time.ns[CT_SLEEP] = 2999000000ull;
	c[0].time.oncpu_user_ns = 250000;
	c[0].time.oncpu_sys_ns = 750000;
	c[0].time.n_futex = 1;
	c[0].time.futex_addr[0] = 0x1000;
	c[0].time.futex_ns[0] = 5;
	set(&c[1], "b", 0.001);
	c[1].threads = 1;
	c[1].oncpu_pct = 0.3;
	c[1].vol_per_s = 5;
	c[1].softirq_lost_pct = 50;
	c[1].runq_max_us = NAN;
	c[1].time.thread_ns = 1000000000ull;
	c[1].time.ns[CT_ONCPU] = 3000000;
	c[1].time.ns[CT_KERNEL] = 997000000ull;
	c[1].time.oncpu_user_ns = 750000;
	c[1].time.oncpu_sys_ns = 2250000;
	h[dbt_hist_bucket(20000)] = 4;
	c[1].runq_hist = h;

	assert_int_equal(class_fold(&o, r, 2), 0);
	assert_string_equal(o.name, "other (2 classes)");
	assert_int_equal(o.threads, 4);
	assert_true(fabs(o.oncpu_pct - 0.4) < 1e-9);
	assert_true(fabs(o.vol_per_s - 15) < 1e-9);
	assert_true(fabs(o.invol_per_s - 1) < 1e-9);
	assert_true(fabs(o.runnable_avg - 0.003) < 1e-12);
	/* by on-CPU time: (10 x 0.1 + 50 x 0.3) / 0.4 */
	assert_true(fabs(o.softirq_lost_pct - 40) < 1e-9);
	assert_true(o.runq_max_us == 40);
	assert_true(o.runq_p50_us <= 40 && o.runq_p50_us > 10);
	assert_true(isnan(o.vdso_pct));
	/* the budget: 4 thread-seconds, 4 ms on CPU split 1:3 */
	assert_int_equal(o.time.thread_ns, 4000000000ull);
	assert_true(fabs(o.time.pct[CT_ONCPU] - 0.1) < 1e-9);
	assert_true(fabs(o.time.pct[CT_SLEEP] - 74.975) < 1e-9);
	assert_int_equal(o.time.oncpu_user_ns, 1000000);
	assert_int_equal(o.time.oncpu_sys_ns, 3000000);
	assert_int_equal(o.time.n_futex, 0);
	assert_true(isnan(o.time.top_word_blocked_pct));
	sched_class_free(&o);

	assert_int_equal(class_fold(&o, r, 1), 0);
	assert_string_equal(o.name, "other (1 class)");
	assert_null(o.runq_hist);
	assert_true(isnan(o.runq_p50_us));
	sched_class_free(&o);
	free(h);
}

/* The classes of groups, as a view takes them: ranked across groups,
 * those without a budget left out when asked, the rest folded. */
static void test_rank_groups(void **state)
{
	struct sched_class_stats a[2], b[2];
	struct sched_group_stats g[2] = {
		{ .pid = 10, .classes = a, .n_classes = 2 },
		{ .pid = 20, .classes = b, .n_classes = 2 },
	};
	struct class_ranking r;

	(void)state;
	set(&a[0], "idle", 0);
	set(&a[1], "busy", 2);
	a[1].time.thread_ns = 1;
	set(&b[0], "pool", 1);
	b[0].time.thread_ns = 1;
	set(&b[1], "untimed", 3);
	assert_int_equal(class_rank(g, 2, false, 0, false, &r), 0);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.shown, 3);
	assert_string_equal(r.row[0].cls->name, "untimed");
	assert_true(r.row[0].group == &g[1]);
	assert_string_equal(r.row[1].cls->name, "busy");
	assert_string_equal(r.row[2].cls->name, "pool");
	assert_string_equal(r.other.name, "other (1 class)");
	class_ranking_free(&r);

	assert_int_equal(class_rank(g, 2, true, 1, false, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.shown, 1);
	assert_string_equal(r.row[0].cls->name, "busy");
	assert_string_equal(r.other.name, "other (1 class)");
	class_ranking_free(&r);

	assert_int_equal(class_rank(g, 2, false, 1, true, &r), 0);
	assert_int_equal(r.shown, 4);
	class_ranking_free(&r);
	assert_int_equal(class_rank(g, 0, false, 0, false, &r), 0);
	assert_int_equal(r.n, 0);
	class_ranking_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_and_split),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_rank_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
