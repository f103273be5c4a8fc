// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/clock_model.h"
#include "sched_samples.h"

static struct clock_thread_sample *add(struct clock_snapshot *s, uint32_t pid, uint32_t tid,
				       const char *comm, uint64_t samples, uint64_t vdso1,
				       uint64_t vdso2, uint64_t sys, uint64_t cgt)
{
	struct clock_thread_sample *t = clock_snapshot_add(s);

	assert_non_null(t);
	t->tid = tid;
	t->c.pid = pid;
	snprintf(t->c.comm, sizeof(t->c.comm), "%s", comm);
	t->c.samples = samples;
	t->c.user_samples = samples - sys;
	t->c.vdso[1] = vdso1;
	t->c.vdso[2] = vdso2;
	t->c.sys_samples = sys;
	t->c.syscalls[DBT_CLOCK_SYS_CLOCK_GETTIME] = cgt;
	return t;
}

/* The window's interval over a map of the window's threads (what the
 * session does when the clock family runs alone). */
static int compute(const struct clock_snapshot *a, const struct clock_snapshot *b,
		   const struct sched_filter *filter, struct clock_interval *iv)
{
	struct class_map_input in = { 0 };
	struct class_map map;
	int err;

	assert_int_equal(clock_window_threads(a, b, &in), 0);
	assert_int_equal(class_map_build(&map, &in, NULL), 0);
	err = clock_interval_compute(a, b, &map, filter, iv);
	class_map_free(&map);
	class_map_input_free(&in);
	return err;
}

static const struct clock_group_stats *proc_of(const struct clock_interval *iv, int pid)
{
	for (int i = 0; i < iv->n_groups; i++)
		if (iv->groups[i].pid == pid)
			return &iv->groups[i];
	return NULL;
}

static const struct clock_stats *class_of(const struct clock_interval *iv, int pid, const char *name)
{
	const struct clock_group_stats *p = proc_of(iv, pid);

	for (int i = 0; p && i < p->n_classes; i++)
		if (!strcmp(p->classes[i].name, name))
			return &p->classes[i];
	return NULL;
}

/* Deltas per thread, summed per class and process. */
static void interval_sums(void **state)
{
	struct clock_snapshot a, b;
	struct clock_interval iv;
	const struct clock_group_stats *p;
	const struct clock_stats *c;

	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	a.mono_ns = 1000000000ull;
	b.mono_ns = 3000000000ull;     /* 2 s */
	add(&a, 10, 11, "worker-1", 100, 10, 0, 0, 0);
	add(&a, 10, 12, "worker-2", 100, 10, 0, 0, 0);
	add(&a, 20, 20, "idler", 5, 0, 0, 0, 0);
	add(&b, 10, 11, "worker-1", 300, 90, 10, 0, 0);   /* +200: +80 gtod, +10 cgt */
	add(&b, 10, 12, "worker-2", 300, 10, 40, 0, 0);   /* +200: +0, +40 */
	add(&b, 10, 10, "app", 50, 0, 0, 40, 30000);      /* new: 40 in syscalls */
	add(&b, 20, 20, "idler", 5, 0, 0, 0, 0);          /* nothing new: left out */
	b.stats.samples = 2000;
	b.stats.idle_samples = 1000;
	a.stats.inserts = 3;           /* 3 live: none evicted */
	b.stats.inserts = 6;           /* 4 live: 2 evicted since */
	clock_snapshot_sort(&a);
	clock_snapshot_sort(&b);

	assert_int_equal(compute(&a, &b, NULL, &iv), 0);
	assert_float_equal(iv.dt_s, 2.0, 1e-9);
	assert_int_equal(iv.samples, 2000);
	assert_int_equal(iv.idle_samples, 1000);
	assert_int_equal(iv.evictions, 2);
	assert_int_equal(iv.n_groups, 1);
	p = proc_of(&iv, 10);
	assert_non_null(p);
	assert_null(proc_of(&iv, 20));
	assert_string_equal(p->comm, "app");
	assert_int_equal(p->total.samples, 450);
	assert_int_equal(p->total.vdso_samples, 130);
	assert_int_equal(p->total.sys_samples, 40);
	assert_int_equal(p->total.threads, 3);
	assert_float_equal(p->total.vdso_pct, 100.0 * 130 / 450, 1e-9);
	assert_int_equal(p->total.top_fn, 1);            /* 80 vs 50 */
	assert_float_equal(p->total.reads_per_s, 15000, 1e-9);
	/* classes: worker-* (two threads) and app; worker-* first (more clock) */
	assert_int_equal(p->n_classes, 2);
	assert_string_equal(p->classes[0].name, "worker-*");
	c = class_of(&iv, 10, "worker-*");
	assert_non_null(c);
	assert_int_equal(c->threads, 2);
	assert_int_equal(c->samples, 400);
	assert_float_equal(c->vdso_pct, 32.5, 1e-9);
	c = class_of(&iv, 10, "app");
	assert_float_equal(c->sys_pct, 80.0, 1e-9);
	assert_int_equal(c->top_fn, -1);
	assert_true(isnan(c->vdso_pct) == 0);
	assert_null(class_of(&iv, 10, "nope"));
	clock_interval_free(&iv);
	clock_snapshot_free(&a);
	clock_snapshot_free(&b);
}

