// SPDX-License-Identifier: GPL-2.0
/*
 * net family: where the time goes between a client and the database
 * thread. Three measurements (definitions in include/dbtrace/net.h):
 * tx queue latency per device, rx socket-queue latency and response time
 * per service port, all aggregated here as log-linear ns histograms.
 *
 * Four variants, each a complete set, chosen by the attach plan:
 *  "fentry+tp_btf"  fentry tcp_sendmsg, fexit tcp_recvmsg, fentry
 *                   sock_def_readable (the default sk_data_ready of TCP
 *                   sockets, always called through the pointer, so never
 *                   inlined away); 6.1 has none of the socket tracepoints
 *  "tp_btf"         tracepoints tcp:tcp_sendmsg_locked (6.16),
 *                   sock:sock_recv_length, sock:sk_data_ready (6.3)
 *  "raw_tp"         the same tracepoints without BTF typing
 *  "kprobe+raw_tp"  kprobes on the fentry variant's functions (the
 *                   receive's return through a kretprobe), for kernels
 *                   that refuse fentry and lack the tracepoints
 * Every variant takes the tx queue from net:net_dev_queue and
 * net:net_dev_xmit (typed tp_btf in the first two, raw_tp in the others).
 *
 * Sends are taken at their start (fentry tcp_sendmsg, tcp_sendmsg_locked),
 * not at the end of the call (sock_send_length): on loopback the reply
 * can become readable before the request's send call returns, and a
 * client's request must be stamped before its reply arrives.
 *
 * Kernel fields read: sock_common's addr/port pairs, family, state, num
 * and dport (stable since 2.6); sk_protocol (a plain u16 since 5.6, a
 * bitfield before; dbtrace runs on 5.10 and newer);
 * sk_max_ack_backlog, sk_receive_queue.qlen; sk_buff dev;
 * net_device ifindex, name, qdisc and nd_net (absent without
 * CONFIG_NET_NS: namespace 0); Qdisc enqueue. tcp_recvmsg's prototype
 * changed twice: (sk, msg, len, nonblock, flags, addr_len) before 5.19
 * ("net: remove noblock parameter from recvmsg() entities"), then
 * (sk, msg, len, flags, addr_len), and (sk, msg, len, flags) in 6.18:
 * user space reads the running kernel's from BTF (recv_params).
 *
 * Stages (include/dbtrace/net.h): a timed request's stamps travel with
 * it. Arriving: TCP reads the clock as it starts on each incoming segment
 * (tcp_mstamp_refresh() in tcp_rcv_established(), the clock of
 * bpf_ktime_get_ns()) and keeps it in tcp_sock.tcp_clock_cache, which the
 * data-ready that segment causes reads: no program runs per packet for it
 * (a net:netif_receive_skb program with its own clock read cost 106 ns a
 * packet on the build host, more than the five other hooks' growth
 * together). Leaving: a timed send marks its socket on its CPU, and the
 * first of that socket's skbs handed to a device on the same CPU carries
 * the request's stamps to where it leaves (at once on a device without a
 * queue, at net_dev_xmit from a qdisc). A server's stages are complete
 * there; a client's leaving time waits in net_stage_leave for its reply.
 *
 * No instruction here is newer than 5.10: port slots come from a queue
 * user space fills, not from an atomic fetch-and-add (5.12).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "dbtrace/net.h"
#include "core_fixes.bpf.h"
#include "load_sample.bpf.h"
#include "hist.bpf.h"
#include "maps.bpf.h"
#include "skeleton.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define AF_INET 2
#define AF_INET6 10
#define MSG_PEEK 2
#define NETDEV_TX_OK 0
#define IFF_LOOPBACK 0x8

/* Typed programs (fentry, tp_btf) read kernel memory with plain loads;
 * raw_tp has untyped pointers and must go through bpf_probe_read_kernel,
 * a helper call per field. Every caller passes a constant `typed`, so the
 * branch not taken is compiled out of each program. A request and its
 * reply make the family read some forty fields: as plain loads they cost
 * next to nothing. */
#define KREAD(typed, p, field) ((typed) ? (p)->field : BPF_CORE_READ(p, field))

/* Tx queue timing, two ways. Every skb is remembered in a per-CPU slot
 * (no map update): on a device without a queue (noqueue: lo, veth,
 * bridges), and whenever a qdisc passes the skb straight on, net_dev_xmit
 * follows on the same CPU for the same skb and finds it there. An skb
 * that goes into a real qdisc may leave from another CPU much later, so
 * it is also put in the net_skbs LRU map; that costs a map update, so
 * under load an skb is timed as the socket and softirq measurements are
 * (dbt_start_weight(), bpf/load_sample.bpf.h): one in sixteen, drawn at
 * random, counting sixteen times (picking by time would favour the first
 * skb after a pause, which finds a drained queue, and bias the
 * percentiles low). The histogram's total then estimates all timed-path
 * packets; packets and bytes are counted for all. */

/* An skb in a device's queue. The device is part of the key: stacked
 * devices (bond0 over eth0, a vlan) queue the same skb again inside the
 * upper device's transmit, and bond0's netem wait must not be overwritten
 * by eth0's. */
struct skb_key {
	__u64 skb;
	__u32 ifindex;
	__u32 pad;
};

/* When an skb was queued, how many its timing stands for (0: its queue
 * wait is not timed), and whether it carries a request's stages (in
 * net_stage_skbs). */
struct skb_stamp {
	__u64 queued_ns;
	__u32 w;
	__u32 staged;
};

/* A timed request's stamps on their way to its segment leaving the host
 * (the stages in include/dbtrace/net.h). */
struct stage_rec {
	__u64 sk;                      /* the socket; 0: none pending */
	/* server: its first segment in, readable, read, the reply's send;
	 * client: t[0] the request's send */
	__u64 t[4];
	__u32 slot, owner;             /* its port's slot, and who held it then */
	__u32 w;                       /* the request's weight */
	__u32 role;
};

