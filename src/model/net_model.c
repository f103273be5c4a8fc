#define _GNU_SOURCE
#include "model/net_model.h"
#include "core/vec.h"
#include "model/hist.h"
#include "model/net_loss.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *net_role_name(int role)
{
	return role == DBT_NET_CLIENT ? "client" : "server";
}

void net_dev_subject(const struct net_dev_stats *d, char *buf, size_t len)
{
	if (d->foreign)
		snprintf(buf, len, "%s@%s", d->name, d->netns_name);
	else
		snprintf(buf, len, "%s", d->name);
}

void net_snapshot_init(struct net_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void net_snapshot_free(struct net_snapshot *s)
{
	free(s->dev);
	free(s->port);
	net_snapshot_init(s);
}

struct net_dev_sample *net_snapshot_add_dev(struct net_snapshot *s)
{
	struct net_dev_sample *d;

	if (VEC_RESERVE(s->dev, s->cap_dev, (size_t)s->n_dev + 1))
		return NULL;
	d = &s->dev[s->n_dev];
	memset(d, 0, sizeof(*d));
	d->speed_mbps = -1;
	s->n_dev++;
	return d;
}

struct net_port_sample *net_snapshot_add_port(struct net_snapshot *s)
{
	struct net_port_sample *p;

	if (VEC_RESERVE(s->port, s->cap_port, (size_t)s->n_port + 1))
		return NULL;
	p = &s->port[s->n_port];
	memset(p, 0, sizeof(*p));
	s->n_port++;
	return p;
}

/* A few hundred entries at most: a linear search is the simplest fast
 * enough lookup. */
struct net_dev_sample *net_snapshot_find_dev(struct net_snapshot *s, uint32_t netns, const char *name)
{
	for (int i = 0; i < s->n_dev; i++)
		if (s->dev[i].netns == netns && !strcmp(s->dev[i].name, name))
			return &s->dev[i];
	return NULL;
}

const struct net_port_sample *net_snapshot_find_port(const struct net_snapshot *s, uint16_t port,
						     uint8_t role)
{
	for (int i = 0; i < s->n_port; i++)
		if (s->port[i].port == port && s->port[i].role == role)
			return &s->port[i];
	return NULL;
}

int net_snapshot_copy(struct net_snapshot *dst, const struct net_snapshot *src)
{
	if (VEC_RESERVE(dst->dev, dst->cap_dev, (size_t)src->n_dev) ||
	    VEC_RESERVE(dst->port, dst->cap_port, (size_t)src->n_port))
		return -ENOMEM;
	if (src->n_dev)
		memcpy(dst->dev, src->dev, sizeof(*dst->dev) * (size_t)src->n_dev);
	if (src->n_port)
		memcpy(dst->port, src->port, sizeof(*dst->port) * (size_t)src->n_port);
	dst->n_dev = src->n_dev;
	dst->n_port = src->n_port;
	dst->mono_ns = src->mono_ns;
	dst->self_netns = src->self_netns;
	dst->stats = src->stats;
	return 0;
}

static const struct net_dev_sample *find_dev(const struct net_snapshot *s, uint32_t netns,
					     const char *name)
{
	return net_snapshot_find_dev((struct net_snapshot *)s, netns, name);
}

static double per_s(uint64_t n, double dt)
{
	return dt > 0 ? (double)n / dt : NAN;
}

static uint64_t txq_delta(const struct net_dev_sample *p, const struct net_dev_sample *c,
			  __u64 *out)
{
	static const __u64 zero[DBT_HIST_BUCKETS];

	hist_delta(p && p->have_txq ? p->txq_hist : zero, c->txq_hist, out, DBT_HIST_BUCKETS);
	return hist_total(out, DBT_HIST_BUCKETS);
}

static void dev_row(const struct net_dev_sample *p, const struct net_dev_sample *c, bool foreign,
		    double dt, struct net_dev_stats *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", c->name);
	snprintf(r->netns_name, sizeof(r->netns_name), "%s", c->netns_name);
	r->netns = c->netns;
	r->foreign = foreign;
	r->have_qdisc = c->have_qdisc;
	if (c->have_qdisc) {
		r->qdisc = c->qdisc;
		qdisc_format(&c->qdisc, r->qdisc_text, sizeof(r->qdisc_text));
	}
	r->speed_mbps = c->speed_mbps > 0 ? (double)c->speed_mbps : NAN;
	r->tx_pps = r->rx_pps = r->tx_mbps = r->rx_mbps = r->util_pct = NAN;
	if (p && p->have_link && c->have_link) {
		r->tx_pps = per_s(counter_delta(p->tx_packets, c->tx_packets), dt);
		r->rx_pps = per_s(counter_delta(p->rx_packets, c->rx_packets), dt);
		r->tx_mbps = per_s(counter_delta(p->tx_bytes, c->tx_bytes), dt) * 8 / 1e6;
		r->rx_mbps = per_s(counter_delta(p->rx_bytes, c->rx_bytes), dt) * 8 / 1e6;
		if (!isnan(r->speed_mbps))
			r->util_pct = 100.0 * fmax(r->tx_mbps, r->rx_mbps) / r->speed_mbps;
	} else if (c->have_txq) {
		/* a device of another namespace is first read once the kernel
		 * side sees it send, so its link counters miss the window's
		 * start: what it sent is still known from the probes (an entry
		 * absent before was made by the window's first packet) */
		uint64_t p0 = p && p->have_txq ? p->xmit_packets : 0, b0 = p && p->have_txq ? p->xmit_bytes : 0;

		r->tx_pps = per_s(counter_delta(p0, c->xmit_packets), dt);
		r->tx_mbps = per_s(counter_delta(b0, c->xmit_bytes), dt) * 8 / 1e6;
	}
	r->txq_samples = txq_delta(p, c, r->txq_hist);
	r->txq_timed = counter_delta(p && p->have_txq ? p->txq_timed : 0, c->txq_timed);
	r->txq_p50_us = hist_percentile_us(r->txq_hist, DBT_HIST_BUCKETS, 0.50);
	r->txq_p99_us = hist_percentile_us(r->txq_hist, DBT_HIST_BUCKETS, 0.99);
}

/* Bytes per second both ways, for the order; unknown counts as 0. */
static double traffic(const struct net_dev_stats *r)
{
	double t = 0;

	if (!isnan(r->tx_mbps))
		t += r->tx_mbps;
	if (!isnan(r->rx_mbps))
		t += r->rx_mbps;
	return t;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct net_dev_stats *x = a, *y = b;
	double tx = traffic(x), ty = traffic(y);
	int c;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	if (x->txq_samples != y->txq_samples)
		return x->txq_samples > y->txq_samples ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->netns < y->netns ? -1 : x->netns > y->netns;
}

static int cmp_port(const void *a, const void *b)
{
	const struct net_port_stats *x = a, *y = b;

	if (x->requests != y->requests)
		return x->requests > y->requests ? -1 : 1;
	if (x->reads != y->reads)
		return x->reads > y->reads ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->role < y->role ? -1 : x->role > y->role;
}

static bool port_wanted(const struct net_filter *f, uint16_t port)
{
	if (!f || !f->n_ports)
		return true;
	for (int i = 0; i < f->n_ports; i++)
		if (f->ports[i] == port)
			return true;
	return false;
}

bool net_filter_keeps(const struct net_filter *f, uint16_t port)
{
	return port_wanted(f, port);
}

const char *net_stage_name(int stage)
{
	static const char *const names[DBT_NET_STAGES] = {
		[DBT_NET_STAGE_RX] = "rx",
		[DBT_NET_STAGE_SOCKET_WAIT] = "socket_wait",
		[DBT_NET_STAGE_SERVER] = "server",
		[DBT_NET_STAGE_TX] = "tx",
		[DBT_NET_STAGE_OUTSIDE] = "outside",
	};

	return stage >= 0 && stage < DBT_NET_STAGES ? names[stage] : "?";
}

bool net_role_has_stage(int role, int stage)
{
	for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++)
		if (dbt_net_stage_of(role, pos) == stage)
			return true;
	return false;
}

