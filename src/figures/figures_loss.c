/* The loss section: where packets are lost and what it costs. Beside the
 * net section's rows: each port's retransmits and drops (rows: struct
 * net_port_loss) and each device's drops (struct net_dev_loss); the
 * section's own rows: drop places (struct loss_drop_stats), drop reasons
 * (struct loss_reason_stats), listening ports (struct
 * loss_listener_stats), each namespace's TCP counters (struct
 * loss_ns_stats), and each CPU's receive backlog (struct
 * loss_cpu_stats). */
#include "figures/figures.h"
#include "model/loss_model.h"
#include "model/net_loss.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PL(field) offsetof(struct net_port_loss, field)

static const char *kind_name(int k)
{
	return loss_kind_name(k);
}

static const struct fig_keys kinds = { DBT_RETX_KINDS, kind_name, "<kind>", true };

/* The report's retransmits table has a column of each kind but other. */
static const struct fig_key_view kind_views[DBT_RETX_KINDS] = {
	[DBT_RETX_TIMEOUT] = { .report = { "timeout", 50 } },
	[DBT_RETX_FAST] = { .report = { "fast", 60 } },
	[DBT_RETX_TLP] = { .report = { "tlp", 70 } },
	[DBT_RETX_SYN] = { .report = { "syn", 80 } },
};

static const struct figure retx_figs[] = {
	{ .name = "segments", .type = FIG_COUNT, .offset = PL(retrans),
	  .doc = "retransmitted segments: `tcp_skb_pcount()` of each retransmitted skb, what the kernel adds to "
		 "the socket's `tcpi_total_retrans` and the host's `TcpRetransSegs`. From 6.17 the tracepoint also "
		 "fires for attempts that failed before anything was sent (negative `err`): those are left out, as "
		 "the kernel does",
	  .report = { "retransmits", 40 } },
	{ .name = "per_s", .unit = "/s", .type = FIG_NUM, .offset = PL(retrans_per_s), .doc = "`segments` per second",
	  .diff = { FIG_LOWER, 1, 0.25, 0, "retransmits_per_s" }, .top = { 0, "RETX/s", 7, 0, 90 } },
	{ .name = "segs", .type = FIG_COUNT, .offset = PL(segs), .keys = &kinds, .key_views = kind_views,
	  .doc = "segments by kind, decided from the socket when the tracepoint fires: `syn` when the segment "
		 "carries SYN (a connect() unanswered) or for `tcp_retransmit_synack` (a listener's SYN-ACK); "
		 "`timeout` when `icsk_ca_state` is Loss (the retransmission timer fired and the go-back-N "
		 "re-sending after it); `fast` in Recovery (fast retransmit, SACK/RACK recovery); `tlp` otherwise "
		 "when the socket's pending timer is the loss probe (a tail-loss probe); `other` for anything else "
		 "(kept so the kinds add up to `segments`). With one packet in flight Linux sends the tail-loss "
		 "probe after 2 RTT + 200 ms capped at the RTO, so a lost lone request is usually re-sent as `tlp` "
		 "after about an RTO" },
	{ .name = "rto_timeouts", .type = FIG_COUNT, .offset = PL(rto_timer),
	  .doc = "retransmission timer expirations that re-sent data (`timeout` retransmits sent from the timer "
		 "itself, not the go-back-N after it)" },
	{ .name = "rto_per_s", .unit = "/s", .type = FIG_NUM, .offset = PL(rto_per_s), .doc = "`rto_timeouts` per second",
	  .diff = { FIG_LOWER, 0.2, 0.25 }, .top = { 0, "RTO/s", 6, 1, 100 }, .report = { "RTO/s", 90 } },
	{ .name = "tail_loss_probes", .type = FIG_COUNT, .offset = PL(tlp_probes), .doc = "tail-loss probes sent" },
	{ .name = "rto_waits", .type = FIG_COUNT, .offset = PL(stalls),
	  .doc = "unacknowledged data that waited for a retransmit timer (an RTO or a TLP) before it was re-sent, "
		 "once per stall however often the timer fires for the same `snd_una`. On a client row each is a "
		 "request whose response time includes a retransmit timeout; on a server row a reply that was lost, "
		 "or the client's ACK of it (then the client did not wait): where this host has the client row of a "
		 "port, it is the one to read",
	  .report = { "RTO waits", 100 } },
	{ .name = "rto_wait_pct", .unit = "%", .type = FIG_NUM, .offset = PL(stall_pct),
	  .doc = "`rto_waits` per 100 `requests` of the row; `null` without requests",
	  .diff = { FIG_LOWER, 0.05, 0.25 }, .report = { "RTO wait %", 110 } },
	{ .name = "rto_wait_ms", .unit = "ms", .type = FIG_NUM, .offset = PL(stall_rto_ms),
	  .doc = "the mean retransmission timeout (`icsk_rto`) of the sockets at their waits, ms; `null` without "
		 "waits, or when the kernel's HZ is unknown (read from `/boot/config-RELEASE` or "
		 "`/proc/config.gz`)",
	  .report = { "RTO ms", 120 } },
	{ .name = "connections", .type = FIG_COUNT, .offset = PL(conns),
	  .doc = "sockets of the row that retransmitted for the first time (since dbtrace started) in the window" },
};
static const struct fig_table retx_table = FIG_TABLE(NULL, retx_figs);

