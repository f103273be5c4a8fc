/* libmicrohttpd in "external epoll" mode: the listening socket is ours
 * (so a port in use or a foreign address is a clear one-line error before
 * any probe loads), the daemon's epoll descriptor goes into the caller's
 * poll loop, and MHD_run() serves whatever is ready.
 *
 * MHD 0.9.75 has no call that closes a connection from outside a request,
 * and its own limit refuses the newcomer (the scrape) rather than an idle
 * old connection; its timeout restarts with every byte, so a client that
 * trickles its header never times out. So connections are tracked here
 * (render/http_conns.h decides) and cut off with shutdown(2): the socket
 * turns readable at EOF, MHD reads 0 and closes it on its next run. */
#define _GNU_SOURCE
#include "render/http_server.h"
#include "render/http_conns.h"
#include "core/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct http_server {
	struct MHD_Daemon *d;
	int listen_fd;                 /* ours until MHD runs; MHD_stop_daemon() closes it */
	int epoll_fd;
	http_body_fn metrics;
	void *ctx;
	const char *content_type;
	char address[96];
	unsigned long requests, shed;
	struct http_conns conns;
	size_t max_conns;
	uint64_t deadline_ns;
};

/* MHD's own limit, above ours: connections shed but not closed yet still
 * count for MHD until its next run. */
#define MHD_LIMIT_FACTOR 4

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void cut_off(struct http_server *s, struct http_conn *c, const char *why)
{
	log_debug("http: closing connection %d (%s)", c->fd, why);
	/* both ways: MHD sees EOF, the client sees the connection end */
	shutdown(c->fd, SHUT_RDWR);
	c->shed = true;
	s->shed++;
}

static struct http_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct http_server *s = cls;
	struct http_conn *conn = *socket_context, *victim;
	const union MHD_ConnectionInfo *ci;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (conn) {
			http_conns_remove(&s->conns, conn);
			free(conn);
			*socket_context = NULL;
		}
		return;
	}
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	conn = calloc(1, sizeof(*conn));
	if (!conn || !ci || http_conns_add(&s->conns, conn)) {
		/* untracked, it would escape the deadline: refuse it */
		free(conn);
		if (ci)
			shutdown(ci->connect_fd, SHUT_RDWR);
		return;
	}
	conn->fd = ci->connect_fd;
	conn->since_ns = now_ns();
	*socket_context = conn;
	while ((victim = http_conns_over_limit(&s->conns, s->max_conns)))
		cut_off(s, victim, "over the connection limit");
}

/* A request is done (answered, or its connection went away): the
 * connection's next request gets a fresh deadline. */
static void on_completed(void *cls, struct MHD_Connection *c, void **req_state,
			 enum MHD_RequestTerminationCode toe)
{
	struct http_conn *conn = conn_of(c);

	if (conn) {
		conn->busy = false;
		conn->since_ns = now_ns();
	}
}

static const char index_page[] =
	"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>dbtrace</title></head>"
	"<body><h1>dbtrace</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char buf[256];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	buf[strcspn(buf, "\n")] = 0;
	log_debug("http: %s", buf);
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned int status, const char *type,
			       char *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result plain(struct MHD_Connection *c, unsigned int status, const char *text)
{
	return respond(c, status, "text/plain; charset=utf-8", (char *)text, strlen(text),
		       MHD_RESPMEM_PERSISTENT);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_state)
{
	struct http_server *s = cls;
	char *body = NULL;
	size_t len = 0;

	/* the first call only announces the request */
	if (!*req_state) {
		struct http_conn *conn = conn_of(c);

		if (conn)
			conn->busy = true;
		*req_state = s;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;       /* a body is read and ignored */
		return MHD_YES;
	}
	s->requests++;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (!strcmp(url, "/"))
		return respond(c, MHD_HTTP_OK, "text/html; charset=utf-8", (char *)index_page,
			       sizeof(index_page) - 1, MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return plain(c, MHD_HTTP_NOT_FOUND, "not found: see /metrics\n");
	if (s->metrics(s->ctx, &body, &len)) {
		free(body);
		return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot render the metrics\n");
	}
	return respond(c, MHD_HTTP_OK, s->content_type, body, len, MHD_RESPMEM_MUST_FREE);
}

static void format_address(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const void *)ss;

		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(a->sin6_port));
	} else {
		const struct sockaddr_in *a = (const void *)ss;

		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(a->sin_port));
	}
}

