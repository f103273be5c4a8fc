#include "collect/net.h"
#include "core/bpf_batch.h"
#include "core/bpf_percpu.h"
#include "core/bpf_plan_skel.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "core/vec.h"
#include "model/hist.h"
#include "sysinfo/netns.h"
#include "net.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fentry first (exact function boundaries, and the only way on kernels
 * older than the socket tracepoints, such as 6.1), then the tracepoints,
 * then kprobes (a kretprobe per receive call is the dearest of all). */
static const struct plan_variant variants[] = {
	{ "fentry+tp_btf", "_fe", FEAT(FEAT_KERNEL_BTF) },
	{ "tp_btf", "_btf", FEAT(FEAT_KERNEL_BTF) },
	{ "raw_tp", "_raw", 0 },
	{ "kprobe+raw_tp", "_kp", 0 },
};

PLAN_SKEL(net)

/* fexit and kprobe on tcp_recvmsg read its arguments by position:
 * where they are is the prototype this kernel has, (sk, msg, len,
 * nonblock, flags, addr_len) before 5.19, (sk, msg, len, flags,
 * addr_len), and (sk, msg, len, flags) from 6.18 on. */
static int recv_prototype(struct plan_handle *h)
{
	struct net_bpf *s = h->skel;
	int n = bpf_features_func_params(h->kernel, "tcp_recvmsg");

	if (n < 4 || n > 6) {
		log_debug("net: tcp_recvmsg has %d parameters: a prototype dbtrace does not know", n);
		return n < 0 ? n : -EOPNOTSUPP;
	}
	s->rodata->recv_params = n;
	return 0;
}

/* Socket state in the LRU hash for untyped programs, and for typed ones
 * where tracing programs may not use socket storage; the maps a variant
 * does not use get one entry instead of a preallocated 32k. */
static int skel_prepare(struct plan_handle *h, const struct plan_variant *v, struct probe_report *rep)
{
	struct net_bpf *s = h->skel;
	const struct net_collector *nc = h->ctx;
	bool kprobe = !strcmp(v->suffix, "_kp"), typed = !kprobe && strcmp(v->suffix, "_raw");
	bool hash = !typed || !bpf_feature_or_note(h->kernel, FEAT_SK_STORAGE_TRACING, rep,
						    "socket state in a hash");
	int err = 0;

	if (kprobe || !strcmp(v->suffix, "_fe"))
		err = recv_prototype(h);
	s->rodata->socks_in_hash = hash;
	s->rodata->only_netns = nc->scope_path ? nc->self_netns : 0;
	/* kprobes are skipped where fentry and tracepoints are not
	 * (bpf/net.bpf.c, "events the kernel skipped") */
	s->rodata->recover_skipped = kprobe;
	if (!err && !hash)
		err = bpf_map__set_max_entries(s->maps.net_socks, 1);
	if (!err && !kprobe)
		err = bpf_map__set_max_entries(s->maps.net_recv_args, 1);
	return err;
}

/* Every port slot free, before a program can ask for one: the programs
 * take slots from this queue only. */
static int fill_free_slots(struct plan_handle *h)
{
	struct net_bpf *s = h->skel;
	int fd = bpf_map__fd(s->maps.net_port_free);

	for (__u32 slot = 0; slot < DBT_NET_MAX_PORTS; slot++)
		if (bpf_map_update_elem(fd, NULL, &slot, BPF_ANY))
			return -errno;
	return 0;
}

static const struct plan_family family = {
	.name = "net",
	.variants = variants,
	.n_variants = sizeof(variants) / sizeof(variants[0]),
	PLAN_SKEL_OPS(net),
	.prepare = skel_prepare,
	.loaded = fill_free_slots,
};