uint64_t net_tail_threshold_ns(const __u64 *prev, const __u64 *cur)
{
	uint64_t n = 0, want, seen = 0;

	for (int b = 0; b < DBT_HIST_BUCKETS; b++)
		n += counter_delta(prev ? prev[b] : 0, cur[b]);
	if (n < NET_TAIL_MIN)
		return 0;
	want = (n * 9 + 9) / 10;               /* the p90's rank, rounded up */
	for (int b = 0; b < DBT_HIST_BUCKETS; b++) {
		seen += counter_delta(prev ? prev[b] : 0, cur[b]);
		if (seen >= want)
			return dbt_hist_high((__u32)b);
	}
	return 0;
}

/* The slow tail against the rest (r's stages computed). */
static void tail_compute(struct net_port_stats *r, const uint64_t *tail_ns_by_pos)
{
	uint64_t rest = r->staged > r->tail ? r->staged - r->tail : 0;
	double best = 0;

	r->tail_pct = r->staged ? 100.0 * (double)r->tail / (double)r->staged : NAN;
	r->tail_total_mean_us = r->rest_total_mean_us = r->tail_extra_us = r->tail_stage_pct = NAN;
	r->tail_stage = -1;
	for (int st = 0; st < DBT_NET_STAGES; st++)
		r->tail_mean_us[st] = r->tail_extra_by_stage_us[st] = NAN;
	if (!r->tail || !rest || !tail_ns_by_pos)
		return;
	r->tail_total_mean_us = r->rest_total_mean_us = 0;
	for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++) {
		int st = dbt_net_stage_of(r->role, pos);
		double all, rest_mean;

		if (st < 0 || isnan(r->stage_mean_us[st]))
			continue;
		r->tail_mean_us[st] = (double)tail_ns_by_pos[pos] / (double)r->tail / 1e3;
		/* the rest's sum: all the staged requests' less the tail's */
		all = r->stage_mean_us[st] * (double)r->staged;
		rest_mean = (all - r->tail_mean_us[st] * (double)r->tail) / (double)rest;
		r->tail_extra_by_stage_us[st] = r->tail_mean_us[st] - rest_mean;
		r->tail_total_mean_us += r->tail_mean_us[st];
		r->rest_total_mean_us += rest_mean;
		if (r->tail_stage < 0 || r->tail_extra_by_stage_us[st] > best) {
			best = r->tail_extra_by_stage_us[st];
			r->tail_stage = st;
		}
	}
	r->tail_extra_us = r->tail_total_mean_us - r->rest_total_mean_us;
	r->tail_stage_pct = r->tail_extra_us > 0 ? 100 * best / r->tail_extra_us : NAN;
}

