/* The wall-time budget of a class: each state's growth between two
 * snapshots, the wait in progress at the snapshot, the alive window of
 * threads born or gone in it, and the syscalls behind pipe_other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "model/class_time.h"
#include "model/syscall_name.h"

#define MS 1000000ull
#define T0 (1000 * MS)   /* the window: [T0, T0 + 1 s] */
#define T1 (T0 + 1000 * MS)

static struct class_time_sample at(uint64_t mono, uint64_t oncpu, uint64_t runq, uint64_t sirq,
				   const struct class_time_blk *b)
{
	return (struct class_time_sample){ .mono_ns = mono, .oncpu_ns = oncpu, .runq_ns = runq,
					   .sirq_ns = sirq, .blk = b };
}

/* The same, with the kernel's user and system tick totals. */
static struct class_time_sample ticked(uint64_t mono, uint64_t oncpu, uint64_t sirq,
				       const struct class_time_blk *b, uint64_t utime, uint64_t stime)
{
	struct class_time_sample s = at(mono, oncpu, 0, sirq, b);

	s.utime_ns = utime;
	s.stime_ns = stime;
	return s;
}

static void assert_pct(double got, double want)
{
	assert_true(fabs(got - want) < 0.01);
}

/* 300 ms on CPU (20 of them softirq), 200 ms waiting for it, 500 ms in
 * futex waits settled by the kernel side: the shares are those. */
static void test_settled_states(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b = a;
	struct class_time ct = { 0 };
	struct class_time_sample sa, sb;

	a.ns[DBT_BLK_FUTEX] = 700 * MS;
	b.ns[DBT_BLK_FUTEX] = 1200 * MS;
	sa = at(T0, 100 * MS, 50 * MS, 5 * MS, &a);
	sb = at(T1, 400 * MS, 250 * MS, 25 * MS, &b);
	class_time_thread(&ct, &sa, &sb, T0);
	class_time_finish(&ct);
	assert_int_equal(ct.thread_ns, 1000 * MS);
	assert_pct(ct.pct[CT_ONCPU], 28);
	assert_pct(ct.pct[CT_SOFTIRQ], 2);
	assert_pct(ct.pct[CT_RUNQ], 20);
	assert_pct(ct.pct[CT_FUTEX], 50);
	assert_pct(ct.blocked_pct, 50);
	assert_pct(ct.sum_pct, 100);
	assert_pct(ct.residual_pct, 0);
}

/* A thread asleep since 400 ms into the window, still asleep at its end:
 * the 600 ms of the block in progress are sleep, not left over. */
static void test_block_in_progress(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b = a;
	struct class_time ct = { 0 };
	struct class_time_sample sa, sb;

	b.since_ns = T0 + 400 * MS;
	b.since_oncpu_ns = 400 * MS;
	b.reason = DBT_BLK_SLEEP;
	sa = at(T0, 0, 0, 0, &a);
	sb = at(T1, 400 * MS, 0, 0, &b);
	assert_int_equal(class_time_blocked_ns(&sb, DBT_BLK_SLEEP), 600 * MS);
	assert_int_equal(class_time_blocked_ns(&sb, DBT_BLK_NET), 0);
	class_time_thread(&ct, &sa, &sb, T0);
	class_time_finish(&ct);
	assert_pct(ct.pct[CT_ONCPU], 40);
	assert_pct(ct.pct[CT_SLEEP], 60);
	assert_pct(ct.residual_pct, 0);
}

/* Not blocked and not counted anywhere at the snapshot: preempted, so the
 * rest is the run-queue wait in progress (the residual still says so). */
static void test_rest_of_a_preempted_thread_is_runqueue(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b = a;
	struct class_time ct = { 0 };
	struct class_time_sample sa = at(T0, 0, 0, 0, &a), sb = at(T1, 900 * MS, 50 * MS, 0, &b);

	class_time_thread(&ct, &sa, &sb, T0);
	class_time_finish(&ct);
	assert_pct(ct.pct[CT_RUNQ], 10);
	assert_pct(ct.sum_pct, 100);
	assert_pct(ct.residual_pct, -5);
}

/* Born 250 ms into the window and gone 750 ms into it: half a second of
 * thread time; first seen now, its totals count from zero. */
