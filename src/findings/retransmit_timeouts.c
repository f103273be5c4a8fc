#include "findings/retransmit_timeouts.h"
#include "findings/tail_stage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rto_config_default(struct rto_config *cfg)
{
	cfg->min_waits = 1;
	cfg->warn_pct = 0.1;
	cfg->critical_pct = 1;
}

static const struct net_port_stats *row_of(const struct net_interval *iv, uint16_t port, int role, int *at)
{
	for (int i = 0; i < iv->n_ports; i++)
		if (iv->ports[i].port == port && iv->ports[i].role == role) {
			*at = i;
			return &iv->ports[i];
		}
	return NULL;
}

static void describe(struct finding *f, const struct net_interval *iv, const struct net_port_stats *p,
		     const struct net_port_loss *l, const struct bimodal_result *slow, bool have_slow,
		     const struct rto_config *cfg)
{
	const char *what = p->role == DBT_NET_CLIENT ? "requests" : "replies";
	bool coincide = have_slow && isfinite(l->stall_rto_ms) && slow->high_p50_us >= l->stall_rto_ms * 500;
	char rto[48] = "", stage[300];

	snprintf(f->id, sizeof(f->id), "retransmit_timeouts");
	snprintf(f->class_name, sizeof(f->class_name), "%u/%s", p->port, net_role_name(p->role));
	f->severity = l->stall_pct >= cfg->critical_pct || coincide ? SEV_CRITICAL
		      : l->stall_pct >= cfg->warn_pct                ? SEV_WARNING
								     : SEV_INFO;
	if (isfinite(l->stall_rto_ms))
		snprintf(rto, sizeof(rto), " of %.0f ms", l->stall_rto_ms);
	snprintf(f->title, sizeof(f->title),
		 "port %u (%s): %.2g%% of %s waited for a retransmit timeout%s (%llu of %llu)", p->port,
		 net_role_name(p->role), l->stall_pct, what, rto, (unsigned long long)l->stalls,
		 (unsigned long long)p->requests);
	finding_num(f, "port", p->port);
	finding_text(f, "role", "%s", net_role_name(p->role));
	finding_num(f, "requests", (double)p->requests);
	finding_num(f, "rto_waits", (double)l->stalls);
	finding_num(f, "rto_wait_pct", l->stall_pct);
	finding_num(f, "rto_ms", l->stall_rto_ms);
	finding_num(f, "rto_timeouts", (double)l->rto_timer);
	finding_num(f, "tail_loss_probes", (double)l->tlp_probes);
	finding_num(f, "retransmits", (double)l->retrans);
	finding_num(f, "retransmits_timeout", (double)l->segs[DBT_RETX_TIMEOUT]);
	finding_num(f, "retransmits_fast", (double)l->segs[DBT_RETX_FAST]);
	finding_num(f, "response_p99_us", p->resp_p99_us);
	if (have_slow) {
		finding_num(f, "slow_mode_us", slow->high_p50_us);
		finding_num(f, "slow_mode_pct", 100 * slow->high_share);
	}
	finding_num(f, "interval_s", iv->dt_s);
	snprintf(f->hint, sizeof(f->hint),
		 "A packet of each (the %s, or the ACK before it) was lost and TCP re-sent it only "
		 "when its timer fired: the RTO (200 ms at least on Linux) or a tail-loss probe, "
		 "which with one packet in flight waits as long.%s Find the loss: packet_drops, "
		 "`tc -s qdisc`, `ethtool -S`, the hypervisor's packet-rate limit. A lower "
		 "`rto_min` on the route shortens the wait, not the loss.",
		 p->role == DBT_NET_CLIENT ? "request" : "reply",
		 coincide ? " The slow group of this port's response times sits at that timeout." : "");
	tail_stage_describe(f, p, stage, sizeof(stage));
	tail_stage_prepend(f, stage);
}

int retransmit_timeouts_check(const struct net_interval *iv, const struct rto_config *cfg,
			      const struct bimodal_config *bimodal, int interval_index,
			      struct finding_list *out)
{
	if (!iv->port_loss)
		return 0;
	for (int i = 0; i < iv->n_ports; i++) {
		const struct net_port_stats *p = &iv->ports[i], *client;
		const struct net_port_loss *l = &iv->port_loss[i];
		const struct net_port_stats *times;
		struct bimodal_result slow;
		struct finding f;
		bool have_slow;
		int at = -1, err;

		if (l->stalls < cfg->min_waits || !p->requests)
			continue;
		/* the client end of the same port, when this host has it, says
		 * what clients waited for */
		client = row_of(iv, p->port, DBT_NET_CLIENT, &at);
		if (p->role == DBT_NET_SERVER && client && client->requests && iv->port_loss[at].stalls)
			continue;
		/* the slow mode of what clients see: the client row's times */
		times = client && client->requests ? client : p;
		have_slow = bimodal_detect_sampled(times->resp_hist, DBT_HIST_BUCKETS,
						   bimodal_weight(times->resp_hist, DBT_HIST_BUCKETS,
								  times->resp_timed),
						   bimodal, &slow);
		memset(&f, 0, sizeof(f));
		describe(&f, iv, p, l, &slow, have_slow, cfg);
		f.first_interval = f.last_interval = interval_index;
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	return 0;
}

static const struct finding *rto_of_port(const struct finding_list *l, unsigned port)
{
	char prefix[16];
	size_t n = (size_t)snprintf(prefix, sizeof(prefix), "%u/", port);

	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].id, "retransmit_timeouts") &&
		    !strncmp(l->items[i].class_name, prefix, n))
			return &l->items[i];
	return NULL;
}

static double ev_num(const struct finding *f, const char *key)
{
	for (int i = 0; i < f->n_ev; i++)
		if (!strcmp(f->ev[i].key, key) && !f->ev[i].is_text)
			return f->ev[i].num;
	return NAN;
}

void retransmit_timeouts_join(struct finding_list *l)
{
	for (int i = 0; i < l->n; i++) {
		struct finding *b = &l->items[i];
		const struct finding *r;
		double port = ev_num(b, "port");
		char hint[sizeof(b->hint)];
		size_t at;

		if (strcmp(b->id, "bimodal_response") || !isfinite(port))
			continue;
		r = rto_of_port(l, (unsigned)port);
		if (!r)
			continue;
		finding_num(b, "rto_waits", ev_num(r, "rto_waits"));
		finding_num(b, "rto_wait_pct", ev_num(r, "rto_wait_pct"));
		finding_num(b, "rto_ms", ev_num(r, "rto_ms"));
		/* first: the cause, where the generic hint only guesses it (the
		 * hint is full, and its tail is what may be cut) */
		at = (size_t)snprintf(hint, sizeof(hint),
				      "Here %.0f requests of port %.0f waited for a retransmit timeout "
				      "(retransmit_timeouts): the slow group is retransmissions. ",
				      ev_num(r, "rto_waits"), port);
		if (at < sizeof(hint))
			snprintf(hint + at, sizeof(hint) - at, "%s", b->hint);
		memcpy(b->hint, hint, sizeof(b->hint));
		b->hint[sizeof(b->hint) - 1] = 0;
	}
}
