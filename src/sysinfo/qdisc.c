#include "sysinfo/qdisc.h"
#include "sysinfo/nl_dump.h"
#include "core/vec.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* psched ticks are 64 ns (PSCHED_SHIFT 6, include/net/pkt_sched.h): the
 * unit of tbf's buffer and of netem's 32-bit latency field. */
#define PSCHED_NS_PER_TICK 64

void qdisc_table_free(struct qdisc_table *t)
{
	free(t->q);
	memset(t, 0, sizeof(*t));
}

static struct qdisc_info *table_add(struct qdisc_table *t)
{
	if (VEC_RESERVE(t->q, t->cap, (size_t)t->n + 1))
		return NULL;
	memset(&t->q[t->n], 0, sizeof(t->q[0]));
	return &t->q[t->n++];
}

const struct qdisc_info *qdisc_table_root(const struct qdisc_table *t, uint32_t ifindex)
{
	for (int i = 0; i < t->n; i++)
		if (t->q[i].ifindex == ifindex && t->q[i].parent == TC_H_ROOT)
			return &t->q[i];
	return NULL;
}

/* A payload of at least size bytes, else NULL. */
static const void *payload_of(const struct nlattr *a, size_t size)
{
	return mnl_attr_get_payload_len(a) >= size ? mnl_attr_get_payload(a) : NULL;
}

static uint64_t u64_of(const struct nlattr *a)
{
	const uint64_t *v = payload_of(a, sizeof(*v));
	uint64_t x = 0;

	if (v)
		memcpy(&x, v, sizeof(x));
	return x;
}

/* Netlink's 32-bit probabilities: 0 none, UINT32_MAX 100%. */
static double prob_pct(uint32_t p)
{
	return 100.0 * (double)p / 4294967295.0;
}

/* A count computed in double, saturated at the top of uint64_t: past it
 * the conversion is undefined (a hostile reply's bucket times its rate
 * reached 3e20; found by fuzz_qdisc). */
static uint64_t saturate_u64(double v)
{
	if (!(v >= 0))
		return 0;
	return v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
}

static void parse_tbf(const struct nlattr *opts, struct qdisc_info *q)
{
	const struct nlattr *a;
	uint64_t rate64 = 0, prate64 = 0;
	struct tc_tbf_qopt p;
	bool have = false;

	mnl_attr_for_each_nested(a, opts) {
		const void *v;

		switch (mnl_attr_get_type(a)) {
		case TCA_TBF_PARMS:
			v = payload_of(a, sizeof(p));
			if (v) {
				memcpy(&p, v, sizeof(p));
				have = true;
			}
			break;
		case TCA_TBF_RATE64:   /* only sent for rates >= 2^32 bytes/s */
			rate64 = u64_of(a);
			break;
		case TCA_TBF_PRATE64:
			prate64 = u64_of(a);
			break;
		}
	}
	if (!have)
		return;
	q->rate_bps = 8 * (rate64 ? rate64 : p.rate.rate);
	q->peakrate_bps = 8 * (prate64 ? prate64 : p.peakrate.rate);
	q->limit = p.limit;
	/* the bucket is given as the time to send it at the rate */
	q->burst_bytes = saturate_u64((double)p.buffer * PSCHED_NS_PER_TICK * (double)(q->rate_bps / 8) / 1e9 + 0.5);
}

static void parse_netem(const struct nlattr *opts, struct qdisc_info *q)
{
	const struct tc_netem_qopt *qp = payload_of(opts, sizeof(*qp));
	size_t skip = MNL_ALIGN(sizeof(*qp)), rest;
	const struct nlattr *attr;
	const char *tail;
	struct tc_netem_qopt o;
	uint64_t rate64 = 0;

	/* TCA_OPTIONS of netem is a struct tc_netem_qopt followed by
	 * attributes (netem_dump()), not a plain nest */
	if (!qp)
		return;
	memcpy(&o, qp, sizeof(o));
	q->limit = o.limit;
	q->loss_pct = prob_pct(o.loss);
	q->duplicate_pct = prob_pct(o.duplicate);
	/* the 32-bit fields are capped; the 64-bit attributes below, when
	 * present, are exact */
	q->delay_ns = (uint64_t)o.latency * PSCHED_NS_PER_TICK;
	q->jitter_ns = (uint64_t)o.jitter * PSCHED_NS_PER_TICK;
	if (mnl_attr_get_payload_len(opts) <= skip)
		return;
	tail = (const char *)mnl_attr_get_payload(opts) + skip;
	rest = mnl_attr_get_payload_len(opts) - skip;
	mnl_attr_for_each_payload((const void *)tail, rest) {
		const struct tc_netem_rate *r;

		switch (mnl_attr_get_type(attr)) {
		case TCA_NETEM_LATENCY64:
			q->delay_ns = u64_of(attr);
			break;
		case TCA_NETEM_JITTER64:
			q->jitter_ns = u64_of(attr);
			break;
		case TCA_NETEM_RATE:
			r = payload_of(attr, sizeof(*r));
			if (r && !rate64)
				q->rate_bps = 8 * (uint64_t)r->rate;
			break;
		case TCA_NETEM_RATE64:
			rate64 = u64_of(attr);
			q->rate_bps = 8 * rate64;
			break;
		}
	}
}