int net_collector_open(struct net_collector *c, struct probe_report *rep, struct bpf_features *kernel,
		       uint32_t scope_inum, const char *scope_path)
{
	struct net_bpf *s;
	size_t vsize;
	int err;

	memset(c, 0, sizeof(*c));
	c->h.kernel = kernel;
	c->h.ctx = c;
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->self_netns = netns_self(NULL);
	if (scope_inum) {
		/* the namespace measured stands for "this host": its devices
		 * are the rows' own, read from inside it */
		c->self_netns = scope_inum;
		c->scope_path = scope_path;
	}
	/* per-CPU values come as ncpus copies, each rounded to 8 bytes */
	vsize = sizeof(struct dbt_net_port) > sizeof(struct dbt_net_dev) ? sizeof(struct dbt_net_port)
									   : sizeof(struct dbt_net_dev);
	c->keys = calloc(NET_CHUNK, sizeof(struct dbt_net_dev_key));
	c->values = calloc((size_t)NET_CHUNK * (size_t)c->ncpus, (vsize + 7) & ~(size_t)7);
	c->stats = calloc((size_t)c->ncpus, sizeof(*c->stats));
	c->port_vals = calloc((size_t)c->ncpus, sizeof(*c->port_vals));
	c->links = calloc(NET_MAX_LINKS, sizeof(*c->links));
	c->port_hist = calloc(1, sizeof(*c->port_hist));
	c->dev_hist = calloc(1, sizeof(*c->dev_hist));
	if (!c->keys || !c->values || !c->stats || !c->port_vals || !c->links || !c->port_hist ||
	    !c->dev_hist) {
		net_collector_close(c);
		return -ENOMEM;
	}
	err = plan_run(&family, &c->h, rep);
	if (err) {
		net_collector_close(c);
		return err;
	}
	s = c->h.skel;
	c->devs_fd = bpf_map__fd(s->maps.net_devs);
	c->port_slot_fd = bpf_map__fd(s->maps.net_port_slot);
	c->ports_fd = bpf_map__fd(s->maps.net_ports);
	c->stats_fd = bpf_map__fd(s->maps.net_stats);
	c->port_owner_fd = bpf_map__fd(s->maps.net_port_owner);
	c->port_free_fd = bpf_map__fd(s->maps.net_port_free);
	c->port_hist_fd = bpf_map__fd(s->maps.net_port_hist);
	c->dev_hist_fd = bpf_map__fd(s->maps.net_dev_hist);
	c->tail_fd = bpf_map__fd(s->maps.net_tail_ns);
	net_port_slots_init(&c->slots);
	return 0;
}

struct take_ctx {
	struct net_collector *c;
	struct net_snapshot *snap;
};

/* Sums one device's per-CPU copies into its sample (a device recreated
 * under the same name has a new ifindex: both keys add up). */
static int take_devs(void *ctx, uint32_t n)
{
	struct take_ctx *t = ctx;
	const struct dbt_net_dev_key *keys = t->c->keys;
	size_t stride = (sizeof(struct dbt_net_dev) + 7) & ~(size_t)7;

	for (uint32_t i = 0; i < n; i++) {
		const char *base = (const char *)t->c->values + (size_t)i * stride * (size_t)t->c->ncpus;
		struct dbt_net_dev sum = { 0 };
		struct net_dev_sample *d;

		for (int cpu = 0; cpu < t->c->ncpus; cpu++) {
			const struct dbt_net_dev *v = (const void *)(base + (size_t)cpu * stride);

			if (!sum.name[0] && v->name[0])
				memcpy(sum.name, v->name, sizeof(sum.name));
			sum.packets += v->packets;
			sum.bytes += v->bytes;
		}
		sum.name[sizeof(sum.name) - 1] = 0;
		if (!sum.name[0])
			snprintf(sum.name, sizeof(sum.name), "if%u", keys[i].ifindex);
		d = net_snapshot_find_dev(t->snap, keys[i].netns, sum.name);
		if (!d) {
			d = net_snapshot_add_dev(t->snap);
			if (!d)
				return -ENOMEM;
			d->netns = keys[i].netns;
			memcpy(d->name, sum.name, sizeof(d->name));
		}
		d->have_txq = true;
		d->xmit_packets += sum.packets;
		d->xmit_bytes += sum.bytes;
		/* no histogram yet: no skb of it timed */
		if (!bpf_map_lookup_elem(t->c->dev_hist_fd, &keys[i], t->c->dev_hist)) {
			d->txq_timed += t->c->dev_hist->txq.timed;
			hist_add_to(d->txq_hist, t->c->dev_hist->txq.buckets, DBT_HIST_BUCKETS);
		}
	}
	return 0;
}

/* The slot's slow-tail threshold for the next interval: the p90 of its
 * staged totals since the last read (model/net_model.h). A slot that
 * changed hands starts over. */
static void tail_update(struct net_collector *c, uint32_t slot, uint32_t gen, const __u64 *staged_hist)
{
	__u64 *prev = c->tail_prev[slot];
	uint64_t ns;

	if (!prev) {
		prev = calloc(DBT_HIST_BUCKETS, sizeof(*prev));
		if (!prev)
			return;
		c->tail_prev[slot] = prev;
		c->tail_gen[slot] = gen;
	}
	ns = net_tail_threshold_ns(c->tail_gen[slot] == gen ? prev : NULL, staged_hist);
	if (ns && bpf_map_update_elem(c->tail_fd, &slot, &ns, BPF_ANY))
		log_debug("net: cannot set slot %u's tail threshold: %s", slot, strerror(errno));
	memcpy(prev, staged_hist, DBT_HIST_BUCKETS * sizeof(*prev));
	c->tail_gen[slot] = gen;
}

