#define _GNU_SOURCE
#include "model/loss_model.h"
#include "core/vec.h"
#include "model/hist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *loss_kind_name(int kind)
{
	static const char *const names[DBT_RETX_KINDS] = { "timeout", "fast", "tlp", "syn", "other" };

	return kind >= 0 && kind < DBT_RETX_KINDS ? names[kind] : "other";
}

void loss_reason_format(const struct loss_reason_names *names, uint32_t reason, char *buf,
			size_t len)
{
	if (reason == DBT_LOSS_REASON_UNKNOWN)
		snprintf(buf, len, "unknown");
	else if (reason >> 16)
		snprintf(buf, len, "subsys_%u_%u", reason >> 16, reason & 0xffff);
	else if (names && reason < DBT_LOSS_REASON_SLOTS && names->name[reason][0])
		snprintf(buf, len, "%s", names->name[reason]);
	else
		snprintf(buf, len, "reason_%u", reason);
}

void loss_snapshot_init(struct loss_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void loss_snapshot_free(struct loss_snapshot *s)
{
	free(s->port);
	free(s->drop);
	free(s->softnet);
	free(s->ns);
	free(s->lis);
	loss_snapshot_init(s);
}

/* Appends a zeroed item to one of the snapshot's arrays. */
#define ADD_ZEROED(arr, n, cap)                                                \
	({                                                                     \
		__typeof__(arr) add_p_ = NULL;                                 \
		if (!VEC_RESERVE(arr, cap, (size_t)(n) + 1)) {                 \
			add_p_ = &(arr)[(n)++];                                \
			memset(add_p_, 0, sizeof(*add_p_));                    \
		}                                                              \
		add_p_;                                                        \
	})

struct loss_port_sample *loss_snapshot_add_port(struct loss_snapshot *s)
{
	return ADD_ZEROED(s->port, s->n_port, s->cap_port);
}

struct loss_drop_sample *loss_snapshot_add_drop(struct loss_snapshot *s)
{
	return ADD_ZEROED(s->drop, s->n_drop, s->cap_drop);
}

struct loss_ns_sample *loss_snapshot_add_ns(struct loss_snapshot *s)
{
	return ADD_ZEROED(s->ns, s->n_ns, s->cap_ns);
}

struct loss_listener_sample *loss_snapshot_add_listener(struct loss_snapshot *s)
{
	return ADD_ZEROED(s->lis, s->n_lis, s->cap_lis);
}

int loss_snapshot_reserve_softnet(struct loss_snapshot *s, int n)
{
	s->n_softnet = 0;
	return n > 0 && VEC_RESERVE(s->softnet, s->cap_softnet, (size_t)n) ? -ENOMEM : 0;
}

#define COPY_ARRAY(dst, src, arr, n, cap)                                                   \
	({                                                                                  \
		int copy_e_ = VEC_RESERVE((dst)->arr, (dst)->cap, (size_t)(src)->n);        \
		if (!copy_e_) {                                                             \
			if ((src)->n)                                                       \
				memcpy((dst)->arr, (src)->arr, sizeof(*(src)->arr) * (size_t)(src)->n); \
			(dst)->n = (src)->n;                                                \
		}                                                                           \
		copy_e_;                                                                    \
	})

int loss_snapshot_copy(struct loss_snapshot *dst, const struct loss_snapshot *src)
{
	if (COPY_ARRAY(dst, src, port, n_port, cap_port) || COPY_ARRAY(dst, src, drop, n_drop, cap_drop) ||
	    COPY_ARRAY(dst, src, softnet, n_softnet, cap_softnet) || COPY_ARRAY(dst, src, ns, n_ns, cap_ns) ||
	    COPY_ARRAY(dst, src, lis, n_lis, cap_lis))
		return -ENOMEM;
	dst->mono_ns = src->mono_ns;
	dst->self_netns = src->self_netns;
	dst->hz = src->hz;
	dst->names = src->names;
	memcpy(dst->reasons, src->reasons, sizeof(dst->reasons));
	dst->stats = src->stats;
	return 0;
}

/* --- the window ---------------------------------------------------------- */

static double per_s(uint64_t n, double dt)
{
	return dt > 0 ? (double)n / dt : NAN;
}

static const struct loss_port_sample *find_port(const struct loss_snapshot *s, uint16_t port,
						uint8_t role)
{
	for (int i = 0; i < s->n_port; i++)
		if (s->port[i].port == port && s->port[i].role == role)
			return &s->port[i];
	return NULL;
}

static const struct loss_drop_sample *find_drop(const struct loss_snapshot *s,
						const struct dbt_loss_drop_key *k)
{
	for (int i = 0; i < s->n_drop; i++) {
		const struct dbt_loss_drop_key *o = &s->drop[i].key;

		if (o->reason == k->reason && o->netns == k->netns && o->ifindex == k->ifindex &&
		    o->port == k->port && o->role == k->role)
			return &s->drop[i];
	}
	return NULL;
}

static const struct loss_ns_sample *find_ns(const struct loss_snapshot *s, uint32_t netns)
{
	for (int i = 0; i < s->n_ns; i++)
		if (s->ns[i].netns == netns)
			return &s->ns[i];
	return NULL;
}

static void ns_name(const struct loss_snapshot *s, uint32_t netns, char *buf, size_t len, bool *foreign)
{
	const struct loss_ns_sample *n = find_ns(s, netns);

	*foreign = netns && netns != s->self_netns;
	if (!*foreign)
		snprintf(buf, len, "%s", "");
	else if (n && n->name[0])
		snprintf(buf, len, "%s", n->name);
	else
		snprintf(buf, len, "net:[%u]", netns);
}

static uint64_t stats_lost(const struct dbt_loss_stats *s)
{
	return s->port_failed + s->drop_failed + s->sock_failed + s->netns_failed;
}

static int cmp_port(const void *a, const void *b)
{
	const struct loss_port_stats *x = a, *y = b;

	if (x->retrans != y->retrans)
		return x->retrans > y->retrans ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->role < y->role ? -1 : x->role > y->role;
}

static int cmp_drop(const void *a, const void *b)
{
	const struct loss_drop_stats *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	c = strcmp(x->reason_name, y->reason_name);
	if (c)
		return c;
	c = strcmp(x->dev, y->dev);
	if (c)
		return c;
	return x->port < y->port ? -1 : x->port > y->port;
}

static int cmp_reason(const void *a, const void *b)
{
	const struct loss_reason_stats *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct loss_cpu_stats *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Overflows first, then the fullest queue, then by port. */
static int cmp_listener(const void *a, const void *b)
{
	const struct loss_listener_stats *x = a, *y = b;
	double fx = x->backlog ? (double)x->queue / x->backlog : 0;
	double fy = y->backlog ? (double)y->queue / y->backlog : 0;

	if (x->overflows != y->overflows)
		return x->overflows > y->overflows ? -1 : 1;
	if (fx != fy)
		return fx > fy ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->netns < y->netns ? -1 : x->netns > y->netns;
}

static int compute_ports(const struct loss_snapshot *prev, const struct loss_snapshot *cur,
			 double dt, struct loss_interval *out)
{
	out->ports = calloc(cur->n_port ? (size_t)cur->n_port : 1, sizeof(*out->ports));
	if (!out->ports)
		return -ENOMEM;
	for (int i = 0; i < cur->n_port; i++) {
		const struct loss_port_sample *c = &cur->port[i];
		const struct loss_port_sample *p = find_port(prev, c->port, c->role);
		static const struct dbt_loss_port zero;
		const struct dbt_loss_port *pc = p ? &p->c : &zero;
		struct loss_port_stats *r = &out->ports[out->n_ports];
		uint64_t jiffies;

		memset(r, 0, sizeof(*r));
		r->port = c->port;
		r->role = c->role;
		for (int k = 0; k < DBT_RETX_KINDS; k++) {
			r->segs[k] = counter_delta(pc->segs[k], c->c.segs[k]);
			r->retrans += r->segs[k];
		}
		r->rto_timer = counter_delta(pc->rto_timer, c->c.rto_timer);
		r->tlp_probes = counter_delta(pc->tlp_probes, c->c.tlp_probes);
		r->stalls = counter_delta(pc->stalls, c->c.stalls);
		r->conns = counter_delta(pc->conns, c->c.conns);
		if (!r->retrans && !r->rto_timer && !r->tlp_probes && !r->stalls)
			continue;
		jiffies = counter_delta(pc->stall_rto_jiffies, c->c.stall_rto_jiffies);
		r->retrans_per_s = per_s(r->retrans, dt);
		r->rto_per_s = per_s(r->rto_timer, dt);
		r->tlp_per_s = per_s(r->tlp_probes, dt);
		r->stalls_per_s = per_s(r->stalls, dt);
		r->stall_rto_ms = r->stalls && cur->hz > 0
					  ? (double)jiffies / (double)r->stalls * 1000.0 / (double)cur->hz
					  : NAN;
		out->n_ports++;
	}
	qsort(out->ports, (size_t)out->n_ports, sizeof(*out->ports), cmp_port);
	return 0;
}

static int compute_drops(const struct loss_snapshot *prev, const struct loss_snapshot *cur,
			 double dt, struct loss_interval *out)
{
	out->drops = calloc(cur->n_drop ? (size_t)cur->n_drop : 1, sizeof(*out->drops));
	out->reasons = calloc(DBT_LOSS_REASON_SLOTS, sizeof(*out->reasons));
	if (!out->drops || !out->reasons)
		return -ENOMEM;
	for (int i = 0; i < cur->n_drop; i++) {
		const struct loss_drop_sample *c = &cur->drop[i];
		const struct loss_drop_sample *p = find_drop(prev, &c->key);
		struct loss_drop_stats *r = &out->drops[out->n_drops];

		memset(r, 0, sizeof(*r));
		r->count = counter_delta(p ? p->count : 0, c->count);
		if (!r->count)
			continue;
		r->reason = c->key.reason;
		loss_reason_format(cur->names, c->key.reason, r->reason_name, sizeof(r->reason_name));
		r->netns = c->key.netns;
		ns_name(cur, c->key.netns, r->netns_name, sizeof(r->netns_name), &r->foreign);
		r->ifindex = c->key.ifindex;
		snprintf(r->dev, sizeof(r->dev), "%s", c->dev);
		r->port = c->key.port;
		r->role = c->key.role;
		r->per_s = per_s(r->count, dt);
		out->n_drops++;
	}
	qsort(out->drops, (size_t)out->n_drops, sizeof(*out->drops), cmp_drop);
	for (uint32_t s = 0; s < DBT_LOSS_REASON_SLOTS; s++) {
		uint64_t n = counter_delta(prev->reasons[s], cur->reasons[s]);
		struct loss_reason_stats *r = &out->reasons[out->n_reasons];

		if (!n)
			continue;
		r->slot = s;
		if (s == DBT_LOSS_REASON_OTHER)
			snprintf(r->name, sizeof(r->name), "other");
		else
			loss_reason_format(cur->names, s, r->name, sizeof(r->name));
		r->count = n;
		r->per_s = per_s(n, dt);
		out->drops_total += n;
		out->n_reasons++;
	}
	qsort(out->reasons, (size_t)out->n_reasons, sizeof(*out->reasons), cmp_reason);
	out->drops_per_s = per_s(out->drops_total, dt);
	return 0;
}

/* softnet counters are 32 bits: a wrap, not a reset (a CPU's counters
 * survive it going offline). */
static uint64_t u32_delta(uint32_t prev, uint32_t cur)
{
	return (uint32_t)(cur - prev);
}

static int compute_cpus(const struct loss_snapshot *prev, const struct loss_snapshot *cur,
			double dt, struct loss_interval *out)
{
	out->cpus = calloc(cur->n_softnet ? (size_t)cur->n_softnet : 1, sizeof(*out->cpus));
	if (!out->cpus)
		return -ENOMEM;
	for (int i = 0; i < cur->n_softnet; i++) {
		const struct softnet_cpu *c = &cur->softnet[i], *p = NULL;
		struct loss_cpu_stats *r = &out->cpus[out->n_cpus];

		for (int k = 0; k < prev->n_softnet && !p; k++)
			if (prev->softnet[k].cpu == c->cpu)
				p = &prev->softnet[k];
		if (!p)
			continue;   /* came online in the window: no start to count from */
		r->cpu = c->cpu;
		r->processed = u32_delta(p->processed, c->processed);
		r->backlog_drops = u32_delta(p->dropped, c->dropped);
		r->time_squeezes = u32_delta(p->time_squeeze, c->time_squeeze);
		r->backlog_drops_per_s = per_s(r->backlog_drops, dt);
		r->time_squeezes_per_s = per_s(r->time_squeezes, dt);
		out->backlog_drops += r->backlog_drops;
		out->time_squeezes += r->time_squeezes;
		out->n_cpus++;
	}
	qsort(out->cpus, (size_t)out->n_cpus, sizeof(*out->cpus), cmp_cpu);
	return 0;
}

static int compute_ns(const struct loss_snapshot *prev, const struct loss_snapshot *cur, double dt,
		      struct loss_interval *out)
{
	out->ns = calloc(cur->n_ns ? (size_t)cur->n_ns : 1, sizeof(*out->ns));
	if (!out->ns)
		return -ENOMEM;
	for (int i = 0; i < cur->n_ns; i++) {
		const struct loss_ns_sample *c = &cur->ns[i], *p = find_ns(prev, c->netns);
		struct loss_ns_stats *r = &out->ns[out->n_ns++];

		memset(r, 0, sizeof(*r));
		r->netns = c->netns;
		ns_name(cur, c->netns, r->name, sizeof(r->name), &r->foreign);
		r->somaxconn = c->limits.somaxconn;
		r->tcp_max_syn_backlog = c->limits.tcp_max_syn_backlog;
		r->have = p && p->tcp.have && c->tcp.have;
		if (!r->have) {
			r->listen_overflows_per_s = r->listen_drops_per_s = NAN;
			continue;
		}
		r->listen_overflows = counter_delta(p->tcp.listen_overflows, c->tcp.listen_overflows);
		r->listen_drops = counter_delta(p->tcp.listen_drops, c->tcp.listen_drops);
		r->memory_pressures = counter_delta(p->tcp.memory_pressures, c->tcp.memory_pressures);
		r->memory_pressure_ms = counter_delta(p->tcp.memory_pressure_ms, c->tcp.memory_pressure_ms);
		r->abort_on_memory = counter_delta(p->tcp.abort_on_memory, c->tcp.abort_on_memory);
		r->timeouts = counter_delta(p->tcp.timeouts, c->tcp.timeouts);
		r->loss_probes = counter_delta(p->tcp.loss_probes, c->tcp.loss_probes);
		r->retrans_segs = counter_delta(p->tcp.retrans_segs, c->tcp.retrans_segs);
		r->listen_overflows_per_s = per_s(r->listen_overflows, dt);
		r->listen_drops_per_s = per_s(r->listen_drops, dt);
	}
	return 0;
}

static struct loss_listener_stats *find_listener(struct loss_interval *out, uint32_t netns,
						 uint16_t port)
{
	for (int i = 0; i < out->n_listeners; i++)
		if (out->listeners[i].netns == netns && out->listeners[i].port == port)
			return &out->listeners[i];
	return NULL;
}

static int compute_listeners(const struct loss_snapshot *prev, const struct loss_snapshot *cur,
			     double dt, struct loss_interval *out)
{
	out->listeners = calloc(cur->n_lis ? (size_t)cur->n_lis : 1, sizeof(*out->listeners));
	if (!out->listeners)
		return -ENOMEM;
	for (int i = 0; i < cur->n_lis; i++) {
		const struct loss_listener_sample *c = &cur->lis[i], *p = NULL;
		struct loss_listener_stats *r = find_listener(out, c->netns, c->port);
		const struct loss_ns_sample *ns = find_ns(cur, c->netns);

		for (int k = 0; k < prev->n_lis && !p; k++)
			if (prev->lis[k].netns == c->netns && prev->lis[k].inode == c->inode)
				p = &prev->lis[k];
		if (!r) {
			r = &out->listeners[out->n_listeners++];
			memset(r, 0, sizeof(*r));
			r->netns = c->netns;
			ns_name(cur, c->netns, r->netns_name, sizeof(r->netns_name), &r->foreign);
			r->port = c->port;
			r->somaxconn = ns ? ns->limits.somaxconn : -1;
		}
		r->sockets++;
		r->queue += c->queue;
		r->backlog += c->backlog;
		if (c->backlog > r->max_backlog)
			r->max_backlog = c->backlog;
		if (c->have_drops) {
			r->have_drops = true;
			/* a socket new in the window dropped all it counts in it */
			r->overflows += p && p->have_drops ? u32_delta(p->drops, c->drops) : c->drops;
		}
	}
	for (int i = 0; i < out->n_listeners; i++)
		out->listeners[i].overflows_per_s =
			out->listeners[i].have_drops ? per_s(out->listeners[i].overflows, dt) : NAN;
	qsort(out->listeners, (size_t)out->n_listeners, sizeof(*out->listeners), cmp_listener);
	return 0;
}

int loss_interval_compute(const struct loss_snapshot *prev, const struct loss_snapshot *cur,
			  struct loss_interval *out)
{
	double dt = cur->mono_ns > prev->mono_ns ? (double)(cur->mono_ns - prev->mono_ns) / 1e9 : 0;
	long nmb = -1;
	int err;

	memset(out, 0, sizeof(*out));
	out->dt_s = dt;
	out->hz = cur->hz;
	out->lost = counter_delta(stats_lost(&prev->stats), stats_lost(&cur->stats));
	for (int i = 0; i < cur->n_ns && nmb < 0; i++)
		nmb = cur->ns[i].limits.netdev_max_backlog;
	out->netdev_max_backlog = nmb;
	err = compute_ports(prev, cur, dt, out);
	if (!err)
		err = compute_drops(prev, cur, dt, out);
	if (!err)
		err = compute_cpus(prev, cur, dt, out);
	if (!err)
		err = compute_ns(prev, cur, dt, out);
	if (!err)
		err = compute_listeners(prev, cur, dt, out);
	if (err)
		loss_interval_free(out);
	return err;
}

void loss_interval_free(struct loss_interval *iv)
{
	free(iv->ports);
	free(iv->drops);
	free(iv->reasons);
	free(iv->cpus);
	free(iv->ns);
	free(iv->listeners);
	memset(iv, 0, sizeof(*iv));
}

const struct loss_port_stats *loss_interval_port(const struct loss_interval *iv, uint16_t port,
						 uint8_t role)
{
	for (int i = 0; i < iv->n_ports; i++)
		if (iv->ports[i].port == port && iv->ports[i].role == role)
			return &iv->ports[i];
	return NULL;
}