/* The stages of skbs in a qdisc, until the driver takes them. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_NET_MAX_STAGED);
	__type(key, struct skb_key);
	__type(value, struct stage_rec);
} net_stage_skbs SEC(".maps");

/* Per port slot: the total above which a staged request is in the slow
 * tail, ns (0: none yet). User space writes the p90 of the slot's totals
 * in the interval before (src/collect/net.c). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DBT_NET_MAX_PORTS);
	__type(key, __u32);
	__type(value, __u64);
} net_tail_ns SEC(".maps");

/* A client's timed request that left: when, for the reply to find. */
struct stage_leave {
	__u64 send_ns;                 /* the request's send (its req_ns) */
	__u64 left_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_NET_MAX_STAGED);
	__type(key, __u64);            /* struct sock address */
	__type(value, struct stage_leave);
} net_stage_leave SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_NET_MAX_SKBS);
	__type(key, struct skb_key);
	__type(value, struct skb_stamp);
} net_skbs SEC(".maps");

/* Socket state. Socket-local storage where the programs are typed: a
 * lookup is a pointer chase from the socket instead of a hash, and it goes
 * away with the socket. raw_tp and kprobe programs cannot use it (their
 * socket pointer is untyped), nor typed ones before 5.11
 * (socks_in_hash): they fall back to an LRU hash by address; user space
 * shrinks that map to one entry where it is not used. */
struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct dbt_net_sock);
} net_sk_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_NET_MAX_SOCKS);
	__type(key, __u64);                /* struct sock address */
	__type(value, struct dbt_net_sock);
} net_socks SEC(".maps");

/* Set by user space (--netns): the one network namespace whose sockets
 * and devices are measured, by inode; 0: every one. Folded away at load
 * when 0. */
const volatile __u32 only_netns = 0;

/* Set by user space: typed programs keep socket state in net_socks too
 * (tracing programs may use socket storage from 5.11 on). */
const volatile bool socks_in_hash = false;

/* kprobe variant: a receive call's socket and flags, from its entry to
 * its return (LRU: a thread killed inside the call never returns) */
struct recv_args {
	__u64 sk;
	__u64 flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_NET_MAX_SOCKS);
	__type(key, __u64);                /* pid_tgid */
	__type(value, struct recv_args);
} net_recv_args SEC(".maps");

/* Set by user space: how many parameters the kernel's tcp_recvmsg has
 * (6 before 5.19, 5, 4 from 6.18 on). */
const volatile int recv_params = 5;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, DBT_NET_MAX_DEVS);
	__type(key, struct dbt_net_dev_key);
	__type(value, struct dbt_net_dev);
} net_devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, DBT_NET_MAX_DEVS);
	__type(key, struct dbt_net_dev_key);
	__type(value, struct dbt_net_dev_hist);
} net_dev_hist SEC(".maps");

/* Ports: a sample is an array index, not a hash lookup (two samples per
 * request on each end); the hash is consulted once per socket, and again
 * only when its slot changed hands. Free slots wait in net_port_free:
 * user space fills it with every slot at load, and gives back slots of
 * ports quiet for a while when the array runs full. A port's counters
 * are cumulative while it holds its slot. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, DBT_NET_MAX_PORTS);
	__type(key, struct dbt_net_port_key);
	__type(value, __u32);              /* slot in net_ports */
} net_port_slot SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DBT_NET_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct dbt_net_port);
} net_ports SEC(".maps");

/* The ports' histograms, indexed like net_ports (struct dbt_net_port_hist). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DBT_NET_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct dbt_net_port_hist);
} net_port_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, DBT_NET_MAX_PORTS);
	__type(value, __u32);              /* a slot given back */
} net_port_free SEC(".maps");

/* An array, so the check before each sample is an inlined load. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DBT_NET_MAX_PORTS);
	__type(key, __u32);
	__type(value, __u32);              /* dbt_net_port_owner() of the holder; 0: free */
} net_port_owner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_net_stats);
} net_stats SEC(".maps");

/* Per CPU: the last skb queued, and a timed send's stages waiting for
 * its socket's next skb. */
struct queue_slot {
	struct skb_key key;
	struct skb_stamp stamp;
	__u64 in_map;                  /* also in net_skbs */
	struct stage_rec send;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct queue_slot);
} net_queue_slot SEC(".maps");

/* Zeroed templates for new device entries: too large for the BPF stack. */
const volatile struct dbt_net_dev zero_dev = {};
const volatile struct dbt_net_dev_hist zero_dev_hist = {};

static __always_inline struct dbt_net_stats *stats(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&net_stats, &zero);
}

static __always_inline struct queue_slot *cpu_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&net_queue_slot, &zero);
}

static __always_inline void count_unstaged(void)
{
	struct dbt_net_stats *st = stats();

	if (st)
		st->unstaged++;
}

/* --- stages ------------------------------------------------------------ */

/* A request's stages d[] (by position) into its port, if the slot is
 * still the port's; d[] are in time order, so their sum is the total. */
static __always_inline void stage_sample(__u32 slot, __u32 owner, __u32 w, const __u64 *d)
{
	struct dbt_net_port_hist *h;
	struct dbt_net_port *p;
	__u32 *o = bpf_map_lookup_elem(&net_port_owner, &slot);
	__u64 total = d[0] + d[1] + d[2] + d[3], *tail;

	if (!o || *o != owner)
		return;
	p = bpf_map_lookup_elem(&net_ports, &slot);
	h = bpf_map_lookup_elem(&net_port_hist, &slot);
	if (!p || !h)
		return;
	p->staged += w;
	p->staged_timed++;
	/* unrolled: a loop's back edge is refused before 6.x where clang
	 * lays it out as a fall-through */
#pragma unroll
	for (int i = 0; i < DBT_NET_STAGE_POS; i++) {
		p->stage_ns[i] += d[i] * w;
		dbt_hist_add_shared(&h->stage[i], d[i], w);
	}
	dbt_hist_add_shared(&h->staged, total, w);
	tail = bpf_map_lookup_elem(&net_tail_ns, &slot);
	if (!tail || !*tail || total <= *tail)
		return;
	p->tail += w;
	p->tail_timed++;
#pragma unroll
	for (int i = 0; i < DBT_NET_STAGE_POS; i++)
		p->tail_ns[i] += d[i] * w;
}