/* A chunk of the port -> slot index: each port's counters are the
 * per-CPU values of its slot in net_ports. */
static int take_ports(void *ctx, uint32_t n)
{
	struct take_ctx *t = ctx;
	const struct dbt_net_port_key *keys = t->c->keys;
	const uint32_t *slots = t->c->values;

	for (uint32_t i = 0; i < n; i++) {
		struct net_port_sample *p;
		int err = percpu_lookup(t->c->ports_fd, &slots[i], t->c->port_vals,
					sizeof(*t->c->port_vals));

		if (err)
			return err;
		p = net_snapshot_add_port(t->snap);
		if (!p)
			return -ENOMEM;
		p->port = keys[i].port;
		p->role = (uint8_t)keys[i].role;
		for (int cpu = 0; cpu < t->c->ncpus; cpu++) {
			const struct dbt_net_port *v = &t->c->port_vals[cpu];

			p->requests += v->requests;
			p->reads += v->reads;
			p->staged += v->staged;
			p->staged_timed += v->staged_timed;
			p->tail += v->tail;
			p->tail_timed += v->tail_timed;
			for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++) {
				p->stage_ns[pos] += v->stage_ns[pos];
				p->tail_ns[pos] += v->tail_ns[pos];
			}
		}
		err = bpf_map_lookup_elem(t->c->port_hist_fd, &slots[i], t->c->port_hist);
		if (err)
			return -errno;
		p->resp_timed = t->c->port_hist->resp.timed;
		p->rxq_timed = t->c->port_hist->rxq.timed;
		memcpy(p->resp_hist, t->c->port_hist->resp.buckets, sizeof(p->resp_hist));
		memcpy(p->rxq_hist, t->c->port_hist->rxq.buckets, sizeof(p->rxq_hist));
		memcpy(p->staged_hist, t->c->port_hist->staged.buckets, sizeof(p->staged_hist));
		for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++)
			memcpy(p->stage_hist[pos], t->c->port_hist->stage[pos].buckets, sizeof(p->stage_hist[pos]));
		p->gen = net_port_slots_observe(&t->c->slots, slots[i], p->port, p->role,
						p->requests + p->reads, t->snap->mono_ns);
		if (slots[i] < DBT_NET_MAX_PORTS)
			tail_update(t->c, slots[i], p->gen, p->staged_hist);
	}
	return 0;
}

/* Gives a quiet port's slot back to the kernel side: unfindable first (a
 * new socket of the port takes another slot), then disowned (its old
 * sockets look their port up again), emptied, and queued for the next
 * new port. A sample already past the owner check when the slot is
 * emptied lands in it: at most the few in flight on other CPUs. */
static void give_back(struct net_collector *c, uint32_t slot)
{
	const struct net_port_slot_use *u = &c->slots.slot[slot];
	struct dbt_net_port_key key = { .port = u->port, .role = u->role };
	__u32 free_owner = 0;
	int err;

	err = bpf_map_delete_elem(c->port_slot_fd, &key);
	if (!err)
		err = bpf_map_update_elem(c->port_owner_fd, &slot, &free_owner, BPF_ANY);
	if (!err) {
		/* per-CPU values: ncpus copies of a struct whose size is a
		 * multiple of 8, the kernel's stride */
		memset(c->port_vals, 0, (size_t)c->ncpus * sizeof(*c->port_vals));
		err = bpf_map_update_elem(c->ports_fd, &slot, c->port_vals, BPF_ANY);
	}
	if (!err) {
		memset(c->port_hist, 0, sizeof(*c->port_hist));
		err = bpf_map_update_elem(c->port_hist_fd, &slot, c->port_hist, BPF_ANY);
	}
	if (!err) {
		__u64 none = 0;

		err = bpf_map_update_elem(c->tail_fd, &slot, &none, BPF_ANY);
	}
	if (!err)
		err = bpf_map_update_elem(c->port_free_fd, NULL, &slot, BPF_ANY);
	if (err) {
		log_debug("net: cannot give back port slot %u (%u/%s): %s", slot, key.port,
			  net_role_name(key.role), strerror(errno));
		return;
	}
	c->slots_reclaimed++;
	log_debug("net: port %u (%s) quiet: slot %u given back", key.port, net_role_name(key.role),
		  slot);
}

