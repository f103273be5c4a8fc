/* The classes section: each thread class (and each group's total) over
 * an interval or the whole capture, and the members of its "time", the
 * wall-time budget. Rows: struct sched_class_stats. */
#define _GNU_SOURCE
#include "figures/figures.h"
#include "model/class_time.h"
#include "model/sched_stats.h"
#include "model/syscall_name.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#define CLS(field) offsetof(struct sched_class_stats, field)

static const struct sched_class_stats *cls(const void *row)
{
	return row;
}

/* The part of the on-CPU % (of a core) spent in user (key 0) or system
 * mode (key 1), by the time budget's split: as /proc's utime and stime
 * split a process's CPU. NAN when the split is unknown (no tick landed
 * on its threads, or an older capture). */
static double oncpu_mode_pct(const void *row, int key)
{
	const struct sched_class_stats *s = cls(row);
	double u = s->time.oncpu_user_pct, y = s->time.oncpu_sys_pct;

	if (!isfinite(u) || !isfinite(y) || u + y <= 0)
		return NAN;
	return s->oncpu_pct * (key ? y : u) / (u + y);
}

static double oncpu_user(const void *row, int key)
{
	(void)key;
	return oncpu_mode_pct(row, 0);
}

static double oncpu_system(const void *row, int key)
{
	(void)key;
	return oncpu_mode_pct(row, 1);
}

static bool has_time(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return cls(row)->time.thread_ns != 0;
}

static bool has_split(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return cls(row)->time.oncpu_user_ns || cls(row)->time.oncpu_sys_ns;
}

static bool has_futex(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return cls(row)->time.n_futex || cls(row)->time.ns[CT_FUTEX];
}

static double top_word_futex_pct(const void *row, int key)
{
	(void)key;
	return class_time_top_word_futex_pct(&cls(row)->time);
}

/* --- texts ------------------------------------------------------------- */

enum { TEXT_CPUS_RAN_ON = 1, TEXT_FUTEX_WORD, TEXT_OTHER_SYSCALLS };

/* "read 61% poll 12%": the top three syscalls of the pipe_other time,
 * each with its share of it */
static const char *other_syscalls(const struct class_time *t, char *buf, size_t len)
{
	uint64_t other = t->ns[CT_PIPE_OTHER];
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < t->n_sys && i < 3 && other; i++) {
		const char *name = syscall_name(t->sys_nr[i]);
		double pct = 100.0 * (double)t->sys_ns[i] / (double)other;
		int w = name ? snprintf(buf + at, len - at, "%s%s %.0f%%", at ? " " : "", name, pct)
			     : snprintf(buf + at, len - at, "%s#%d %.0f%%", at ? " " : "", t->sys_nr[i], pct);

		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	return buf;
}

static const char *class_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	const struct sched_class_stats *c = cls(row);

	(void)ctx;
	switch (f->which) {
	case TEXT_CPUS_RAN_ON:
		sched_cpus_format(c->cpus, c->cpus_beyond, buf, len);
		return buf;
	case TEXT_FUTEX_WORD:
		/* a user address: the same lock in every process forked with
		 * it, PostgreSQL's shared memory */
		if (isnan(class_time_top_word_futex_pct(&c->time)))
			return NULL;
		snprintf(buf, len, "%#llx", (unsigned long long)c->time.futex_addr[0]);
		return buf;
	case TEXT_OTHER_SYSCALLS:
		return other_syscalls(&c->time, buf, len);
	default:
		return NULL;
	}
}

static void class_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	(void)ctx;
	if (f->which == TEXT_CPUS_RAN_ON)
		sched_cpus_parse(text, ((struct sched_class_stats *)row)->cpus,
				 &((struct sched_class_stats *)row)->cpus_beyond);
}

/* --- the time budget ----------------------------------------------------- */

static const char *state_name(int s)
{
	return class_state_name(s);
}

static const struct fig_keys states = { CT_STATES, state_name, "<state>", true };

/* The time view's and the report's column of each state. */
static const struct fig_key_view state_views[CT_STATES] = {
	[CT_ONCPU] = { { 'o', "%ONCPU", 6, 1, 50 }, { "on-CPU %", 50 } },
	[CT_RUNQ] = { { 'r', "%RUNQ", 6, 1, 80 }, { "run queue %", 60 } },
	[CT_SOFTIRQ] = { { 's', "%SIRQ", 6, 1, 90 }, { "softirq %", 70 } },
	[CT_FUTEX] = { { 'f', "%FUTEX", 6, 1, 110 }, { "futex %", 80 } },
	[CT_NET] = { { 'n', "%NET", 6, 1, 120 }, { "net %", 90 } },
	[CT_DISK] = { { 'd', "%DISK", 6, 1, 130 }, { "disk %", 100 } },
	[CT_SLEEP] = { { 'z', "%SLEEP", 6, 1, 140 }, { "sleep %", 110 } },
	[CT_PIPE_OTHER] = { { 'x', "%OTHER", 6, 1, 150 }, { "other syscalls %", 120 } },
	[CT_KERNEL] = { { 'k', "%KERN", 6, 1, 160 }, { "kernel %", 130 } },
};

