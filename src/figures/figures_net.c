/* The net section: each network device (rows: struct net_dev_stats) and
 * each service port and role (rows: struct net_port_stats) over an
 * interval or the whole capture. The loss family's numbers beside them
 * are figures_loss.c's. */
#include "figures/figures.h"
#include "dbtrace/hist.h"
#include "model/hist.h"
#include "model/net_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define DEV(field) offsetof(struct net_dev_stats, field)
#define PORT(field) offsetof(struct net_port_stats, field)

/* Both directions; an unknown one counts as nothing. */
static double both(double tx, double rx)
{
	return (isnan(tx) ? 0 : tx) + (isnan(rx) ? 0 : rx);
}

static const struct net_dev_stats *dev(const void *row)
{
	return row;
}

/* top sorts a device by both directions at once */
static double dev_pps(const void *row)
{
	return both(dev(row)->tx_pps, dev(row)->rx_pps);
}

static double dev_mbit(const void *row)
{
	return both(dev(row)->tx_mbps, dev(row)->rx_mbps);
}

/* A histogram sampled under load (some timed measurement counts for
 * several): its percentiles are estimates. */
static bool hist_sampled(const __u64 *hist, uint64_t timed)
{
	return timed < hist_total(hist, DBT_HIST_BUCKETS);
}

static bool txq_sampled(const void *row)
{
	return hist_sampled(dev(row)->txq_hist, dev(row)->txq_timed);
}

static bool resp_sampled(const void *row)
{
	const struct net_port_stats *p = row;

	return hist_sampled(p->resp_hist, p->resp_timed);
}

static bool rxq_sampled(const void *row)
{
	const struct net_port_stats *p = row;

	return hist_sampled(p->rxq_hist, p->rxq_timed);
}

enum { TEXT_QDISC = 1 };

static const char *dev_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return f->which == TEXT_QDISC && dev(row)->qdisc_text[0] ? dev(row)->qdisc_text : NULL;
}

static void dev_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	struct net_dev_stats *d = row;

	(void)ctx;
	if (f->which == TEXT_QDISC)
		snprintf(d->qdisc_text, sizeof(d->qdisc_text), "%s", text ? text : "");
}