/* A timed request's first segment leaves at now: a server's stages are
 * complete, a client's leaving time waits for the reply. */
static __always_inline void stage_left(const struct stage_rec *r, __u64 now)
{
	__u64 d[DBT_NET_STAGE_POS] = {};

	if (r->role == DBT_NET_CLIENT) {
		struct stage_leave l = { .send_ns = r->t[0], .left_ns = now };

		if (now < r->t[0] || bpf_map_update_elem(&net_stage_leave, &r->sk, &l, BPF_ANY))
			count_unstaged();
		return;
	}
	if (!r->t[0] || r->t[0] > r->t[1] || r->t[1] > r->t[2] || r->t[2] > r->t[3] || r->t[3] > now) {
		count_unstaged();
		return;
	}
	d[0] = r->t[1] - r->t[0];
	d[1] = r->t[2] - r->t[1];
	d[2] = r->t[3] - r->t[2];
	d[3] = now - r->t[3];
	stage_sample(r->slot, r->owner, r->w, d);
}

/* When TCP started on the segment that just made sk readable (see the
 * top of this file); 0 when the kernel keeps no such clock. Later than
 * that only when the socket sent data in between, within the same
 * receive: a request or a reply arrives on an idle socket. A segment the
 * socket's owner queued to its backlog counts from when TCP took it from
 * there. */
static __always_inline __u64 stage_arrival(struct sock *sk)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;

	if (!bpf_core_field_exists(tp->tcp_clock_cache))
		return 0;
	return BPF_CORE_READ(tp, tcp_clock_cache);
}

/* --- tx queue per device ---------------------------------------------- */

/* Whether the device's root qdisc queues: noqueue's enqueue is NULL
 * (noqueue_init), and __dev_queue_xmit() then hands the skb to the driver
 * at once. */
static __always_inline bool has_queue(struct net_device *dev, const bool typed)
{
	if (typed) {
		struct Qdisc *q = dev ? dev->qdisc : NULL;

		return q && q->enqueue;
	}
	return BPF_CORE_READ(dev, qdisc, enqueue) != NULL;
}

/* The loopback device with its default noqueue: it has no queue to wait
 * in (its xmit is the receive), and its packets and bytes come from
 * /proc/net/dev. It carries every local request of a database behind a
 * proxy on the same host, so it is not timed at all: that is two
 * programs' work per packet saved where the traffic is densest. With a
 * qdisc on it (a netem test setup) it is timed like any device. */
static __always_inline bool plain_loopback(struct net_device *dev, bool queued, const bool typed)
{
	return !queued && (KREAD(typed, dev, flags) & IFF_LOOPBACK);
}

static __always_inline __u32 dev_netns(struct net_device *dev, const bool typed)
{
	if (!bpf_core_field_exists(dev->nd_net.net))
		return 0;
	if (typed) {
		struct net *net = dev->nd_net.net;

		return net ? net->ns.inum : 0;
	}
	return BPF_CORE_READ(dev, nd_net.net, ns.inum);
}

static __always_inline void on_queue(struct sk_buff *skb, const bool typed)
{
	struct net_device *dev = KREAD(typed, skb, dev);
	struct skb_key key = { .skb = (__u64)skb };
	struct dbt_net_stats *st;
	struct queue_slot *q;
	bool queued, staged;
	__u8 w;

	if (!dev)
		return;
	q = cpu_slot();
	if (!q)
		return;
	queued = has_queue(dev, typed);
	/* the first skb of a socket with a timed send pending on this CPU
	 * (the socket is read only then) */
	staged = q->send.sk && (__u64)KREAD(typed, skb, sk) == q->send.sk;
	if (staged && !queued) {
		/* no queue: it leaves now */
		stage_left(&q->send, bpf_ktime_get_ns());
		q->send.sk = 0;
		staged = false;
	}
	if (plain_loopback(dev, queued, typed))
		return;
	if (only_netns && dev_netns(dev, typed) != only_netns)
		return;
	key.ifindex = KREAD(typed, dev, ifindex);
	w = dbt_start_weight();
	if (!w && !staged) {
		/* not picked: neither way times it, or the skbs a qdisc passes
		 * straight on would outnumber the queued ones */
		q->key.skb = 0;
		return;
	}
	q->key = key;
	q->stamp.queued_ns = bpf_ktime_get_ns();
	q->stamp.w = w;
	q->stamp.staged = staged;
	q->in_map = 0;
	if (staged) {
		if (bpf_map_update_elem(&net_stage_skbs, &key, &q->send, BPF_ANY)) {
			count_unstaged();
			q->stamp.staged = 0;
		}
		q->send.sk = 0;
	}
	if (!queued)
		return;
	if (bpf_map_update_elem(&net_skbs, &key, &q->stamp, BPF_ANY)) {
		st = stats();
		if (st)
			st->skb_failed++;
		if (q->stamp.staged)
			bpf_map_delete_elem(&net_stage_skbs, &key);
		return;
	}
	q->in_map = 1;
}

