/* The sched snapshot: one sample per thread however often it was read,
 * and name histograms pruned when no thread has their name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sched_samples.h"

#define NS 1000000000ull

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

/* A thread that died while the collector read it comes twice: once as it
 * was, once final. Counted twice, it made a fifth worker of four. */
static void test_sort_keeps_one_sample_per_thread(void **state)
{
	struct sched_snapshot s;

	(void)state;
	sched_snapshot_init(&s);
	sched_sample(&s, 1, 7, "w", "observer", NS, 10, 200);
	sched_sample(&s, 1, 5, "w", "observer", NS, 10, 100)->exited = true;
	sched_sample(&s, 1, 6, "w", "observer", NS, 10, 100);
	sched_sample(&s, 1, 5, "w", "observer", NS, 10, 90);
	sched_sample(&s, 1, 7, "w", "observer", NS, 10, 150);
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

/* Histograms of names no thread has any more are dropped and named. */
static void test_prune_name_hists(void **state)
{
	struct sched_snapshot s;
	struct gone_list gone = { .n = 0 };

	(void)state;
	sched_snapshot_init(&s);
	sched_sample(&s, 100, 101, "worker-1", "observer", NS, 1, 1);
	sched_sample_hist(&s, DBT_SCHED_HIST_RUNQ, 100, "worker-1", 1, 5, 1);
	sched_sample_hist(&s, DBT_SCHED_HIST_RUNQ, 100, "worker-2", 1, 5, 1);     /* renamed or exited */
	sched_sample_hist(&s, DBT_SCHED_HIST_RUNQ, 300, "worker-1", 1, 5, 1);     /* a process gone */
	sched_sample_hist(&s, DBT_SCHED_HIST_RUNQ, 100, "worker-1", 1, 5, 1);     /* met twice by the walk */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_keeps_one_sample_per_thread),
		cmocka_unit_test(test_prune_name_hists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
