/* Request/response load that is its own ground truth for response-time
 * percentiles: a server thread and a client thread in one process, each
 * pinned to its CPU, one loopback TCP connection, and every request timed
 * by both sides on CLOCK_MONOTONIC.
 *
 * The server's service time is exact: it busy-waits on the clock (a
 * nanosleep overshoots by its timer slack and the wake-up, tens of µs).
 * Requests and replies are timed between instants on the wire, not from
 * the moment a thread woke up with them (see below), so the load's own
 * timing and a tracer's (readable to send, send to readable) measure the
 * same interval, wake-ups and preemption included.
 *
 * usage: rr_timed [-d SECONDS] [-c CLIENT_CPU] [-S SERVER_CPU]
 *                 [-H HOLD_US | -B FAST_US,SLOW_US,SLOW_PCT [-Q QUEUE_BYTES]]
 *                 [-g GAP_US] [-R READ_DELAY_US] [-T] [-a ADDR]
 *                 [-N SERVER_NETNS,CLIENT_NETNS] [-A PHASE_MS]
 *                 [-n MAX_REQUESTS] [-o STAMPS_FILE]
 *   -H   every request takes HOLD_US
 *   -B   SLOW_PCT% of the requests (evenly spread: request i is slow when
 *        i*SLOW_PCT/100 steps up) take SLOW_US, the others FAST_US
 *   -Q   before each slow request's reply (-B) the server sends QUEUE_BYTES
 *        of UDP (1000-byte datagrams, to the client's address, port 9)
 *        from its own namespace: behind a shaper on its egress the reply
 *        waits for them to leave, QUEUE_BYTES x 8 / rate less the
 *        shaper's burst, and nothing else about the request differs
 *   -g   the client sleeps GAP_US between a reply and its next request
 *        (a slow-paced client: fewer requests per jiffy)
 *   -o   every request's stamps into STAMPS_FILE, a line each (µs of
 *        CLOCK_REALTIME with 3 decimals, which a double holds to the ns):
 *        "slow c_start c_sent s_rx s_reply s_sent c_rx"
 *        (slow 0/1; the client's send start and return, the request's
 *        receive timestamp, the server's reply stamp and its send's
 *        return, the reply's receive timestamp), so that a test can take
 *        the requests of one of a tracer's intervals (first connection)
 *   -R   a slow reader: the server waits until its request is readable
 *        (poll), then READ_DELAY_US more before it reads it
 *   -T   the server asks for software transmit timestamps of its replies
 *        (SO_TIMESTAMPING, stamped by the driver as the segment leaves:
 *        lo's and veth's xmit) and prints server_host_p50_us=
 *        server_host_p99_us= server_host_mean_us=: each request's time on
 *        the host, from its receive timestamp to its reply's transmit one
 *   -a   the address the server listens on and the client connects to
 *        (default 127.0.0.1)
 *   -N   SERVER_NETNS,CLIENT_NETNS: the server's listening socket is made in
 *        the first network namespace (a path: /run/netns/NAME), the
 *        client's in the second; the process stays in the second
 *   -A   two connections (two ports), the same request mix on both, taken
 *        in turns of PHASE_MS: one back to back, the other with -g's
 *        pause after each reply. Both see the same machine (whatever else
 *        runs on it, in turns of PHASE_MS), at two request rates.
 * Prints "listening port=P" once bound (-A: twice), then one line per
 * connection (-A: "conn=paced" or "conn=burst" first):
 *   transactions=N served=N port=P
 *   server_p50_us= server_p99_us= client_p50_us= client_p99_us=
 *   client_e2e_p50_us= client_e2e_p99_us=
 *   server_fast_p50_us= server_slow_p50_us= client_fast_p50_us=
 *   client_slow_p50_us= (the medians of each group, bimodal only)
 *   server_read_p50_us= server_read_mean_us= (from the request's receive
 *   timestamp to the return of the server's read of it)
 *   server_service_mean_us= (from that read's return to the reply's stamp)
 *   client_mean_us= (the client's: its send's start to the reply's
 *   receive timestamp)
 * Each request is timed between instants the kernel itself stamped: both
 * sockets ask for software receive timestamps (SO_TIMESTAMPING), the
 * instant each request or reply entered the receive path, a few µs before
 * the socket had it readable. The server's time runs from its request's
 * receive timestamp to the start of its reply's send (readable to reply:
 * what the server spent, its wake-up included); the client's from the
 * start of its request's send to the reply's receive timestamp (request
 * to reply readable). Both on CLOCK_REALTIME, the timestamps' clock.
 * client_e2e is what the client itself saw: its send's start to its
 * receive's end. Percentiles are nearest rank over every request (no
 * histogram).
 *
 * A tracer times the same requests from other instants: from the moment
 * the data was readable (after the receive path, past the receive
 * timestamp) to the entry of the reply's send (past the load's stamp).
 * At host speed these lie a few µs apart; under an emulated CPU (qemu
 * TCG) the kernel path between them takes tens of µs, a tenth of a
 * 200 µs request. So each side also prints what brackets the tracer's
 * interval, from instants that must lie around it, request by request
 * (a median of lower bounds is below the true median, and so on):
 *   server_lo_p50_us= server_hi_p50_us= client_lo_p50_us=
 *   client_hi_p50_us= (and _fast_ of these, bimodal only), and the same
 *   of the p99: server_lo_p99_us= ... client_hi_p99_us=
 * server: its request was readable before the client's send returned
 * (loopback runs the receive path inside the send) and after its receive
 * timestamp; its reply's send began after its stamp and before the
 * reply's receive timestamp. lo = reply stamp - client's send return,
 * hi = reply's receive timestamp - request's receive timestamp.
 * client: its send began after its start stamp and before the request's
 * receive timestamp; the reply was readable after its receive timestamp
 * and before the server's send returned. lo = reply's - request's
 * receive timestamp, hi = server's send return - client's start.
 * On a PREEMPT_RT kernel (uname's version says so) softirqs run in
 * threads, and the receive path may run after the send that queued the
 * data returned (one rt guest run: the server's p99 from readable 4096
 * us, below the 4395 us of "reply stamp - client's send return"), so
 * there the bound on "readable" is the reader's own read return, which
 * holds on every kernel: server lo = reply stamp - the server's read
 * return, client hi = the client's read return - its start.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "tool_util.h"

#define MSG_BYTES 64

struct opts {
	double seconds;
	int client_cpu, server_cpu;
	long fast_us, slow_us, slow_pct;   /* -H: slow_pct 0 */
	long queue_bytes;                  /* -Q */
	long gap_us;
	long max_requests;
	const char *stamps_file;
	long read_delay_us;
	int tx_stamps;
	const char *addr;
	const char *server_ns, *client_ns;
	int deferred_rx;   /* PREEMPT_RT: readable may come after the send returned */
};

