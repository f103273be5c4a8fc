/* rtnetlink qdisc parsing on captured dump replies
 * (tests/fixtures/netlink/README.md), and the text a person reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/qdisc.h"

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

static int feed(struct qdisc_table *t, const char *name)
{
	static char buf[65536];
	size_t n = slurp(name, buf, sizeof(buf));

	return qdisc_parse_reply(buf, n, t);
}

static const char *text(const struct qdisc_info *q)
{
	static char s[128];

	assert_non_null(q);
	qdisc_format(q, s, sizeof(s));
	return s;
}

static void test_host(void **state)
{
	struct qdisc_table t = { 0 };

	assert_int_equal(feed(&t, "qdisc-host.bin"), 1);   /* ends with NLMSG_DONE */
	assert_int_equal(t.n, 2);
	assert_string_equal(text(qdisc_table_root(&t, 1)), "noqueue");
	assert_string_equal(text(qdisc_table_root(&t, 4)), "pfifo_fast");
	assert_false(qdisc_is_shaper(qdisc_table_root(&t, 4)));
	assert_null(qdisc_table_root(&t, 2));
	qdisc_table_free(&t);
}

static void test_tbf(void **state)
{
	struct qdisc_table t = { 0 };
	const struct qdisc_info *q;

	assert_int_equal(feed(&t, "qdisc-tbf-htb.bin"), 1);
	q = qdisc_table_root(&t, 3);
	assert_non_null(q);
	assert_string_equal(q->kind, "tbf");
	assert_true(q->rate_bps == 10000000ull);          /* rate 10mbit */
	assert_true(q->burst_bytes == 102400);            /* burst 100kb, from the bucket time */
	assert_true(q->limit == 164900);                  /* latency 50 ms at 10 Mbit + burst */
	assert_true(q->peakrate_bps == 0);
	assert_true(qdisc_is_shaper(q));
	assert_string_equal(text(q), "tbf rate 10Mbit burst 100Kb limit 161Kb");
	qdisc_table_free(&t);
}

/* htb's rate lives in its classes: the top-level one (parent TC_H_ROOT)
 * names the qdisc's rate, not the leaf under it. */
static void test_htb_with_classes(void **state)
{
	struct qdisc_table t = { 0 };
	const struct qdisc_info *q;

	assert_int_equal(feed(&t, "qdisc-tbf-htb.bin"), 1);
	q = qdisc_table_root(&t, 2);
	assert_string_equal(q->kind, "htb");
	assert_int_equal(q->htb_top_classes, 0);
	assert_string_equal(text(q), "htb");                /* no class read yet */
	assert_int_equal(feed(&t, "class-htb.bin"), 1);
	q = qdisc_table_root(&t, 2);
	assert_int_equal(q->htb_top_classes, 1);
	assert_true(q->htb_top_classid == 0x10001);
	assert_true(q->rate_bps == 844000000ull);
	assert_true(q->ceil_bps == 1000000000ull);
	assert_string_equal(text(q), "htb rate 844Mbit ceil 1Gbit");
	assert_int_equal(t.n, 3);                           /* classes are not qdiscs */
	qdisc_table_free(&t);
}

/* netem's options: a struct tc_netem_qopt followed by attributes; the
 * 64-bit latency and jitter attributes win over the 32-bit tick fields. */
static void test_netem(void **state)
{
	struct qdisc_table t = { 0 };
	const struct qdisc_info *q;

	assert_int_equal(feed(&t, "qdisc-netem.bin"), 1);
	q = qdisc_table_root(&t, 3);
	assert_string_equal(q->kind, "netem");
	assert_true(q->delay_ns == 1000000);                /* delay 1ms */
	assert_true(q->jitter_ns > 99000 && q->jitter_ns <= 100000);   /* 100us, in ticks */
	assert_true(q->loss_pct > 0.999 && q->loss_pct < 1.001);
	assert_true(q->limit == 1000);
	assert_true(q->rate_bps == 0);
	assert_string_equal(text(q), "netem delay 1ms jitter 99.97us loss 1%");
	q = qdisc_table_root(&t, 2);
	assert_true(q->delay_ns == 5000000000ull);          /* beyond the 32-bit tick field */
	assert_true(q->rate_bps == 844000000ull);
	assert_string_equal(text(q), "netem delay 5s rate 844Mbit");
	assert_true(qdisc_is_shaper(q));
	qdisc_table_free(&t);
}

