/* One-way TCP stream between two processes, so that sender and receiver
 * can live in different network namespaces (tcp_rr keeps both ends in one
 * process). Each end pins itself to a CPU; the sender can be paced so the
 * receiving CPU is busy with NET_RX while the sending CPU stays mostly idle.
 *
 * receiver: tcp_stream -l [-a ADDR] [-p PORT] [-c CPU]
 *   prints "listening pid=N port=P" once bound, then after the peer closes
 *   "received bytes=B seconds=S mbit=M"
 * sender:   tcp_stream -a ADDR [-p PORT] [-c CPU] [-d SECONDS] [-s BYTES]
 *                      [-r MBIT] [-n] [-b BURST]
 *   writes BYTES-sized chunks (default 64 KiB) for SECONDS (default 3),
 *   at most MBIT Mbit/s when -r is given, then prints "sent bytes=B ..."
 *   -n sets TCP_NODELAY, so each small write is its own packet; -b writes
 *   BURST chunks back to back between pacing pauses.
 *
 * Small packets in bursts put the per-packet receive work (the NET_RX
 * softirq) on the receiving CPU: with 64 KiB GSO packets the receive side
 * is cheap and the ACK path and RPS's IPIs dominate both CPUs' NET_RX.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tool_util.h"

struct opts {
	int listen;
	const char *addr;
	int port;
	int cpu;
	double seconds;
	size_t size;
	double mbit;
	int nodelay;
	int burst;
};

static int receive(const struct opts *o, const struct sockaddr_in *sa)
{
	struct sockaddr_in bound = *sa;
	unsigned long long total = 0;
	double t0, t1;
	char *buf;
	int lfd, fd;

	lfd = tcp_listen(&bound, 1);
	printf("listening pid=%d port=%d\n", (int)getpid(), ntohs(bound.sin_port));
	fflush(stdout);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		die("accept");
	buf = malloc(o->size);
	if (!buf)
		die("malloc");
	t0 = now_s();
	for (;;) {
		ssize_t r = recv(fd, buf, o->size, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("recv");
		if (r == 0)
			break;
		total += (unsigned long long)r;
	}
	t1 = now_s();
	printf("received bytes=%llu seconds=%.3f mbit=%.1f\n", total, t1 - t0,
	       t1 > t0 ? (double)total * 8 / 1e6 / (t1 - t0) : 0.0);
	free(buf);
	close(fd);
	close(lfd);
	return 0;
}

static int send_stream(const struct opts *o, const struct sockaddr_in *sa)
{
	unsigned long long total = 0;
	double t0, t, bytes_per_s = o->mbit * 1e6 / 8;
	char *buf;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	/* the receiver may still be starting: retry for a few seconds */
	for (int i = 0; connect(fd, (const struct sockaddr *)sa, sizeof(*sa)); i++) {
		if (i >= 100 || (errno != ECONNREFUSED && errno != EINTR))
			die("connect");
		sleep_us(50000);
	}
	if (o->nodelay && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &o->nodelay, sizeof(o->nodelay)))
		die("TCP_NODELAY");
	buf = calloc(1, o->size);
	if (!buf)
		die("calloc");
	t0 = t = now_s();
	while (t - t0 < o->seconds) {
		for (int i = 0; i < o->burst; i++) {
			ssize_t r = send(fd, buf, o->size, MSG_NOSIGNAL);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				die("send");
			total += (unsigned long long)r;
		}
		t = now_s();
		/* pacing: sleep until the bytes sent so far are due */
		if (bytes_per_s > 0) {
			double due = t0 + (double)total / bytes_per_s;

			if (due > t) {
				sleep_us((long)((due - t) * 1e6));
				t = now_s();
			}
		}
	}
	printf("sent bytes=%llu seconds=%.3f mbit=%.1f\n", total, t - t0,
	       t > t0 ? (double)total * 8 / 1e6 / (t - t0) : 0.0);
	free(buf);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .addr = NULL, .port = 0, .cpu = -1, .seconds = 3, .size = 65536,
			  .burst = 1 };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int c;

	while ((c = getopt(argc, argv, "la:p:c:d:s:r:nb:")) != -1) {
		switch (c) {
		case 'l': o.listen = 1; break;
		case 'a': o.addr = optarg; break;
		case 'p': o.port = atoi(optarg); break;
		case 'c': o.cpu = atoi(optarg); break;
		case 'd': o.seconds = atof(optarg); break;
		case 's': o.size = (size_t)atol(optarg); break;
		case 'r': o.mbit = atof(optarg); break;
		case 'n': o.nodelay = 1; break;
		case 'b': o.burst = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: tcp_stream -l [-a ADDR] [-p PORT] [-c CPU] | "
					"-a ADDR -p PORT [-c CPU] [-d S] [-s BYTES] [-r MBIT] [-n] [-b BURST]\n");
			return 2;
		}
	}
	if (o.size == 0 || o.size > (64u << 20) || o.port < 0 || o.port > 65535 ||
	    o.burst < 1 || o.burst > 4096 ||
	    (!o.listen && (!o.addr || !o.port))) {
		fprintf(stderr, "tcp_stream: bad arguments\n");
		return 2;
	}
	sa.sin_port = htons((unsigned short)o.port);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (o.addr && inet_pton(AF_INET, o.addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "tcp_stream: bad address '%s'\n", o.addr);
		return 2;
	}
	pin(o.cpu);
	return o.listen ? receive(&o, &sa) : send_stream(&o, &sa);
}