/* A growing array of per-request stamps or times, ns. */
struct stamps {
	long *ns;
	long n, cap;
};

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* CLOCK_REALTIME: the clock of the kernel's receive timestamps. */
static long now_rt_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void stamp(struct stamps *t, long ns)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->ns = realloc(t->ns, (size_t)t->cap * sizeof(*t->ns));
		if (!t->ns)
			die("realloc");
	}
	t->ns[t->n++] = ns;
}

/* Whether request i (from 0) is a slow one: spread evenly, exactly
 * slow_pct of every 100. */
static int is_slow(const struct opts *o, long i)
{
	return o->slow_pct && (i + 1) * o->slow_pct / 100 != i * o->slow_pct / 100;
}

/* Asks the kernel to stamp what fd receives (software timestamps). */
static void rx_stamps_on(int fd)
{
	int v = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &v, sizeof(v)))
		die("SO_TIMESTAMPING");
}

/* The software receive timestamp of a received message (CLOCK_REALTIME
 * ns); 0 when it carries none. */
static long rx_stamp_of(struct msghdr *m)
{
	long ns = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPING) {
			struct scm_timestamping t;

			memcpy(&t, CMSG_DATA(c), sizeof(t));
			ns = t.ts[0].tv_sec * 1000000000L + t.ts[0].tv_nsec;
		}
	return ns;
}

/* Asks the kernel to stamp what fd sends as it leaves through the
 * driver, the stamp alone to the error queue. */
static void tx_stamps_on(int fd)
{
	int v = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_TSONLY |
		SOF_TIMESTAMPING_OPT_ID;

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &v, sizeof(v)))
		die("SO_TIMESTAMPING tx");
}

