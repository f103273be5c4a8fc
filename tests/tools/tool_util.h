/* What every load generator here needs, header-only so each tool still
 * builds from its one .c file: fail loudly, pin to a CPU (unpinned
 * wake-ups across CPUs swing wildly on the 2-CPU test machines), read the
 * clock, sleep, and open loopback TCP connections. */
#ifndef DBTRACE_TESTS_TOOL_UTIL_H
#define DBTRACE_TESTS_TOOL_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* "TOOL: what: strerror(errno)" and exit 1. */
static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	exit(1);
}

/* Pins the calling thread to cpu; cpu < 0 leaves it free. */
static inline void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* CLOCK_MONOTONIC in seconds. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleeps us microseconds, signals or not. */
static inline void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &t) == EINTR)
		;
}

/* A TCP socket listening on *sa (port 0: a free one, which *sa then
 * holds). Exits on failure. */
static inline int tcp_listen(struct sockaddr_in *sa, int backlog)
{
	socklen_t len = sizeof(*sa);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) || listen(fd, backlog))
		die("bind/listen");
	if (getsockname(fd, (struct sockaddr *)sa, &len))
		die("getsockname");
	return fd;
}

/* tcp_listen, then "listening port=P" on stdout, flushed: the line the
 * tests wait for before they start the client side. */
static inline int tcp_listen_announce(struct sockaddr_in *sa, int backlog)
{
	int fd = tcp_listen(sa, backlog);

	printf("listening port=%d\n", ntohs(sa->sin_port));
	fflush(stdout);
	return fd;
}

/* A TCP connection to sa with TCP_NODELAY (request/response loads).
 * Exits on failure. */
static inline int tcp_connect_nodelay(const struct sockaddr_in *sa)
{
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof(*sa)))
		die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Runs fn in a thread of its own for each of the n jobs (size bytes
 * apart) for seconds, then sets *stop and waits for them all. */
static inline void run_threads(void *(*fn)(void *), void *jobs, size_t size, int n, double seconds,
			       atomic_int *stop)
{
	pthread_t *tid = calloc((size_t)n, sizeof(*tid));

	if (!tid)
		die("calloc");
	for (int i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, fn, (char *)jobs + (size_t)i * size))
			die("pthread_create");
	sleep_us((long)(seconds * 1e6));
	atomic_store(stop, 1);
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	free(tid);
}

#endif