static __always_inline struct dbt_net_dev *dev_entry(struct net_device *dev, const bool typed)
{
	struct dbt_net_dev_key k = { .netns = dev_netns(dev, typed), .ifindex = KREAD(typed, dev, ifindex) };
	struct dbt_net_dev *d = dbt_lookup_or_init(&net_devs, &k, (const void *)&zero_dev, NULL);
	struct dbt_net_stats *st;

	if (d && d->name[0])
		return d;
	if (!d) {
		st = stats();
		if (st)
			st->dev_failed++;
		return NULL;
	}
	BPF_CORE_READ_STR_INTO(&d->name, dev, name);
	return d;
}

/* The device's histogram (shared by all CPUs), made on first need. */
static __always_inline struct dbt_net_dev_hist *dev_hist(struct net_device *dev, const bool typed)
{
	struct dbt_net_dev_key k = { .netns = dev_netns(dev, typed), .ifindex = KREAD(typed, dev, ifindex) };
	struct dbt_net_dev_hist *h = dbt_lookup_or_init(&net_dev_hist, &k, (const void *)&zero_dev_hist, NULL);
	struct dbt_net_stats *st;

	if (!h) {
		st = stats();
		if (st)
			st->dev_failed++;
	}
	return h;
}

static __always_inline void on_xmit(struct sk_buff *skb, int rc, struct net_device *dev,
				    unsigned int len, const bool typed)
{
	struct skb_key key = { .skb = (__u64)skb, .ifindex = KREAD(typed, dev, ifindex) };
	struct skb_stamp stamp, *in_map;
	struct dbt_net_dev_hist *h;
	struct stage_rec *rec;
	struct dbt_net_dev *d;
	struct queue_slot *q;
	__u64 now;

	/* NETDEV_TX_BUSY: the skb goes back to the queue and is sent again
	 * later; its wait goes on */
	if (rc != NETDEV_TX_OK || plain_loopback(dev, has_queue(dev, typed), typed))
		return;
	if (only_netns && dev_netns(dev, typed) != only_netns)
		return;
	d = dev_entry(dev, typed);
	if (d) {
		d->packets++;
		d->bytes += len;
	}
	q = cpu_slot();
	if (q && q->key.skb == key.skb && q->key.ifindex == key.ifindex) {
		/* passed straight on, on this CPU */
		stamp = q->stamp;
		q->key.skb = 0;
		if (q->in_map)
			bpf_map_delete_elem(&net_skbs, &key);
	} else {
		in_map = bpf_map_lookup_elem(&net_skbs, &key);
		if (!in_map)
			return;   /* not timed (sampled out), or queued before we attached */
		stamp = *in_map;
		bpf_map_delete_elem(&net_skbs, &key);
	}
	/* the clock only for a timed skb: a clock read costs as much as the
	 * map lookups here */
	now = bpf_ktime_get_ns();
	if (stamp.staged) {
		rec = bpf_map_lookup_elem(&net_stage_skbs, &key);
		if (rec) {
			stage_left(rec, now);
			bpf_map_delete_elem(&net_stage_skbs, &key);
		}
	}
	if (!stamp.w || !d || now <= stamp.queued_ns)
		return;
	h = dev_hist(dev, typed);
	if (h)
		dbt_hist_add_shared(&h->txq, now - stamp.queued_ns, stamp.w);
}

/* --- sockets ----------------------------------------------------------- */

/* Under load one request or read in sixteen is timed (bpf/load_sample.bpf.h,
 * dbt_start_weight()): a request and its reply take six clock reads on
 * each end otherwise. */

/* The socket's network namespace, by inode (0 without CONFIG_NET_NS). */
static __always_inline __u32 sock_netns(struct sock *sk, const bool typed)
{
	if (!bpf_core_field_exists(sk->__sk_common.skc_net.net))
		return 0;
	if (typed) {
		struct net *net = sk->__sk_common.skc_net.net;

		return net ? net->ns.inum : 0;
	}
	return BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum);
}

/* A TCP socket with a connection (not a listener), of the namespace
 * measured. */
static __always_inline bool tcp_conn(struct sock *sk, const bool typed)
{
	__u16 family = KREAD(typed, sk, __sk_common.skc_family);

	if (family != AF_INET && family != AF_INET6)
		return false;
	if (only_netns && sock_netns(sk, typed) != only_netns)
		return false;
	if (KREAD(typed, sk, sk_protocol) != IPPROTO_TCP)
		return false;
	return KREAD(typed, sk, __sk_common.skc_state) != TCP_LISTEN;
}

/* A slot nobody holds; DBT_NET_MAX_PORTS when there is none. */
static __always_inline __u32 free_slot(void)
{
	__u32 n;

	if (!bpf_map_pop_elem(&net_port_free, &n) && n < DBT_NET_MAX_PORTS)
		return n;
	return DBT_NET_MAX_PORTS;
}

/* The slot of a port and role in net_ports, taking a free one the first
 * time; DBT_NET_MAX_PORTS when none is free. Two CPUs meeting a new port
 * at once may both take a slot: the loser gives its back. */
static __noinline __u32 port_slot(__u16 port, __u16 role)
{
	struct dbt_net_port_key k = { .port = port, .role = role };
	struct dbt_net_stats *st;
	__u32 *slot, *owner, n;

	slot = bpf_map_lookup_elem(&net_port_slot, &k);
	if (slot)
		return *slot;
	n = free_slot();
	owner = bpf_map_lookup_elem(&net_port_owner, &n);
	if (owner) {
		/* owned before it is findable: no socket samples into it
		 * while it still says free */
		*owner = dbt_net_port_owner(port, role);
		if (!bpf_map_update_elem(&net_port_slot, &k, &n, BPF_NOEXIST))
			return n;
		*owner = 0;
		bpf_map_push_elem(&net_port_free, &n, 0);
	}
	slot = bpf_map_lookup_elem(&net_port_slot, &k);
	if (slot)
		return *slot;
	st = stats();
	if (st)
		st->port_failed++;
	return DBT_NET_MAX_PORTS;
}

