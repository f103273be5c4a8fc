#include "capture/capture_loss.h"

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>

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
