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

/* Deltas per thread, summed per class and process. */
static void interval_sums(void **state)
{
	struct clock_snapshot a, b;
	struct clock_interval iv;
	const struct clock_proc_stats *p;
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

	assert_int_equal(clock_interval_compute(&a, &b, NULL, NULL, NULL, &iv), 0);
	assert_float_equal(iv.dt_s, 2.0, 1e-9);
	assert_int_equal(iv.samples, 2000);
	assert_int_equal(iv.idle_samples, 1000);
	assert_int_equal(iv.evictions, 2);
	assert_int_equal(iv.n_procs, 1);
	p = clock_interval_proc(&iv, 10);
	assert_non_null(p);
	assert_null(clock_interval_proc(&iv, 20));
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
	c = clock_interval_class(&iv, 10, "worker-*");
	assert_non_null(c);
	assert_int_equal(c->threads, 2);
	assert_int_equal(c->samples, 400);
	assert_float_equal(c->vdso_pct, 32.5, 1e-9);
	c = clock_interval_class(&iv, 10, "app");
	assert_float_equal(c->sys_pct, 80.0, 1e-9);
	assert_int_equal(c->top_fn, -1);
	assert_true(isnan(c->vdso_pct) == 0);
	assert_null(clock_interval_class(&iv, 10, "nope"));
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
	assert_int_equal(clock_interval_compute(&a, &b, NULL, NULL, NULL, &iv), 0);
	assert_int_equal(iv.n_procs, 1);
	assert_int_equal(iv.procs[0].pid, 40);
	assert_int_equal(iv.procs[0].total.samples, 60);
	assert_int_equal(iv.procs[0].total.vdso_samples, 6);
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
	assert_int_equal(clock_interval_compute(&a, &b, NULL, NULL, &by_pid, &iv), 0);
	assert_int_equal(iv.n_procs, 1);
	assert_int_equal(iv.procs[0].pid, 2);
	clock_interval_free(&iv);
	assert_int_equal(clock_interval_compute(&a, &b, NULL, NULL, &by_comm, &iv), 0);
	assert_int_equal(iv.n_procs, 1);
	assert_int_equal(iv.procs[0].pid, 1);
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

/* Classes named from the sched snapshot: a pool the clock sampler saw
 * only one member of still gets the pool's name. */
static void sched_namer_aligns_classes(void **state)
{
	struct sched_snapshot ss;
	struct clock_snapshot a, b;
	struct clock_sched_namer sn;
	struct clock_interval iv;
	const char *comms[] = { "mysqld", "ib_io_rd-1", "ib_io_rd-2", "ib_io_rd-3" };

	sched_snapshot_init(&ss);
	for (int i = 0; i < 4; i++) {
		struct sched_thread_sample *t = sched_snapshot_add(&ss);

		assert_non_null(t);
		t->pid = 50;
		t->tid = 50 + (uint32_t)i;
		snprintf(t->comm, sizeof(t->comm), "%s", comms[i]);
	}
	sched_snapshot_sort(&ss);
	clock_snapshot_init(&a);
	clock_snapshot_init(&b);
	b.mono_ns = 1000000000ull;
	add(&b, 50, 52, "ib_io_rd-2", 100, 30, 0, 0, 0);   /* alone it would keep its comm */
	add(&b, 60, 60, "other", 10, 0, 0, 0, 0);          /* not in the sched snapshot */
	clock_snapshot_sort(&b);

	assert_int_equal(clock_interval_compute(&a, &b, NULL, NULL, NULL, &iv), 0);
	assert_non_null(clock_interval_class(&iv, 50, "ib_io_rd-2"));
	clock_interval_free(&iv);

	assert_int_equal(clock_sched_namer_init(&sn, &ss, NULL), 0);
	assert_int_equal(clock_interval_compute(&a, &b, NULL, &sn.namer, NULL, &iv), 0);
	assert_non_null(clock_interval_class(&iv, 50, "ib_io_rd-*"));
	assert_null(clock_interval_class(&iv, 50, "ib_io_rd-2"));
	assert_non_null(clock_interval_class(&iv, 60, "other"));
	clock_interval_free(&iv);
	clock_sched_namer_free(&sn);
	sched_snapshot_free(&ss);
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
		cmocka_unit_test(sched_namer_aligns_classes),
		cmocka_unit_test(sys_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
