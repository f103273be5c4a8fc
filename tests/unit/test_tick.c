/* One tick of the session's model: two world snapshots made by hand in,
 * the interval out: its place in the run, every family's part, the
 * clock's vDSO share beside the sched class of the same threads (the
 * join), and families off in the snapshot left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "session/tick.h"
#include "sched_samples.h"

#define NS 1000000000ull

static void clock_thread(struct clock_snapshot *s, uint32_t pid, uint32_t tid, const char *comm,
			 uint64_t samples, uint64_t vdso)
{
	struct clock_thread_sample *t = clock_snapshot_add(s);

	assert_non_null(t);
	t->tid = tid;
	t->c.pid = pid;
	snprintf(t->c.comm, sizeof(t->c.comm), "%s", comm);
	t->c.samples = samples;
	t->c.user_samples = samples;
	t->c.vdso[1] = vdso;
}

/* mysqld (pid 100): two connection threads that read the clock half the
 * time, one io thread that never does. */
static void world(struct world_snapshot *w, uint64_t t_ns, int scale)
{
	assert_int_equal(world_snapshot_alloc(w, 1), 0);
	w->cpu.mono_ns = t_ns;
	w->sched.mono_ns = t_ns;
	w->clock.mono_ns = t_ns;
	w->have_sched = w->have_clock = true;
	sched_sample(&w->sched, 100, 101, "connection-1", "mysqld", (uint64_t)scale * 300000000ull,
		     (uint64_t)scale * 300, 0);
	sched_sample(&w->sched, 100, 102, "connection-2", "mysqld", (uint64_t)scale * 300000000ull,
		     (uint64_t)scale * 300, 0);
	sched_sample(&w->sched, 100, 103, "io", "mysqld", (uint64_t)scale * 100000000ull,
		     (uint64_t)scale * 100, 0);
	sched_snapshot_sort(&w->sched);
	clock_thread(&w->clock, 100, 101, "connection-1", (uint64_t)scale * 100, (uint64_t)scale * 50);
	clock_thread(&w->clock, 100, 102, "connection-2", (uint64_t)scale * 100, (uint64_t)scale * 50);
	clock_thread(&w->clock, 100, 103, "io", (uint64_t)scale * 40, 0);
	clock_snapshot_sort(&w->clock);
}

/* The tick of interval index from a to b, the run begun at 0. */
static int tick(const struct world_snapshot *a, const struct world_snapshot *b, const struct tick_filters *f,
		int index, struct interval *iv)
{
	static struct cpu_row rows[1];
	struct tick_args args = { .filters = f, .index = index, .rows = rows, .lost_events = 3 };

	return tick_compute(a, b, &args, iv);
}

static const struct sched_class_stats *class_named(const struct sched_group_stats *p, const char *name)
{
	for (int i = 0; i < p->n_classes; i++)
		if (!strcmp(p->classes[i].name, name))
			return &p->classes[i];
	return NULL;
}

static void test_vdso_share_joins_the_sched_classes(void **state)
{
	struct world_snapshot a, b;
	struct tick_filters f = { 0 };
	struct interval t;
	const struct sched_class_stats *conn, *io;

	world(&a, NS, 1);
	world(&b, 2 * NS, 2);
	assert_int_equal(tick(&a, &b, &f, 4, &t), 0);
	assert_true(t.have_sched && t.have_clock);
	assert_false(t.have_net);
	/* its place in the run */
	assert_int_equal(t.index, 4);
	assert_float_equal(t.t_s, 2.0, 1e-9);
	assert_float_equal(t.dt_s, 1.0, 1e-9);
	assert_int_equal(t.ncpus, 1);
	assert_int_equal(t.lost_events, 3);
	assert_int_equal(t.sched.n_groups, 1);
	assert_int_equal(t.sched.groups[0].pid, 100);
	conn = class_named(&t.sched.groups[0], "connection-*");
	io = class_named(&t.sched.groups[0], "io");
	assert_non_null(conn);
	assert_non_null(io);
	assert_int_equal(conn->threads, 2);
	/* 100 samples each in the window, 50 of them in the vDSO */
	assert_true(fabs(conn->vdso_pct - 50.0) < 1e-9);
	assert_true(fabs(io->vdso_pct) < 1e-9);
	assert_true(fabs(t.sched.groups[0].total.vdso_pct - 100.0 * 100 / 240) < 1e-9);
	/* the clock interval groups the same threads alike */
	assert_int_equal(t.clock.n_groups, 1);
	assert_int_equal(t.clock.groups[0].n_classes, 2);
	interval_free(&t);
	world_snapshot_free(&a);
	world_snapshot_free(&b);
}

static void test_families_off_are_left_out(void **state)
{
	struct world_snapshot a, b;
	struct tick_filters f = { 0 };
	struct interval t;

	world(&a, NS, 1);
	world(&b, 2 * NS, 2);
	b.have_sched = false;
	assert_int_equal(tick(&a, &b, &f, 4, &t), 0);
	assert_false(t.have_sched);
	assert_true(t.have_clock);
	/* alone, the clock family classes the threads active in the window */
	assert_int_equal(t.clock.n_groups, 1);
	assert_int_equal(t.clock.groups[0].n_classes, 2);
	interval_free(&t);
	b.have_clock = false;
	assert_int_equal(tick(&a, &b, &f, 4, &t), 0);
	assert_false(t.have_sched || t.have_clock || t.have_net);
	world_snapshot_free(&a);
	world_snapshot_free(&b);
}

static void test_filter_keeps_only_the_asked_process(void **state)
{
	struct world_snapshot a, b;
	int pids[] = { 999 };
	struct sched_filter sf = { .pids = pids, .n_pids = 1 };
	struct tick_filters f = { .sched = &sf };
	struct interval t;

	world(&a, NS, 1);
	world(&b, 2 * NS, 2);
	assert_int_equal(tick(&a, &b, &f, 4, &t), 0);
	assert_int_equal(t.sched.n_groups, 0);
	assert_int_equal(t.clock.n_groups, 0);
	interval_free(&t);
	world_snapshot_free(&a);
	world_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vdso_share_joins_the_sched_classes),
		cmocka_unit_test(test_families_off_are_left_out),
		cmocka_unit_test(test_filter_keeps_only_the_asked_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