static const struct figure port_loss_figs[] = {
	{ .name = "retransmits", .type = FIG_OBJECT, .sub = &retx_table,
	  .doc = "the port's retransmissions (the members below)" },
	{ .name = "drops", .type = FIG_COUNT, .offset = PL(drops),
	  .doc = "dropped skbs whose socket (`skb->sk`, or the receiving socket the tracepoint names on 6.12+) is "
		 "a TCP socket of this port and role",
	  .report = { "drops", 130 } },
	{ .name = "drops_per_s", .unit = "/s", .type = FIG_NUM, .offset = PL(drops_per_s), .doc = "`drops` per second",
	  .diff = { FIG_LOWER, 1, 0.25 }, .top = { 0, "DROP/s", 7, 0, 110 } },
};

const struct fig_table fig_port_loss = FIG_TABLE("port_loss", port_loss_figs);

static const struct figure dev_loss_figs[] = {
	{ .name = "drops", .type = FIG_COUNT, .offset = offsetof(struct net_dev_loss, drops),
	  .doc = "dropped skbs whose `skb->dev` is the device" },
	{ .name = "drops_per_s", .unit = "/s", .type = FIG_NUM, .offset = offsetof(struct net_dev_loss, drops_per_s),
	  .doc = "`drops` per second",
	  .diff = { FIG_LOWER, 1, 0.25 }, .top = { 0, "DROP/s", 7, 0, 100 } },
};

const struct fig_table fig_dev_loss = FIG_TABLE("device_loss", dev_loss_figs);

/* --- the section's own rows --------------------------------------------- */

enum { TEXT_REASON = 1, TEXT_DEVICE, TEXT_NETNS, TEXT_ROLE, TEXT_NS_NAME, TEXT_REASON_NAME };

#define DROP(field) offsetof(struct loss_drop_stats, field)
#define LIS(field) offsetof(struct loss_listener_stats, field)
#define NS(field) offsetof(struct loss_ns_stats, field)
#define SOFTNET(field) offsetof(struct loss_cpu_stats, field)

static const char *drop_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	const struct loss_drop_stats *d = row;

	(void)ctx;
	(void)buf;
	(void)len;
	switch (f->which) {
	case TEXT_REASON: return d->reason_name;
	case TEXT_DEVICE: return d->dev[0] ? d->dev : NULL;
	case TEXT_NETNS: return d->foreign ? d->netns_name : NULL;
	case TEXT_ROLE: return d->port ? net_role_name(d->role) : NULL;
	default: return NULL;
	}
}

static void drop_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	struct loss_drop_stats *d = row;

	(void)ctx;
	switch (f->which) {
	case TEXT_REASON:
		snprintf(d->reason_name, sizeof(d->reason_name), "%s", text ? text : "");
		break;
	case TEXT_DEVICE:
		snprintf(d->dev, sizeof(d->dev), "%s", text ? text : "");
		break;
	case TEXT_NETNS:
		snprintf(d->netns_name, sizeof(d->netns_name), "%s", text ? text : "");
		d->foreign = d->netns_name[0] != 0;
		break;
	case TEXT_ROLE:
		d->role = text && !strcmp(text, "client") ? DBT_NET_CLIENT : DBT_NET_SERVER;
		break;
	}
}

static bool has_port(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return ((const struct loss_drop_stats *)row)->port != 0;
}

