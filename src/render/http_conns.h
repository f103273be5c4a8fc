/* The connections `dbtrace serve` holds open, kept so that hostile or
 * forgetful clients cannot crowd Prometheus out: each connection has a
 * deadline for its next request, and past the limit the connection that
 * has waited longest without a request in progress is shed. Pure: the
 * server (render/http_server.c) does the socket calls; this only decides. */
#ifndef DBTRACE_RENDER_HTTP_CONNS_H
#define DBTRACE_RENDER_HTTP_CONNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct http_conn {
	int fd;
	uint64_t since_ns;             /* accepted, or its last response sent (CLOCK_MONOTONIC) */
	bool busy;                     /* a request is being answered */
	bool shed;                     /* shut down by us; the server has not closed it yet */
};

/* Owns nothing: the server allocates each connection and frees it once
 * removed. */
struct http_conns {
	struct http_conn **items;
	size_t n, cap;
};

/* 0 or -ENOMEM. */
int http_conns_add(struct http_conns *t, struct http_conn *c);
/* Removes c if it is there. */
void http_conns_remove(struct http_conns *t, const struct http_conn *c);
/* Connections not shed yet. */
size_t http_conns_live(const struct http_conns *t);
/* The connection to shed so that at most limit stay live: the idle one
 * (not busy, not shed) waiting longest; NULL when at most limit are live
 * or every live one is busy. */
struct http_conn *http_conns_over_limit(const struct http_conns *t, size_t limit);
/* A live connection whose request is not done deadline_ns after its
 * since_ns, busy or not; NULL when none. */
struct http_conn *http_conns_expired(const struct http_conns *t, uint64_t now_ns,
				     uint64_t deadline_ns);
void http_conns_free(struct http_conns *t);

#endif