/* Moves of a few points are noise; neutral: a class that blocks less may
 * just have less to wait for. A state the class was never in, before or
 * after, has no row. */
#define TIME_DIFF(metric_) { FIG_NEUTRAL, 3, 0.10, 0.5, metric_, 0 }

static const struct figure share_figs[] = {
	{ .name = "share_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(time.pct), .keys = &states,
	  .doc = "each state's % of `thread_seconds`",
	  .diff = TIME_DIFF("time_%s_pct"), .key_views = state_views },
	{ .name = "blocked", .unit = "%", .type = FIG_NUM, .offset = CLS(time.blocked_pct),
	  .doc = "the six blocked reasons together",
	  .diff = TIME_DIFF("time_blocked_pct"), .top = { 'b', "%BLOCK", 6, 1, 100 } },
};
static const struct fig_table share_table = FIG_TABLE(NULL, share_figs);

static const struct figure seconds_figs[] = {
	{ .name = "seconds", .unit = "s", .type = FIG_NS, .offset = CLS(time.ns), .keys = &states,
	  .doc = "each state's thread-seconds" },
};
static const struct fig_table seconds_table = FIG_TABLE(NULL, seconds_figs);

static const struct figure split_figs[] = {
	{ .name = "user_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(time.oncpu_user_pct),
	  .doc = "user time, % of `thread_seconds`",
	  .diff = TIME_DIFF("time_oncpu_user_pct"), .top = { 'u', "%USR", 5, 1, 60 } },
	{ .name = "system_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(time.oncpu_sys_pct),
	  .doc = "system time, % of `thread_seconds` (with `user_pct`, `share_pct.oncpu`)",
	  .diff = TIME_DIFF("time_oncpu_system_pct"), .top = { 'y', "%SYS", 5, 1, 70 } },
	{ .name = "user_seconds", .unit = "s", .type = FIG_NS, .offset = CLS(time.oncpu_user_ns),
	  .doc = "user time, thread-seconds" },
	{ .name = "system_seconds", .unit = "s", .type = FIG_NS, .offset = CLS(time.oncpu_sys_ns),
	  .doc = "system time, thread-seconds" },
};
static const struct fig_table split_table = FIG_TABLE(NULL, split_figs);

static const struct figure futex_figs[] = {
	{ .name = "wait_p50_us", .unit = "µs", .type = FIG_NUM, .offset = CLS(time.futex_p50_us),
	  .doc = "median futex wait (each wait's blocked time)", .report = { "futex wait p50 µs", 170 } },
	{ .name = "wait_p99_us", .unit = "µs", .type = FIG_NUM, .offset = CLS(time.futex_p99_us),
	  .doc = "p99 futex wait", .report = { "futex wait p99 µs", 180 } },
	{ .name = "wait_hist", .type = FIG_HIST, .offset = CLS(futex_hist), .by_pointer = true,
	  .timed_offset = SIZE_MAX, .sample_weight = 1,
	  .doc = "each wait's length as a fine histogram with every wait timed (`timed` = `count`, "
		 "`sample_weight` 1); `null` when the class's histogram could not be kept (more than 2048 "
		 "(process, thread name) histograms)" },
	{ .name = "top_addresses", .type = FIG_CUSTOM, .which = FIG_CUSTOM_FUTEX_WORDS,
	  .doc = "up to three futex words (the syscall's first argument), longest waited on first: "
		 "`address` \"0x...\", `seconds`, and `blocked_share_pct`, their % of the class's blocked time" },
};
static const struct fig_table futex_table = FIG_TABLE(NULL, futex_figs);

