#include "findings/bimodal_response.h"
#include "findings/tail_stage.h"
#include "model/hist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void bimodal_config_default(struct bimodal_config *cfg)
{
	cfg->min_samples = 100;
	cfg->min_gap_slots = 3;
	cfg->valley_ratio = 0.25;
	cfg->min_mode_share = 0.03;
	cfg->min_mode_timed = 2;
}

double bimodal_weight(const __u64 *h, int n, uint64_t timed)
{
	uint64_t total = hist_total(h, n);

	return timed && total > timed ? (double)total / (double)timed : 1;
}

/* A local maximum: no lower than its neighbours (plateaus give several
 * peaks; the pair search below copes). */
static bool is_peak(const __u64 *h, int n, int i)
{
	return h[i] && (i == 0 || h[i] >= h[i - 1]) && (i == n - 1 || h[i] >= h[i + 1]);
}

/* Median of the fine buckets' samples in octaves [lo, hi]. */
static double part_p50(const __u64 *fine, int n, int lo, int hi)
{
	__u64 part[DBT_HIST_BUCKETS] = { 0 };

	if (n > DBT_HIST_BUCKETS)
		n = DBT_HIST_BUCKETS;
	for (int i = 0; i < n; i++)
		if (bimodal_octave(i) >= lo && bimodal_octave(i) <= hi)
			part[i] = fine[i];
	return hist_percentile_us(part, n, 0.5);
}

int bimodal_octave(int bucket)
{
	return bucket < DBT_HIST_SUB ? 0 : bucket / DBT_HIST_SUB;
}

bool bimodal_detect(const __u64 *fine, int nfine, const struct bimodal_config *cfg,
		    struct bimodal_result *r)
{
	return bimodal_detect_sampled(fine, nfine, 1, cfg, r);
}

bool bimodal_detect_sampled(const __u64 *fine, int nfine, double weight,
			    const struct bimodal_config *cfg, struct bimodal_result *r)
{
	/* the modes are looked for among octaves: 32 fine buckets each are
	 * too thin a slice of a mode to have a shape; each mode's centre
	 * then comes from the fine buckets */
	__u64 h[BIMODAL_OCTAVES] = { 0 };
	int n = BIMODAL_OCTAVES;
	uint64_t total, best = 0;
	bool found = false;

	for (int i = 0; i < nfine && i < DBT_HIST_BUCKETS; i++)
		h[bimodal_octave(i)] += fine[i];
	total = hist_total(h, n);

	memset(r, 0, sizeof(*r));
	if (!total || total < cfg->min_samples)
		return false;
	for (int a = 0; a < n; a++) {
		if (!is_peak(h, n, a))
			continue;
		for (int b = a + cfg->min_gap_slots; b < n; b++) {
			uint64_t low = 0, smaller;
			int v = a + 1;

			if (!is_peak(h, n, b))
				continue;
			for (int i = a + 1; i < b; i++)
				if (h[i] < h[v])
					v = i;
			smaller = h[a] < h[b] ? h[a] : h[b];
			if ((double)h[v] > cfg->valley_ratio * (double)smaller)
				continue;
			for (int i = 0; i <= v; i++)
				low += h[i];
			if ((double)low < cfg->min_mode_share * (double)total ||
			    (double)(total - low) < cfg->min_mode_share * (double)total)
				continue;
			if ((double)low < cfg->min_mode_timed * weight ||
			    (double)(total - low) < cfg->min_mode_timed * weight)
				continue;
			if ((low < total - low ? low : total - low) <= best)
				continue;
			best = low < total - low ? low : total - low;
			r->low_slot = a;
			r->high_slot = b;
			r->valley_slot = v;
			r->low_share = (double)low / (double)total;
			r->high_share = 1.0 - r->low_share;
			found = true;
		}
	}
	if (found) {
		r->low_p50_us = part_p50(fine, nfine, 0, r->valley_slot);
		r->high_p50_us = part_p50(fine, nfine, r->valley_slot + 1, n - 1);
		/* octave v >= 1 ends at 2^(v+5) ns (see bimodal_octave) */
		r->split_us = (double)(1ull << (r->valley_slot + 5)) / 1000;
	}
	return found;
}

static void ms_text(double us, char *buf, size_t len)
{
	if (us >= 1000)
		snprintf(buf, len, "%.3g ms", us / 1000);
	else
		snprintf(buf, len, "%.0f us", us);
}