static void parse_htb_class(const struct nlattr *opts, uint64_t *rate, uint64_t *ceil)
{
	const struct nlattr *a;
	uint64_t rate64 = 0, ceil64 = 0;
	struct tc_htb_opt p;
	bool have = false;

	mnl_attr_for_each_nested(a, opts) {
		const void *v;

		switch (mnl_attr_get_type(a)) {
		case TCA_HTB_PARMS:
			v = payload_of(a, sizeof(p));
			if (v) {
				memcpy(&p, v, sizeof(p));
				have = true;
			}
			break;
		case TCA_HTB_RATE64:
			rate64 = u64_of(a);
			break;
		case TCA_HTB_CEIL64:
			ceil64 = u64_of(a);
			break;
		}
	}
	if (!have)
		return;
	*rate = 8 * (rate64 ? rate64 : p.rate.rate);
	*ceil = 8 * (ceil64 ? ceil64 : p.ceil.rate);
}

/* The kind and the options attribute of a qdisc or class message. */
static int tc_attrs(const struct nlmsghdr *nlh, const char **kind, const struct nlattr **opts)
{
	const struct nlattr *a;

	*kind = NULL;
	*opts = NULL;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct tcmsg))
		return -EINVAL;
	mnl_attr_for_each(a, nlh, sizeof(struct tcmsg)) {
		if (mnl_attr_get_type(a) == TCA_KIND && mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			*kind = mnl_attr_get_str(a);
		else if (mnl_attr_get_type(a) == TCA_OPTIONS)
			*opts = a;
	}
	return 0;
}

static int parse_qdisc(const struct nlmsghdr *nlh, struct qdisc_table *t)
{
	const struct tcmsg *tc = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *opts;
	struct qdisc_info *q;
	const char *kind;
	int err;

	err = tc_attrs(nlh, &kind, &opts);
	if (err)
		return err;
	q = table_add(t);
	if (!q)
		return -ENOMEM;
	q->ifindex = (uint32_t)tc->tcm_ifindex;
	q->handle = tc->tcm_handle;
	q->parent = tc->tcm_parent;
	snprintf(q->kind, sizeof(q->kind), "%s", kind ? kind : "?");
	if (!opts)
		return 0;
	if (!strcmp(q->kind, "tbf"))
		parse_tbf(opts, q);
	else if (!strcmp(q->kind, "netem"))
		parse_netem(opts, q);
	return 0;
}

/* A top-level htb class gives the root htb qdisc of its device its rate:
 * the first by class id. htb_dump_class() reports a top-level class with
 * parent TC_H_ROOT; its id's major number is the qdisc's handle. */
static int parse_class(const struct nlmsghdr *nlh, struct qdisc_table *t)
{
	const struct tcmsg *tc = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *opts;
	const char *kind;
	uint64_t rate = 0, ceil = 0;
	int err;

	err = tc_attrs(nlh, &kind, &opts);
	if (err)
		return err;
	if (!kind || strcmp(kind, "htb") || !opts)
		return 0;
	for (int i = 0; i < t->n; i++) {
		struct qdisc_info *q = &t->q[i];

		if (q->ifindex != (uint32_t)tc->tcm_ifindex || q->parent != TC_H_ROOT ||
		    strcmp(q->kind, "htb") || tc->tcm_parent != TC_H_ROOT ||
		    TC_H_MAJ(tc->tcm_handle) != TC_H_MAJ(q->handle))
			continue;
		parse_htb_class(opts, &rate, &ceil);
		if (!q->htb_top_classes++ || tc->tcm_handle < q->htb_top_classid) {
			q->htb_top_classid = tc->tcm_handle;
			q->rate_bps = rate;
			q->ceil_bps = ceil;
		}
		break;
	}
	return 0;
}

static int on_qdisc_msg(const struct nlmsghdr *nlh, void *ctx)
{
	if (nlh->nlmsg_type == RTM_NEWQDISC)
		return parse_qdisc(nlh, ctx);
	if (nlh->nlmsg_type == RTM_NEWTCLASS)
		return parse_class(nlh, ctx);
	return 0;
}

int qdisc_parse_reply(const void *buf, size_t len, struct qdisc_table *t)
{
	return nl_dump_walk(buf, len, on_qdisc_msg, t);
}

void qdisc_format_rate(uint64_t bps, char *buf, size_t len)
{
	if (bps >= 1000000000ull)
		snprintf(buf, len, "%.4gGbit", (double)bps / 1e9);
	else if (bps >= 1000000ull)
		snprintf(buf, len, "%.4gMbit", (double)bps / 1e6);
	else if (bps >= 1000ull)
		snprintf(buf, len, "%.4gKbit", (double)bps / 1e3);
	else
		snprintf(buf, len, "%llubit", (unsigned long long)bps);
}

