/* The HTTP side of serve, on loopback: /metrics carries the callback's
 * body and the exposition's content type, other paths and methods get
 * 404 and 405, a failing callback 500, and a port in use or an address
 * that is not this host's is a one-line error before anything runs. The
 * server is given --listen already split (cli/options.c parses it) and is
 * driven the way serve drives it: poll its descriptor, run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "render/http_server.h"

struct body_ctx {
	int calls;
	int fail;
};

static int body(void *ctx, char **out, size_t *len)
{
	struct body_ctx *b = ctx;

	b->calls++;
	if (b->fail)
		return -EIO;
	*out = strdup("# TYPE x counter\nx 1\n");
	*len = strlen(*out);
	return 0;
}

/* A port nobody listens on right now. */
static unsigned short free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &l), 0);
	close(fd);
	return ntohs(a.sin_port);
}

/* Sends req and returns the whole response, serving while waiting. */
static char *exchange(struct http_server *s, unsigned short port, const char *req)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t cap = 1 << 16, len = 0;
	char *buf = calloc(1, cap);

	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	for (int i = 0; i < 200; i++) {
		struct pollfd p[2] = { { http_server_fd(s), POLLIN, 0 }, { fd, POLLIN, 0 } };
		ssize_t n;

		poll(p, 2, 20);
		if (p[0].revents & POLLIN)
			assert_int_equal(http_server_run(s), 0);
		if (!(p[1].revents & (POLLIN | POLLHUP)))
			continue;
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return buf;
}