static const struct figure dev_figs[] = {
	{ .name = "qdisc", .type = FIG_TEXT, .which = TEXT_QDISC,
	  .doc = "the root qdisc as `tc` would describe it: `noqueue`, `fq_codel`, `tbf rate 20Mbit burst 100Kb "
		 "limit 344.1Kb`, `netem delay 1ms jitter 100us loss 1%`, `htb rate 844Mbit ceil 1Gbit` (the rate "
		 "of the top-level class); read over rtnetlink; `null` when unknown",
	  .top = { 0, "QDISC", 0, 0, 110 } },
	{ .name = "speed_mbps", .unit = "Mbit/s", .type = FIG_NUM, .offset = DEV(speed_mbps),
	  .doc = "link speed from /sys/class/net/NAME/speed; `null` for virtual devices, links that are down or "
		 "report no speed, and devices of other namespaces",
	  .top = { 0, "SPEED", 7, 0, 20 }, .report = { "speed Mbit/s", 40 } },
	{ .name = "tx_pps", .unit = "/s", .type = FIG_NUM, .offset = DEV(tx_pps),
	  .doc = "packets/s sent, from the device's counters (/proc/net/dev read in its namespace). For a device "
		 "of another namespace whose counters were first read inside the window, the tx figures come from "
		 "the tx probes and the rx ones are `null`",
	  .diff = { FIG_NEUTRAL, 10, 0.05, 0, NULL, 30 }, .top = { 'P', "TXpps", 9, 0, 30, dev_pps },
	  .report = { "tx pps", 50 } },
	{ .name = "rx_pps", .unit = "/s", .type = FIG_NUM, .offset = DEV(rx_pps), .doc = "packets/s received",
	  .diff = { FIG_NEUTRAL, 10, 0.05, 0, NULL, 40 }, .top = { 0, "RXpps", 9, 0, 40 },
	  .report = { "rx pps", 60 } },
	{ .name = "tx_mbps", .unit = "Mbit/s", .type = FIG_NUM, .offset = DEV(tx_mbps), .doc = "Mbit/s sent",
	  .diff = { FIG_NEUTRAL, 0.1, 0.05, 0, NULL, 10 }, .top = { 'M', "TXMbit", 8, 1, 50, dev_mbit },
	  .report = { "tx Mbit/s", 70 } },
	{ .name = "rx_mbps", .unit = "Mbit/s", .type = FIG_NUM, .offset = DEV(rx_mbps), .doc = "Mbit/s received",
	  .diff = { FIG_NEUTRAL, 0.1, 0.05, 0, NULL, 20 }, .top = { 0, "RXMbit", 8, 1, 60 },
	  .report = { "rx Mbit/s", 80 } },
	{ .name = "util_pct", .unit = "%", .type = FIG_NUM, .offset = DEV(util_pct),
	  .doc = "the busier direction as % of `speed_mbps`; `null` without a speed",
	  .diff = { FIG_NEUTRAL, 1, 0.05, 0, NULL, 50 }, .top = { 0, "%LINK", 6, 1, 70 },
	  .report = { "util %", 90 } },
	{ .name = "txq_packets", .type = FIG_COUNT, .offset = DEV(txq_samples),
	  .doc = "packets the tx queue histogram stands for: every packet timed below the sampling rate, and under "
		 "load (see the sampling note below) one in sixteen timed and counting sixteen, so that it "
		 "estimates all packets sent (packets and bytes are counted for all); `txq_hist.timed` says how "
		 "many were really timed. A GSO packet counts once, before segmentation. (Schema /1: one in four "
		 "timed above 20 per ms, unweighted.)",
	  .report = { "txq packets", 100 } },
	{ .name = "txq_p50_us", .unit = "µs", .type = FIG_NUM, .offset = DEV(txq_p50_us), .sampled = txq_sampled,
	  .doc = "median tx queue latency: from `net_dev_queue` (the skb handed to the qdisc) to `net_dev_xmit` "
		 "(the driver took it), qdisc plus driver queue; `null` without a sample",
	  .diff = { FIG_LOWER, 5, 0.25, 0, NULL, 60 }, .top = { 0, "TXQp50us", 9, 0, 80 },
	  .report = { "txq p50 µs", 110 } },
	{ .name = "txq_p99_us", .unit = "µs", .type = FIG_NUM, .offset = DEV(txq_p99_us), .sampled = txq_sampled,
	  .doc = "p99 tx queue latency",
	  .diff = { FIG_LOWER, 5, 0.25, 0, NULL, 70 }, .top = { 'Q', "TXQp99us", 9, 0, 90 },
	  .report = { "txq p99 µs", 120 } },
	{ .name = "txq_hist", .type = FIG_HIST, .offset = DEV(txq_hist), .timed_offset = DEV(txq_timed),
	  .sample_weight = DBT_BUSY_KEEP,
	  .doc = "the tx queue latency histogram behind those percentiles, a fine histogram (below); `buckets` "
		 "empty without a sample (older captures lack it)" },
};

const struct fig_table fig_devices = { "devices", dev_figs, (int)(sizeof(dev_figs) / sizeof(dev_figs[0])),
				       dev_text, dev_parse };

/* The request counts of a port row the net family did not measure (the
 * loss family's rows alone, ctx: a bool that says so) are null. */
static bool measured(const void *row, int key, const void *ctx)
{
	(void)row;
	(void)key;
	return !ctx || !*(const bool *)ctx;
}

/* --- where a request's time goes (dbtrace/net.h, "stages") ------------- */

static const char *stage_name(int st)
{
	return net_stage_name(st);
}

static const struct fig_keys stages = { DBT_NET_STAGES, stage_name, "<stage>", false };

static bool has_stage(const void *row, int key, const void *ctx)
{
	(void)ctx;
	return net_role_has_stage(((const struct net_port_stats *)row)->role, key);
}