/* The transmit timestamp of what fd sent last (CLOCK_REALTIME ns), from
 * its error queue: lo and veth stamp in their xmit, inside the send, so
 * it is there at once; 0 when none came within 100 ms. */
static long tx_stamp_take(int fd)
{
	long end = now_ns() + 100000000L, ns = 0;

	while (!ns && now_ns() < end) {
		char ctl[512];
		struct msghdr m = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };

		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			continue;
		ns = rx_stamp_of(&m);
	}
	return ns;
}

/* Into the network namespace at path (this thread only). */
static void enter_netns(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die(path);
	close(fd);
}

/* Software receive timestamps are switched on for the whole host by a
 * static key that the kernel flips from a workqueue once a socket asks
 * (net_enable_timestamp()): what arrives before the work ran carries no
 * stamp, and recvmsg() gives none (one run's first request had none: the
 * sockets of the test before had just closed and switched it off). This
 * waits, after this load's sockets asked, until a datagram sent to
 * itself on loopback comes back stamped: at most 2 s. */
static void wait_rx_stamps(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int tx = socket(AF_INET, SOCK_DGRAM, 0), rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	if (tx < 0 || rx < 0 || bind(rx, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(rx, (struct sockaddr *)&sa, &len))
		die("timestamp probe socket");
	rx_stamps_on(rx);
	for (int i = 0; i < 200; i++) {
		char b[8], ctl[256];
		struct iovec iov = { b, sizeof(b) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				    .msg_controllen = sizeof(ctl) };

		sendto(tx, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa));
		usleep(10000);
		while (recvmsg(rx, &m, 0) > 0) {
			if (rx_stamp_of(&m)) {
				close(tx);
				close(rx);
				return;
			}
			m.msg_controllen = sizeof(ctl);
		}
	}
	die("no software receive timestamps after 2 s");
}

/* Receives n bytes; *rx_ns: the receive timestamp (CLOCK_REALTIME ns) of
 * the data that completed them. 0: done; -1: closed or failed. */
static int recv_all(int fd, char *buf, size_t n, long *rx_ns)
{
	size_t done = 0;

	*rx_ns = 0;
	while (done < n) {
		char ctl[256];
		struct iovec iov = { buf + done, n - done };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				    .msg_controllen = sizeof(ctl) };
		ssize_t r = recvmsg(fd, &m, 0);
		long ts;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ts = rx_stamp_of(&m);
		if (ts)
			*rx_ns = ts;
		done += (size_t)r;
	}
	if (!*rx_ns) {
		fprintf(stderr, "rr_timed: no receive timestamp from the kernel\n");
		exit(1);
	}
	return 0;
}

