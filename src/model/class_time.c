#include "model/class_time.h"
#include "model/hist.h"

#include <math.h>
#include <string.h>

static const char *const names[CT_STATES] = {
	[CT_ONCPU] = "oncpu",
	[CT_RUNQ] = "runqueue",
	[CT_SOFTIRQ] = "softirq",
	[CT_FUTEX] = "futex",
	[CT_NET] = "net",
	[CT_DISK] = "disk",
	[CT_SLEEP] = "sleep",
	[CT_PIPE_OTHER] = "pipe_other",
	[CT_KERNEL] = "kernel",
};

const char *class_state_name(int state)
{
	return state >= 0 && state < CT_STATES ? names[state] : "?";
}

int class_state_parse(const char *name)
{
	for (int s = 0; s < CT_STATES; s++)
		if (!strcmp(names[s], name))
			return s;
	return -1;
}

/* The block in progress at the snapshot: since it began, less what ran
 * and waited for a CPU since (a thread woken and running now has its run
 * in oncpu_ns, read from /proc). */
static uint64_t open_block_ns(const struct class_time_sample *s)
{
	const struct class_time_blk *b = s->blk;
	uint64_t d, ran;

	if (!b->since_ns || b->since_ns >= s->mono_ns)
		return 0;
	d = s->mono_ns - b->since_ns;
	ran = counter_delta(b->since_oncpu_ns, s->oncpu_ns) + counter_delta(b->since_runq_ns, s->runq_ns);
	return d > ran ? d - ran : 0;
}

uint64_t class_time_blocked_ns(const struct class_time_sample *s, int r)
{
	uint64_t ns;

	if (r < 0 || r >= DBT_BLK_REASONS)
		return 0;
	ns = s->blk->ns[r];
	if (s->blk->since_ns && (int)s->blk->reason == r)
		ns += open_block_ns(s);
	return ns;
}

/* Adds ns to key's entry of a small table (keys[], vals[], *n of cap);
 * when it is full, the smallest entry gives way to a larger newcomer. */
static void top_add(uint64_t *keys, uint64_t *vals, int *n, int cap, uint64_t key, uint64_t ns)
{
	int i;

	if (!ns)
		return;
	for (i = 0; i < *n; i++)
		if (keys[i] == key)
			break;
	if (i == *n) {
		if (*n == cap) {
			int min = 0;

			for (int k = 1; k < *n; k++)
				if (vals[k] < vals[min])
					min = k;
			if (vals[min] >= ns)
				return;
			i = min;
		} else {
			(*n)++;
		}
		keys[i] = key;
		vals[i] = 0;
	}
	vals[i] += ns;
}

static void top_sort(uint64_t *keys, uint64_t *vals, int n)
{
	/* highest first (insertion sort: a handful) */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && vals[k] > vals[k - 1]; k--) {
			uint64_t v = vals[k], key = keys[k];

			vals[k] = vals[k - 1];
			keys[k] = keys[k - 1];
			vals[k - 1] = v;
			keys[k - 1] = key;
		}
}

static void sys_add(struct class_time *ct, int32_t nr, uint64_t ns)
{
	uint64_t keys[CLASS_TIME_SYSCALLS];

	for (int i = 0; i < ct->n_sys; i++)
		keys[i] = (uint64_t)(uint32_t)ct->sys_nr[i];
	top_add(keys, ct->sys_ns, &ct->n_sys, CLASS_TIME_SYSCALLS, (uint64_t)(uint32_t)nr, ns);
	for (int i = 0; i < ct->n_sys; i++)
		ct->sys_nr[i] = (int32_t)(uint32_t)keys[i];
}

static void futex_add(struct class_time *ct, uint64_t addr, uint64_t ns)
{
	top_add(ct->futex_addr, ct->futex_ns, &ct->n_futex, CLASS_TIME_FUTEXES, addr, ns);
}

/* Its pipe_other slots' growth (a slot keeps its syscall for the thread's
 * life, so slot i of a and of b hold the same one when both are used). */
static void thread_syscalls(struct class_time *ct, const struct class_time_blk *a,
			    const struct class_time_blk *b)
{
	for (int i = 0; i < DBT_BLK_SYSCALL_SLOTS; i++) {
		uint64_t before = a && a->sys_ns[i] && a->sys_nr[i] == b->sys_nr[i] ? a->sys_ns[i] : 0;

		if (b->sys_ns[i])
			sys_add(ct, b->sys_nr[i], counter_delta(before, b->sys_ns[i]));
	}
	for (int i = 0; i < DBT_BLK_FUTEX_SLOTS; i++) {
		uint64_t before = a && a->futex_ns[i] && a->futex_addr[i] == b->futex_addr[i] ? a->futex_ns[i] : 0;

		if (b->futex_ns[i])
			futex_add(ct, b->futex_addr[i], counter_delta(before, b->futex_ns[i]));
	}
}

