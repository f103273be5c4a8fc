/* Clock-reading load with its own account of what it did, so tests and
 * the benchmark compare dbtrace's clock numbers with the truth.
 *
 *   -m vdso     alternate a segment of clock reads through glibc and the
 *               vDSO (clock_gettime, gettimeofday or a 3:1 mix) with a
 *               segment of arithmetic, sized so the clock takes about
 *               -s SHARE of its CPU time (default 0.4); prints the share it
 *               measured itself: "vdso_share=41.2 wall_share=40.8 calls=N
 *               secs=S rate=R cpu=C": the clock segments' share of the
 *               thread's CPU time (what a CPU sampler sees; wall time
 *               would count the time other tasks ran while it was
 *               preempted), of wall time, and its CPU seconds
 *   -m syscall  syscall(SYS_clock_gettime) in a loop, bypassing the vDSO;
 *               prints "calls=N secs=S rate=R cpu=C"
 *   -m rare     arithmetic, reading the clock about once a millisecond;
 *               prints "calls=N secs=S cpu=C"
 *
 * usage: clock_loop [-m vdso|syscall|rare] [-f clock_gettime|gettimeofday|mixed]
 *                   [-s SHARE] [-d SECONDS] [-c CPU]
 * Pin it (-c): unpinned, migrations make every figure noisier here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tool_util.h"

enum fn { FN_CGT, FN_GTOD, FN_MIXED };

struct opts {
	const char *mode;
	enum fn fn;
	double share;
	double seconds;
	int cpu;
};

/* Reads per clock segment (a multiple of 4): ~0.5 ms, so the CPU-time
 * system calls that bound a segment (~1 µs each here) are < 0.5% of it;
 * segments change length as the share is steered, so they never lock in
 * phase with a 2 ms sample period. */
#define READS_PER_SEGMENT 20000

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* This thread's CPU time: a real system call (the vDSO cannot read it),
 * two per ~100 µs round, so < 1% of the run. */
static uint64_t cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static double cpu_s(void)
{
	return (double)clock_ns(CLOCK_PROCESS_CPUTIME_ID) / 1e9;
}

/* volatile sinks: the compiler must not drop the reads or the work */
static volatile uint64_t sink;

/* Nothing but the calls in the loop body: every instruction here that
 * is not in the vDSO is time the program counts as clock time while a
 * sampler does not (glibc's clock_gettime wrapper is a few of them). */
static void clock_segment(enum fn fn, int n)
{
	struct timespec ts;
	struct timeval tv;
	uint64_t acc = 0;

	switch (fn) {
	case FN_CGT:
		for (int i = 0; i < n; i++) {
			clock_gettime(CLOCK_REALTIME, &ts);
			acc += (uint64_t)ts.tv_nsec;
		}
		break;
	case FN_GTOD:
		for (int i = 0; i < n; i++) {
			gettimeofday(&tv, NULL);
			acc += (uint64_t)tv.tv_usec;
		}
		break;
	case FN_MIXED:   /* 3 clock_gettime for 1 gettimeofday */
		for (int i = 0; i < n; i += 4) {
			clock_gettime(CLOCK_REALTIME, &ts);
			acc += (uint64_t)ts.tv_nsec;
			clock_gettime(CLOCK_REALTIME, &ts);
			acc += (uint64_t)ts.tv_nsec;
			clock_gettime(CLOCK_REALTIME, &ts);
			acc += (uint64_t)ts.tv_nsec;
			gettimeofday(&tv, NULL);
			acc += (uint64_t)tv.tv_usec;
		}
		break;
	}
	sink += acc;
}

