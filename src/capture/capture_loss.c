#include "capture/capture_loss.h"
#include "core/vec.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *u64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static json_object *str_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

void capture_loss_port(json_object *port, const struct net_port_loss *l)
{
	json_object *r = json_object_new_object();

	json_object_object_add(r, "segments", u64(l->retrans));
	json_object_object_add(r, "per_s", num(l->retrans_per_s));
	for (int k = 0; k < DBT_RETX_KINDS; k++)
		json_object_object_add(r, loss_kind_name(k), u64(l->segs[k]));
	json_object_object_add(r, "rto_timeouts", u64(l->rto_timer));
	json_object_object_add(r, "rto_per_s", num(l->rto_per_s));
	json_object_object_add(r, "tail_loss_probes", u64(l->tlp_probes));
	json_object_object_add(r, "rto_waits", u64(l->stalls));
	json_object_object_add(r, "rto_wait_pct", num(l->stall_pct));
	json_object_object_add(r, "rto_wait_ms", num(l->stall_rto_ms));
	json_object_object_add(r, "connections", u64(l->conns));
	json_object_object_add(port, "retransmits", r);
	json_object_object_add(port, "drops", u64(l->drops));
	json_object_object_add(port, "drops_per_s", num(l->drops_per_s));
}

void capture_loss_device(json_object *dev, const struct net_dev_loss *l)
{
	json_object_object_add(dev, "drops", u64(l->drops));
	json_object_object_add(dev, "drops_per_s", num(l->drops_per_s));
}

static json_object *drop_object(const struct loss_drop_stats *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "reason", json_object_new_string(d->reason_name));
	json_object_object_add(o, "count", u64(d->count));
	json_object_object_add(o, "per_s", num(d->per_s));
	json_object_object_add(o, "device", str_or_null(d->dev));
	json_object_object_add(o, "netns", d->foreign ? json_object_new_string(d->netns_name) : NULL);
	json_object_object_add(o, "port", d->port ? json_object_new_int(d->port) : NULL);
	json_object_object_add(o, "role", d->port ? json_object_new_string(net_role_name(d->role)) : NULL);
	return o;
}

static json_object *listener_object(const struct loss_listener_stats *l)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "port", json_object_new_int(l->port));
	json_object_object_add(o, "netns", l->foreign ? json_object_new_string(l->netns_name) : NULL);
	json_object_object_add(o, "sockets", json_object_new_int(l->sockets));
	json_object_object_add(o, "accept_queue", u64(l->queue));
	json_object_object_add(o, "backlog", u64(l->backlog));
	json_object_object_add(o, "overflows", l->have_drops ? u64(l->overflows) : NULL);
	json_object_object_add(o, "overflows_per_s", num(l->overflows_per_s));
	json_object_object_add(o, "somaxconn", l->somaxconn >= 0 ? u64((uint64_t)l->somaxconn) : NULL);
	return o;
}

static json_object *netstat_object(const struct loss_ns_stats *n)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "netns", n->foreign ? json_object_new_string(n->name) : NULL);
	json_object_object_add(o, "listen_overflows", n->have ? u64(n->listen_overflows) : NULL);
	json_object_object_add(o, "listen_drops", n->have ? u64(n->listen_drops) : NULL);
	json_object_object_add(o, "listen_overflows_per_s", num(n->listen_overflows_per_s));
	json_object_object_add(o, "memory_pressures", n->have ? u64(n->memory_pressures) : NULL);
	json_object_object_add(o, "memory_pressure_ms", n->have ? u64(n->memory_pressure_ms) : NULL);
	json_object_object_add(o, "abort_on_memory", n->have ? u64(n->abort_on_memory) : NULL);
	json_object_object_add(o, "rto_timeouts", n->have ? u64(n->timeouts) : NULL);
	json_object_object_add(o, "loss_probes", n->have ? u64(n->loss_probes) : NULL);
	json_object_object_add(o, "retrans_segs", n->have ? u64(n->retrans_segs) : NULL);
	json_object_object_add(o, "somaxconn", n->somaxconn >= 0 ? u64((uint64_t)n->somaxconn) : NULL);
	json_object_object_add(o, "tcp_max_syn_backlog",
			       n->tcp_max_syn_backlog >= 0 ? u64((uint64_t)n->tcp_max_syn_backlog) : NULL);
	return o;
}