/* A row's stages from the window's weighted sums by position, its
 * histograms already in place. */
static void stages_compute(struct net_port_stats *r, const uint64_t *stage_ns_by_pos,
			   const uint64_t *tail_ns_by_pos)
{
	double total = 0;

	r->total_mean_us = r->total_p50_us = r->total_p99_us = NAN;
	for (int st = 0; st < DBT_NET_STAGES; st++)
		r->stage_mean_us[st] = r->stage_p50_us[st] = r->stage_p99_us[st] = r->stage_pct[st] = NAN;
	if (!r->staged) {
		tail_compute(r, NULL);
		return;
	}
	for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++) {
		int st = dbt_net_stage_of(r->role, pos);

		if (st < 0)
			continue;
		r->stage_mean_us[st] = (double)stage_ns_by_pos[pos] / (double)r->staged / 1e3;
		total += r->stage_mean_us[st];
		r->stage_timed[st] = r->staged_timed;
		r->stage_p50_us[st] = hist_percentile_us(r->stage_hist[st], DBT_HIST_BUCKETS, 0.50);
		r->stage_p99_us[st] = hist_percentile_us(r->stage_hist[st], DBT_HIST_BUCKETS, 0.99);
	}
	r->total_mean_us = total;
	r->total_p50_us = hist_percentile_us(r->total_hist, DBT_HIST_BUCKETS, 0.50);
	r->total_p99_us = hist_percentile_us(r->total_hist, DBT_HIST_BUCKETS, 0.99);
	for (int st = 0; st < DBT_NET_STAGES; st++)
		if (!isnan(r->stage_mean_us[st]))
			r->stage_pct[st] = total > 0 ? 100 * r->stage_mean_us[st] / total : 0;
	tail_compute(r, tail_ns_by_pos);
}