static const struct figure drop_figs[] = {
	{ .name = "reason", .type = FIG_TEXT, .which = TEXT_REASON,
	  .doc = "the running kernel's drop reason (`qdisc_drop`, `not_specified`, `tcp_listen_overflow`, ...; "
		 "`unknown` on kernels without reasons)",
	  .report = { "reason", 10 } },
	{ .name = "count", .type = FIG_COUNT, .offset = DROP(count), .doc = "packets dropped there",
	  .report = { "drops", 50 } },
	{ .name = "per_s", .unit = "/s", .type = FIG_NUM, .offset = DROP(per_s), .doc = "`count` per second",
	  .report = { "drops/s", 60 } },
	{ .name = "device", .type = FIG_TEXT, .which = TEXT_DEVICE,
	  .doc = "the skb's device; `null` when it had none", .report = { "device", 20 } },
	{ .name = "netns", .type = FIG_TEXT, .which = TEXT_NETNS,
	  .doc = "the device's (else the socket's) network namespace; `null` for dbtrace's own",
	  .report = { "netns", 30 } },
	{ .name = "port", .type = FIG_U16, .offset = DROP(port), .known = has_port,
	  .doc = "the service port of the skb's TCP socket; `null` without one", .report = { "port", 40 } },
	{ .name = "role", .type = FIG_TEXT, .which = TEXT_ROLE, .doc = "that port's role; `null` without one" },
};

const struct fig_table fig_drops = { "drops", drop_figs, (int)(sizeof(drop_figs) / sizeof(drop_figs[0])),
				     drop_text, drop_parse };

static const char *reason_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	(void)f;
	(void)ctx;
	(void)buf;
	(void)len;
	return ((const struct loss_reason_stats *)row)->name;
}

static void reason_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	struct loss_reason_stats *r = row;

	(void)f;
	(void)ctx;
	snprintf(r->name, sizeof(r->name), "%s", text ? text : "");
}

static const struct figure reason_figs[] = {
	{ .name = "reason", .type = FIG_TEXT, .which = TEXT_REASON_NAME, .doc = "the drop reason" },
	{ .name = "count", .type = FIG_COUNT, .offset = offsetof(struct loss_reason_stats, count),
	  .doc = "packets dropped for it, everywhere" },
	{ .name = "per_s", .unit = "/s", .type = FIG_NUM, .offset = offsetof(struct loss_reason_stats, per_s),
	  .doc = "`count` per second" },
};

const struct fig_table fig_reasons = { "drop_reasons", reason_figs,
				       (int)(sizeof(reason_figs) / sizeof(reason_figs[0])), reason_text,
				       reason_parse };

/* A listener's and a namespace's network namespace: null for dbtrace's
 * own. Rows: the listener's netns_name, foreign; the namespace's name. */
static const char *lis_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	const struct loss_listener_stats *l = row;

	(void)f;
	(void)ctx;
	(void)buf;
	(void)len;
	return l->foreign ? l->netns_name : NULL;
}

static void lis_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	struct loss_listener_stats *l = row;

	(void)f;
	(void)ctx;
	snprintf(l->netns_name, sizeof(l->netns_name), "%s", text ? text : "");
	l->foreign = l->netns_name[0] != 0;
}

static bool has_drops(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return ((const struct loss_listener_stats *)row)->have_drops;
}

static const struct figure listener_figs[] = {
	{ .name = "port", .type = FIG_U16, .offset = LIS(port), .doc = "the listening port",
	  .report = { "port", 10 } },
	{ .name = "netns", .type = FIG_TEXT, .which = TEXT_NETNS,
	  .doc = "its network namespace; `null` for dbtrace's own", .report = { "netns", 20 } },
	{ .name = "sockets", .type = FIG_INT, .offset = LIS(sockets),
	  .doc = "listening sockets on it (SO_REUSEPORT groups, IPv4 and IPv6)", .report = { "sockets", 30 } },
	{ .name = "accept_queue", .type = FIG_U32, .offset = LIS(queue),
	  .doc = "connections waiting for accept() at the window's end (`ss` Recv-Q)",
	  .report = { "accept queue", 40 } },
	{ .name = "backlog", .type = FIG_U32, .offset = LIS(backlog),
	  .doc = "the queue's limit: the listen() backlog capped at `somaxconn` (`ss` Send-Q; the kernel admits "
		 "one more than it)",
	  .report = { "backlog", 50 } },
	{ .name = "overflows", .type = FIG_COUNT, .offset = LIS(overflows), .known = has_drops,
	  .doc = "the sockets' own drop counters over the window (`skmem` `d` in `ss -m`), which "
		 "`tcp_listendrop()` raises for every SYN or handshake-completing ACK the listener drops: every "
		 "accept-queue overflow (the namespace's `ListenOverflows`), and the rarer drops for other reasons "
		 "(`ListenDrops` counts both)",
	  .report = { "overflows", 60 } },
	{ .name = "overflows_per_s", .unit = "/s", .type = FIG_NUM, .offset = LIS(overflows_per_s),
	  .doc = "`overflows` per second" },
	{ .name = "somaxconn", .type = FIG_LONG, .offset = LIS(somaxconn),
	  .doc = "`net.core.somaxconn` of the listener's namespace", .report = { "somaxconn", 70 } },
};