void capture_loss_net(json_object *net, const struct loss_interval *li)
{
	json_object *drops = json_object_new_array(), *reasons = json_object_new_array();
	json_object *lis = json_object_new_array(), *ns = json_object_new_array();
	int nd = li->n_drops < CAPTURE_MAX_LOSS_ROWS ? li->n_drops : CAPTURE_MAX_LOSS_ROWS;
	int nl = li->n_listeners < CAPTURE_MAX_LOSS_ROWS ? li->n_listeners : CAPTURE_MAX_LOSS_ROWS;
	int nn = li->n_ns < CAPTURE_MAX_LOSS_ROWS ? li->n_ns : CAPTURE_MAX_LOSS_ROWS;

	for (int i = 0; i < nd; i++)
		json_object_array_add(drops, drop_object(&li->drops[i]));
	for (int i = 0; i < li->n_reasons; i++) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "reason", json_object_new_string(li->reasons[i].name));
		json_object_object_add(r, "count", u64(li->reasons[i].count));
		json_object_object_add(r, "per_s", num(li->reasons[i].per_s));
		json_object_array_add(reasons, r);
	}
	for (int i = 0; i < nl; i++)
		json_object_array_add(lis, listener_object(&li->listeners[i]));
	for (int i = 0; i < nn; i++)
		json_object_array_add(ns, netstat_object(&li->ns[i]));
	json_object_object_add(net, "drops", drops);
	json_object_object_add(net, "drops_omitted", json_object_new_int(li->n_drops - nd));
	json_object_object_add(net, "drops_total", u64(li->drops_total));
	json_object_object_add(net, "drops_per_s", num(li->drops_per_s));
	json_object_object_add(net, "drop_reasons", reasons);
	json_object_object_add(net, "listeners", lis);
	json_object_object_add(net, "listeners_omitted", json_object_new_int(li->n_listeners - nl));
	json_object_object_add(net, "netstat", ns);
	json_object_object_add(net, "netdev_max_backlog",
			       li->netdev_max_backlog >= 0 ? u64((uint64_t)li->netdev_max_backlog) : NULL);
	json_object_object_add(net, "loss_lost_samples", u64(li->lost));
}

void capture_loss_cpus(json_object *cpus, const struct loss_interval *li)
{
	size_t n = json_object_array_length(cpus);

	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cpus, i), *cpu, *o;
		int id;

		if (!json_object_object_get_ex(c, "cpu", &cpu))
			continue;
		id = json_object_get_int(cpu);
		for (int k = 0; k < li->n_cpus; k++) {
			const struct loss_cpu_stats *s = &li->cpus[k];

			if (s->cpu != id)
				continue;
			o = json_object_new_object();
			json_object_object_add(o, "processed", u64(s->processed));
			json_object_object_add(o, "backlog_drops", u64(s->backlog_drops));
			json_object_object_add(o, "backlog_drops_per_s", num(s->backlog_drops_per_s));
			json_object_object_add(o, "time_squeezes", u64(s->time_squeezes));
			json_object_object_add(o, "time_squeezes_per_s", num(s->time_squeezes_per_s));
			json_object_object_add(c, "softnet", o);
			break;
		}
	}
}

/* --- reading back ---------------------------------------------------------- */

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double rnum(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))
		       ? json_object_get_double(v) : NAN;
}

static uint64_t rcount(json_object *o, const char *key)
{
	double v = rnum(o, key);

	return isfinite(v) && v > 0 ? (uint64_t)v : 0;
}