/* The window's staged requests (p NULL: since the slot's start). */
static void port_stages(const struct net_port_sample *p, const struct net_port_sample *c, struct net_port_stats *r)
{
	static const __u64 zero[DBT_HIST_BUCKETS];
	uint64_t ns[DBT_NET_STAGE_POS], tail_ns[DBT_NET_STAGE_POS];

	r->staged = counter_delta(p ? p->staged : 0, c->staged);
	r->staged_timed = counter_delta(p ? p->staged_timed : 0, c->staged_timed);
	r->tail = counter_delta(p ? p->tail : 0, c->tail);
	r->tail_timed = counter_delta(p ? p->tail_timed : 0, c->tail_timed);
	hist_delta(p ? p->staged_hist : zero, c->staged_hist, r->total_hist, DBT_HIST_BUCKETS);
	for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++) {
		int st = dbt_net_stage_of(c->role, pos);

		ns[pos] = counter_delta(p ? p->stage_ns[pos] : 0, c->stage_ns[pos]);
		tail_ns[pos] = counter_delta(p ? p->tail_ns[pos] : 0, c->tail_ns[pos]);
		if (st >= 0)
			hist_delta(p ? p->stage_hist[pos] : zero, c->stage_hist[pos], r->stage_hist[st],
				   DBT_HIST_BUCKETS);
	}
	stages_compute(r, ns, tail_ns);
}

static uint64_t stats_lost(const struct dbt_net_stats *s)
{
	return s->sock_failed + s->port_failed + s->dev_failed + s->skb_failed;
}

