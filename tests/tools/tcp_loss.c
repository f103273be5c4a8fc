/* TCP loads for the loss family's tests, each printing what the kernel
 * itself counted for its own sockets (TCP_INFO), so a test can hold
 * dbtrace's numbers against a source that is not dbtrace.
 *
 * usage:
 *   tcp_loss stream -a ADDR -p PORT [-d SECONDS] [-s BYTES]
 *       sends BYTES-sized writes (default 64 KiB) for SECONDS (default 3),
 *       waits until everything is acknowledged (at most 20 s), then prints
 *       "sent bytes=B total_retrans=R" with the socket's tcpi_total_retrans
 *   tcp_loss serve -a ADDR [-p PORT] [-s BYTES]
 *       echo server for rr: prints "listening port=P", then for each
 *       connection, when the client closes it, "conn total_retrans=R"
 *   tcp_loss rr -a ADDR -p PORT [-d SECONDS] [-n CONNS] [-s BYTES] [-t SLOW_MS]
 *       CONNS connections (default 4), each sending a request and waiting
 *       for its reply in turn for SECONDS; prints "requests=N slow=S
 *       total_retrans=R" where slow counts replies that took SLOW_MS
 *       (default 150) or longer and R sums the client sockets'
 *       tcpi_total_retrans
 *   tcp_loss listen -a ADDR [-p PORT] [-b BACKLOG]
 *       listens with BACKLOG (default 1), prints "listening port=P" and
 *       never accepts, until killed
 *   tcp_loss burst -a ADDR -p PORT [-n CONNS] [-w SECONDS]
 *       starts CONNS non-blocking connects at once, waits SECONDS
 *       (default 2) and prints "connects=N established=E"
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tool_util.h"

struct opts {
	const char *mode;
	struct sockaddr_in sa;
	double seconds;
	size_t size;
	int conns;
	double slow_ms;
	int backlog;
	double wait_s;
};

static unsigned int total_retrans(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		die("TCP_INFO");
	return ti.tcpi_total_retrans;
}

/* Bytes written but not yet acknowledged, sent or not (SIOCOUTQ is
 * write_seq - snd_una for TCP): 0 once every retransmit is behind us. */
static int outq(int fd)
{
	int n = 0;

	if (ioctl(fd, SIOCOUTQ, &n))
		die("SIOCOUTQ");
	return n;
}

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

static int stream(const struct opts *o)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unsigned long long sent = 0;
	char *buf = calloc(1, o->size);
	double t0;

	if (fd < 0 || !buf || connect(fd, (const struct sockaddr *)&o->sa, sizeof(o->sa)))
		die("connect");
	t0 = now_s();
	while (now_s() - t0 < o->seconds) {
		if (full_io(fd, buf, o->size, 1))
			die("send");
		sent += o->size;
	}
	/* every retransmit done: nothing left in flight */
	for (t0 = now_s(); outq(fd) && now_s() - t0 < 20;)
		sleep_us(10000);
	printf("sent bytes=%llu total_retrans=%u\n", sent, total_retrans(fd));
	close(fd);
	free(buf);
	return 0;
}

struct conn {
	int fd;
	size_t size;
};

static void *echo(void *arg)
{
	struct conn *c = arg;
	char *buf = malloc(c->size);

	while (buf && !full_io(c->fd, buf, c->size, 0) && !full_io(c->fd, buf, c->size, 1))
		;
	printf("conn total_retrans=%u\n", total_retrans(c->fd));
	fflush(stdout);
	close(c->fd);
	free(buf);
	free(c);
	return NULL;
}

static __attribute__((noreturn)) int serve(struct opts *o)
{
	int lfd = tcp_listen_announce(&o->sa, 128);

	for (;;) {
		struct conn *c = malloc(sizeof(*c));
		pthread_t th;
		int one = 1;

		if (!c)
			die("malloc");
		c->fd = accept(lfd, NULL, NULL);
		if (c->fd < 0)
			die("accept");
		setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->size = o->size;
		if (pthread_create(&th, NULL, echo, c))
			die("pthread_create");
		pthread_detach(th);
	}
}

struct client {
	const struct opts *o;
	pthread_t th;
	long requests, slow;
	unsigned int retrans;
};

