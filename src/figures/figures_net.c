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
	/* the views' own */
	{ .name = "reads_per_s", .unit = "/s", .type = FIG_NUM, .view_only = true, .offset = PORT(reads_per_s),
	  .doc = "`reads` per second", .top = { 0, "READS/s", 9, 0, 60 } },
};

const struct fig_table fig_ports = FIG_TABLE("ports", port_figs);