static int send_all(int fd, const char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = send(fd, buf + done, n - done, MSG_NOSIGNAL);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

static void busy_wait_ns(long ns)
{
	long end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The mean of end[i] - begin[i] over the n requests (those with both
 * stamps), µs; -1 without any. */
static double mean_us(const long *begin, const long *end, long n)
{
	double sum = 0;
	long m = 0;

	for (long i = 0; i < n; i++)
		if (begin[i] && end[i]) {
			sum += (double)(end[i] - begin[i]);
			m++;
		}
	return m ? sum / (double)m / 1000.0 : -1;
}

/* Nearest-rank percentile p of end[i] - begin[i] over the n requests of
 * group which (0 fast, 1 slow, -1 all), in µs; -1 without any. */
static double pct_us(const struct opts *o, const long *begin, const long *end, long n, int which,
		     double p)
{
	long *v = malloc(((size_t)n + 1) * sizeof(*v)), m = 0, rank;
	double r;

	if (!v)
		die("malloc");
	for (long i = 0; i < n; i++)
		if (which < 0 || is_slow(o, i) == which)
			v[m++] = end[i] - begin[i];
	if (!m) {
		free(v);
		return -1;
	}
	qsort(v, (size_t)m, sizeof(*v), cmp_long);
	rank = (long)(p / 100.0 * (double)m + 0.999999);
	if (rank < 1)
		rank = 1;
	r = (double)v[rank - 1] / 1000.0;
	free(v);
	return r;
}

struct server {
	int listen_fd;
	int queue_fd;              /* -Q: a UDP socket in the server's namespace */
	const struct opts *o;
	struct stamps rx, reply;   /* its request's receive timestamp, its reply's send start */
	struct stamps sent;        /* its reply's send return */
	struct stamps read;        /* its request's read return */
	struct stamps txts;        /* -T: its reply's transmit timestamp */
};

/* -Q: BYTES of datagrams to peer (the client's address, port 9), sent
 * from udp ahead of the reply, so that the reply queues behind them. */
static void queue_ahead(int udp, const struct sockaddr_in *peer, long bytes)
{
	static const char payload[1000];

	for (long left = bytes; left > 0; left -= sizeof(payload))
		sendto(udp, payload, left < (long)sizeof(payload) ? (size_t)left : sizeof(payload), 0,
		       (const struct sockaddr *)peer, sizeof(*peer));
}

static void *serve(void *arg)
{
	struct server *s = arg;
	char buf[MSG_BYTES];
	struct sockaddr_in peer = { 0 };   /* -Q: where the queued datagrams go */
	int fd;

	pin(s->o->server_cpu);
	fd = accept(s->listen_fd, NULL, NULL);
	if (fd < 0)
		die("accept");
	rx_stamps_on(fd);
	if (s->o->tx_stamps)
		tx_stamps_on(fd);
	if (s->o->queue_bytes) {
		socklen_t len = sizeof(peer);

		if (getpeername(fd, (struct sockaddr *)&peer, &len))
			die("getpeername");
		peer.sin_port = htons(9);
	}
	for (long i = 0;; i++) {
		long rx;

		if (s->o->read_delay_us) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			while (poll(&p, 1, -1) < 0)
				;
			busy_wait_ns(s->o->read_delay_us * 1000);
		}
		if (recv_all(fd, buf, sizeof(buf), &rx))
			break;
		stamp(&s->read, now_rt_ns());
		busy_wait_ns((is_slow(s->o, i) ? s->o->slow_us : s->o->fast_us) * 1000);
		if (s->o->queue_bytes && is_slow(s->o, i))
			queue_ahead(s->queue_fd, &peer, s->o->queue_bytes);
		stamp(&s->rx, rx);
		stamp(&s->reply, now_rt_ns());
		if (send_all(fd, buf, sizeof(buf)))
			break;
		stamp(&s->sent, now_rt_ns());
		if (s->o->tx_stamps)
			stamp(&s->txts, tx_stamp_take(fd));
	}
	close(fd);
	return NULL;
}

static void usage(void);

/* One connection: its server thread and the client's stamps. */
struct conn {
	struct sockaddr_in sa;
	struct server s;
	pthread_t th;
	int fd;
	long gap_us;
	struct stamps start, rx, start_mono, done_mono;   /* the client's */
	struct stamps sent;                               /* its send's return */
	struct stamps done;                               /* its read's return */
};

static void conn_open(struct conn *c, const struct opts *o, long gap_us)
{
	c->sa.sin_family = AF_INET;
	if (inet_pton(AF_INET, o->addr, &c->sa.sin_addr) != 1)
		usage();
	c->s.o = o;
	if (o->server_ns)
		enter_netns(o->server_ns);
	c->s.listen_fd = tcp_listen_announce(&c->sa, 1);
	c->s.queue_fd = o->queue_bytes ? socket(AF_INET, SOCK_DGRAM, 0) : -1;
	if (o->queue_bytes && c->s.queue_fd < 0)
		die("udp socket");
	if (o->client_ns)
		enter_netns(o->client_ns);
	/* on the listener too: the accepted socket inherits it, so the
	 * first request, which may arrive before accept returns, is stamped */
	rx_stamps_on(c->s.listen_fd);
	c->gap_us = gap_us;
	pthread_create(&c->th, NULL, serve, &c->s);
}

/* One request and its reply. */
static void conn_request(struct conn *c)
{
	char buf[MSG_BYTES] = { 0 };

	long rx;

	stamp(&c->start_mono, now_ns());
	stamp(&c->start, now_rt_ns());
	if (send_all(c->fd, buf, sizeof(buf)))
		die("client send");
	stamp(&c->sent, now_rt_ns());
	if (recv_all(c->fd, buf, sizeof(buf), &rx))
		die("client recv");
	stamp(&c->done, now_rt_ns());
	stamp(&c->done_mono, now_ns());
	stamp(&c->rx, rx);
	if (c->gap_us)
		sleep_us(c->gap_us);
}

/* Every request's stamps (see -o), n of them. */
static void write_stamps(const struct conn *c, const struct opts *o, long n)
{
	FILE *f = fopen(o->stamps_file, "w");

	if (!f)
		die("stamps file");
	for (long i = 0; i < n; i++) {
		const long v[] = { c->start.ns[i], c->sent.ns[i], c->s.rx.ns[i], c->s.reply.ns[i],
				   c->s.sent.ns[i], c->rx.ns[i] };

		fprintf(f, "%d", is_slow(o, i));
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			fprintf(f, " %ld.%03ld", v[k] / 1000, v[k] % 1000);
		fprintf(f, "\n");
	}
	if (fclose(f))
		die("stamps file");
}

static void conn_report(struct conn *c, const struct opts *o, const char *name, int stamps)
{
	const long *start = c->start.ns, *rx = c->rx.ns, *srx = c->s.rx.ns, *reply = c->s.reply.ns,
		   *m0 = c->start_mono.ns, *m1 = c->done_mono.ns, *sent = c->sent.ns, *ssent = c->s.sent.ns;
	/* the latest instant the request, and the reply, can have been
	 * readable (see the top of this file) */
	const long *req_readable = o->deferred_rx ? c->s.read.ns : sent;
	const long *reply_readable = o->deferred_rx ? c->done.ns : ssent;
	long n;

	shutdown(c->fd, SHUT_WR);
	pthread_join(c->th, NULL);
	close(c->fd);
	/* every request the client finished has both sides' stamps */
	n = c->rx.n < c->s.reply.n ? c->rx.n : c->s.reply.n;
	n = n < c->s.sent.n ? n : c->s.sent.n;
	if (name)
		printf("conn=%s ", name);
	printf("transactions=%ld served=%ld port=%d server_p50_us=%.1f server_p99_us=%.1f "
	       "client_p50_us=%.1f client_p99_us=%.1f client_e2e_p50_us=%.1f client_e2e_p99_us=%.1f",
	       c->rx.n, c->s.reply.n, ntohs(c->sa.sin_port), pct_us(o, srx, reply, n, -1, 50),
	       pct_us(o, srx, reply, n, -1, 99), pct_us(o, start, rx, n, -1, 50),
	       pct_us(o, start, rx, n, -1, 99), pct_us(o, m0, m1, n, -1, 50), pct_us(o, m0, m1, n, -1, 99));
	if (o->slow_pct)
		printf(" server_fast_p50_us=%.1f server_slow_p50_us=%.1f client_fast_p50_us=%.1f "
		       "client_slow_p50_us=%.1f",
		       pct_us(o, srx, reply, n, 0, 50), pct_us(o, srx, reply, n, 1, 50),
		       pct_us(o, start, rx, n, 0, 50), pct_us(o, start, rx, n, 1, 50));
	printf(" server_read_p50_us=%.1f server_read_mean_us=%.1f server_service_mean_us=%.1f client_mean_us=%.1f",
	       pct_us(o, srx, c->s.read.ns, n, -1, 50), mean_us(srx, c->s.read.ns, n),
	       mean_us(c->s.read.ns, reply, n), mean_us(start, rx, n));
	if (o->tx_stamps && c->s.txts.n >= n)
		printf(" server_host_p50_us=%.1f server_host_p99_us=%.1f server_host_mean_us=%.1f",
		       pct_us(o, srx, c->s.txts.ns, n, -1, 50), pct_us(o, srx, c->s.txts.ns, n, -1, 99),
		       mean_us(srx, c->s.txts.ns, n));
	/* the brackets of a tracer's intervals (see the top of this file) */
	printf(" readable_bound=%s", o->deferred_rx ? "read_return" : "send_return");
	for (int p = 50; p <= 99; p += 49)
		printf(" server_lo_p%d_us=%.1f server_hi_p%d_us=%.1f client_lo_p%d_us=%.1f client_hi_p%d_us=%.1f",
		       p, pct_us(o, req_readable, reply, n, -1, p), p, pct_us(o, srx, rx, n, -1, p),
		       p, pct_us(o, srx, rx, n, -1, p), p, pct_us(o, start, reply_readable, n, -1, p));
	if (o->slow_pct)
		printf(" server_fast_lo_p50_us=%.1f server_fast_hi_p50_us=%.1f client_fast_lo_p50_us=%.1f "
		       "client_fast_hi_p50_us=%.1f",
		       pct_us(o, req_readable, reply, n, 0, 50), pct_us(o, srx, rx, n, 0, 50),
		       pct_us(o, srx, rx, n, 0, 50), pct_us(o, start, reply_readable, n, 0, 50));
	printf("\n");
	if (o->stamps_file && stamps)
		write_stamps(c, o, n);
}

/* Whether this kernel is PREEMPT_RT (its version string says so), where
 * the receive path may run after the send that queued the data returned. */
static int preempt_rt(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

static void usage(void)
{
	fprintf(stderr, "usage: rr_timed [-d s] [-c cpu] [-S cpu] "
			"[-H us | -B fast_us,slow_us,slow_pct [-Q queue_bytes]] [-g us] [-R read_delay_us] [-T] "
			"[-a addr] [-N server_netns,client_netns] [-A phase_ms] [-n requests] [-o stamps_file]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct opts o = { .seconds = 3, .fast_us = 2000, .addr = "127.0.0.1" };
	char *comma;
	struct conn conns[2] = { 0 };
	long t_end, phase_ms = 0, total = 0;
	int c, nconn;

	while ((c = getopt(argc, argv, "d:c:S:H:B:Q:g:R:Ta:N:A:n:o:")) != -1) {
		switch (c) {
		case 'd': o.seconds = atof(optarg); break;
		case 'c': o.client_cpu = atoi(optarg); break;
		case 'S': o.server_cpu = atoi(optarg); break;
		case 'H': o.fast_us = atol(optarg); o.slow_pct = 0; break;
		case 'B':
			if (sscanf(optarg, "%ld,%ld,%ld", &o.fast_us, &o.slow_us, &o.slow_pct) != 3)
				usage();
			break;
		case 'Q': o.queue_bytes = atol(optarg); break;
		case 'g': o.gap_us = atol(optarg); break;
		case 'R': o.read_delay_us = atol(optarg); break;
		case 'T': o.tx_stamps = 1; break;
		case 'a': o.addr = optarg; break;
		case 'N':
			comma = strchr(optarg, ',');
			if (!comma)
				usage();
			*comma = 0;
			o.server_ns = optarg;
			o.client_ns = comma + 1;
			break;
		case 'A': phase_ms = atol(optarg); break;
		case 'n': o.max_requests = atol(optarg); break;
		case 'o': o.stamps_file = optarg; break;
		default: usage();
		}
	}
	o.deferred_rx = preempt_rt();
	if (optind < argc || o.seconds <= 0 || o.fast_us < 0 || o.slow_us < 0 || o.slow_pct < 0 ||
	    o.slow_pct > 100 || o.queue_bytes < 0 || (o.queue_bytes && !o.slow_pct) || o.gap_us < 0 ||
	    o.read_delay_us < 0 || o.max_requests < 0 || phase_ms < 0 || (phase_ms && !o.gap_us))
		usage();
	nconn = phase_ms ? 2 : 1;
	/* -A: conns[0] paced, conns[1] back to back */
	for (int k = 0; k < nconn; k++)
		conn_open(&conns[k], &o, k == 0 ? o.gap_us : 0);
	pin(o.client_cpu);
	for (int k = 0; k < nconn; k++) {
		conns[k].fd = tcp_connect_nodelay(&conns[k].sa);
		rx_stamps_on(conns[k].fd);
	}
	wait_rx_stamps();
	t_end = now_ns() + (long)(o.seconds * 1e9);
	for (int k = 0; now_ns() < t_end; k = (k + 1) % nconn) {
		long phase_end;

		/* a tracer that samples past so many requests per jiffy on a
		 * CPU must start the paced turn in a quiet jiffy: 12 ms is one
		 * even at HZ=100 */
		if (phase_ms && conns[k].gap_us)
			sleep_us(12000);
		phase_end = phase_ms ? now_ns() + phase_ms * 1000000L : t_end;

		while (now_ns() < phase_end && (!o.max_requests || total < o.max_requests)) {
			conn_request(&conns[k]);
			total++;
		}
		if (o.max_requests && total >= o.max_requests)
			break;
	}
	for (int k = 0; k < nconn; k++)
		conn_report(&conns[k], &o, phase_ms ? (k == 0 ? "paced" : "burst") : NULL, k == 0);
	return 0;
}
