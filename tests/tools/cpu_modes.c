/* Thread classes of known user/system composition for the on-CPU split
 * test (tests/bats/time.bats), each timing itself:
 *   usrspin   arithmetic in user space, no syscall (not even the clock:
 *             under a clocksource the vDSO cannot read, as in a TCG guest,
 *             clock_gettime is a syscall)
 *   sysread   read() of /dev/zero into a 1 MiB buffer: nearly all kernel
 *   mixed     a fixed stretch of usrspin's arithmetic, then sysread's read
 *
 * usage: cpu_modes [-d SECONDS]
 * Prints its pid, runs for SECONDS, then one line per class:
 *   class NAME tid=T cpu_s=X sys_share_pct=X proc_sys_share_pct=X
 * sys_share_pct is the thread's own measure: its CPU time
 * (CLOCK_THREAD_CPUTIME_ID) inside its read() calls, read around each
 * call, over its whole CPU time. proc_sys_share_pct is stime / (utime +
 * stime) of /proc/thread-self/stat between the thread's start and end:
 * the kernel's own counters, the ones dbtrace copies. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tool_util.h"

#define READ_BYTES (1 << 20)
/* mixed's arithmetic between reads: about as long as one read on the
 * test machines, so its system share is far from 0 and from 100 */
#define MIX_SPINS 20000

static atomic_int stop;

struct account {
	const char *name;
	void (*run)(struct account *);
	pid_t tid;
	double cpu, sys_cpu;
	unsigned long long utime, stime;  /* /proc ticks over its life */
};

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* utime and stime (fields 14 and 15) of /proc/thread-self/stat; the
 * name field may hold spaces and parentheses: parse after the last ')'. */
static void proc_times(unsigned long long *utime, unsigned long long *stime)
{
	char buf[1024], *p;
	ssize_t n;
	int fd = open("/proc/thread-self/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("/proc/thread-self/stat");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read stat");
	buf[n] = 0;
	p = strrchr(buf, ')');
	/* after ") ": state ppid pgrp session tty_nr tpgid flags minflt
	 * cminflt majflt cmajflt utime stime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", utime, stime) != 2)
		die("parse stat");
}

static volatile unsigned long sink;

static void arithmetic(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

static void timed_read(struct account *a, int fd, char *buf)
{
	double c0 = cpu_s();

	if (read(fd, buf, READ_BYTES) != READ_BYTES)
		die("read /dev/zero");
	a->sys_cpu += cpu_s() - c0;
}

static void run_usrspin(struct account *a)
{
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		arithmetic(MIX_SPINS);
}

static void run_reads(struct account *a, long spins)
{
	char *buf = malloc(READ_BYTES);
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (!buf || fd < 0)
		die("/dev/zero");
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		arithmetic(spins);
		timed_read(a, fd, buf);
	}
	close(fd);
	free(buf);
}

static void run_sysread(struct account *a) { run_reads(a, 0); }
static void run_mixed(struct account *a) { run_reads(a, MIX_SPINS); }

static void *thread_main(void *arg)
{
	struct account *a = arg;
	unsigned long long u0, s0;
	double c0;

	pthread_setname_np(pthread_self(), a->name);
	a->tid = gettid();
	proc_times(&u0, &s0);
	c0 = cpu_s();
	a->run(a);
	a->cpu = cpu_s() - c0;
	proc_times(&a->utime, &a->stime);
	a->utime -= u0;
	a->stime -= s0;
	return NULL;
}

int main(int argc, char **argv)
{
	struct account jobs[] = {
		{ .name = "usrspin", .run = run_usrspin },
		{ .name = "sysread", .run = run_sysread },
		{ .name = "mixed", .run = run_mixed },
	};
	const int n = sizeof(jobs) / sizeof(jobs[0]);
	double seconds = 5;
	int opt;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd') {
			fprintf(stderr, "usage: cpu_modes [-d SECONDS]\n");
			return 2;
		}
		seconds = atof(optarg);
	}
	if (optind != argc || seconds <= 0) {
		fprintf(stderr, "usage: cpu_modes [-d SECONDS]\n");
		return 2;
	}
	printf("pid %d\n", getpid());
	fflush(stdout);
	run_threads(thread_main, jobs, sizeof(jobs[0]), n, seconds, &stop);
	for (int i = 0; i < n; i++) {
		struct account *a = &jobs[i];
		unsigned long long ticks = a->utime + a->stime;

		printf("class %s tid=%d cpu_s=%.4f sys_share_pct=%.2f proc_sys_share_pct=%.2f\n", a->name,
		       (int)a->tid, a->cpu, a->cpu > 0 ? 100 * a->sys_cpu / a->cpu : 0,
		       ticks ? 100.0 * (double)a->stime / (double)ticks : -1);
	}
	return 0;
}