/* The port index, then the slots of quiet ports back when it runs full. */
static int read_ports(struct net_collector *c, struct take_ctx *t)
{
	uint32_t back[DBT_NET_MAX_PORTS];
	int err, n;

	net_port_slots_begin(&c->slots);
	err = bpf_hash_stream(c->port_slot_fd, c->keys, c->values, NET_CHUNK, false,
			      DBT_NET_MAX_PORTS, take_ports, t);
	if (err)
		return err;
	n = net_port_slots_end(&c->slots, t->snap->mono_ns, back, DBT_NET_MAX_PORTS);
	for (int i = 0; i < n; i++)
		give_back(c, back[i]);
	return 0;
}

/* What is read inside one namespace: its link counters and qdiscs. */
struct ns_read {
	struct net_collector *c;
	int n_links;
};

static int read_here(void *ctx)
{
	struct ns_read *r = ctx;
	int n, err;

	n = netdev_read_proc(NULL, r->c->links, NET_MAX_LINKS);
	r->n_links = n < 0 ? 0 : n;
	err = qdisc_dump(&r->c->qdiscs);
	if (err) {
		log_debug("net: qdisc dump failed: %s", strerror(-err));
		r->c->qdiscs.n = 0;
	}
	return n < 0 ? n : 0;
}

/* Merges one namespace's link counters and root qdiscs into snap. */
static int merge_links(struct net_collector *c, struct net_snapshot *snap, uint32_t netns,
		       const char *netns_name, int n_links, bool own)
{
	for (int i = 0; i < n_links; i++) {
		const struct netdev_counters *l = &c->links[i];
		struct net_dev_sample *d = net_snapshot_find_dev(snap, netns, l->name);

		if (!d) {
			d = net_snapshot_add_dev(snap);
			if (!d)
				return -ENOMEM;
			d->netns = netns;
			memcpy(d->name, l->name, sizeof(d->name));
		}
		d->have_link = true;
		d->rx_packets = l->rx_packets;
		d->tx_packets = l->tx_packets;
		d->rx_bytes = l->rx_bytes;
		d->tx_bytes = l->tx_bytes;
		/* sysfs shows the namespace it was mounted in: ours */
		d->speed_mbps = own ? netdev_speed_mbps(NULL, l->name) : -1;
	}
	for (int i = 0; i < c->qdiscs.n; i++) {
		const struct qdisc_info *q = &c->qdiscs.q[i];
		struct net_dev_sample *d;

		if (q->parent != 0xffffffffu || !q->dev[0])
			continue;
		d = net_snapshot_find_dev(snap, netns, q->dev);
		if (d) {
			d->have_qdisc = true;
			d->qdisc = *q;
		}
	}
	for (int i = 0; i < snap->n_dev; i++)
		if (snap->dev[i].netns == netns)
			snprintf(snap->dev[i].netns_name, sizeof(snap->dev[i].netns_name), "%s", netns_name);
	return 0;
}

static struct net_ns_ref *ns_ref(struct net_collector *c, uint32_t inum)
{
	struct net_ns_ref *r;

	for (int i = 0; i < c->n_ns; i++)
		if (c->ns[i].inum == inum)
			return &c->ns[i];
	if (VEC_RESERVE(c->ns, c->cap_ns, (size_t)c->n_ns + 1))
		return NULL;
	r = &c->ns[c->n_ns++];
	memset(r, 0, sizeof(*r));
	r->inum = inum;
	return r;
}

/* Drops the kernel side's entries of namespace inum: a namespace that is
 * gone sends nothing more, and its entries would fill the map and make
 * every read search /proc for it again. Its counts up to now have been
 * reported. */
static void forget_netns(struct net_collector *c, uint32_t inum)
{
	struct dbt_net_dev_key key, next, drop[DBT_NET_MAX_DEVS];
	int n = 0;

	/* collect first: deleting the key a walk stands on restarts it */
	for (int i = 0; i < DBT_NET_MAX_DEVS; i++) {
		if (bpf_map_get_next_key(c->devs_fd, i ? &key : NULL, &next))
			break;
		key = next;
		if (next.netns == inum)
			drop[n++] = next;
	}
	for (int i = 0; i < n; i++) {
		bpf_map_delete_elem(c->devs_fd, &drop[i]);
		bpf_map_delete_elem(c->dev_hist_fd, &drop[i]);
	}
}