/* --- events the kernel skipped (kprobe path) ---------------------------
 *
 * A kprobe program does not run while the CPU's bpf_prog_active is held
 * (trace_call_bpf): by another kprobe, perf_event or syscall-tracepoint
 * program, or by a bpf() map operation from user space, which holds it
 * for the whole call with preemption on (bpf_disable_instrumentation).
 * On a fully preemptible kernel (PREEMPT_RT) a thread that preempts a
 * map read there runs with it held, and its sends and data-ready calls go
 * unseen: the 6.1 rt guest lost 1-2 requests in 600 to dbtrace's own
 * reads each second, and 10 in 175 beside a `bpftool map dump` loop. The
 * kernel counts no such miss before 6.7. fentry and tracepoint programs
 * guard recursion per program and do not lose these.
 *
 * So on the kprobe path each event also checks the socket's own sequence
 * numbers against what the events seen account for (rx_mark: rcv_nxt
 * when data was last seen arriving; tx_mark: write_seq when the last
 * request or reply was settled) and counts, untimed, a request whose
 * start or end went unseen (stats skipped). Without a skipped event no
 * check fires: each needs bytes that moved with no event for them, and
 * data is readable only after its data-ready returned (both run under
 * the socket's lock), a send's bytes are in write_seq before its reply
 * can come. The one race left is a pipelining peer's request arriving
 * between a send's entry and its lock_sock(): it may count once too
 * often. On the other paths recover_skipped is false and all of this is
 * folded away at load.
 */
const volatile bool recover_skipped = false;

static __always_inline __u32 rcv_nxt(struct sock *sk)
{
	return BPF_CORE_READ((struct tcp_sock *)sk, rcv_nxt);
}

static __always_inline __u32 write_seq(struct sock *sk)
{
	return BPF_CORE_READ((struct tcp_sock *)sk, write_seq);
}

static __always_inline void count_skipped(void)
{
	struct dbt_net_stats *st = stats();

	if (st)
		st->skipped++;
}

/*
 * Role, port and slot of a socket seen for the first time. Role: an accepted socket is a
 * clone of its listener (sk_clone_lock copies the whole struct sock, and
 * inet_csk_clone_lock does not reset sk_max_ack_backlog), so it carries
 * the listener's backlog, while a socket that called connect() never
 * listened and has 0. Unlike watching connect/accept, this also
 * classifies connections opened before dbtrace started (a database's
 * connection pool). A listener created with listen(fd, 0) makes its
 * accepted sockets look like clients: rare enough to accept.
 */
static __always_inline void sock_set_up(struct dbt_net_sock *s, struct sock *sk, const bool typed)
{
	if (KREAD(typed, sk, sk_max_ack_backlog)) {
		s->role = DBT_NET_SERVER;
		s->port = KREAD(typed, sk, __sk_common.skc_num);
	} else {
		s->role = DBT_NET_CLIENT;
		s->port = bpf_ntohs(KREAD(typed, sk, __sk_common.skc_dport));
	}
	s->slot = port_slot(s->port, s->role);
	if (recover_skipped) {
		s->rx_mark = rcv_nxt(sk);
		s->tx_mark = write_seq(sk);
	}
	s->set_up = 1;
}

static __always_inline struct dbt_net_sock *sock_state(struct sock *sk, const bool typed)
{
	struct dbt_net_stats *st;
	struct dbt_net_sock *s;

	if (typed && !socks_in_hash) {
		s = bpf_sk_storage_get(&net_sk_state, sk, NULL, BPF_SK_STORAGE_GET_F_CREATE);
		if (s && s->set_up)
			return s;
		st = stats();
		if (!s) {
			if (st)
				st->sock_failed++;
			return NULL;
		}
		/* two CPUs meeting a new socket at once both set it up, alike */
		sock_set_up(s, sk, typed);
		if (st)
			st->socks_new++;
		return s;
	}
	{
		__u64 key = (__u64)sk;
		__u64 addrpair = KREAD(typed, sk, __sk_common.skc_addrpair);
		__u32 portpair = KREAD(typed, sk, __sk_common.skc_portpair);
		struct dbt_net_sock fresh = {};

		s = bpf_map_lookup_elem(&net_socks, &key);
		/* an address reused by another connection starts over */
		if (s && s->addrpair == addrpair && s->portpair == portpair)
			return s;
		fresh.addrpair = addrpair;
		fresh.portpair = portpair;
		sock_set_up(&fresh, sk, typed);
		st = stats();
		if (bpf_map_update_elem(&net_socks, &key, &fresh, BPF_ANY)) {
			if (st)
				st->sock_failed++;
			return NULL;
		}
		if (st)
			st->socks_new++;
		return bpf_map_lookup_elem(&net_socks, &key);
	}
}

/* The socket's port counters; NULL when its port has no slot (none free,
 * counted in port_failed). A slot that is no longer its port's (given
 * back by user space, perhaps handed to another port) or none at all is
 * looked up again: a port that went quiet and comes back gets a slot. */
static __always_inline struct dbt_net_port *port_entry(struct dbt_net_sock *s)
{
	__u32 slot = s->slot, *owner;

	owner = bpf_map_lookup_elem(&net_port_owner, &slot);
	if (!owner || *owner != dbt_net_port_owner(s->port, s->role)) {
		s->slot = port_slot(s->port, s->role);
		slot = s->slot;
	}
	return bpf_map_lookup_elem(&net_ports, &slot);
}

/* One request done: counted always; timed when its start was (weighted
 * as drawn, see dbt_start_weight()). now: 0 when the clock was not read. */
static __always_inline void response_sample(struct dbt_net_sock *s, __u64 now)
{
	struct dbt_net_port *p = port_entry(s);
	struct dbt_net_port_hist *h;

	if (!p)
		return;
	p->requests++;
	if (s->req_w && now > s->req_ns) {
		h = bpf_map_lookup_elem(&net_port_hist, &s->slot);
		if (h)
			dbt_hist_add_shared(&h->resp, now - s->req_ns, s->req_w);
	}
}

