/* The HTTP side of `dbtrace serve`, on libmicrohttpd (the only file that
 * includes microhttpd.h). It runs in the caller's thread: poll
 * http_server_fd() for input and call http_server_run() when it is ready
 * (and once per interval, for connection timeouts), so serving needs no
 * thread of its own and the caller's signal handling applies to it.
 * GET /metrics returns what the metrics callback produces, GET / a short
 * page that links to it; anything else 404, methods other than GET and
 * HEAD 405.
 *
 * Hostile clients: a connection has request_deadline_ms (from its accept,
 * or from its previous response) to complete a request, busy or not, so
 * a slow-loris client that trickles a header byte at a time is cut off;
 * past max_conns live connections the one idle longest is shed, so a
 * hundred idle connections cannot keep a scrape out. Both act when the
 * server runs: a caller that runs it at least once a second bounds the
 * deadline's slack to a second. */
#ifndef DBTRACE_RENDER_HTTP_SERVER_H
#define DBTRACE_RENDER_HTTP_SERVER_H

#include <stddef.h>

/* Fills *body (malloc'd; the server frees it) and *len. 0 or -errno. */
typedef int (*http_body_fn)(void *ctx, char **body, size_t *len);

struct http_server_config {
	/* where to listen, as dbt_parse_listen() (cli/options.h) splits
	 * --listen: host "" for every address */
	const char *host;
	unsigned short port;
	const char *listen;            /* --listen as given: messages quote it */
	const char *content_type;      /* of /metrics */
	http_body_fn metrics;
	void *ctx;
	/* 0: the defaults below */
	unsigned int max_conns;
	unsigned int request_deadline_ms;
};

#define HTTP_SERVER_MAX_CONNS 32
/* Prometheus sends its request as soon as it connects; 5 s is ample for
 * a real client on any network dbtrace is scraped over. */
#define HTTP_SERVER_REQUEST_DEADLINE_MS 5000

struct http_server;

/* Binds and listens. On error, err holds one line and the return is
 * -EINVAL (unknown host), -EADDRINUSE, -EADDRNOTAVAIL (not an
 * address of this host), -EACCES or another -errno. */
int http_server_start(struct http_server **out, const struct http_server_config *cfg,
		      char *err, size_t errlen);
/* A descriptor that becomes readable when the server has work. */
int http_server_fd(const struct http_server *s);
/* Serves what is ready without blocking. 0 or -EIO. */
int http_server_run(struct http_server *s);
/* "127.0.0.1:9464", "[::]:9464": where it really listens. */
const char *http_server_address(const struct http_server *s);
/* Requests answered so far (any path). */
unsigned long http_server_requests(const struct http_server *s);
/* Connections cut off so far: shed over the limit, or past the deadline. */
unsigned long http_server_shed(const struct http_server *s);
void http_server_stop(struct http_server *s);

#endif