static void test_born_and_gone_inside_the_window(void **state)
{
	struct class_time_blk b = { .seen_ns = T0 + 250 * MS, .exit_ns = T0 + 750 * MS };
	struct class_time ct = { 0 };
	struct class_time_sample sb;

	b.ns[DBT_BLK_NET] = 400 * MS;
	sb = at(T1, 100 * MS, 0, 0, &b);
	class_time_thread(&ct, NULL, &sb, T0);
	class_time_finish(&ct);
	assert_int_equal(ct.thread_ns, 500 * MS);
	assert_pct(ct.pct[CT_ONCPU], 20);
	assert_pct(ct.pct[CT_NET], 80);
}

/* States that overran the alive time never show more than 100%; the
 * residual keeps the size of the overrun. */
static void test_overrun_is_capped(void **state)
{
	struct class_time_blk b = { .seen_ns = T1 - 100 * MS };
	struct class_time ct = { 0 };
	struct class_time_sample sb = at(T1, 50 * MS, 100 * MS, 0, &b);

	class_time_thread(&ct, NULL, &sb, T0);
	class_time_finish(&ct);
	assert_true(ct.sum_pct <= 100.01);
	assert_pct(ct.pct[CT_ONCPU], 100.0 / 3);
	assert_pct(ct.residual_pct, 50);
}

/* The other-syscall time by syscall: each thread slot's growth, merged
 * over threads and classes, sorted by seconds. */
static void test_syscalls_behind_pipe_other(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b, c = { .seen_ns = T0 };
	struct class_time ct = { 0 }, other = { 0 };
	struct class_time_sample sa, sb, sc;

	a.sys_nr[0] = 0;     /* read */
	a.sys_ns[0] = 100 * MS;
	a.ns[DBT_BLK_PIPE_OTHER] = 100 * MS;
	b = a;
	b.sys_ns[0] = 300 * MS;
	b.sys_nr[1] = 61;    /* wait4 */
	b.sys_ns[1] = 100 * MS;
	b.ns[DBT_BLK_PIPE_OTHER] = 500 * MS;
	c.sys_nr[0] = 61;
	c.sys_ns[0] = 400 * MS;
	c.ns[DBT_BLK_PIPE_OTHER] = 400 * MS;
	sa = at(T0, 0, 0, 0, &a);
	sb = at(T1, 0, 0, 0, &b);
	sc = at(T1, 0, 0, 0, &c);
	class_time_thread(&ct, &sa, &sb, T0);
	class_time_thread(&other, NULL, &sc, T0);
	class_time_add(&ct, &other);
	class_time_finish(&ct);
	assert_int_equal(ct.n_sys, 2);
	assert_int_equal(ct.sys_nr[0], 61);
	assert_int_equal(ct.sys_ns[0], 500 * MS);
	assert_int_equal(ct.sys_nr[1], 0);
	assert_int_equal(ct.sys_ns[1], 200 * MS);
	assert_int_equal(ct.thread_ns, 2000 * MS);
}

/* The oncpu state (its softirq part taken out) is split by the ratio of
 * the ticks that grew in the window, not by the ticks themselves: 300 ms
 * of user ticks and 100 of system over a measured 380 ms make 285 + 95,
 * which sum to the state (the ticks' own sum, 400 ms, is not a time). */
static void test_oncpu_split_by_tick_ratio(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b = a;
	struct class_time ct = { 0 };
	struct class_time_sample sa, sb;

	b.ns[DBT_BLK_SLEEP] = 600 * MS;
	sa = ticked(T0, 0, 0, &a, 40 * MS, 8 * MS);
	sb = ticked(T1, 400 * MS, 20 * MS, &b, 340 * MS, 108 * MS);
	class_time_thread(&ct, &sa, &sb, T0);
	class_time_finish(&ct);
	assert_int_equal(ct.ns[CT_ONCPU], 380 * MS);
	assert_int_equal(ct.oncpu_user_ns, 285 * MS);
	assert_int_equal(ct.oncpu_sys_ns, 95 * MS);
	assert_pct(ct.oncpu_user_pct, 28.5);
	assert_pct(ct.oncpu_sys_pct, 9.5);
	/* inside oncpu: the states' sum is unchanged */
	assert_pct(ct.sum_pct, 100);
}

/* On CPU but no tick counted in the window (short runs between ticks,
 * or a thread running through the whole window, whose ticks are read at
 * its switch-outs): the split is unknown, not invented. */