/* Bytes beyond a mark: a sequence number moved past what the events seen
 * account for (serial arithmetic: a mark set ahead, by a send that wrote
 * less than asked, is not "moved"). */
static __always_inline bool moved(__u32 seq, __u32 mark)
{
	return (__s32)(seq - mark) > 0;
}

/* A client's request answered: by its reply's data-ready (now: its
 * time), or found answered by a recovery (now 0: untimed). */
static __always_inline void client_reply(struct dbt_net_sock *s, struct sock *sk, __u64 now)
{
	__u32 w;

	response_sample(s, now);
	s->state = DBT_NET_IDLE;
	if (recover_skipped) {
		w = write_seq(sk);
		if (moved(w, s->tx_mark))
			s->tx_mark = w;   /* a pipelined send unseen: settled with it */
		s->rx_mark = rcv_nxt(sk);
	}
}

/* A client's read or send (not a data-ready: its data is the event's own).
 * Waiting for a reply, with data in since the request: the reply's
 * data-ready went unseen. Idle, having written and received since its
 * last reply: a whole request went unseen. Data is readable only after
 * its data-ready returned (both run under the socket's lock), so neither
 * fires without a skipped event. */
static __always_inline void client_catch_up(struct dbt_net_sock *s, struct sock *sk)
{
	bool in = moved(rcv_nxt(sk), s->rx_mark);

	if (in && (s->state == DBT_NET_SENT || moved(write_seq(sk), s->tx_mark))) {
		client_reply(s, sk, 0);
		count_skipped();
	}
}

/* A server's request answered (now: the reply's time; 0: untimed).
 * The next one, if it arrived meanwhile, is pending. */
static __always_inline void server_answered(struct dbt_net_sock *s, __u64 now)
{
	response_sample(s, now);
	if (s->next_req_ns) {
		s->req_ns = s->next_req_ns;
		s->req_w = s->next_req_w;
		s->req_in_ns = s->next_req_in_ns;
		s->next_req_ns = 0;
		s->next_req_w = 0;
		s->next_req_in_ns = 0;
		s->state = DBT_NET_PENDING;
	} else {
		s->state = DBT_NET_IDLE;
	}
}

/* A server's writes past what its seen sends account for: the reply to
 * the request it answers (or, idle, to a request wholly unseen) went out
 * unseen. That request is answered; a next one seen arriving meanwhile is
 * pending. */
static __always_inline void server_catch_up_writes(struct dbt_net_sock *s, struct sock *sk)
{
	__u32 w = write_seq(sk);

	if (!moved(w, s->tx_mark))
		return;
	server_answered(s, 0);
	count_skipped();
	s->tx_mark = w;
}

/* A server's read or send on an idle socket with data in that no
 * data-ready announced: a request arrived unseen (pending, untimed). */
static __always_inline void server_catch_up_reads(struct dbt_net_sock *s, struct sock *sk)
{
	__u32 r = rcv_nxt(sk);

	if (s->state != DBT_NET_IDLE || !moved(r, s->rx_mark))
		return;
	s->req_ns = DBT_UNTIMED;
	s->req_w = 0;
	s->req_in_ns = 0;
	s->rx_mark = r;
	s->state = DBT_NET_PENDING;
	count_skipped();
}

/* A client's timed request answered at now: its stages, from when its
 * segment left (net_stage_leave) and when TCP took the reply's. */
static __always_inline void client_stages(struct dbt_net_sock *s, struct sock *sk, __u64 now)
{
	__u64 key = (__u64)sk, in = stage_arrival(sk);
	__u64 d[DBT_NET_STAGE_POS] = {};
	struct stage_leave *l = bpf_map_lookup_elem(&net_stage_leave, &key);

	if (!l) {
		count_unstaged();
		return;
	}
	if (l->send_ns != s->req_ns || !in || l->left_ns > in || in > now) {
		count_unstaged();
	} else {
		d[0] = l->left_ns - s->req_ns;
		d[1] = in - l->left_ns;
		d[2] = now - in;
		stage_sample(s->slot, dbt_net_port_owner(s->port, s->role), s->req_w, d);
	}
	bpf_map_delete_elem(&net_stage_leave, &key);
}

/* A timed send: its socket's next skb on this CPU carries the stamps. */
static __always_inline void stage_send(struct dbt_net_sock *s, struct sock *sk, __u64 t0, __u64 t1, __u64 t2,
				       __u64 t3)
{
	struct queue_slot *q = cpu_slot();

	if (!q)
		return;
	/* one still pending was never sent on this CPU */
	if (q->send.sk)
		count_unstaged();
	q->send.sk = (__u64)sk;
	q->send.t[0] = t0;
	q->send.t[1] = t1;
	q->send.t[2] = t2;
	q->send.t[3] = t3;
	q->send.slot = s->slot;
	q->send.owner = dbt_net_port_owner(s->port, s->role);
	q->send.w = s->req_w;
	q->send.role = s->role;
}