const struct fig_table fig_listeners = { "listeners", listener_figs,
					 (int)(sizeof(listener_figs) / sizeof(listener_figs[0])), lis_text, lis_parse };

static const char *ns_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	const struct loss_ns_stats *n = row;

	(void)f;
	(void)ctx;
	(void)buf;
	(void)len;
	return n->foreign ? n->name : NULL;
}

static void ns_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	struct loss_ns_stats *n = row;

	(void)f;
	(void)ctx;
	snprintf(n->name, sizeof(n->name), "%s", text ? text : "");
	n->foreign = n->name[0] != 0;
}

/* netstat read at both ends of the window */
static bool ns_read(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return ((const struct loss_ns_stats *)row)->have;
}

#define NS_COUNT(name_, field_, doc_) \
	{ .name = name_, .type = FIG_COUNT, .offset = NS(field_), .known = ns_read, .doc = doc_ }

static const struct figure netstat_figs[] = {
	{ .name = "netns", .type = FIG_TEXT, .which = TEXT_NS_NAME,
	  .doc = "the namespace; `null` for dbtrace's own (listed first)" },
	NS_COUNT("listen_overflows", listen_overflows, "`TcpExt` `ListenOverflows`: accept queue full"),
	NS_COUNT("listen_drops", listen_drops, "`TcpExt` `ListenDrops`: every drop at a listener"),
	{ .name = "listen_overflows_per_s", .unit = "/s", .type = FIG_NUM, .offset = NS(listen_overflows_per_s),
	  .doc = "`listen_overflows` per second" },
	NS_COUNT("memory_pressures", memory_pressures, "`TcpExt` `TCPMemoryPressures`: entries into `tcp_mem` pressure"),
	NS_COUNT("memory_pressure_ms", memory_pressure_ms, "`TcpExt` `TCPMemoryPressuresChrono`: time under it"),
	NS_COUNT("abort_on_memory", abort_on_memory, "`TcpExt` `TCPAbortOnMemory`: connections reset for memory"),
	NS_COUNT("rto_timeouts", timeouts, "`TcpExt` `TCPTimeouts`: RTO expirations"),
	NS_COUNT("loss_probes", loss_probes, "`TcpExt` `TCPLossProbes`: tail loss probes sent"),
	NS_COUNT("retrans_segs", retrans_segs, "`Tcp` `RetransSegs`: segments retransmitted"),
	{ .name = "somaxconn", .type = FIG_LONG, .offset = NS(somaxconn), .doc = "`net.core.somaxconn`" },
	{ .name = "tcp_max_syn_backlog", .type = FIG_LONG, .offset = NS(tcp_max_syn_backlog),
	  .doc = "`net.ipv4.tcp_max_syn_backlog`" },
};

const struct fig_table fig_netstat = { "netstat", netstat_figs,
				       (int)(sizeof(netstat_figs) / sizeof(netstat_figs[0])), ns_text, ns_parse };

static const struct figure softnet_figs[] = {
	{ .name = "processed", .type = FIG_COUNT, .offset = SOFTNET(processed), .doc = "packets NET_RX handled" },
	{ .name = "backlog_drops", .type = FIG_COUNT, .offset = SOFTNET(backlog_drops),
	  .doc = "packets its receive backlog refused because it already held `net.core.netdev_max_backlog` "
		 "(netif_rx, RPS and veth fill it)",
	  .report = { "backlog drops", 20 } },
	{ .name = "backlog_drops_per_s", .unit = "/s", .type = FIG_NUM, .offset = SOFTNET(backlog_drops_per_s),
	  .doc = "`backlog_drops` per second", .report = { "backlog drops/s", 30 } },
	{ .name = "time_squeezes", .type = FIG_COUNT, .offset = SOFTNET(time_squeezes),
	  .doc = "NET_RX runs that stopped with work left, out of budget or time",
	  .report = { "time squeezes", 40 } },
	{ .name = "time_squeezes_per_s", .unit = "/s", .type = FIG_NUM, .offset = SOFTNET(time_squeezes_per_s),
	  .doc = "`time_squeezes` per second" },
};

const struct fig_table fig_softnet = FIG_TABLE("softnet", softnet_figs);