static const struct figure time_figs[] = {
	{ .name = "thread_seconds", .unit = "s", .type = FIG_NS, .offset = CLS(time.thread_ns),
	  .doc = "threads alive x wall time" },
	{ .name = "share_pct", .type = FIG_OBJECT, .sub = &share_table,
	  .doc = "each state's % of `thread_seconds` (`share_pct.<state>`), and `blocked`, the sum of the six "
		 "blocked reasons" },
	{ .name = "seconds", .type = FIG_OBJECT, .sub = &seconds_table, .doc = "each state's thread-seconds" },
	{ .name = "oncpu_split", .type = FIG_OBJECT, .sub = &split_table, .known = has_split,
	  .doc = "the `oncpu` state split into user and system time, inside it (not states of their own: "
		 "`sum_pct` does not count them): `user_pct`, `system_pct` (% of `thread_seconds`, summing to "
		 "`share_pct.oncpu`), `user_seconds`, `system_seconds`. The kernel's `task->utime` and "
		 "`task->stime` are copied at each switch-out; under tick accounting they are tick samples, not "
		 "times, so, as the kernel's `cputime_adjust()` does for /proc, the measured on-CPU time is split "
		 "by the ratio of what they grew by in the window (over the whole capture: of their sums). The run "
		 "in progress at a snapshot follows the same ratio. `null` when neither grew (no tick landed on the "
		 "class's threads): the split is unknown, not guessed (added; absent in older captures)" },
	{ .name = "sum_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(time.sum_pct),
	  .doc = "the states' sum: 100 (a share is never above 100)" },
	{ .name = "residual_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(time.residual_pct),
	  .doc = "what the states measured apart missed (positive) or overran (negative), % of "
		 "`thread_seconds`, before the waits still in progress at the window's end were charged: a check "
		 "of the measurement, near 0" },
	{ .name = "futex", .type = FIG_OBJECT, .sub = &futex_table, .known = has_futex,
	  .doc = "futex detail, `null` when the class never waited on one: `wait_p50_us`, `wait_p99_us`, "
		 "`wait_hist`, `top_addresses`" },
	/* the views' own */
	{ .name = "runnable_avg", .type = FIG_NUM, .view_only = true, .offset = CLS(runnable_avg),
	  .doc = "the class's `runnable_avg`, mean threads on a CPU or waiting for one: its cost, what the views "
		 "rank classes by",
	  .top = { 'R', "RUNNABLE", 8, 1, 45 }, .report = { "runnable", 45 } },
	{ .name = "top_word_futex_pct", .unit = "%", .type = FIG_NUM, .view_only = true, .get = top_word_futex_pct,
	  .doc = "the futex word waited on longest: its share of the class's futex time (near 100: its "
		 "threads queue on one lock)",
	  .top = { 'w', "%WORD", 5, 0, 170 }, .report = { "word % of futex", 160 } },
	{ .name = "top_word", .type = FIG_TEXT, .view_only = true, .which = TEXT_FUTEX_WORD,
	  .doc = "that word's address",
	  .top = { 0, "FUTEX-WORD", 14, 0, 180 }, .report = { "futex word", 150 } },
	{ .name = "other_syscalls", .type = FIG_TEXT, .view_only = true, .which = TEXT_OTHER_SYSCALLS,
	  .doc = "the top three syscalls behind the `pipe_other` time, each with its share of it",
	  .top = { 0, "OTHER-SYSCALLS", 0, 0, 190 }, .report = { "other syscalls", 140 } },
};

const struct fig_table fig_time = { "time", time_figs, (int)(sizeof(time_figs) / sizeof(time_figs[0])),
				    class_text, class_parse };

/* --- the class ---------------------------------------------------------- */