static void rtext(char *dst, size_t len, json_object *o, const char *key)
{
	json_object *v = get(o, key);

	snprintf(dst, len, "%s", v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

static json_object *rarray(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

bool capture_loss_read_port(json_object *port, struct net_port_loss *l)
{
	json_object *r = get(port, "retransmits");

	memset(l, 0, sizeof(*l));
	l->stall_pct = l->stall_rto_ms = NAN;
	l->retrans_per_s = l->rto_per_s = l->tlp_per_s = l->stalls_per_s = l->drops_per_s = NAN;
	if (!r || !json_object_is_type(r, json_type_object))
		return false;
	l->retrans = rcount(r, "segments");
	l->retrans_per_s = rnum(r, "per_s");
	for (int k = 0; k < DBT_RETX_KINDS; k++)
		l->segs[k] = rcount(r, loss_kind_name(k));
	l->rto_timer = rcount(r, "rto_timeouts");
	l->rto_per_s = rnum(r, "rto_per_s");
	l->tlp_probes = rcount(r, "tail_loss_probes");
	l->stalls = rcount(r, "rto_waits");
	l->stall_pct = rnum(r, "rto_wait_pct");
	l->stall_rto_ms = rnum(r, "rto_wait_ms");
	l->conns = rcount(r, "connections");
	l->drops = rcount(port, "drops");
	l->drops_per_s = rnum(port, "drops_per_s");
	return true;
}

bool capture_loss_read_device(json_object *dev, struct net_dev_loss *l)
{
	memset(l, 0, sizeof(*l));
	l->drops_per_s = NAN;
	if (!get(dev, "drops_per_s"))
		return false;
	l->drops = rcount(dev, "drops");
	l->drops_per_s = rnum(dev, "drops_per_s");
	return true;
}

bool capture_loss_read_net(json_object *net, struct loss_interval *li, int *err)
{
	json_object *drops = rarray(net, "drops"), *reasons = rarray(net, "drop_reasons");
	json_object *lis = rarray(net, "listeners"), *ns = rarray(net, "netstat");
	size_t nd = drops ? json_object_array_length(drops) : 0;
	size_t nr = reasons ? json_object_array_length(reasons) : 0;
	size_t nl = lis ? json_object_array_length(lis) : 0, nn = ns ? json_object_array_length(ns) : 0;

	*err = 0;
	if (!reasons)
		return false;
	li->netdev_max_backlog = isfinite(rnum(net, "netdev_max_backlog")) ? (long)rnum(net, "netdev_max_backlog") : -1;
	li->drops_total = rcount(net, "drops_total");
	li->drops_per_s = rnum(net, "drops_per_s");
	li->lost = rcount(net, "loss_lost_samples");
	li->drops = calloc(nd ? nd : 1, sizeof(*li->drops));
	li->reasons = calloc(nr ? nr : 1, sizeof(*li->reasons));
	li->listeners = calloc(nl ? nl : 1, sizeof(*li->listeners));
	li->ns = calloc(nn ? nn : 1, sizeof(*li->ns));
	if (!li->drops || !li->reasons || !li->listeners || !li->ns) {
		*err = -ENOMEM;
		return true;
	}
	for (size_t i = 0; i < nd; i++) {
		json_object *o = json_object_array_get_idx(drops, i);
		struct loss_drop_stats *d = &li->drops[li->n_drops++];
		const char *role;

		rtext(d->reason_name, sizeof(d->reason_name), o, "reason");
		d->count = rcount(o, "count");
		d->per_s = rnum(o, "per_s");
		rtext(d->dev, sizeof(d->dev), o, "device");
		rtext(d->netns_name, sizeof(d->netns_name), o, "netns");
		d->foreign = d->netns_name[0] != 0;
		d->port = (uint16_t)rcount(o, "port");
		role = json_object_get_string(get(o, "role"));
		d->role = role && !strcmp(role, "client") ? DBT_NET_CLIENT : DBT_NET_SERVER;
	}
	for (size_t i = 0; i < nr; i++) {
		json_object *o = json_object_array_get_idx(reasons, i);
		struct loss_reason_stats *r = &li->reasons[li->n_reasons++];

		rtext(r->name, sizeof(r->name), o, "reason");
		r->count = rcount(o, "count");
		r->per_s = rnum(o, "per_s");
	}
	for (size_t i = 0; i < nl; i++) {
		json_object *o = json_object_array_get_idx(lis, i);
		struct loss_listener_stats *l = &li->listeners[li->n_listeners++];

		l->port = (uint16_t)rcount(o, "port");
		rtext(l->netns_name, sizeof(l->netns_name), o, "netns");
		l->foreign = l->netns_name[0] != 0;
		l->sockets = (int)rcount(o, "sockets");
		l->queue = (uint32_t)rcount(o, "accept_queue");
		l->backlog = l->max_backlog = (uint32_t)rcount(o, "backlog");
		l->have_drops = isfinite(rnum(o, "overflows"));
		l->overflows = rcount(o, "overflows");
		l->overflows_per_s = rnum(o, "overflows_per_s");
		l->somaxconn = isfinite(rnum(o, "somaxconn")) ? (long)rnum(o, "somaxconn") : -1;
	}
	for (size_t i = 0; i < nn; i++) {
		json_object *o = json_object_array_get_idx(ns, i);
		struct loss_ns_stats *n = &li->ns[li->n_ns++];

		rtext(n->name, sizeof(n->name), o, "netns");
		n->foreign = n->name[0] != 0;
		n->have = isfinite(rnum(o, "listen_overflows"));
		n->listen_overflows = rcount(o, "listen_overflows");
		n->listen_drops = rcount(o, "listen_drops");
		n->listen_overflows_per_s = rnum(o, "listen_overflows_per_s");
		n->memory_pressures = rcount(o, "memory_pressures");
		n->memory_pressure_ms = rcount(o, "memory_pressure_ms");
		n->abort_on_memory = rcount(o, "abort_on_memory");
		n->timeouts = rcount(o, "rto_timeouts");
		n->loss_probes = rcount(o, "loss_probes");
		n->retrans_segs = rcount(o, "retrans_segs");
		n->somaxconn = isfinite(rnum(o, "somaxconn")) ? (long)rnum(o, "somaxconn") : -1;
		n->tcp_max_syn_backlog = isfinite(rnum(o, "tcp_max_syn_backlog"))
						 ? (long)rnum(o, "tcp_max_syn_backlog") : -1;
	}
	return true;
}

int capture_loss_read_cpu(json_object *cpu, struct loss_interval *li)
{
	json_object *s = get(cpu, "softnet");
	struct loss_cpu_stats *c;

	if (!s)
		return 0;
	if (VEC_RESERVE(li->cpus, li->cap_cpus, (size_t)li->n_cpus + 1))
		return -ENOMEM;
	c = &li->cpus[li->n_cpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = (int)rcount(cpu, "cpu");
	c->processed = rcount(s, "processed");
	c->backlog_drops = rcount(s, "backlog_drops");
	c->backlog_drops_per_s = rnum(s, "backlog_drops_per_s");
	c->time_squeezes = rcount(s, "time_squeezes");
	c->time_squeezes_per_s = rnum(s, "time_squeezes_per_s");
	li->backlog_drops += c->backlog_drops;
	li->time_squeezes += c->time_squeezes;
	return 0;
}