int net_interval_compute(const struct net_snapshot *prev, const struct net_snapshot *cur,
			 const struct net_filter *filter, struct net_interval *out)
{
	double dt = cur->mono_ns > prev->mono_ns ? (double)(cur->mono_ns - prev->mono_ns) / 1e9 : 0;
	static const __u64 zero[DBT_HIST_BUCKETS];

	memset(out, 0, sizeof(*out));
	out->dt_s = dt;
	out->lost = counter_delta(stats_lost(&prev->stats), stats_lost(&cur->stats));
	out->skipped = counter_delta(prev->stats.skipped, cur->stats.skipped);
	out->unstaged = counter_delta(prev->stats.unstaged, cur->stats.unstaged);
	out->devs = calloc(cur->n_dev ? (size_t)cur->n_dev : 1, sizeof(*out->devs));
	out->ports = calloc(cur->n_port ? (size_t)cur->n_port : 1, sizeof(*out->ports));
	if (!out->devs || !out->ports) {
		net_interval_free(out);
		return -ENOMEM;
	}
	for (int i = 0; i < cur->n_dev; i++) {
		const struct net_dev_sample *c = &cur->dev[i];
		const struct net_dev_sample *p = find_dev(prev, c->netns, c->name);
		bool foreign = c->netns != cur->self_netns;
		struct net_dev_stats *r = &out->devs[out->n_devs];

		dev_row(p, c, foreign, dt, r);
		/* other namespaces only while they carry traffic: a host full
		 * of containers would otherwise list every idle veth */
		if (foreign && !r->txq_samples && !(traffic(r) > 0))
			continue;
		if (!foreign && !c->have_link && !r->txq_samples)
			continue;
		out->n_devs++;
	}
	for (int i = 0; i < cur->n_port; i++) {
		const struct net_port_sample *c = &cur->port[i];
		const struct net_port_sample *p = net_snapshot_find_port(prev, c->port, c->role);
		struct net_port_stats *r = &out->ports[out->n_ports];

		if (!port_wanted(filter, c->port))
			continue;
		/* a new slot's counters started from zero: the old slot's
		 * counts are not to be subtracted from them */
		if (p && p->gen != c->gen)
			p = NULL;
		memset(r, 0, sizeof(*r));
		r->port = c->port;
		r->role = c->role;
		r->requests = counter_delta(p ? p->requests : 0, c->requests);
		r->reads = counter_delta(p ? p->reads : 0, c->reads);
		if (!r->requests && !r->reads)
			continue;
		hist_delta(p ? p->resp_hist : zero, c->resp_hist, r->resp_hist, DBT_HIST_BUCKETS);
		hist_delta(p ? p->rxq_hist : zero, c->rxq_hist, r->rxq_hist, DBT_HIST_BUCKETS);
		r->resp_timed = counter_delta(p ? p->resp_timed : 0, c->resp_timed);
		r->rxq_timed = counter_delta(p ? p->rxq_timed : 0, c->rxq_timed);
		r->requests_per_s = per_s(r->requests, dt);
		r->reads_per_s = per_s(r->reads, dt);
		r->resp_p50_us = hist_percentile_us(r->resp_hist, DBT_HIST_BUCKETS, 0.50);
		r->resp_p99_us = hist_percentile_us(r->resp_hist, DBT_HIST_BUCKETS, 0.99);
		r->rxq_p50_us = hist_percentile_us(r->rxq_hist, DBT_HIST_BUCKETS, 0.50);
		r->rxq_p99_us = hist_percentile_us(r->rxq_hist, DBT_HIST_BUCKETS, 0.99);
		port_stages(p, c, r);
		out->n_ports++;
	}
	/* an empty list may have no array, which qsort must not be given */
	if (out->n_devs)
		qsort(out->devs, (size_t)out->n_devs, sizeof(*out->devs), cmp_dev);
	if (out->n_ports)
		qsort(out->ports, (size_t)out->n_ports, sizeof(*out->ports), cmp_port);
	return 0;
}

void net_interval_free(struct net_interval *iv)
{
	free(iv->devs);
	free(iv->ports);
	free(iv->port_loss);
	free(iv->dev_loss);
	memset(iv, 0, sizeof(*iv));
}

int net_interval_copy(struct net_interval *dst, const struct net_interval *src)
{
	memset(dst, 0, sizeof(*dst));
	*dst = *src;
	dst->port_loss = NULL;
	dst->dev_loss = NULL;
	dst->devs = calloc(src->n_devs ? (size_t)src->n_devs : 1, sizeof(*dst->devs));
	dst->ports = calloc(src->n_ports ? (size_t)src->n_ports : 1, sizeof(*dst->ports));
	if (!dst->devs || !dst->ports) {
		net_interval_free(dst);
		return -ENOMEM;
	}
	if (src->n_devs)
		memcpy(dst->devs, src->devs, sizeof(*dst->devs) * (size_t)src->n_devs);
	if (src->n_ports)
		memcpy(dst->ports, src->ports, sizeof(*dst->ports) * (size_t)src->n_ports);
	if (src->port_loss) {
		dst->port_loss = calloc(src->n_ports ? (size_t)src->n_ports : 1, sizeof(*dst->port_loss));
		dst->dev_loss = calloc(src->n_devs ? (size_t)src->n_devs : 1, sizeof(*dst->dev_loss));
		if (!dst->port_loss || !dst->dev_loss) {
			net_interval_free(dst);
			return -ENOMEM;
		}
		memcpy(dst->port_loss, src->port_loss, sizeof(*dst->port_loss) * (size_t)src->n_ports);
		memcpy(dst->dev_loss, src->dev_loss, sizeof(*dst->dev_loss) * (size_t)src->n_devs);
	}
	return 0;
}
