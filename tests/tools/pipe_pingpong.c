/* Pipe ping-pong between two threads: the highest context-switch rate a
 * load can drive (every round trip is two sleeps and two wakeups).
 * Both threads are pinned (default: both on CPU 1; cross-CPU wakeups on
 * this VM swing tenfold from run to run).
 *
 * usage: pipe_pingpong [-d SECONDS] [-a CPU] [-b CPU]
 * Prints "roundtrips=N seconds=S rate=R". */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tool_util.h"

static int ab[2], ba[2];
static int cpu_b = 1;

static void *echo(void *arg)
{
	char c;

	pin(cpu_b);
	while (read(ab[0], &c, 1) == 1)
		if (write(ba[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = 5, t0, t1;
	int cpu_a = 1, c;
	long n = 0;
	pthread_t th;
	char ch = 'x';

	while ((c = getopt(argc, argv, "d:a:b:")) != -1) {
		switch (c) {
		case 'd': seconds = atof(optarg); break;
		case 'a': cpu_a = atoi(optarg); break;
		case 'b': cpu_b = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: pipe_pingpong [-d s] [-a cpu] [-b cpu]\n");
			return 2;
		}
	}
	if (pipe(ab) || pipe(ba))
		return 1;
	pin(cpu_a);
	pthread_create(&th, NULL, echo, NULL);
	t0 = t1 = now_s();
	while (t1 - t0 < seconds) {
		for (int i = 0; i < 256; i++, n++)
			if (write(ab[1], &ch, 1) != 1 || read(ba[0], &ch, 1) != 1)
				return 1;
		t1 = now_s();
	}
	close(ab[1]);
	pthread_join(th, NULL);
	printf("roundtrips=%ld seconds=%.3f rate=%.0f\n", n, t1 - t0, n / (t1 - t0));
	return 0;
}
