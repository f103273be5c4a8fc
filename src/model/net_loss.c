#include "model/net_loss.h"
#include "core/vec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void net_interval_empty(struct net_interval *ni, double dt_s)
{
	memset(ni, 0, sizeof(*ni));
	ni->dt_s = dt_s;
	ni->loss_only = true;
	ni->devs = calloc(1, sizeof(*ni->devs));
	ni->ports = calloc(1, sizeof(*ni->ports));
}

static double per_s(uint64_t n, double dt)
{
	return dt > 0 ? (double)n / dt : NAN;
}

static int find_row(const struct net_interval *ni, uint16_t port, uint8_t role)
{
	for (int i = 0; i < ni->n_ports; i++)
		if (ni->ports[i].port == port && ni->ports[i].role == role)
			return i;
	return -1;
}

/* Appends a row with no net numbers for a port only the loss family saw. */
static int add_row(struct net_interval *ni, uint16_t port, uint8_t role, size_t *cap)
{
	struct net_port_stats *r;

	if (VEC_RESERVE(ni->ports, *cap, (size_t)ni->n_ports + 1))
		return -ENOMEM;
	r = &ni->ports[ni->n_ports];
	memset(r, 0, sizeof(*r));
	r->port = port;
	r->role = role;
	r->requests_per_s = r->reads_per_s = NAN;
	r->resp_p50_us = r->resp_p99_us = r->rxq_p50_us = r->rxq_p99_us = NAN;
	return ni->n_ports++;
}

static void fill_port(struct net_port_loss *l, const struct loss_port_stats *p,
		      const struct net_port_stats *row, double dt)
{
	memcpy(l->segs, p->segs, sizeof(l->segs));
	l->retrans = p->retrans;
	l->rto_timer = p->rto_timer;
	l->tlp_probes = p->tlp_probes;
	l->stalls = p->stalls;
	l->conns = p->conns;
	l->retrans_per_s = per_s(p->retrans, dt);
	l->rto_per_s = per_s(p->rto_timer, dt);
	l->tlp_per_s = per_s(p->tlp_probes, dt);
	l->stalls_per_s = per_s(p->stalls, dt);
	l->stall_rto_ms = p->stall_rto_ms;
	l->stall_pct = row->requests ? 100.0 * (double)p->stalls / (double)row->requests : NAN;
}

int net_loss_join(struct net_interval *ni, const struct loss_interval *li,
		  const struct net_filter *filter)
{
	size_t cap = (size_t)ni->n_ports;
	double dt = ni->dt_s > 0 ? ni->dt_s : li->dt_s;
	int err = 0;

	free(ni->port_loss);
	free(ni->dev_loss);
	ni->port_loss = NULL;
	ni->dev_loss = NULL;
	/* rows first: appending moves ni->ports */
	for (int i = 0; i < li->n_ports && !err; i++) {
		const struct loss_port_stats *p = &li->ports[i];

		if (net_filter_keeps(filter, p->port) && find_row(ni, p->port, p->role) < 0)
			err = add_row(ni, p->port, p->role, &cap) < 0 ? -ENOMEM : 0;
	}
	for (int i = 0; i < li->n_drops && !err; i++) {
		const struct loss_drop_stats *d = &li->drops[i];

		if (d->port && net_filter_keeps(filter, d->port) && find_row(ni, d->port, d->role) < 0)
			err = add_row(ni, d->port, d->role, &cap) < 0 ? -ENOMEM : 0;
	}
	if (err)
		return err;
	ni->port_loss = calloc(ni->n_ports ? (size_t)ni->n_ports : 1, sizeof(*ni->port_loss));
	ni->dev_loss = calloc(ni->n_devs ? (size_t)ni->n_devs : 1, sizeof(*ni->dev_loss));
	if (!ni->port_loss || !ni->dev_loss) {
		free(ni->port_loss);
		free(ni->dev_loss);
		ni->port_loss = NULL;
		ni->dev_loss = NULL;
		return -ENOMEM;
	}
	for (int i = 0; i < ni->n_ports; i++) {
		const struct loss_port_stats *p = loss_interval_port(li, ni->ports[i].port, ni->ports[i].role);
		struct net_port_loss *l = &ni->port_loss[i];

		/* no row in li: nothing retransmitted, which is a measured 0 */
		l->stall_pct = ni->ports[i].requests ? 0 : NAN;
		l->stall_rto_ms = NAN;
		if (p)
			fill_port(l, p, &ni->ports[i], dt);
		l->retrans_per_s = per_s(l->retrans, dt);
		l->rto_per_s = per_s(l->rto_timer, dt);
		l->tlp_per_s = per_s(l->tlp_probes, dt);
		l->stalls_per_s = per_s(l->stalls, dt);
	}
	for (int i = 0; i < li->n_drops; i++) {
		const struct loss_drop_stats *d = &li->drops[i];
		int row = d->port ? find_row(ni, d->port, d->role) : -1;

		if (row >= 0)
			ni->port_loss[row].drops += d->count;
		for (int k = 0; d->dev[0] && k < ni->n_devs; k++)
			if (ni->devs[k].netns == d->netns && !strcmp(ni->devs[k].name, d->dev))
				ni->dev_loss[k].drops += d->count;
	}
	for (int i = 0; i < ni->n_ports; i++)
		ni->port_loss[i].drops_per_s = per_s(ni->port_loss[i].drops, dt);
	for (int i = 0; i < ni->n_devs; i++)
		ni->dev_loss[i].drops_per_s = per_s(ni->dev_loss[i].drops, dt);
	return 0;
}