static void test_serves_metrics(void **state)
{
	struct body_ctx b = { 0 };
	struct http_server_config cfg = { .content_type = "text/plain; version=0.0.4; charset=utf-8",
					  .metrics = body, .ctx = &b };
	unsigned short port = free_port();
	struct http_server *s, *s2;
	char listen[32], want[128], err[256], *r;

	snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
	cfg.host = "127.0.0.1";
	cfg.port = port;
	cfg.listen = listen;
	assert_int_equal(http_server_start(&s, &cfg, err, sizeof(err)), 0);
	assert_string_equal(http_server_address(s), listen);

	r = exchange(s, port, "GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
	assert_non_null(strstr(r, "HTTP/1.1 200"));
	assert_non_null(strstr(r, "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"));
	assert_non_null(strstr(r, "\r\n\r\n# TYPE x counter\nx 1\n"));
	assert_int_equal(b.calls, 1);
	free(r);

	r = exchange(s, port, "HEAD /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
	assert_non_null(strstr(r, "HTTP/1.1 200"));
	assert_null(strstr(r, "x 1"));
	free(r);

	r = exchange(s, port, "GET / HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "200"));
	assert_non_null(strstr(r, "<a href=\"/metrics\">"));
	free(r);

	r = exchange(s, port, "GET /nope HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "HTTP/1.0 404") ? r : strstr(r, "HTTP/1.1 404"));
	free(r);

	r = exchange(s, port, "POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n"
			      "Connection: close\r\n\r\nabc");
	assert_non_null(strstr(r, "405"));
	assert_non_null(strstr(r, "Allow: GET, HEAD\r\n"));
	free(r);

	b.fail = 1;
	r = exchange(s, port, "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "500"));
	free(r);
	assert_true(http_server_requests(s) >= 6);

	/* the same port again: in use, one line */
	assert_int_equal(http_server_start(&s2, &cfg, err, sizeof(err)), -EADDRINUSE);
	snprintf(want, sizeof(want), "cannot listen on %s: Address already in use", listen);
	assert_string_equal(err, want);
	http_server_stop(s);

	/* stopped: the port is free again */
	assert_int_equal(http_server_start(&s, &cfg, err, sizeof(err)), 0);
	http_server_stop(s);
}

static void test_bad_addresses(void **state)
{
	struct http_server_config cfg = { .content_type = "text/plain", .metrics = body };
	struct http_server *s;
	char err[256];

	/* TEST-NET-1: not an address of this host */
	cfg.host = "192.0.2.1";
	cfg.port = 9464;
	cfg.listen = "192.0.2.1:9464";
	assert_int_equal(http_server_start(&s, &cfg, err, sizeof(err)), -EADDRNOTAVAIL);
	assert_string_equal(err, "cannot listen on 192.0.2.1:9464: Cannot assign requested address "
				 "(not an address of this host)");
}

/* Host "": every address, IPv6 with IPv4 mapped where there is IPv6. */
static void test_every_address(void **state)
{
	struct http_server_config cfg = { .host = "", .content_type = "text/plain", .metrics = body };
	unsigned short port = free_port();
	struct http_server *s;
	char listen[16], v6[32], v4[32], err[256];

	snprintf(listen, sizeof(listen), ":%u", port);
	cfg.port = port;
	cfg.listen = listen;
	assert_int_equal(http_server_start(&s, &cfg, err, sizeof(err)), 0);
	snprintf(v6, sizeof(v6), "[::]:%u", port);
	snprintf(v4, sizeof(v4), "0.0.0.0:%u", port);
	if (strcmp(http_server_address(s), v6))
		assert_string_equal(http_server_address(s), v4);
	http_server_stop(s);
}

static int connect_to(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* Serves for ms milliseconds, as serve's loop does. */
static void serve_for(struct http_server *s, int ms)
{
	for (int i = 0; i < ms / 10; i++) {
		struct pollfd p = { http_server_fd(s), POLLIN, 0 };

		poll(&p, 1, 10);
		assert_int_equal(http_server_run(s), 0);
	}
}

/* 0: the peer closed the connection; 1: still open. */
static int still_open(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);

	return n < 0 && errno == EAGAIN;
}

/* A hundred idle connections do not keep a scrape out: past the limit the
 * idle ones waiting longest are shed, and the newest keep their place. */
static void test_idle_crowd_is_shed(void **state)
{
	struct body_ctx b = { 0 };
	struct http_server_config cfg = { .host = "127.0.0.1", .content_type = "text/plain",
					  .metrics = body, .ctx = &b, .max_conns = 8 };
	unsigned short port = free_port();
	struct http_server *s;
	char listen[32], err[256], *r;
	int fds[100], open_n = 0;

	snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
	cfg.port = port;
	cfg.listen = listen;
	assert_int_equal(http_server_start(&s, &cfg, err, sizeof(err)), 0);
	for (int i = 0; i < 100; i++) {
		fds[i] = connect_to(port);
		serve_for(s, 10);       /* accepted one by one: the order is known */
	}
	serve_for(s, 100);
	r = exchange(s, port, "GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
	assert_non_null(strstr(r, "HTTP/1.1 200"));
	assert_non_null(strstr(r, "x 1\n"));
	free(r);
	for (int i = 0; i < 100; i++)
		open_n += still_open(fds[i]);
	/* the scrape took a place too: 7 of the crowd are left, the last */
	assert_int_equal(open_n, 7);
	for (int i = 93; i < 100; i++)
		assert_true(still_open(fds[i]));
	assert_true(http_server_shed(s) >= 93);
	for (int i = 0; i < 100; i++)
		close(fds[i]);
	http_server_stop(s);
}

/* A client trickling its request a byte at a time is cut off at the
 * deadline, however often it sends. */
static void test_slow_client_meets_the_deadline(void **state)
{
	struct body_ctx b = { 0 };
	struct http_server_config cfg = { .host = "127.0.0.1", .content_type = "text/plain",
					  .metrics = body, .ctx = &b, .request_deadline_ms = 300 };
	unsigned short port = free_port();
	struct http_server *s;
	char listen[32], err[256];
	int fd, i;

	snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
	cfg.port = port;
	cfg.listen = listen;
	assert_int_equal(http_server_start(&s, &cfg, err, sizeof(err)), 0);
	fd = connect_to(port);
	for (i = 0; i < 100 && still_open(fd); i++) {
		if (send(fd, "G", 1, MSG_NOSIGNAL) != 1)
			break;
		serve_for(s, 50);
	}
	/* 300 ms at 50 ms a byte: cut off after some 6 bytes, not 100 */
	assert_true(i >= 4 && i <= 10);
	assert_false(still_open(fd));
	assert_int_equal(http_server_shed(s), 1);
	assert_int_equal(b.calls, 0);
	close(fd);
	http_server_stop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serves_metrics),
		cmocka_unit_test(test_bad_addresses),
		cmocka_unit_test(test_every_address),
		cmocka_unit_test(test_idle_crowd_is_shed),
		cmocka_unit_test(test_slow_client_meets_the_deadline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