static void test_oncpu_split_unknown_without_ticks(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b = a;
	struct class_time ct = { 0 };
	struct class_time_sample sa, sb;

	b.ns[DBT_BLK_NET] = 990 * MS;
	sa = ticked(T0, 0, 0, &a, 4 * MS, 4 * MS);
	sb = ticked(T1, 10 * MS, 0, &b, 4 * MS, 4 * MS);
	class_time_thread(&ct, &sa, &sb, T0);
	class_time_finish(&ct);
	assert_pct(ct.pct[CT_ONCPU], 1);
	assert_int_equal(ct.oncpu_user_ns + ct.oncpu_sys_ns, 0);
	assert_true(isnan(ct.oncpu_user_pct));
	assert_true(isnan(ct.oncpu_sys_pct));
}

/* All user, all system: the kernel's own edge cases (cputime_adjust()
 * gives the whole runtime to the side that ticked). And over threads,
 * classes and intervals the ticks add up and the ratio is taken once,
 * over the sum: a thread all in user space and one all in the kernel
 * with equal runtimes make half and half. */
static void test_oncpu_split_over_threads(void **state)
{
	struct class_time_blk a = { .seen_ns = 1 }, b = a;
	struct class_time user = { 0 }, sys = { 0 };
	struct class_time_sample sa, sb, sc;

	b.ns[DBT_BLK_SLEEP] = 500 * MS;
	sa = ticked(T0, 0, 0, &a, 0, 0);
	sb = ticked(T1, 500 * MS, 0, &b, 496 * MS, 0);
	sc = ticked(T1, 500 * MS, 0, &b, 0, 504 * MS);
	class_time_thread(&user, &sa, &sb, T0);
	class_time_thread(&sys, &sa, &sc, T0);
	class_time_finish(&user);
	class_time_finish(&sys);
	assert_pct(user.oncpu_user_pct, 50);
	assert_pct(user.oncpu_sys_pct, 0);
	assert_pct(sys.oncpu_user_pct, 0);
	assert_pct(sys.oncpu_sys_pct, 50);
	class_time_add(&user, &sys);
	class_time_finish(&user);
	assert_int_equal(user.thread_ns, 2000 * MS);
	assert_int_equal(user.oncpu_user_ns + user.oncpu_sys_ns, 1000 * MS);
	assert_pct(user.oncpu_user_pct, 100.0 * 0.5 * 496 / 1000);
	assert_pct(user.oncpu_sys_pct, 100.0 * 0.5 * 504 / 1000);
}

static void test_names(void **state)
{
	assert_string_equal(class_state_name(CT_PIPE_OTHER), "pipe_other");
	assert_int_equal(class_state_parse("runqueue"), CT_RUNQ);
	assert_int_equal(class_state_parse("blocked"), -1);
#ifdef __x86_64__
	assert_string_equal(syscall_name(0), "read");
	assert_string_equal(syscall_name(202), "futex");
#endif
	assert_null(syscall_name(-1));
	assert_null(syscall_name(100000));
}

/* The top futex word's share of the futex state: the words' times are
 * the kernel side's and the state's the reconciled one, so a word may
 * read a little over the state: it is held to 100. None: NAN. */
static void test_word_pct(void **state)
{
	struct class_time t;

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_true(isnan(class_time_top_word_futex_pct(&t)));
	t.ns[CT_FUTEX] = 1000;
	assert_true(isnan(class_time_top_word_futex_pct(&t)));
	t.n_futex = 2;
	t.futex_addr[0] = 0x10;
	t.futex_ns[0] = 250;
	t.futex_addr[1] = 0x20;
	t.futex_ns[1] = 750;
	class_time_finish(&t);   /* sorts the words: 0x20 first */
	assert_int_equal(t.futex_addr[0], 0x20);
	assert_true(fabs(class_time_top_word_futex_pct(&t) - 75) < 1e-9);
	t.futex_ns[0] = 1010;
	assert_true(fabs(class_time_top_word_futex_pct(&t) - 100) < 1e-9);
	t.ns[CT_FUTEX] = 0;
	assert_true(isnan(class_time_top_word_futex_pct(&t)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settled_states),
		cmocka_unit_test(test_block_in_progress),
		cmocka_unit_test(test_rest_of_a_preempted_thread_is_runqueue),
		cmocka_unit_test(test_born_and_gone_inside_the_window),
		cmocka_unit_test(test_overrun_is_capped),
		cmocka_unit_test(test_syscalls_behind_pipe_other),
		cmocka_unit_test(test_oncpu_split_by_tick_ratio),
		cmocka_unit_test(test_oncpu_split_unknown_without_ticks),
		cmocka_unit_test(test_oncpu_split_over_threads),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_word_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