static bool has_staged(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return ((const struct net_port_stats *)row)->staged > 0;
}

static bool staged_sampled(const void *row)
{
	const struct net_port_stats *p = row;

	return p->staged_timed < p->staged;
}

static const struct fig_key_view stage_views[DBT_NET_STAGES] = {
	[DBT_NET_STAGE_RX] = { .report = { "rx µs", 200 } },
	[DBT_NET_STAGE_SOCKET_WAIT] = { .report = { "socket wait µs", 210 } },
	[DBT_NET_STAGE_SERVER] = { .report = { "server µs", 220 } },
	[DBT_NET_STAGE_TX] = { .report = { "tx µs", 230 } },
	[DBT_NET_STAGE_OUTSIDE] = { .report = { "outside µs", 240 } },
};

static bool has_tail(const void *row, int key, const void *ctx)
{
	const struct net_port_stats *p = row;

	(void)key;
	(void)ctx;
	return p->tail > 0 && !isnan(p->tail_extra_us);
}

enum { TEXT_TAIL_STAGE = 1 };

static const char *port_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	const struct net_port_stats *p = row;

	(void)ctx;
	(void)buf;
	(void)len;
	return f->which == TEXT_TAIL_STAGE && p->tail_stage >= 0 ? net_stage_name(p->tail_stage) : NULL;
}

static void port_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	struct net_port_stats *p = row;

	(void)ctx;
	if (f->which != TEXT_TAIL_STAGE)
		return;
	p->tail_stage = -1;
	for (int st = 0; text && st < DBT_NET_STAGES; st++)
		if (!strcmp(text, net_stage_name(st)))
			p->tail_stage = st;
}

static const struct figure tail_figs[] = {
	{ .name = "requests", .type = FIG_COUNT, .offset = PORT(tail),
	  .doc = "staged requests whose total was above the threshold (weighted as drawn)" },
	{ .name = "timed", .type = FIG_COUNT, .offset = PORT(tail_timed), .doc = "of those, really timed" },
	{ .name = "share_pct", .unit = "%", .type = FIG_NUM, .offset = PORT(tail_pct),
	  .doc = "their % of the staged requests: about 10, more when many totals fall in the p90's bucket" },
	{ .name = "total_mean_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(tail_total_mean_us),
	  .doc = "their mean total" },
	{ .name = "rest_mean_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(rest_total_mean_us),
	  .doc = "the other staged requests' mean total" },
	{ .name = "extra_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(tail_extra_us),
	  .doc = "how much longer the slow tail took: `total_mean_us` - `rest_mean_us`",
	  .diff = { FIG_LOWER, 5, 0.10, 0, "tail_extra_us" } },
	{ .name = "mean_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(tail_mean_us), .keys = &stages,
	  .known = has_stage, .doc = "the slow tail's mean of each stage" },
	{ .name = "extra_by_stage_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(tail_extra_by_stage_us),
	  .keys = &stages, .known = has_stage,
	  .doc = "per stage, the tail's mean less the rest's: where `extra_us` went (they add up to it)" },
	{ .name = "stage", .type = FIG_TEXT, .which = TEXT_TAIL_STAGE,
	  .doc = "the stage that holds most of `extra_us`" },
	{ .name = "stage_share_pct", .unit = "%", .type = FIG_NUM, .offset = PORT(tail_stage_pct),
	  .doc = "its % of `extra_us`" },
};
static const struct fig_table tail_table = {
	NULL, tail_figs, (int)(sizeof(tail_figs) / sizeof(tail_figs[0])), port_text, port_parse
};