/* Data became readable. */
static __always_inline void on_ready(struct sock *sk, const bool typed)
{
	struct dbt_net_sock *s;
	__u64 now = 0, stamp;
	__u8 w;

	if (!tcp_conn(sk, typed))
		return;
	s = sock_state(sk, typed);
	if (!s || DBT_SKELETON)
		return;
	/* what starts here is timed as drawn; a client's timed request
	 * ends here whatever the draw */
	w = dbt_start_weight();
	if (w || (s->role == DBT_NET_CLIENT && s->state == DBT_NET_SENT && s->req_w))
		now = bpf_ktime_get_ns();
	stamp = w ? now : DBT_UNTIMED;
	if (!s->rxq_ns) {
		s->rxq_ns = stamp;
		s->rxq_w = w;
	}
	s->last_ready_ns = stamp;
	s->ready_w = w;
	if (s->role == DBT_NET_SERVER) {
		if (recover_skipped) {
			server_catch_up_writes(s, sk);
			s->rx_mark = rcv_nxt(sk);
		}
		if (s->state == DBT_NET_IDLE) {
			s->req_ns = stamp;
			s->req_w = w;
			s->req_in_ns = w ? stage_arrival(sk) : 0;
			s->state = DBT_NET_PENDING;
		} else if (s->state == DBT_NET_READ && !s->next_req_ns) {
			s->next_req_ns = stamp;
			s->next_req_w = w;
			s->next_req_in_ns = w ? stage_arrival(sk) : 0;
		}
	} else if (s->state == DBT_NET_SENT) {
		if (s->req_w)
			client_stages(s, sk, now);
		client_reply(s, sk, now);
	} else if (recover_skipped) {
		/* idle, having written since its last reply: the send of
		 * the request this answers went unseen */
		if (moved(write_seq(sk), s->tx_mark)) {
			client_reply(s, sk, 0);
			count_skipped();
		}
		s->rx_mark = rcv_nxt(sk);
	}
}

/* The end of the stream read on a server socket: a reply that went out
 * unseen has no next read of a request to find it. */
static __always_inline void eof_recover(struct sock *sk, const bool typed)
{
	struct dbt_net_sock *s = sock_state(sk, typed);

	if (s && s->role == DBT_NET_SERVER)
		server_catch_up_writes(s, sk);
}

/* A receive call returned ret bytes. */
static __always_inline void on_recv(struct sock *sk, int ret, int flags, const bool typed)
{
	struct dbt_net_port_hist *h;
	struct dbt_net_port *p;
	struct dbt_net_sock *s;
	bool timed_read;
	__u64 now;

	if (ret < 0 || (flags & MSG_PEEK) || !tcp_conn(sk, typed))
		return;
	if (!ret) {
		if (recover_skipped)
			eof_recover(sk, typed);
		return;
	}
	s = sock_state(sk, typed);
	if (!s || DBT_SKELETON)
		return;
	p = port_entry(s);
	/* the clock for a timed wait, or a timed request's read */
	timed_read = s->role == DBT_NET_SERVER && s->state == DBT_NET_PENDING && s->req_w;
	now = s->rxq_w || timed_read ? bpf_ktime_get_ns() : 0;
	if (p) {
		p->reads++;
		if (s->rxq_w) {
			h = bpf_map_lookup_elem(&net_port_hist, &s->slot);
			if (h && now > s->rxq_ns)
				dbt_hist_add_shared(&h->rxq, now - s->rxq_ns, s->rxq_w);
		}
	}
	/* data left unread waits on, from its arrival (the latest one is
	 * the best bound known). Unread bytes sit in skbs on the receive
	 * queue: its length is a plain load, where rcv_nxt != copied_seq
	 * would need a helper call to reach the tcp_sock. */
	if (KREAD(typed, sk, sk_receive_queue.qlen)) {
		s->rxq_ns = s->last_ready_ns;
		s->rxq_w = s->ready_w;
	} else {
		s->rxq_ns = 0;
		s->rxq_w = 0;
	}
	if (s->role != DBT_NET_SERVER) {
		if (recover_skipped) {
			client_catch_up(s, sk);
			s->rx_mark = rcv_nxt(sk);
		}
		return;
	}
	if (recover_skipped) {
		server_catch_up_writes(s, sk);
		server_catch_up_reads(s, sk);
	}
	if (s->state == DBT_NET_PENDING) {
		s->state = DBT_NET_READ;
		/* a recovery above may have made the request untimed */
		s->read_ns = timed_read && s->req_w ? now : 0;
	}
}

/* A server's send: the reply to the request it read, if it read one. */
static __always_inline void server_send(struct dbt_net_sock *s, struct sock *sk)
{
	__u64 now;

	if (recover_skipped) {
		server_catch_up_writes(s, sk);
		server_catch_up_reads(s, sk);
		/* a request pending with nothing left to read: its read
		 * went unseen */
		if (s->state == DBT_NET_PENDING && !BPF_CORE_READ(sk, sk_receive_queue.qlen)) {
			s->state = DBT_NET_READ;
			count_skipped();
		}
	}
	if (s->state != DBT_NET_READ)
		return;
	/* the clock is read only for a send that ends a timed request */
	now = s->req_w ? bpf_ktime_get_ns() : 0;
	if (s->req_w) {
		if (s->req_in_ns && s->read_ns)
			stage_send(s, sk, s->req_in_ns, s->req_ns, s->read_ns, now);
		else
			count_unstaged();
	}
	server_answered(s, now);
}

/* A client's send: a request, unless one is still waiting for its reply
 * (a pipelining client's next is part of it). */
static __always_inline void client_send(struct dbt_net_sock *s, struct sock *sk)
{
	if (recover_skipped)
		client_catch_up(s, sk);
	if (s->state != DBT_NET_IDLE)
		return;
	s->req_w = dbt_start_weight();
	s->req_ns = s->req_w ? bpf_ktime_get_ns() : DBT_UNTIMED;
	s->state = DBT_NET_SENT;
	if (s->req_w)
		stage_send(s, sk, s->req_ns, 0, 0, 0);
	if (recover_skipped)
		s->rx_mark = rcv_nxt(sk);
}

/* A send call of size bytes starts (size: kprobe path only, else 0). Its
 * bytes are in write_seq once it returns: accounted for from here. */
static __always_inline void on_send(struct sock *sk, __u64 size, const bool typed)
{
	struct dbt_net_sock *s;

	if (!tcp_conn(sk, typed))
		return;
	s = sock_state(sk, typed);
	if (!s || DBT_SKELETON)
		return;
	if (s->role == DBT_NET_SERVER)
		server_send(s, sk);
	else
		client_send(s, sk);
	if (recover_skipped)
		s->tx_mark = write_seq(sk) + (__u32)size;
}

