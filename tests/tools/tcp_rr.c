/* Loopback TCP request/response load: a server thread and a client thread
 * in one process, each pinned to a CPU (unpinned wake-ups across CPUs swing
 * wildly on this machine), exchanging fixed-size messages for a fixed time.
 * Prints "transactions=N rate=R" so tests and the benchmark can compare
 * what dbtrace saw with what really happened. With -H the server holds
 * each request HOLD_US before replying, like a database spending that
 * long on a query (the net family's response time must show it).
 *
 * usage: tcp_rr [-d SECONDS] [-s BYTES] [-c CLIENT_CPU] [-S SERVER_CPU]
 *               [-a ADDR] [-p PORT] [-H HOLD_US] [-P PROGRESS_SECONDS]
 * prints "listening port=P" once bound, then the result line. With -P it
 * also prints "at=T transactions=N" (T: seconds since the first request)
 * every PROGRESS_SECONDS, so the benchmark can take the rate over any
 * stretch of one long run.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "tool_util.h"

struct opts {
	double seconds;
	size_t size;
	int client_cpu, server_cpu;
	const char *addr;
	int port;
	long hold_us;
	double progress_s;
};

static int full_io(int fd, char *buf, size_t n, int writing)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = writing ? send(fd, buf + done, n - done, MSG_NOSIGNAL)
				    : recv(fd, buf + done, n - done, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

struct server {
	int listen_fd;
	struct opts *o;
	long served;
};

static void *serve(void *arg)
{
	struct server *s = arg;
	char *buf = malloc(s->o->size);
	int fd;

	pin(s->o->server_cpu);
	fd = accept(s->listen_fd, NULL, NULL);
	if (fd < 0 || !buf)
		die("accept");
	while (!full_io(fd, buf, s->o->size, 0)) {
		if (s->o->hold_us)
			sleep_us(s->o->hold_us);
		if (full_io(fd, buf, s->o->size, 1))
			break;
		s->served++;
	}
	close(fd);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct opts o = { 5.0, 64, 0, 0, "127.0.0.1", 0, 0, 0 };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct server s = { .o = &o };
	pthread_t th;
	long n = 0;
	double t0, t1, next_progress;
	char *buf;
	int c, fd;

	while ((c = getopt(argc, argv, "d:s:c:S:a:p:H:P:")) != -1) {
		switch (c) {
		case 'd': o.seconds = atof(optarg); break;
		case 's': o.size = (size_t)atol(optarg); break;
		case 'c': o.client_cpu = atoi(optarg); break;
		case 'S': o.server_cpu = atoi(optarg); break;
		case 'a': o.addr = optarg; break;
		case 'p': o.port = atoi(optarg); break;
		case 'H': o.hold_us = atol(optarg); break;
		case 'P': o.progress_s = atof(optarg); break;
		default:
			fprintf(stderr, "usage: tcp_rr [-d s] [-s bytes] [-c cpu] [-S cpu] [-a addr] [-p port] [-H us] [-P s]\n");
			return 2;
		}
	}
	if (o.size == 0 || o.seconds <= 0 || o.hold_us < 0 || o.progress_s < 0)
		return 2;
	buf = calloc(1, o.size);
	if (!buf)
		die("calloc");
	sa.sin_port = htons((unsigned short)o.port);
	inet_pton(AF_INET, o.addr, &sa.sin_addr);
	s.listen_fd = tcp_listen_announce(&sa, 1);
	pthread_create(&th, NULL, serve, &s);

	pin(o.client_cpu);
	fd = tcp_connect_nodelay(&sa);
	t0 = now_s();
	t1 = t0;
	next_progress = o.progress_s;
	/* check the clock every 64 transactions: cheap and still precise */
	while (t1 - t0 < o.seconds) {
		for (int i = 0; i < 64; i++, n++)
			if (full_io(fd, buf, o.size, 1) || full_io(fd, buf, o.size, 0))
				die("client io");
		t1 = now_s();
		if (o.progress_s > 0 && t1 - t0 >= next_progress) {
			printf("at=%.6f transactions=%ld\n", t1 - t0, n);
			fflush(stdout);
			next_progress += o.progress_s;
		}
	}
	shutdown(fd, SHUT_WR);
	pthread_join(th, NULL);
	close(fd);
	printf("transactions=%ld served=%ld seconds=%.3f rate=%.0f port=%d\n", n, s.served,
	       t1 - t0, n / (t1 - t0), ntohs(sa.sin_port));
	free(buf);
	return 0;
}
