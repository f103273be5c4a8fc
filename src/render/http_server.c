/* libmicrohttpd in "external epoll" mode: the listening socket is ours
 * (so a port in use or a foreign address is a clear one-line error before
 * any probe loads), the daemon's epoll descriptor goes into the caller's
 * poll loop, and MHD_run() serves whatever is ready. */
#define _GNU_SOURCE
#include "render/http_server.h"
#include "core/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct http_server {
	struct MHD_Daemon *d;
	int listen_fd;                 /* ours until MHD runs; MHD_stop_daemon() closes it */
	int epoll_fd;
	http_body_fn metrics;
	void *ctx;
	const char *content_type;
	char address[96];
	unsigned long requests;
};

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
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)32,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
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
	return MHD_run(s->d) == MHD_YES ? 0 : -EIO;
}

const char *http_server_address(const struct http_server *s)
{
	return s->address;
}

unsigned long http_server_requests(const struct http_server *s)
{
	return s->requests;
}

void http_server_stop(struct http_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);   /* closes the listening socket too */
	free(s);
}
