/* A server whose reading thread sleeps between reads while a client keeps
 * sending: data waits in the socket's receive queue for about the sleep,
 * which the net family's rx socket-queue latency must show for the
 * server's port. One process, two pinned threads, loopback.
 *
 * usage: slow_reader [-d SECONDS] [-g SLEEP_US] [-i SEND_EVERY_US] [-s BYTES]
 *                    [-c CLIENT_CPU] [-S SERVER_CPU] [-p PORT]
 * prints "listening port=P", then "reads=N sent=N seconds=S port=P"
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
	long sleep_us, every_us;
	size_t size;
	int client_cpu, server_cpu;
	int port;
};

struct reader {
	int listen_fd;
	const struct opts *o;
	long reads;
};

static void *read_slowly(void *arg)
{
	struct reader *r = arg;
	char buf[65536];
	int fd;

	pin(r->o->server_cpu);
	fd = accept(r->listen_fd, NULL, NULL);
	if (fd < 0)
		die("accept");
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r->reads++;
		/* the busy database thread: everything that arrives now waits */
		sleep_us(r->o->sleep_us);
	}
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	struct opts o = { 2.0, 5000, 500, 64, 0, 1, 0 };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct reader r = { .o = &o };
	struct timespec next;
	double t0, t1;
	pthread_t th;
	long sent = 0;
	char *buf;
	int c, fd;

	while ((c = getopt(argc, argv, "d:g:i:s:c:S:p:")) != -1) {
		switch (c) {
		case 'd': o.seconds = atof(optarg); break;
		case 'g': o.sleep_us = atol(optarg); break;
		case 'i': o.every_us = atol(optarg); break;
		case 's': o.size = (size_t)atol(optarg); break;
		case 'c': o.client_cpu = atoi(optarg); break;
		case 'S': o.server_cpu = atoi(optarg); break;
		case 'p': o.port = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: slow_reader [-d s] [-g us] [-i us] [-s bytes] [-c cpu] [-S cpu] [-p port]\n");
			return 2;
		}
	}
	if (o.size == 0 || o.seconds <= 0 || o.every_us <= 0 || o.sleep_us < 0)
		return 2;
	buf = calloc(1, o.size);
	if (!buf)
		die("calloc");
	sa.sin_port = htons((unsigned short)o.port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r.listen_fd = tcp_listen_announce(&sa, 16);
	pthread_create(&th, NULL, read_slowly, &r);

	pin(o.client_cpu);
	fd = tcp_connect_nodelay(&sa);
	clock_gettime(CLOCK_MONOTONIC, &next);
	t0 = now_s();
	for (t1 = t0; t1 - t0 < o.seconds; t1 = now_s()) {
		if (send(fd, buf, o.size, MSG_NOSIGNAL) != (ssize_t)o.size)
			die("send");
		sent++;
		/* a steady sender: absolute deadlines, no drift */
		next.tv_nsec += o.every_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	shutdown(fd, SHUT_WR);
	pthread_join(th, NULL);
	close(fd);
	printf("reads=%ld sent=%ld seconds=%.3f port=%d\n", r.reads, sent, t1 - t0, ntohs(sa.sin_port));
	free(buf);
	return 0;
}