/* tc's sizes: 1024-based "b", "Kb", "Mb". */
static void format_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1024ull * 1024)
		snprintf(buf, len, "%.4gMb", (double)bytes / (1024.0 * 1024));
	else if (bytes >= 1024)
		snprintf(buf, len, "%.4gKb", (double)bytes / 1024.0);
	else
		snprintf(buf, len, "%llub", (unsigned long long)bytes);
}

static void format_time(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000ull)
		snprintf(buf, len, "%.4gs", (double)ns / 1e9);
	else if (ns >= 1000000ull)
		snprintf(buf, len, "%.4gms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.4gus", (double)ns / 1e3);
}

/* Appends " word value" to buf at *at. */
static void put(char *buf, size_t len, size_t *at, const char *word, const char *value)
{
	int n;

	if (*at + 1 >= len)
		return;
	n = snprintf(buf + *at, len - *at, " %s %s", word, value);
	if (n > 0)
		*at = *at + (size_t)n >= len ? len - 1 : *at + (size_t)n;
}

size_t qdisc_format(const struct qdisc_info *q, char *buf, size_t len)
{
	char v[32];
	size_t at;
	int n;

	if (!len)
		return 0;
	n = snprintf(buf, len, "%s", q->kind);
	at = n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
	if (!strcmp(q->kind, "tbf")) {
		qdisc_format_rate(q->rate_bps, v, sizeof(v));
		put(buf, len, &at, "rate", v);
		format_size(q->burst_bytes, v, sizeof(v));
		put(buf, len, &at, "burst", v);
		format_size(q->limit, v, sizeof(v));
		put(buf, len, &at, "limit", v);
		if (q->peakrate_bps) {
			qdisc_format_rate(q->peakrate_bps, v, sizeof(v));
			put(buf, len, &at, "peakrate", v);
		}
	} else if (!strcmp(q->kind, "netem")) {
		format_time(q->delay_ns, v, sizeof(v));
		put(buf, len, &at, "delay", v);
		if (q->jitter_ns) {
			format_time(q->jitter_ns, v, sizeof(v));
			put(buf, len, &at, "jitter", v);
		}
		if (q->loss_pct > 0) {
			snprintf(v, sizeof(v), "%.3g%%", q->loss_pct);
			put(buf, len, &at, "loss", v);
		}
		if (q->duplicate_pct > 0) {
			snprintf(v, sizeof(v), "%.3g%%", q->duplicate_pct);
			put(buf, len, &at, "duplicate", v);
		}
		if (q->rate_bps) {
			qdisc_format_rate(q->rate_bps, v, sizeof(v));
			put(buf, len, &at, "rate", v);
		}
	} else if (!strcmp(q->kind, "htb") && q->htb_top_classes) {
		qdisc_format_rate(q->rate_bps, v, sizeof(v));
		put(buf, len, &at, "rate", v);
		qdisc_format_rate(q->ceil_bps, v, sizeof(v));
		put(buf, len, &at, "ceil", v);
	}
	return at;
}

bool qdisc_is_shaper(const struct qdisc_info *q)
{
	static const char *const shapers[] = { "tbf", "netem", "htb", "hfsc", "cake", "cbs", "taprio", "etf" };

	for (size_t i = 0; i < sizeof(shapers) / sizeof(shapers[0]); i++)
		if (!strcmp(q->kind, shapers[i]))
			return true;
	return false;
}

/* --- the socket I/O ---------------------------------------------------- */

/* Sends one dump request and feeds every reply buffer to the parser. */
static int dump(struct mnl_socket *nl, uint16_t type, uint32_t ifindex, uint32_t seq,
		struct qdisc_table *t)
{
	char buf[MNL_SOCKET_BUFFER_SIZE > 32768 ? MNL_SOCKET_BUFFER_SIZE : 32768];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *tc;
	int rc;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	tc = mnl_nlmsg_put_extra_header(nlh, sizeof(*tc));
	tc->tcm_family = AF_UNSPEC;
	tc->tcm_ifindex = (int)ifindex;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));

		if (n < 0)
			return errno == EINTR ? -EINTR : -errno;
		rc = qdisc_parse_reply(buf, (size_t)n, t);
	} while (rc == 0);
	return rc < 0 ? rc : 0;
}

int qdisc_dump(struct qdisc_table *t)
{
	struct mnl_socket *nl;
	uint32_t seq = (uint32_t)time(NULL);
	int err;

	t->n = 0;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	err = dump(nl, RTM_GETQDISC, 0, seq, t);
	/* classes are dumped per device: only root htb qdiscs need them */
	for (int i = 0, n = t->n; !err && i < n; i++)
		if (t->q[i].parent == TC_H_ROOT && !strcmp(t->q[i].kind, "htb"))
			err = dump(nl, RTM_GETTCLASS, t->q[i].ifindex, ++seq, t);
	for (int i = 0; !err && i < t->n; i++)
		if (t->q[i].parent == TC_H_ROOT && !if_indextoname(t->q[i].ifindex, t->q[i].dev))
			t->q[i].dev[0] = 0;   /* the device went away meanwhile */
out:
	mnl_socket_close(nl);
	return err;
}