/* A reply cut in the middle of a message, an error reply, and a buffer
 * without NLMSG_DONE (more to read). */
static void test_bad_and_partial_replies(void **state)
{
	static char buf[65536];
	struct qdisc_table t = { 0 };
	size_t n = slurp("qdisc-tbf-htb.bin", buf, sizeof(buf));
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} e = { { sizeof(e), NLMSG_ERROR, 0, 1, 0 }, { -EPERM, { 0 } } };
	const struct nlmsghdr *first = (const void *)buf;

	assert_int_equal(qdisc_parse_reply(buf, n - 7, &t), -EINVAL);
	t.n = 0;
	assert_int_equal(qdisc_parse_reply(&e, sizeof(e), &t), -EPERM);
	/* only the first message: a qdisc, no DONE yet */
	assert_int_equal(qdisc_parse_reply(buf, first->nlmsg_len, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(qdisc_parse_reply(buf, 0, &t), 0);
	qdisc_table_free(&t);
}

/* Fuzzing regression (fuzz_qdisc): a message length of 2 GiB or more
 * passed libmnl's check (compared as int) and the walk jumped that far. */
static void test_huge_message_length(void **state)
{
	struct {
		struct nlmsghdr h;
		struct tcmsg tc;
		char pad[64];
	} msg;
	struct qdisc_table t = { 0 };

	memset(&msg, 0, sizeof(msg));
	msg.h.nlmsg_len = 0x80000000u + sizeof(msg);
	msg.h.nlmsg_type = RTM_NEWQDISC;
	assert_int_equal(qdisc_parse_reply(&msg, sizeof(msg), &t), -EINVAL);
	msg.h.nlmsg_len = 0xc4c4c4c4u;   /* what the fuzzer found: the walk jumped 3 GiB on */
	assert_int_equal(qdisc_parse_reply(&msg, sizeof(msg), &t), -EINVAL);
	assert_int_equal(t.n, 0);
	qdisc_table_free(&t);
}

/* Fuzzing regression (fuzz_qdisc, tests/fixtures/netlink/
 * fuzz-tbf-huge-burst.bin): a tbf whose bucket time times its rate is
 * 3e20 bytes; converting that double to uint64_t was undefined (x86 gave
 * 2^63). It saturates. */
static void test_tbf_burst_saturates(void **state)
{
	struct qdisc_table t = { 0 };

	assert_int_equal(feed(&t, "fuzz-tbf-huge-burst.bin"), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.q[1].kind, "tbf");
	assert_true(t.q[1].burst_bytes == UINT64_MAX);
	qdisc_table_free(&t);
}

static void test_rates_and_cut_text(void **state)
{
	struct qdisc_info q = { .kind = "tbf", .rate_bps = 1500000000ull, .burst_bytes = 3 << 20,
				.limit = 512 };
	char s[16], r[16];

	qdisc_format_rate(844000000ull, r, sizeof(r));
	assert_string_equal(r, "844Mbit");
	qdisc_format_rate(64000, r, sizeof(r));
	assert_string_equal(r, "64Kbit");
	qdisc_format_rate(500, r, sizeof(r));
	assert_string_equal(r, "500bit");
	qdisc_format_rate(1500000000ull, r, sizeof(r));
	assert_string_equal(r, "1.5Gbit");
	/* cut to the buffer, always terminated */
	assert_int_equal(qdisc_format(&q, s, sizeof(s)), 15);
	assert_string_equal(s, "tbf rate 1.5Gbi");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_tbf),
		cmocka_unit_test(test_htb_with_classes),
		cmocka_unit_test(test_huge_message_length),
		cmocka_unit_test(test_tbf_burst_saturates),
		cmocka_unit_test(test_netem),
		cmocka_unit_test(test_bad_and_partial_replies),
		cmocka_unit_test(test_rates_and_cut_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