/* Link counters and qdiscs of every other namespace the kernel side saw
 * a device of. One that cannot be found (gone, or only a bind mount
 * elsewhere) keeps its tx queue data of this read, without link counters,
 * and is then forgotten (see forget_netns). */
static int read_foreign(struct net_collector *c, struct net_snapshot *snap)
{
	int n_dev = snap->n_dev;

	for (int i = 0; i < n_dev; i++) {
		uint32_t inum = snap->dev[i].netns;
		struct ns_read r = { c, 0 };
		struct net_ns_ref *ref;
		char name[NET_NETNS_NAME_MAX];
		bool done = false;
		int err;

		if (inum == c->self_netns || !inum)
			continue;
		for (int k = 0; k < i && !done; k++)
			done = snap->dev[k].netns == inum;
		if (done)
			continue;
		ref = ns_ref(c, inum);
		if (!ref)
			return -ENOMEM;
		name[0] = 0;
		ref->found = !netns_find(NULL, inum, ref->path, sizeof(ref->path), name, sizeof(name));
		if (name[0])
			snprintf(ref->name, sizeof(ref->name), "%s", name);
		else if (!ref->name[0] || !ref->found)
			snprintf(ref->name, sizeof(ref->name), "net:[%u]", inum);
		if (!ref->found) {
			merge_links(c, snap, inum, ref->name, 0, false);
			if (!ref->gone)
				log_debug("net: namespace %s is gone", ref->name);
			ref->gone = true;
			forget_netns(c, inum);
			continue;
		}
		ref->gone = false;
		c->qdiscs.n = 0;
		err = netns_run(ref->path, read_here, &r);
		if (err == -ENOTRECOVERABLE)
			return err;
		if (err) {
			log_debug("net: cannot read namespace %s: %s", ref->name, strerror(-err));
			c->qdiscs.n = 0;
			r.n_links = 0;
		}
		err = merge_links(c, snap, inum, ref->name, r.n_links, false);
		if (err)
			return err;
	}
	return 0;
}

int net_collector_read(struct net_collector *c, struct net_snapshot *snap)
{
	struct take_ctx t = { c, snap };
	struct ns_read own = { c, 0 };
	__u32 zero = 0;
	int err;

	snap->n_dev = 0;
	snap->n_port = 0;
	snap->mono_ns = mono_ns();
	snap->self_netns = c->self_netns;
	err = bpf_hash_stream(c->devs_fd, c->keys, c->values, NET_CHUNK, false, DBT_NET_MAX_DEVS,
			      take_devs, &t);
	if (!err)
		err = read_ports(c, &t);
	if (err)
		return err;
	err = c->scope_path ? netns_run(c->scope_path, read_here, &own) : read_here(&own);
	if (err == -ENOTRECOVERABLE)
		return err;
	if (err)
		log_debug("net: cannot read /proc/net/dev: %s", strerror(-err));
	err = merge_links(c, snap, c->self_netns, "", own.n_links, true);
	if (!err)
		err = read_foreign(c, snap);
	if (err)
		return err;

	err = percpu_lookup(c->stats_fd, &zero, c->stats, sizeof(*c->stats));
	if (err)
		return err;
	memset(&snap->stats, 0, sizeof(snap->stats));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		snap->stats.socks_new += c->stats[cpu].socks_new;
		snap->stats.sock_failed += c->stats[cpu].sock_failed;
		snap->stats.port_failed += c->stats[cpu].port_failed;
		snap->stats.dev_failed += c->stats[cpu].dev_failed;
		snap->stats.skb_failed += c->stats[cpu].skb_failed;
		snap->stats.skipped += c->stats[cpu].skipped;
		snap->stats.unstaged += c->stats[cpu].unstaged;
	}
	c->failed = snap->stats.sock_failed + snap->stats.port_failed + snap->stats.dev_failed +
		    snap->stats.skb_failed;
	return 0;
}

uint64_t net_collector_lost(const struct net_collector *c)
{
	return plan_lost_events(&c->h) + c->failed;
}

void net_collector_close(struct net_collector *c)
{
	plan_close(&family, &c->h);
	free(c->keys);
	free(c->values);
	free(c->stats);
	free(c->port_vals);
	free(c->port_hist);
	for (int i = 0; i < DBT_NET_MAX_PORTS; i++)
		free(c->tail_prev[i]);
	free(c->dev_hist);
	free(c->links);
	free(c->ns);
	qdisc_table_free(&c->qdiscs);
	memset(c, 0, sizeof(*c));
}