static const struct net_port_stats *other_role(const struct net_interval *iv,
					       const struct net_port_stats *p)
{
	for (int i = 0; i < iv->n_ports; i++)
		if (iv->ports[i].port == p->port && iv->ports[i].role != p->role &&
		    iv->ports[i].requests)
			return &iv->ports[i];
	return NULL;
}

static void describe(struct finding *f, const struct net_interval *iv,
		     const struct net_port_stats *p, const struct bimodal_result *r)
{
	const struct net_port_stats *o = other_role(iv, p);
	char lo[16], hi[16], other[200] = "", stage[300];
	size_t at;

	snprintf(f->id, sizeof(f->id), "bimodal_response");
	f->severity = r->high_p50_us >= 8 * r->low_p50_us && r->high_share >= 0.1 ? SEV_CRITICAL
										: SEV_WARNING;
	snprintf(f->class_name, sizeof(f->class_name), "%u/%s", p->port, net_role_name(p->role));
	ms_text(r->low_p50_us, lo, sizeof(lo));
	ms_text(r->high_p50_us, hi, sizeof(hi));
	snprintf(f->title, sizeof(f->title),
		 "port %u (%s): response times in two groups, %.0f%% near %s and %.0f%% near %s",
		 p->port, net_role_name(p->role), 100 * r->low_share, lo, 100 * r->high_share, hi);
	finding_num(f, "port", p->port);
	finding_text(f, "role", "%s", net_role_name(p->role));
	finding_num(f, "requests", (double)p->requests);
	finding_num(f, "response_p50_us", p->resp_p50_us);
	finding_num(f, "response_p99_us", p->resp_p99_us);
	finding_num(f, "fast_mode_us", r->low_p50_us);
	finding_num(f, "fast_mode_pct", 100 * r->low_share);
	finding_num(f, "slow_mode_us", r->high_p50_us);
	finding_num(f, "slow_mode_pct", 100 * r->high_share);
	finding_num(f, "split_us", r->split_us);
	if (o) {
		finding_num(f, o->role == DBT_NET_SERVER ? "server_response_p50_us" : "client_response_p50_us",
			    o->resp_p50_us);
		finding_num(f, o->role == DBT_NET_SERVER ? "server_response_p99_us" : "client_response_p99_us",
			    o->resp_p99_us);
	}
	finding_num(f, "interval_s", iv->dt_s);
	if (o && p->role == DBT_NET_CLIENT && o->resp_p99_us < r->high_p50_us / 2)
		snprintf(other, sizeof(other),
			 " Here the server side of port %u answers in %.0f us at p99: the slow group "
			 "is lost between the two, in the network path.",
			 p->port, o->resp_p99_us);
	at = (size_t)snprintf(f->hint, sizeof(f->hint),
			      "One group of requests takes a fast path and another waits a fixed extra time. "
			      "A rate limiter does this: requests over its budget (a hypervisor's packets/s "
			      "or bandwidth cap, a cloud NIC allowance, tbf/htb) wait for the next slot, as "
			      "with the VM capped at 120k packets/s whose client saw 8 ms while its server "
			      "stayed at 0.1 ms.%s",
			      other);
	if (at < sizeof(f->hint) && r->high_p50_us >= 150000)
		snprintf(f->hint + at, sizeof(f->hint) - at,
			 " The slow group sits near TCP's minimum retransmission timeout (200 ms): "
			 "look for retransmits (`nstat -az TcpRetransSegs`) and drops.");
	/* where the slow group's time went, first: measured, where the rest
	 * guesses */
	tail_stage_describe(f, p, stage, sizeof(stage));
	tail_stage_prepend(f, stage);
}

int bimodal_response_check(const struct net_interval *iv, const struct bimodal_config *cfg,
			   int interval_index, struct finding_list *out)
{
	for (int i = 0; i < iv->n_ports; i++) {
		const struct net_port_stats *p = &iv->ports[i];
		struct bimodal_result r;
		struct finding f;
		int err;

		if (!bimodal_detect_sampled(p->resp_hist, DBT_HIST_BUCKETS,
					    bimodal_weight(p->resp_hist, DBT_HIST_BUCKETS, p->resp_timed), cfg,
					    &r))
			continue;
		memset(&f, 0, sizeof(f));
		describe(&f, iv, p, &r);
		f.first_interval = f.last_interval = interval_index;
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	return 0;
}