static int try_bind(int family, const struct sockaddr *sa, socklen_t salen, bool dual_stack)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1, zero = 0, e;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (dual_stack)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, salen) || listen(fd, 64)) {
		e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

/* A listening socket for cfg's host and port; "" host: every address
 * (IPv6 with IPv4 mapped, or IPv4 only where IPv6 is off). */
static int open_listener(const struct http_server_config *cfg, char *err, size_t errlen)
{
	const char *host = cfg->host, *listen = cfg->listen;
	unsigned short port = cfg->port;
	char port_s[8];
	struct addrinfo hints = { 0 }, *res = NULL;
	int fd = -EADDRNOTAVAIL, rc;

	if (!host[0]) {
		struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
					   .sin6_addr = IN6ADDR_ANY_INIT };
		struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port),
					  .sin_addr.s_addr = htonl(INADDR_ANY) };

		fd = try_bind(AF_INET6, (struct sockaddr *)&a6, sizeof(a6), true);
		if (fd == -EAFNOSUPPORT || fd == -EADDRNOTAVAIL)
			fd = try_bind(AF_INET, (struct sockaddr *)&a4, sizeof(a4), false);
	} else {
		snprintf(port_s, sizeof(port_s), "%u", port);
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
		rc = getaddrinfo(host, port_s, &hints, &res);
		if (rc) {
			snprintf(err, errlen, "cannot listen on %s: unknown host '%s' (%s)", listen, host,
				 gai_strerror(rc));
			return -EINVAL;
		}
		for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
			fd = try_bind(ai->ai_family, ai->ai_addr, ai->ai_addrlen, false);
			if (fd >= 0 || fd == -EADDRINUSE || fd == -EACCES)
				break;
		}
		freeaddrinfo(res);
	}
	if (fd < 0)
		snprintf(err, errlen, "cannot listen on %s: %s%s", listen, strerror(-fd),
			 fd == -EADDRNOTAVAIL ? " (not an address of this host)" : "");
	return fd;
}

int http_server_start(struct http_server **out, const struct http_server_config *cfg,
		      char *err, size_t errlen)
{
	struct http_server *s = calloc(1, sizeof(*s));
	const union MHD_DaemonInfo *info;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (!s)
		return -ENOMEM;
	s->metrics = cfg->metrics;
	s->ctx = cfg->ctx;
	s->content_type = cfg->content_type;
	s->max_conns = cfg->max_conns ? cfg->max_conns : HTTP_SERVER_MAX_CONNS;
	s->deadline_ns = (uint64_t)(cfg->request_deadline_ms ? cfg->request_deadline_ms
							   : HTTP_SERVER_REQUEST_DEADLINE_MS) * 1000000ull;
	s->listen_fd = open_listener(cfg, err, errlen);
	if (s->listen_fd < 0) {
		int e = s->listen_fd;

		free(s);
		return e;
	}
	if (!getsockname(s->listen_fd, (struct sockaddr *)&ss, &sl))
		format_address(&ss, s->address, sizeof(s->address));
	/* the logger first, so that start-up messages reach it too */
	s->d = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, handle, s,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
				MHD_OPTION_LISTEN_SOCKET, s->listen_fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)(s->max_conns * MHD_LIMIT_FACTOR),
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				MHD_OPTION_END);
	info = s->d ? MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_EPOLL_FD) : NULL;
	if (!info) {
		snprintf(err, errlen, "cannot start the HTTP server on %s", s->address);
		if (s->d)
			MHD_stop_daemon(s->d);   /* closes the listening socket */
		else
			close(s->listen_fd);
		free(s);
		return -EIO;
	}
	s->epoll_fd = info->epoll_fd;
	*out = s;
	return 0;
}

int http_server_fd(const struct http_server *s)
{
	return s->epoll_fd;
}

int http_server_run(struct http_server *s)
{
	struct http_conn *late;
	uint64_t now;
	int rc = MHD_run(s->d) == MHD_YES ? 0 : -EIO;

	now = now_ns();
	while ((late = http_conns_expired(&s->conns, now, s->deadline_ns)))
		cut_off(s, late, "no complete request in time");
	return rc;
}

const char *http_server_address(const struct http_server *s)
{
	return s->address;
}

unsigned long http_server_requests(const struct http_server *s)
{
	return s->requests;
}

unsigned long http_server_shed(const struct http_server *s)
{
	return s->shed;
}

void http_server_stop(struct http_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);   /* closes the listening socket and every connection */
	/* MHD reports each closed connection: nothing should be left */
	for (size_t i = 0; i < s->conns.n; i++)
		free(s->conns.items[i]);
	http_conns_free(&s->conns);
	free(s);
}