void class_time_blk_from(struct class_time_blk *dst, const struct dbt_sched_blocked *src)
{
	dst->seen_ns = src->seen_ns;
	dst->exit_ns = src->exit_ns;
	dst->since_ns = src->since_ns;
	dst->since_oncpu_ns = src->since_oncpu_ns;
	dst->since_runq_ns = src->since_runq_ns;
	dst->reason = src->reason;
	memcpy(dst->ns, src->ns, sizeof(dst->ns));
	memcpy(dst->sys_nr, src->sys_nr, sizeof(dst->sys_nr));
	memcpy(dst->sys_ns, src->sys_ns, sizeof(dst->sys_ns));
	memcpy(dst->futex_addr, src->futex_addr, sizeof(dst->futex_addr));
	memcpy(dst->futex_ns, src->futex_ns, sizeof(dst->futex_ns));
}

/*
 * The thread's alive time in the window is split as
 *   oncpu (less its softirq part) + softirq + runqueue + blocked reasons,
 * each the growth of a total the kernel side keeps. What is left over is
 * the wait in progress at the snapshot that no total holds yet: a thread
 * not blocked then and not running is waiting for a CPU (it was preempted
 * or has just been woken), so the rest is run-queue time; a blocked one's
 * rest goes to its reason. A negative rest (the states overran the alive
 * time: two clocks read microseconds apart) is taken off the blocked
 * states, which are the ones timed by the clock, and only when it is
 * larger than those, off every state alike: a share never passes 100%.
 */
void class_time_thread(struct class_time *ct, const struct class_time_sample *a,
		       const struct class_time_sample *b, uint64_t start_mono_ns)
{
	const struct class_time_blk *bb = b->blk;
	uint64_t t0 = start_mono_ns, t1 = b->mono_ns, alive, oncpu, sirq, runq, blk[DBT_BLK_REASONS];
	uint64_t blocked = 0, sum;
	int64_t rest;

	/* a thread first seen since the window began counts from when its
	 * totals began, even before it: a thread born just before the last
	 * snapshot that had not yet left a CPU has its first wait and run in
	 * this interval's totals */
	if (!a || bb->seen_ns > t0)
		t0 = bb->seen_ns;
	if (bb->exit_ns && bb->exit_ns < t1)
		t1 = bb->exit_ns;
	alive = t1 > t0 ? t1 - t0 : 0;
	oncpu = counter_delta(a ? a->oncpu_ns : 0, b->oncpu_ns);
	sirq = counter_delta(a ? a->sirq_ns : 0, b->sirq_ns);
	runq = counter_delta(a ? a->runq_ns : 0, b->runq_ns);
	if (sirq > oncpu)
		sirq = oncpu;
	for (int r = 0; r < DBT_BLK_REASONS; r++) {
		blk[r] = counter_delta(a ? class_time_blocked_ns(a, r) : 0, class_time_blocked_ns(b, r));
		blocked += blk[r];
	}
	sum = oncpu + runq + blocked;
	rest = (int64_t)alive - (int64_t)sum;
	ct->residual_ns -= rest;
	if (rest > 0 && bb->since_ns && bb->reason < DBT_BLK_REASONS) {
		blk[bb->reason] += (uint64_t)rest;
	} else if (rest > 0) {
		runq += (uint64_t)rest;
	} else if (rest < 0 && (uint64_t)-rest <= blocked) {
		for (int r = 0; r < DBT_BLK_REASONS; r++)
			blk[r] -= (uint64_t)((double)blk[r] * (double)-rest / (double)blocked);
	} else if (rest < 0) {
		/* more than the blocked time: the run in progress read from /proc
		 * after the snapshot's clock, or a thread whose totals began
		 * before what its record says; the residual keeps the size of it */
		double f = sum ? (double)alive / (double)sum : 0;

		memset(blk, 0, sizeof(blk));
		sirq = (uint64_t)((double)sirq * f);
		oncpu = (uint64_t)((double)oncpu * f);
		runq = (uint64_t)((double)runq * f);
		if (sirq > oncpu)
			sirq = oncpu;
	}
	ct->tick_user_ns += counter_delta(a ? a->utime_ns : 0, b->utime_ns);
	ct->tick_sys_ns += counter_delta(a ? a->stime_ns : 0, b->stime_ns);
	ct->thread_ns += alive;
	ct->ns[CT_ONCPU] += oncpu - sirq;
	ct->ns[CT_SOFTIRQ] += sirq;
	ct->ns[CT_RUNQ] += runq;
	for (int r = 0; r < DBT_BLK_REASONS; r++)
		ct->ns[CT_BLOCKED_FIRST + r] += blk[r];
	thread_syscalls(ct, a ? a->blk : NULL, bb);
}