static void work_segment(uint64_t units)
{
	uint64_t x = sink | 1;

	for (uint64_t i = 0; i < units; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

static void run_vdso(const struct opts *o)
{
	uint64_t start = now_ns(), end = start + (uint64_t)(o->seconds * 1e9), t2w = start;
	uint64_t clk_cpu = 0, work_cpu = 0, clk_wall = 0, work_wall = 0, calls = 0, units = 1000;
	uint64_t win_clock = 0, win_work = 0;
	int rounds = 0;

	for (;;) {
		uint64_t t0w = now_ns(), t0 = cpu_ns(), t1, t1w, t2;

		clock_segment(o->fn, READS_PER_SEGMENT);
		t1 = cpu_ns();
		t1w = now_ns();
		work_segment(units);
		t2 = cpu_ns();
		t2w = now_ns();
		clk_cpu += t1 - t0;
		work_cpu += t2 - t1;
		clk_wall += t1w - t0w;
		work_wall += t2w - t1w;
		win_clock += t1 - t0;
		win_work += t2 - t1;
		calls += READS_PER_SEGMENT + 2;
		if (t2w >= end)
			break;
		/* steer the work size towards the target share every 10
		 * rounds (~10 ms), from what the rounds just took */
		if (++rounds % 10 == 0 && win_work) {
			double want = (double)win_clock * (1 - o->share) / o->share;
			double scale = want / (double)win_work;

			/* the first estimate sizes the work outright (clock
			 * reads cost 25 ns here, µs under emulation); later ones
			 * only nudge it, so one preemption cannot swing it */
			if (rounds > 10 && scale > 4)
				scale = 4;
			if (rounds > 10 && scale < 0.25)
				scale = 0.25;
			units = (uint64_t)((double)units * scale) + 1;
			win_clock = win_work = 0;
		}
	}
	printf("vdso_share=%.2f wall_share=%.2f calls=%llu secs=%.3f rate=%.0f cpu=%.3f\n",
	       100.0 * (double)clk_cpu / (double)(clk_cpu + work_cpu),
	       100.0 * (double)clk_wall / (double)(clk_wall + work_wall), (unsigned long long)calls,
	       (double)(t2w - start) / 1e9, (double)calls * 1e9 / (double)(t2w - start), cpu_s());
}

static void run_syscall(const struct opts *o)
{
	uint64_t start = now_ns(), end = start + (uint64_t)(o->seconds * 1e9), calls = 0, t;
	struct timespec ts;

	do {
		/* the clock the loop stops on is read through the vDSO once
		 * per 1000 calls: all but 0.1% of the reads are syscalls */
		for (int i = 0; i < 1000; i++) {
			if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
				die("clock_gettime");
			calls++;
		}
		t = now_ns();
	} while (t < end);
	printf("calls=%llu secs=%.3f rate=%.0f cpu=%.3f\n", (unsigned long long)calls,
	       (double)(t - start) / 1e9, (double)calls * 1e9 / (double)(t - start), cpu_s());
}

static void run_rare(const struct opts *o)
{
	uint64_t start = now_ns(), end = start + (uint64_t)(o->seconds * 1e9), calls = 1, t;

	do {
		/* about 1 ms of arithmetic per clock read here: a clock read
		 * costs some 30 ns, so the clock is < 0.01% of the time */
		work_segment(1000000);
		t = now_ns();
		calls++;
	} while (t < end);
	printf("calls=%llu secs=%.3f cpu=%.3f\n", (unsigned long long)calls, (double)(t - start) / 1e9,
	       cpu_s());
}

int main(int argc, char **argv)
{
	struct opts o = { "vdso", FN_MIXED, 0.4, 5, -1 };
	int c;

	while ((c = getopt(argc, argv, "m:f:s:d:c:")) != -1) {
		switch (c) {
		case 'm': o.mode = optarg; break;
		case 'f':
			o.fn = !strcmp(optarg, "gettimeofday") ? FN_GTOD
			     : !strcmp(optarg, "clock_gettime") ? FN_CGT : FN_MIXED;
			break;
		case 's': o.share = atof(optarg); break;
		case 'd': o.seconds = atof(optarg); break;
		case 'c': o.cpu = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: clock_loop [-m vdso|syscall|rare] [-f FN] [-s SHARE] "
					"[-d SECONDS] [-c CPU]\n");
			return 2;
		}
	}
	if (o.share <= 0 || o.share >= 1 || o.seconds <= 0) {
		fprintf(stderr, "clock_loop: need 0 < SHARE < 1 and SECONDS > 0\n");
		return 2;
	}
	pin(o.cpu);
	if (!strcmp(o.mode, "vdso"))
		run_vdso(&o);
	else if (!strcmp(o.mode, "syscall"))
		run_syscall(&o);
	else if (!strcmp(o.mode, "rare"))
		run_rare(&o);
	else {
		fprintf(stderr, "clock_loop: unknown mode '%s'\n", o.mode);
		return 2;
	}
	return 0;
}