static const struct figure class_figs[] = {
	{ .name = "threads", .type = FIG_INT, .offset = CLS(threads),
	  .doc = "threads seen (summary: the most seen in one interval)",
	  .diff = { FIG_NEUTRAL, 0, 0 }, .top = { 't', "THR", 5, 0, 40 }, .report = { "threads", 40 } },
	{ .name = "oncpu_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(oncpu_pct),
	  .doc = "on-CPU time, % of one core (100 = one core busy): the kernel's `se.sum_exec_runtime`, what "
		 "`utime`+`stime` in /proc/PID/task/TID/stat add up to (time a hypervisor stole is not in it)",
	  .diff = { FIG_NEUTRAL, 2, 0.10 }, .top = { 'C', "%CPU", 7, 1, 50 }, .report = { "on-CPU %", 50 } },
	{ .name = "csw_voluntary_per_s", .unit = "/s", .type = FIG_NUM, .offset = CLS(vol_per_s),
	  .doc = "switches where the thread left the CPU not runnable (slept, blocked): the kernel's "
		 "`voluntary_ctxt_switches`",
	  .diff = { FIG_NEUTRAL, 10, 0.20 }, .top = { 'V', "VOL/s", 8, 0, 60 }, .report = { "vol/s", 80 } },
	{ .name = "csw_involuntary_per_s", .unit = "/s", .type = FIG_NUM, .offset = CLS(invol_per_s),
	  .doc = "switches where the thread was preempted while runnable: `nonvoluntary_ctxt_switches`",
	  .diff = { FIG_LOWER, 10, 0.20 }, .top = { 'I', "INVOL/s", 8, 0, 70 }, .report = { "invol/s", 90 } },
	{ .name = "runq_p50_us", .unit = "µs", .type = FIG_NUM, .offset = CLS(runq_p50_us),
	  .doc = "median run-queue delay: from wakeup, or from preemption, to running again; `null` when it "
		 "never waited. Each sample is what the kernel adds to the thread's `run_delay` "
		 "(/proc/PID/task/TID/schedstat, 2nd field) at each run, 0 ns included (a wakeup that preempts "
		 "at once: the runqueue clock did not move)",
	  .diff = { FIG_LOWER, 5, 0.25 }, .top = { '5', "RQp50us", 8, 0, 90 }, .report = { "runq p50 µs", 100 } },
	{ .name = "runq_p99_us", .unit = "µs", .type = FIG_NUM, .offset = CLS(runq_p99_us),
	  .doc = "p99 run-queue delay, as `runq_p50_us`",
	  .diff = { FIG_LOWER, 20, 0.25 }, .top = { '9', "RQp99us", 8, 0, 100 }, .report = { "runq p99 µs", 110 } },
	{ .name = "runq_max_us", .unit = "µs", .type = FIG_NUM, .offset = CLS(runq_max_us),
	  .doc = "the longest run-queue delay, exact",
	  .top = { 'M', "RQmaxus", 8, 0, 110 }, .report = { "runq max µs", 120 } },
	{ .name = "migrations_per_s", .unit = "/s", .type = FIG_NUM, .offset = CLS(migrations_per_s),
	  .doc = "moves to another CPU (the kernel's `se.nr_migrations`)",
	  .top = { 'm', "MIG/s", 7, 0, 120 }, .report = { "migr/s", 140 } },
	{ .name = "runnable_avg", .type = FIG_NUM, .offset = CLS(runnable_avg),
	  .doc = "mean number of its threads running or waiting to run",
	  .diff = { FIG_NEUTRAL, 0.1, 0.10 }, .top = { 'R', "RUNNABLE", 8, 1, 80 }, .report = { "runnable", 130 } },
	{ .name = "runq_wait_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(runq_wait_pct),
	  .doc = "of the time its threads were runnable (`runnable_avg`: on a CPU or waiting for one), the "
		 "share they waited for a CPU: 100 x (`runnable_avg` - `oncpu_pct` / 100) / `runnable_avg`. Unlike "
		 "`runnable_avg` it does not grow with the number of threads: 50 means they wait as long as they "
		 "run, each run takes twice as long as it needs; `null` when never runnable (added; absent in "
		 "older captures)",
	  .diff = { FIG_LOWER, 5, 0.10 }, .top = { 'W', "%RQWAIT", 7, 1, 145 },
	  .report = { "runq wait %", 135 } },
	{ .name = "softirq_lost_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(softirq_lost_pct),
	  .doc = "of its on-CPU time, the share spent in softirq handlers that ran on top of its threads "
		 "(charged to the task that was on the CPU when the softirq ran; the idle task is never charged)",
	  .diff = { FIG_LOWER, 0.5, 0.10 }, .top = { 'L', "%SILOST", 7, 1, 130 },
	  .report = { "softirq lost %", 150 } },
	{ .name = "net_softirq_lost_pct", .unit = "%", .type = FIG_NUM, .offset = CLS(net_softirq_lost_pct),
	  .doc = "the NET_RX + NET_TX part of `softirq_lost_pct`" },
	{ .name = "cpus_ran_on", .type = FIG_TEXT, .which = TEXT_CPUS_RAN_ON,
	  .doc = "cpulist of the CPUs its threads ran on (`+` marks CPUs above 255)",
	  .top = { 0, "CPUS", 0, 0, 160 }, .report = { "ran on", 170 } },
	{ .name = "blocked_by_syscall", .type = FIG_CUSTOM, .which = FIG_CUSTOM_SYSCALLS,
	  .doc = "the top three syscalls behind its `pipe_other` time: `syscall` (name from the kernel "
		 "headers), `nr`, `seconds`" },
	{ .name = "time", .type = FIG_OBJECT, .sub = &fig_time, .known = has_time,
	  .doc = "the class's wall-time budget (below); `null` when no thread time was measured" },
	/* the views' own */
	{ .name = "oncpu_user_pct", .unit = "%", .type = FIG_NUM, .view_only = true, .get = oncpu_user,
	  .doc = "the user part of `oncpu_pct`, by the time budget's split", .report = { "user %", 60 } },
	{ .name = "oncpu_system_pct", .unit = "%", .type = FIG_NUM, .view_only = true, .get = oncpu_system,
	  .doc = "the system part of `oncpu_pct`", .report = { "system %", 70 } },
	{ .name = "vdso_pct", .unit = "%", .type = FIG_NUM, .view_only = true, .offset = CLS(vdso_pct),
	  .doc = "the clock family's share of its CPU samples in the vDSO (the clock section's, beside the class)",
	  .top = { 'D', "vDSO%", 6, 1, 140 } },
};

const struct fig_table fig_classes = { "classes", class_figs, (int)(sizeof(class_figs) / sizeof(class_figs[0])),
				       class_text, class_parse };
