/* sock_diag listener parsing on captured dump replies
 * (tests/fixtures/netlink/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "sysinfo/listeners.h"

static size_t slurp(const char *name, char *buf, size_t cap)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), FIXTURES "/netlink/%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static const struct listener_info *by_port(const struct listener_table *t, unsigned port)
{
	for (int i = 0; i < t->n; i++)
		if (t->l[i].port == port)
			return &t->l[i];
	return NULL;
}

/* 6.18: 127.0.0.1:8080 listen(1) with two connections waiting and 12
 * SYNs dropped on a full queue, 127.0.0.1:9090 listen(5) idle; [::1]:7070
 * listen(3). ss -lnt -m said Recv-Q 2 Send-Q 1 d12 for 8080. */
static void test_captured(void **state)
{
	static char buf[65536];
	struct listener_table t = { 0 };
	const struct listener_info *l;
	size_t n = slurp("listeners-v4.bin", buf, sizeof(buf));

	assert_int_equal(listeners_parse_reply(buf, n, &t), 1);
	assert_int_equal(t.n, 2);
	l = by_port(&t, 8080);
	assert_non_null(l);
	assert_int_equal(l->family, AF_INET);
	assert_int_equal(l->queue, 2);
	assert_int_equal(l->backlog, 1);
	assert_true(l->have_drops);
	assert_int_equal(l->drops, 12);
	assert_int_equal(l->inode, 297013);
	l = by_port(&t, 9090);
	assert_non_null(l);
	assert_int_equal(l->queue, 0);
	assert_int_equal(l->backlog, 5);
	assert_int_equal(l->drops, 0);
	n = slurp("listeners-v6.bin", buf, sizeof(buf));
	assert_int_equal(listeners_parse_reply(buf, n, &t), 1);
	assert_int_equal(t.n, 3);
	l = by_port(&t, 7070);
	assert_non_null(l);
	assert_int_equal(l->family, AF_INET6);
	assert_int_equal(l->backlog, 3);
	listener_table_free(&t);
}

static void test_bad_and_partial_replies(void **state)
{
	static char buf[65536];
	struct listener_table t = { 0 };
	size_t n = slurp("listeners-v4.bin", buf, sizeof(buf));
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr e;
	} err = { { sizeof(err), NLMSG_ERROR, 0, 1, 0 }, { -EPERM, { 0 } } };

	/* cut in the middle of a message: malformed */
	assert_int_equal(listeners_parse_reply(buf, n - 30, &t), -EINVAL);
	t.n = 0;
	/* the first message alone: more should follow */
	assert_int_equal(listeners_parse_reply(buf, ((struct nlmsghdr *)buf)->nlmsg_len, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(listeners_parse_reply(&err, sizeof(err), &t), -EPERM);
	assert_int_equal(listeners_parse_reply(buf, 0, &t), 0);
	listener_table_free(&t);
}

/* Found by the fuzzer: a length of 2^31 or more passed libmnl's check
 * (it compares as an int) and the walk jumped outside the buffer. */
static void test_huge_length(void **state)
{
	static char buf[65536];
	struct listener_table t = { 0 };
	size_t n = slurp("listeners-v4.bin", buf, sizeof(buf));

	((struct nlmsghdr *)buf)->nlmsg_len |= 0x80000000u;
	assert_int_equal(listeners_parse_reply(buf, n, &t), -EINVAL);
	assert_int_equal(t.n, 0);
	listener_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_bad_and_partial_replies),
		cmocka_unit_test(test_huge_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
