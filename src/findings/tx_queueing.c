#include "findings/tx_queueing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void txq_config_default(struct txq_config *cfg)
{
	cfg->p99_us = 1000;
	cfg->min_samples = 20;
}

static void ms_text(double us, char *buf, size_t len)
{
	if (us >= 1000)
		snprintf(buf, len, "%.3g ms", us / 1000);
	else
		snprintf(buf, len, "%.0f us", us);
}

size_t tx_queueing_hint(const struct net_dev_stats *d, char *buf, size_t len)
{
	const struct qdisc_info *q = &d->qdisc;
	char rate[32], ceil[32], delay[32];
	int n;

	if (!len)
		return 0;
	qdisc_format_rate(q->rate_bps, rate, sizeof(rate));
	qdisc_format_rate(q->ceil_bps, ceil, sizeof(ceil));
	ms_text((double)q->delay_ns / 1000, delay, sizeof(delay));
	if (d->have_qdisc && !strcmp(q->kind, "netem"))
		n = snprintf(buf, len,
			     "a netem qdisc on %s delays every packet by %s%s: an emulation setting, "
			     "often left behind after a test (in the field a 1 ms netem delay on bond0 "
			     "doubled transaction latency). Check `tc qdisc show dev %s` and remove it "
			     "with `tc qdisc del dev %s root` if nobody needs it.",
			     d->name, delay, q->rate_bps ? " and caps its rate" : "", d->name, d->name);
	else if (d->have_qdisc && !strcmp(q->kind, "tbf"))
		n = snprintf(buf, len,
			     "%s is shaped by tbf to %s: packets over that rate wait for tokens in the "
			     "queue. Raise the rate (`tc qdisc change dev %s root tbf rate ...`) or remove "
			     "the shaper if the limit is not intended.",
			     d->name, rate, d->name);
	else if (d->have_qdisc && !strcmp(q->kind, "htb") && q->htb_top_classes)
		n = snprintf(buf, len,
			     "%s is shaped by htb (top class rate %s, ceil %s): traffic over its class "
			     "rate waits in the queue. Check `tc class show dev %s` for the class the "
			     "database traffic falls into.",
			     d->name, rate, ceil, d->name);
	else if (d->have_qdisc && qdisc_is_shaper(q))
		n = snprintf(buf, len,
			     "the %s qdisc on %s shapes or schedules traffic by design: check its "
			     "parameters with `tc qdisc show dev %s`.",
			     q->kind, d->name, d->name);
	else if (!isnan(d->util_pct) && d->util_pct >= 90)
		n = snprintf(buf, len,
			     "%s runs at %.0f%% of its %.0f Mbit/s link: the queue is the backlog of a "
			     "full link. More bandwidth (bonding, a faster port) or less traffic.",
			     d->name, d->util_pct, d->speed_mbps);
	else
		n = snprintf(buf, len,
			     "the qdisc (%s) does not shape, yet %s drains slower than packets arrive: "
			     "look below it. A hypervisor or cloud limit on packets/s or bandwidth (in the "
			     "field a VM capped at 120k packets/s and 844 Mbit/s), a full tx ring "
			     "(`ethtool -g`), pause frames (`ethtool -S`). Compare tx packets/s here with "
			     "what the host is allowed.",
			     d->have_qdisc ? q->kind : "unknown", d->name);
	return n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
}

static void describe(struct finding *f, const struct net_dev_stats *d, const struct txq_config *cfg,
		     double dt_s)
{
	const struct qdisc_info *q = &d->qdisc;
	char p50[16], p99[16];

	snprintf(f->id, sizeof(f->id), "tx_queueing");
	f->severity = d->txq_p99_us >= 10 * cfg->p99_us ? SEV_CRITICAL : SEV_WARNING;
	net_dev_subject(d, f->class_name, sizeof(f->class_name));
	ms_text(d->txq_p50_us, p50, sizeof(p50));
	ms_text(d->txq_p99_us, p99, sizeof(p99));
	snprintf(f->title, sizeof(f->title), "%.40s: packets wait %.15s (p99; p50 %.15s) in the tx queue%s%.70s",
		 f->class_name, p99, p50, d->qdisc_text[0] ? ", qdisc " : "", d->qdisc_text);
	finding_text(f, "device", "%s", d->name);
	if (d->foreign)
		finding_text(f, "netns", "%s", d->netns_name);
	finding_num(f, "txq_p50_us", d->txq_p50_us);
	finding_num(f, "txq_p99_us", d->txq_p99_us);
	finding_num(f, "txq_samples", (double)d->txq_samples);
	finding_text(f, "qdisc", "%s", d->qdisc_text[0] ? d->qdisc_text : "unknown");
	if (d->have_qdisc) {
		finding_text(f, "qdisc_kind", "%s", q->kind);
		if (q->rate_bps)
			finding_num(f, "qdisc_rate_mbit", (double)q->rate_bps / 1e6);
		if (q->ceil_bps)
			finding_num(f, "qdisc_ceil_mbit", (double)q->ceil_bps / 1e6);
		if (!strcmp(q->kind, "netem"))
			finding_num(f, "netem_delay_us", (double)q->delay_ns / 1000);
		if (!strcmp(q->kind, "tbf"))
			finding_num(f, "tbf_burst_bytes", (double)q->burst_bytes);
	}
	finding_num(f, "tx_pps", d->tx_pps);
	finding_num(f, "tx_mbps", d->tx_mbps);
	finding_num(f, "speed_mbps", d->speed_mbps);
	finding_num(f, "interval_s", dt_s);
	tx_queueing_hint(d, f->hint, sizeof(f->hint));
}

int tx_queueing_check(const struct net_interval *iv, const struct txq_config *cfg,
		      int interval_index, struct finding_list *out)
{
	for (int i = 0; i < iv->n_devs; i++) {
		const struct net_dev_stats *d = &iv->devs[i];
		struct finding f;
		int err;

		if (d->txq_samples < cfg->min_samples || isnan(d->txq_p99_us) ||
		    d->txq_p99_us <= cfg->p99_us)
			continue;
		memset(&f, 0, sizeof(f));
		describe(&f, d, cfg, iv->dt_s);
		f.first_interval = f.last_interval = interval_index;
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	return 0;
}