/* A tid reused by another process starts from zero, not from the old
 * thread's counters; a counter that went down was reset. */
static void reused_tid_and_reset(void **state)
{
	struct clock_snapshot a, b;
	struct clock_interval iv;

	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	b.mono_ns = 1000000000ull;
	add(&a, 30, 31, "old", 1000, 500, 0, 0, 0);
	add(&b, 40, 31, "new", 60, 6, 0, 0, 0);
	clock_snapshot_sort(&a);
	clock_snapshot_sort(&b);
	assert_int_equal(compute(&a, &b, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 40);
	assert_int_equal(iv.groups[0].total.samples, 60);
	assert_int_equal(iv.groups[0].total.vdso_samples, 6);
	clock_interval_free(&iv);
	clock_snapshot_free(&a);
	clock_snapshot_free(&b);
}

/* Only the processes asked for, by pid or by comm. */
static void filters(void **state)
{
	struct clock_snapshot a, b;
	struct clock_interval iv;
	int pids[] = { 2 };
	struct sched_filter by_pid = { .pids = pids, .n_pids = 1 };
	struct sched_filter by_comm = { .comm = "one" };

	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	b.mono_ns = 1000000000ull;
	add(&b, 1, 1, "one", 10, 0, 0, 0, 0);
	add(&b, 2, 2, "two", 10, 0, 0, 0, 0);
	clock_snapshot_sort(&b);
	assert_int_equal(compute(&a, &b, &by_pid, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 2);
	clock_interval_free(&iv);
	assert_int_equal(compute(&a, &b, &by_comm, &iv), 0);
	assert_int_equal(iv.n_groups, 1);
	assert_int_equal(iv.groups[0].pid, 1);
	clock_interval_free(&iv);
	clock_snapshot_free(&a);
	clock_snapshot_free(&b);
}

static void snapshot_copy_and_find(void **state)
{
	struct clock_snapshot a, b;

	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	for (uint32_t i = 0; i < 1000; i++)
		add(&a, 1, 5000 - i, "t", i, 0, 0, 0, 0);
	clock_snapshot_sort(&a);
	a.mono_ns = 77;
	assert_int_equal(clock_snapshot_copy(&b, &a), 0);
	assert_int_equal(b.n, 1000);
	assert_int_equal(b.mono_ns, 77);
	assert_int_equal(clock_snapshot_find(&b, 4500)->c.samples, 500);
	assert_null(clock_snapshot_find(&b, 1));
	clock_snapshot_free(&a);
	assert_null(clock_snapshot_find(&a, 4500));
	clock_snapshot_free(&b);
}

/* Slots from the saved vDSO image: clock functions first, named. */
static void fn_table_from_image(void **state)
{
	FILE *f = fopen(FIXTURES "/vdso/vdso-x86_64-6.18.so", "rb");
	char img[8192];
	struct vdso_syms syms;
	struct clock_fn_table t;
	size_t len;

	assert_non_null(f);
	len = fread(img, 1, sizeof(img), f);
	fclose(f);
	assert_int_equal(vdso_parse(img, len, &syms), 0);
	clock_fn_table_build(&syms, 8192, &t);
	assert_int_equal(t.text_len, 8192);
	assert_string_equal(clock_fn_name(&t, 0), "other");
	assert_string_equal(clock_fn_name(&t, 1), "clock_gettime");
	assert_int_equal(t.range[1].start, 0xaf0);
	assert_int_equal(t.range[1].end, 0xaf0 + 902);
	assert_string_equal(clock_fn_name(&t, 2), "gettimeofday");
	assert_string_equal(clock_fn_name(&t, 3), "time");
	assert_string_equal(clock_fn_name(&t, 4), "clock_getres");
	assert_string_equal(clock_fn_name(&t, 5), "getcpu");
	assert_string_equal(clock_fn_name(&t, 6), "getrandom");
	assert_string_equal(clock_fn_name(&t, 7), "other");  /* unused */
	assert_int_equal(t.range[7].end, 0);
	assert_string_equal(clock_fn_name(NULL, 1), "other");

	/* more functions than slots: the clock ones still get theirs */
	memset(&syms, 0, sizeof(syms));
	for (int i = 0; i < 12; i++) {
		snprintf(syms.f[i].name, sizeof(syms.f[i].name), i == 11 ? "gettimeofday" : "f%d", i);
		syms.f[i].start = (uint64_t)i * 16;
		syms.f[i].end = syms.f[i].start + 8;
	}
	syms.n = 12;
	clock_fn_table_build(&syms, 4096, &t);
	assert_string_equal(clock_fn_name(&t, 1), "gettimeofday");
	assert_string_equal(clock_fn_name(&t, 2), "f0");
	assert_string_equal(clock_fn_name(&t, 7), "f5");
}

/* The session's tick: one map from sched's threads and the clock's
 * active ones, both intervals over it. */
static void tick_map(const struct sched_snapshot *ss, const struct clock_snapshot *a,
		     const struct clock_snapshot *b, struct class_map *map)
{
	struct class_map_input in = { 0 };

	assert_int_equal(sched_snapshot_threads(ss, &in), 0);
	class_map_input_next_view(&in);
	assert_int_equal(clock_window_threads(a, b, &in), 0);
	assert_int_equal(class_map_build(map, &in, NULL), 0);
	class_map_input_free(&in);
}

/* Classes named over the sched snapshot: a pool the clock sampler saw
 * only one member of still gets the pool's name; a thread sched does not
 * hold is named among the clock's threads. */
static void sched_threads_name_classes(void **state)
{
	struct sched_snapshot ss;
	struct clock_snapshot a, b;
	struct clock_interval iv;
	struct class_map map;
	const char *comms[] = { "mysqld", "ib_io_rd-1", "ib_io_rd-2", "ib_io_rd-3" };

	sched_snapshot_init(&ss);
	for (int i = 0; i < 4; i++)
		sched_sample(&ss, 50, 50 + (uint32_t)i, comms[i], "", 0, 0, 0);
	sched_snapshot_sort(&ss);
	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	b.mono_ns = 1000000000ull;
	add(&b, 50, 52, "ib_io_rd-2", 100, 30, 0, 0, 0);   /* alone it would keep its comm */
	add(&b, 60, 60, "other", 10, 0, 0, 0, 0);          /* not in the sched snapshot */
	add(&b, 60, 61, "idle", 0, 0, 0, 0, 0);            /* did nothing: not named */
	clock_snapshot_sort(&b);

	assert_int_equal(compute(&a, &b, NULL, &iv), 0);
	assert_non_null(class_of(&iv, 50, "ib_io_rd-2"));
	clock_interval_free(&iv);

	tick_map(&ss, &a, &b, &map);
	assert_null(class_map_find(&map, 60, 61));
	assert_int_equal(clock_interval_compute(&a, &b, &map, NULL, &iv), 0);
	assert_non_null(class_of(&iv, 50, "ib_io_rd-*"));
	assert_null(class_of(&iv, 50, "ib_io_rd-2"));
	assert_string_equal(proc_of(&iv, 50)->comm, "ib_io_rd-2");   /* its active thread's */
	assert_non_null(class_of(&iv, 60, "other"));
	assert_int_equal(class_of(&iv, 60, "other")->threads, 1);
	clock_interval_free(&iv);
	class_map_free(&map);

	/* a map without the window's threads leaves them out */
	memset(&map, 0, sizeof(map));
	assert_int_equal(clock_interval_compute(&a, &b, &map, NULL, &iv), 0);
	assert_int_equal(iv.n_groups, 0);
	assert_float_equal(iv.dt_s, 1.0, 1e-9);
	clock_interval_free(&iv);
	sched_snapshot_free(&ss);
	clock_snapshot_free(&b);
}

/* A sched row: a class, or the process's total for a NULL name. */
static const struct sched_class_stats *sched_row(const struct sched_interval *si, int pid,
						 const char *name)
{
	for (int i = 0; i < si->n_groups; i++) {
		const struct sched_group_stats *p = &si->groups[i];

		if (p->pid != pid)
			continue;
		if (!name)
			return &p->total;
		for (int k = 0; k < p->n_classes; k++)
			if (!strcmp(p->classes[k].name, name))
				return &p->classes[k];
	}
	fail_msg("no row %d/%s", pid, name ? name : "total");
	return NULL;
}

/* A thread born since sched's read is named among the clock's threads of
 * its process, and renames none of sched's classes. */
static void newborn_named_among_clock_threads(void **state)
{
	struct sched_snapshot s0, s1;
	struct clock_snapshot a, b;
	struct sched_interval si;
	struct clock_interval ci;
	struct class_map map;

	sched_snapshot_init(&s0);
	sched_snapshot_init(&s1);
	s1.mono_ns = 1000000000ull;
	sched_sample(&s1, 50, 50, "mysqld", "", 100, 0, 0);
	sched_sample(&s1, 50, 51, "ib_io_rd-1", "", 100, 0, 0);
	sched_snapshot_sort(&s1);
	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	b.mono_ns = 1000000000ull;
	add(&b, 50, 51, "ib_io_rd-1", 10, 5, 0, 0, 0);
	add(&b, 50, 57, "ib_io_rd-9", 10, 0, 0, 0, 0);     /* born since sched's read */
	clock_snapshot_sort(&b);

	tick_map(&s1, &a, &b, &map);
	assert_int_equal(sched_interval_compute(&s0, &s1, &map, NULL, &si), 0);
	assert_int_equal(clock_interval_compute(&a, &b, &map, NULL, &ci), 0);
	assert_int_equal(si.groups[0].n_classes, 2);
	assert_non_null(sched_row(&si, 50, "ib_io_rd-1"));   /* alone in sched's view */
	assert_non_null(sched_row(&si, 50, "mysqld"));
	assert_int_equal(class_of(&ci, 50, "ib_io_rd-1")->threads, 1);
	assert_int_equal(class_of(&ci, 50, "ib_io_rd-*")->threads, 1);
	assert_int_equal(proc_of(&ci, 50)->n_classes, 2);
	clock_interval_free(&ci);
	sched_interval_free(&si);
	class_map_free(&map);
	sched_snapshot_free(&s1);
	clock_snapshot_free(&b);
}

static void sys_names(void **state)
{
	assert_string_equal(clock_sys_name(DBT_CLOCK_SYS_CLOCK_GETTIME), "clock_gettime");
	assert_string_equal(clock_sys_name(DBT_CLOCK_SYS_CLOCK_NANOSLEEP), "clock_nanosleep");
	assert_string_equal(clock_sys_name(DBT_CLOCK_SYS_N), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interval_sums),
		cmocka_unit_test(reused_tid_and_reset),
		cmocka_unit_test(filters),
		cmocka_unit_test(snapshot_copy_and_find),
		cmocka_unit_test(fn_table_from_image),
		cmocka_unit_test(sched_threads_name_classes),
		cmocka_unit_test(newborn_named_among_clock_threads),
		cmocka_unit_test(sys_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