static void *client(void *arg)
{
	struct client *cl = arg;
	int fd = tcp_connect_nodelay(&cl->o->sa);
	char *buf = calloc(1, cl->o->size);
	double t0 = now_s(), t;

	if (!buf)
		die("calloc");
	while ((t = now_s()) - t0 < cl->o->seconds) {
		if (full_io(fd, buf, cl->o->size, 1) || full_io(fd, buf, cl->o->size, 0))
			die("client io");
		cl->requests++;
		if ((now_s() - t) * 1000 >= cl->o->slow_ms)
			cl->slow++;
	}
	cl->retrans = total_retrans(fd);
	close(fd);
	free(buf);
	return NULL;
}

static int rr(const struct opts *o)
{
	struct client *cl = calloc((size_t)o->conns, sizeof(*cl));
	long requests = 0, slow = 0;
	unsigned long retrans = 0;

	if (!cl)
		die("calloc");
	for (int i = 0; i < o->conns; i++) {
		cl[i].o = o;
		if (pthread_create(&cl[i].th, NULL, client, &cl[i]))
			die("pthread_create");
	}
	for (int i = 0; i < o->conns; i++) {
		pthread_join(cl[i].th, NULL);
		requests += cl[i].requests;
		slow += cl[i].slow;
		retrans += cl[i].retrans;
	}
	printf("requests=%ld slow=%ld total_retrans=%lu port=%d\n", requests, slow, retrans,
	       ntohs(o->sa.sin_port));
	free(cl);
	return 0;
}

static __attribute__((noreturn)) int listen_only(struct opts *o)
{
	tcp_listen_announce(&o->sa, o->backlog);
	for (;;)
		pause();
}

static int burst(const struct opts *o)
{
	struct pollfd *p = calloc((size_t)o->conns, sizeof(*p));
	int established = 0;
	double t0;

	if (!p)
		die("calloc");
	for (int i = 0; i < o->conns; i++) {
		p[i].fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (p[i].fd < 0)
			die("socket");
		if (connect(p[i].fd, (const struct sockaddr *)&o->sa, sizeof(o->sa)) && errno != EINPROGRESS)
			die("connect");
		p[i].events = POLLOUT;
	}
	for (t0 = now_s(); now_s() - t0 < o->wait_s;)
		sleep_us(20000);
	poll(p, (nfds_t)o->conns, 0);
	for (int i = 0; i < o->conns; i++) {
		int err = 0;
		socklen_t len = sizeof(err);

		if ((p[i].revents & POLLOUT) && !getsockopt(p[i].fd, SOL_SOCKET, SO_ERROR, &err, &len) && !err)
			established++;
		close(p[i].fd);
	}
	printf("connects=%d established=%d\n", o->conns, established);
	free(p);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .seconds = 3, .size = 0, .conns = 4, .slow_ms = 150, .backlog = 1, .wait_s = 2 };
	const char *addr = "127.0.0.1";
	int c;

	if (argc < 2) {
		fprintf(stderr, "usage: tcp_loss stream|serve|rr|listen|burst [options]\n");
		return 2;
	}
	o.mode = argv[1];
	optind = 2;
	o.sa.sin_family = AF_INET;
	while ((c = getopt(argc, argv, "a:p:d:s:n:t:b:w:")) != -1) {
		switch (c) {
		case 'a': addr = optarg; break;
		case 'p': o.sa.sin_port = htons((unsigned short)atoi(optarg)); break;
		case 'd': o.seconds = atof(optarg); break;
		case 's': o.size = (size_t)atol(optarg); break;
		case 'n': o.conns = atoi(optarg); break;
		case 't': o.slow_ms = atof(optarg); break;
		case 'b': o.backlog = atoi(optarg); break;
		case 'w': o.wait_s = atof(optarg); break;
		default: return 2;
		}
	}
	if (inet_pton(AF_INET, addr, &o.sa.sin_addr) != 1 || o.conns <= 0)
		return 2;
	if (!o.size)
		o.size = strcmp(o.mode, "stream") ? 64 : 65536;
	if (!strcmp(o.mode, "stream"))
		return stream(&o);
	if (!strcmp(o.mode, "serve"))
		return serve(&o);
	if (!strcmp(o.mode, "rr"))
		return rr(&o);
	if (!strcmp(o.mode, "listen"))
		return listen_only(&o);
	if (!strcmp(o.mode, "burst"))
		return burst(&o);
	fprintf(stderr, "tcp_loss: unknown mode %s\n", o.mode);
	return 2;
}