static const struct figure stage_figs[] = {
	{ .name = "requests", .type = FIG_COUNT, .offset = PORT(staged),
	  .doc = "requests whose every stage was timed, weighted as their start was drawn (under load one "
		 "request in sixteen is timed and counts sixteen), so that it estimates all such requests" },
	{ .name = "timed", .type = FIG_COUNT, .offset = PORT(staged_timed),
	  .doc = "of those, how many were really timed" },
	{ .name = "total_mean_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(total_mean_us),
	  .sampled = staged_sampled,
	  .doc = "the mean total of those requests: `server`, time on this host, from the request's first "
		 "segment reaching TCP to the reply's first segment leaving the device; `client`, "
		 "from the request's send to the reply readable. The sum of the stages' `mean_us`: each request's "
		 "stages add up to its total",
	  .diff = { FIG_LOWER, 5, 0.10, 0, "stages_total_mean_us" }, .report = { "stages total µs", 190 } },
	{ .name = "total_p50_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(total_p50_us),
	  .sampled = staged_sampled, .doc = "median total" },
	{ .name = "total_p99_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(total_p99_us),
	  .sampled = staged_sampled, .doc = "p99 total" },
	{ .name = "mean_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(stage_mean_us), .keys = &stages,
	  .known = has_stage, .sampled = staged_sampled,
	  .doc = "each stage's mean (`mean_us.<stage>`), in time order. `server`: `rx` (the request's first "
		 "segment reaching TCP, by the clock TCP reads as it starts on a segment, to readable on the socket: "
		 "TCP's receive processing; the receive path below TCP, the driver and IP, is not in it), "
		 "`socket_wait` (readable to the application's read returning it), `server` (that read to the "
		 "reply's first send), `tx` (that send to the reply's first segment leaving: handed to a device "
		 "without a queue, or taken by the driver from the qdisc). `client`: `tx` (the request's send to "
		 "its first segment leaving), `outside` (leaving to the reply's first segment reaching TCP "
		 "here: the network and the peer, and this host's receive path below TCP), `rx` (to readable). "
		 "A stage the role has not is `null`",
	  .diff = { FIG_LOWER, 5, 0.10, 0, "stage_%s_mean_us" }, .key_views = stage_views },
	{ .name = "share_pct", .unit = "%", .type = FIG_NUM, .offset = PORT(stage_pct), .keys = &stages,
	  .known = has_stage, .doc = "each stage's mean as % of `total_mean_us`" },
	{ .name = "p50_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(stage_p50_us), .keys = &stages,
	  .known = has_stage, .sampled = staged_sampled, .doc = "each stage's median" },
	{ .name = "p99_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(stage_p99_us), .keys = &stages,
	  .known = has_stage, .sampled = staged_sampled, .doc = "each stage's p99" },
	{ .name = "total_hist", .type = FIG_HIST, .offset = PORT(total_hist), .timed_offset = PORT(staged_timed),
	  .sample_weight = DBT_BUSY_KEEP, .doc = "the totals as a fine histogram" },
	{ .name = "hist", .type = FIG_HIST, .offset = PORT(stage_hist), .keys = &stages,
	  .timed_offset = PORT(stage_timed), .sample_weight = DBT_BUSY_KEEP, .known = has_stage,
	  .doc = "each stage's fine histogram" },
	{ .name = "tail", .type = FIG_OBJECT, .sub = &tail_table, .known = has_tail,
	  .doc = "the slow tail explained: the staged requests whose total was above the port's p90 of the "
		 "interval before (the kernel compares each request with it; in the whole-capture summary each "
		 "interval's own threshold), against the rest: `requests`, `timed`, `share_pct`, "
		 "`total_mean_us`, `rest_mean_us`, `extra_us`, `mean_us.<stage>`, `extra_by_stage_us.<stage>`, "
		 "`stage` and `stage_share_pct` (\"the slow 10% spend 5.1 ms more than the rest, 96% of it in "
		 "tx\"); `null` in a port's first interval (no threshold yet), without a request above it, or "
		 "when every staged request was" },
};
static const struct fig_table stage_table = FIG_TABLE(NULL, stage_figs);