/* --- variant "fentry+tp_btf" ------------------------------------------ */

SEC("?tp_btf/net_dev_queue")
int BPF_PROG(net_queue_fe, struct sk_buff *skb) { on_queue(skb, true); return 0; }
SEC("?tp_btf/net_dev_xmit")
int BPF_PROG(net_xmit_fe, struct sk_buff *skb, int rc, struct net_device *dev, unsigned int len)
{
	on_xmit(skb, rc, dev, len, true);
	return 0;
}
SEC("?fentry/tcp_sendmsg")
int BPF_PROG(net_send_fe, struct sock *sk) { on_send(sk, 0, true); return 0; }
/* The arguments by position, as the kernel's prototype has them: the
 * return value follows the last parameter. Each read is a load at a
 * constant offset (dbt_load_at: the verifier allows no other in an fexit
 * context, and refuses one past the prototype even where it cannot
 * run), and the branches for other prototypes are folded away at load.
 * Only what is used is read: before 5.17 the verifier refuses a read of
 * addr_len, an int *. */
SEC("?fexit/tcp_recvmsg")
int net_recv_fe(unsigned long long *ctx)
{
	struct sock *sk = (struct sock *)ctx[0];
	int ret, flags;

	if (recv_params == 6) {
		ret = (int)dbt_load_at(ctx, 6 * 8);
		flags = (int)dbt_load_at(ctx, 4 * 8);
	} else if (recv_params == 5) {
		ret = (int)dbt_load_at(ctx, 5 * 8);
		flags = (int)dbt_load_at(ctx, 3 * 8);
	} else {
		ret = (int)dbt_load_at(ctx, 4 * 8);
		flags = (int)dbt_load_at(ctx, 3 * 8);
	}
	on_recv(sk, ret, flags, true);
	return 0;
}
SEC("?fentry/sock_def_readable")
int BPF_PROG(net_ready_fe, struct sock *sk) { on_ready(sk, true); return 0; }

/* --- variant "tp_btf" -------------------------------------------------- */

SEC("?tp_btf/net_dev_queue")
int BPF_PROG(net_queue_btf, struct sk_buff *skb) { on_queue(skb, true); return 0; }
SEC("?tp_btf/net_dev_xmit")
int BPF_PROG(net_xmit_btf, struct sk_buff *skb, int rc, struct net_device *dev, unsigned int len)
{
	on_xmit(skb, rc, dev, len, true);
	return 0;
}
SEC("?tp_btf/tcp_sendmsg_locked")
int BPF_PROG(net_send_btf, struct sock *sk) { on_send(sk, 0, true); return 0; }
SEC("?tp_btf/sock_recv_length")
int BPF_PROG(net_recv_btf, struct sock *sk, int ret, int flags)
{
	on_recv(sk, ret, flags, true);
	return 0;
}
SEC("?tp_btf/sk_data_ready")
int BPF_PROG(net_ready_btf, struct sock *sk) { on_ready(sk, true); return 0; }

/* --- variant "raw_tp" -------------------------------------------------- */

SEC("?raw_tp/net_dev_queue")
int BPF_PROG(net_queue_raw, struct sk_buff *skb) { on_queue(skb, false); return 0; }
SEC("?raw_tp/net_dev_xmit")
int BPF_PROG(net_xmit_raw, struct sk_buff *skb, int rc, struct net_device *dev, unsigned int len)
{
	on_xmit(skb, rc, dev, len, false);
	return 0;
}
SEC("?raw_tp/tcp_sendmsg_locked")
int BPF_PROG(net_send_raw, struct sock *sk) { on_send(sk, 0, false); return 0; }
SEC("?raw_tp/sock_recv_length")
int BPF_PROG(net_recv_raw, struct sock *sk, int ret, int flags)
{
	on_recv(sk, ret, flags, false);
	return 0;
}
SEC("?raw_tp/sk_data_ready")
int BPF_PROG(net_ready_raw, struct sock *sk) { on_ready(sk, false); return 0; }

/* --- variant "kprobe+raw_tp" ------------------------------------------ */

SEC("?raw_tp/net_dev_queue")
int BPF_PROG(net_queue_kp, struct sk_buff *skb) { on_queue(skb, false); return 0; }
SEC("?raw_tp/net_dev_xmit")
int BPF_PROG(net_xmit_kp, struct sk_buff *skb, int rc, struct net_device *dev, unsigned int len)
{
	on_xmit(skb, rc, dev, len, false);
	return 0;
}
SEC("?kprobe/tcp_sendmsg")
int BPF_KPROBE(net_send_kp, struct sock *sk, void *msg, size_t size) { on_send(sk, size, false); return 0; }
SEC("?kprobe/tcp_recvmsg")
int BPF_KPROBE(net_recv_kp, struct sock *sk)
{
	struct recv_args a = { .sk = (__u64)sk };
	__u64 id = bpf_get_current_pid_tgid();

	a.flags = recv_params == 6 ? dbt_kprobe_arg(ctx, 4) : dbt_kprobe_arg(ctx, 3);
	bpf_map_update_elem(&net_recv_args, &id, &a, BPF_ANY);
	return 0;
}
SEC("?kretprobe/tcp_recvmsg")
int BPF_KRETPROBE(net_recvr_kp, int ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct recv_args *a = bpf_map_lookup_elem(&net_recv_args, &id);

	if (!a)
		return 0;
	on_recv((struct sock *)a->sk, ret, (int)a->flags, false);
	bpf_map_delete_elem(&net_recv_args, &id);
	return 0;
}
SEC("?kprobe/sock_def_readable")
int BPF_KPROBE(net_ready_kp, struct sock *sk) { on_ready(sk, false); return 0; }
