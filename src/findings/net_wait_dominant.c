#include "findings/net_wait_dominant.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void netwait_config_default(struct netwait_config *cfg)
{
	cfg->net_pct = 50;
	cfg->client_p99_us = 5000;
	cfg->server_ratio = 0.5;
	cfg->wakeups_per_request = 0.5;
	cfg->min_requests = 20;
}

static const struct net_port_stats *row(const struct net_interval *ni, uint16_t port, int role)
{
	for (int i = 0; i < ni->n_ports; i++)
		if (ni->ports[i].port == port && ni->ports[i].role == role)
			return &ni->ports[i];
	return NULL;
}

/* The port whose clients wait longest beyond what its server takes. */
static const struct net_port_stats *slow_port(const struct net_interval *ni,
					      const struct netwait_config *cfg,
					      const struct net_port_stats **server)
{
	const struct net_port_stats *best = NULL;

	for (int i = 0; i < ni->n_ports; i++) {
		const struct net_port_stats *c = &ni->ports[i], *s;

		if (c->role != DBT_NET_CLIENT || c->requests < cfg->min_requests ||
		    !(c->resp_p99_us >= cfg->client_p99_us))
			continue;
		s = row(ni, c->port, DBT_NET_SERVER);
		if (!s || !(s->resp_p99_us <= cfg->server_ratio * c->resp_p99_us))
			continue;
		if (!best || c->resp_p99_us > best->resp_p99_us) {
			best = c;
			*server = s;
		}
	}
	return best;
}

static void describe(struct finding *f, const struct sched_group_stats *p,
		     const struct sched_class_stats *c, const struct net_port_stats *cl,
		     const struct net_port_stats *sv, double dt_s)
{
	const struct class_time *t = &c->time;

	snprintf(f->id, sizeof(f->id), "net_wait_dominant");
	f->severity = SEV_WARNING;
	f->pid = p->pid;
	snprintf(f->class_name, sizeof(f->class_name), "%s", c->name);
	snprintf(f->title, sizeof(f->title),
		 "%s (pid %d) class %s waits on the network %.0f%% of its time while clients of port %u "
		 "see p99 %.1f ms (server side %.1f ms)",
		 p->comm, p->pid, c->name, t->pct[CT_NET], cl->port, cl->resp_p99_us / 1000,
		 sv->resp_p99_us / 1000);
	finding_num(f, "threads", c->threads);
	finding_num(f, "net_pct", t->pct[CT_NET]);
	finding_num(f, "oncpu_pct", t->pct[CT_ONCPU]);
	finding_num(f, "port", cl->port);
	finding_num(f, "client_resp_p99_us", cl->resp_p99_us);
	finding_num(f, "server_resp_p99_us", sv->resp_p99_us);
	finding_num(f, "interval_s", dt_s);
	snprintf(f->hint, sizeof(f->hint),
		 "The database is waiting for the network, not the other way round: its class %s idles in "
		 "recv/poll while clients of port %u wait %.1f ms. Look at round trips per transaction "
		 "(batching, prepared statements, pipelining), the client side's own CPU and "
		 "queueing, and the path between them (qdisc, NIC interrupts, RTT).",
		 c->name, cl->port, cl->resp_p99_us / 1000);
}

int net_wait_dominant_check(const struct sched_interval *si, const struct net_interval *ni,
			    const struct netwait_config *cfg, netwait_serves_fn serves,
			    void *serves_arg, int interval_index, struct finding_list *out)
{
	const struct net_port_stats *server = NULL, *client = slow_port(ni, cfg, &server);

	if (!client)
		return 0;
	for (int i = 0; i < si->n_groups; i++) {
		const struct sched_group_stats *p = &si->groups[i];

		for (int k = 0; k < p->n_classes; k++) {
			const struct sched_class_stats *c = &p->classes[k];
			struct finding f;
			int err;

			if (!c->time.thread_ns || !(c->time.pct[CT_NET] > cfg->net_pct))
				continue;
			/* the port's server: it wakes about once per request (a
			 * daemon idling in poll elsewhere does not) */
			if (!(c->vol_per_s >= cfg->wakeups_per_request * server->requests_per_s))
				continue;
			/* the port's client waits for each reply the same way */
			if (serves && serves(p, c, client->port, serves_arg) == 0)
				continue;
			memset(&f, 0, sizeof(f));
			describe(&f, p, c, client, server, si->dt_s);
			f.first_interval = f.last_interval = interval_index;
			err = findings_merge(out, &f);
			if (err)
				return err;
		}
	}
	return 0;
}