void class_time_add(struct class_time *a, const struct class_time *b)
{
	a->thread_ns += b->thread_ns;
	a->residual_ns += b->residual_ns;
	a->tick_user_ns += b->tick_user_ns;
	a->tick_sys_ns += b->tick_sys_ns;
	for (int s = 0; s < CT_STATES; s++)
		a->ns[s] += b->ns[s];
	for (int i = 0; i < b->n_sys; i++)
		sys_add(a, b->sys_nr[i], b->sys_ns[i]);
	for (int i = 0; i < b->n_futex; i++)
		futex_add(a, b->futex_addr[i], b->futex_ns[i]);
}

/* The oncpu state by the ratio of the kernel's user and system ticks,
 * the measured runtime being the total (cputime_adjust()'s rule: the
 * ticks are samples, their sum is not a time). The run in progress at a
 * snapshot, read from /proc/TID/schedstat, has no ticks of its own yet
 * and follows the same ratio. No tick in the window: unknown, not 50/50. */
static void split_oncpu(struct class_time *ct)
{
	uint64_t ticks = ct->tick_user_ns + ct->tick_sys_ns, oncpu = ct->ns[CT_ONCPU];
	double all = (double)ct->thread_ns;

	ct->oncpu_user_ns = ct->oncpu_sys_ns = 0;
	ct->oncpu_user_pct = ct->oncpu_sys_pct = NAN;
	if (!ticks || all <= 0)
		return;
	ct->oncpu_user_ns = (uint64_t)((double)oncpu * (double)ct->tick_user_ns / (double)ticks + 0.5);
	if (ct->oncpu_user_ns > oncpu)
		ct->oncpu_user_ns = oncpu;
	ct->oncpu_sys_ns = oncpu - ct->oncpu_user_ns;
	ct->oncpu_user_pct = 100.0 * (double)ct->oncpu_user_ns / all;
	ct->oncpu_sys_pct = 100.0 * (double)ct->oncpu_sys_ns / all;
}

void class_time_finish(struct class_time *ct)
{
	double all = (double)ct->thread_ns;

	ct->blocked_pct = ct->sum_pct = 0;
	for (int s = 0; s < CT_STATES; s++) {
		ct->pct[s] = all > 0 ? 100.0 * (double)ct->ns[s] / all : NAN;
		ct->sum_pct += ct->pct[s];
		if (s >= CT_BLOCKED_FIRST)
			ct->blocked_pct += ct->pct[s];
	}
	ct->residual_pct = all > 0 ? 100.0 * (double)ct->residual_ns / all : NAN;
	split_oncpu(ct);
	if (all <= 0)
		ct->blocked_pct = ct->sum_pct = NAN;
	{
		uint64_t keys[CLASS_TIME_SYSCALLS];

		for (int i = 0; i < ct->n_sys; i++)
			keys[i] = (uint64_t)(uint32_t)ct->sys_nr[i];
		top_sort(keys, ct->sys_ns, ct->n_sys);
		for (int i = 0; i < ct->n_sys; i++)
			ct->sys_nr[i] = (int32_t)(uint32_t)keys[i];
	}
	top_sort(ct->futex_addr, ct->futex_ns, ct->n_futex);
	{
		uint64_t blocked = 0;

		for (int s = CT_BLOCKED_FIRST; s < CT_STATES; s++)
			blocked += ct->ns[s];
		ct->top_word_blocked_pct = ct->n_futex && blocked ? 100.0 * (double)ct->futex_ns[0] / (double)blocked : NAN;
		/* the words' times are the kernel side's, the blocked total
		 * the reconciled one: they may differ by the residual */
		if (ct->top_word_blocked_pct > 100)
			ct->top_word_blocked_pct = 100;
	}
}

double class_time_top_word_futex_pct(const struct class_time *ct)
{
	double pct;

	if (!ct->n_futex || !ct->ns[CT_FUTEX])
		return NAN;
	/* the word's time is the kernel side's, the state's the reconciled
	 * one: they may differ by the residual */
	pct = 100.0 * (double)ct->futex_ns[0] / (double)ct->ns[CT_FUTEX];
	return pct > 100 ? 100 : pct;
}