static const struct figure port_figs[] = {
	{ .name = "requests", .type = FIG_COUNT, .offset = PORT(requests), .known = measured,
	  .doc = "requests answered (`server`) or replies received (`client`), every one counted",
	  .report = { "requests", 30 } },
	{ .name = "requests_per_s", .unit = "/s", .type = FIG_NUM, .offset = PORT(requests_per_s),
	  .doc = "`requests` per second",
	  .diff = { FIG_HIGHER, 1, 0.05 }, .top = { 'R', "REQ/s", 9, 0, 30 }, .report = { "requests/s", 40 } },
	{ .name = "response_p50_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(resp_p50_us),
	  .sampled = resp_sampled,
	  .doc = "median response time. `server`: from a request becoming readable on the socket to the first "
		 "send after the application read it (tcprstat's measure: the server's own time). `client`: from "
		 "the first send on an idle socket to the reply becoming readable (what the client waits for, "
		 "network included)",
	  .diff = { FIG_LOWER, 5, 0.25 }, .top = { 0, "RESPp50us", 10, 0, 40 },
	  .report = { "response p50 µs", 50 } },
	{ .name = "response_p99_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(resp_p99_us),
	  .sampled = resp_sampled, .doc = "p99 response time, as `response_p50_us`",
	  .diff = { FIG_LOWER, 5, 0.25 }, .top = { '9', "RESPp99us", 10, 0, 50 },
	  .report = { "response p99 µs", 60 } },
	{ .name = "reads", .type = FIG_COUNT, .offset = PORT(reads), .known = measured,
	  .doc = "receive calls that returned data waiting in the socket", .report = { "reads", 70 } },
	{ .name = "rxq_p50_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(rxq_p50_us), .sampled = rxq_sampled,
	  .doc = "median rx socket-queue wait: from the oldest unread data becoming readable to the receive call "
		 "returning it (after a partial read the rest counts from the latest arrival, a lower bound)",
	  .diff = { FIG_LOWER, 5, 0.25 }, .top = { 0, "RXQp50us", 9, 0, 70 }, .report = { "rxq p50 µs", 80 } },
	{ .name = "rxq_p99_us", .unit = "µs", .type = FIG_NUM, .offset = PORT(rxq_p99_us), .sampled = rxq_sampled,
	  .doc = "p99 rx socket-queue wait",
	  .diff = { FIG_LOWER, 5, 0.25 }, .top = { 'X', "RXQp99us", 9, 0, 80 }, .report = { "rxq p99 µs", 90 } },
	{ .name = "response_hist", .type = FIG_HIST, .offset = PORT(resp_hist), .timed_offset = PORT(resp_timed),
	  .sample_weight = DBT_BUSY_KEEP,
	  .doc = "the histogram behind the response-time percentiles, a fine histogram like `txq_hist`" },
	{ .name = "rxq_hist", .type = FIG_HIST, .offset = PORT(rxq_hist), .timed_offset = PORT(rxq_timed),
	  .sample_weight = DBT_BUSY_KEEP, .doc = "the histogram behind the rx-queue percentiles" },
	{ .name = "stages", .type = FIG_OBJECT, .sub = &stage_table, .known = has_staged,
	  .doc = "where the requests' time goes, stage by stage, from the requests whose every stage was timed "
		 "(their stamps are taken together, request by request): `requests`, `timed`, `total_mean_us`, "
		 "`total_p50_us`, `total_p99_us`, and per stage `mean_us`, `share_pct`, `p50_us`, `p99_us`, "
		 "`hist`, with `total_hist`. A request is left out when its first segment left off the CPU of the "
		 "call that sent it (a send TCP held back and sent later, from a timer or another CPU): the net "
		 "section's `unstaged_requests` counts them. A segment the socket's owner held in its backlog "
		 "counts from when TCP took it from there. `null` when no "
		 "request was staged (added; absent in older captures)" },
	/* the views' own */
	{ .name = "reads_per_s", .unit = "/s", .type = FIG_NUM, .view_only = true, .offset = PORT(reads_per_s),
	  .doc = "`reads` per second", .top = { 0, "READS/s", 9, 0, 60 } },
};

const struct fig_table fig_ports = { "ports", port_figs, (int)(sizeof(port_figs) / sizeof(port_figs[0])), port_text,
				     port_parse };
