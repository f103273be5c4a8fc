// SPDX-License-Identifier: GPL-2.0
/*
 * loss family: TCP retransmits per service port and role, by kind, and
 * dropped skbs by the kernel's drop reason, device and socket port
 * (definitions in include/dbtrace/loss.h). Everything is summed here in
 * per-CPU maps; user space reads the sums once per interval.
 *
 * These hooks fire on rare events (a retransmit, a dropped packet), so
 * most fields are read with BPF_CORE_READ (a helper call each) rather
 * than the typed loads the net family squeezes its hot path with; only
 * the skb and device fields of kfree_skb, which a drop storm can fire a
 * million times a second, are plain loads on the typed path.
 *
 * Two variants, each a complete set, chosen by the attach plan:
 *  "tp_btf"  tp_btf tcp_retransmit_skb, tcp_retransmit_synack, kfree_skb;
 *            per-socket state in socket storage, or where tracing
 *            programs may not use it (before 5.11) in the LRU hash
 *            (socks_in_hash, set by user space)
 *  "raw_tp"  the same tracepoints untyped; per-socket state in an LRU
 *            hash keyed by the socket's address
 *
 * Kernel facts relied on:
 *  - tcp:tcp_retransmit_skb fires in __tcp_retransmit_skb(); before 6.17
 *    only when the segment went out (err 0), since then with an err
 *    argument for every attempt ("tcp: trace retransmit failures"): a
 *    negative err returned before anything was sent, 0 or a positive
 *    NET_XMIT code once the segment reached the device layer, which is
 *    when the kernel adds tcp_skb_pcount() to tp->total_retrans;
 *  - tcp_write_timer_handler() clears icsk_pending before
 *    tcp_retransmit_timer() and leaves ICSK_TIME_LOSS_PROBE set while
 *    tcp_send_loss_probe() runs;
 *  - skb:kfree_skb has a reason since 5.17 and the receiving socket
 *    (rx_sk) since 6.12; the reason values differ between kernels
 *    (SKB_CONSUMED came in 6.3), so none is compiled in: CO-RE resolves
 *    the one this file needs, and user space names them all from BTF.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "dbtrace/loss.h"
#include "dbtrace/net.h"
#include "maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define AF_INET 2
#define AF_INET6 10
#define TCPHDR_SYN 0x02
#define ICSK_TIME_LOSS_PROBE 5         /* include/net/inet_connection_sock.h */

#define KREAD(typed, p, field) ((typed) ? (p)->field : BPF_CORE_READ(p, field))

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, DBT_LOSS_MAX_PORTS);
	__type(key, struct dbt_loss_port_key);
	__type(value, struct dbt_loss_port);
} loss_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, DBT_LOSS_MAX_DROPS);
	__type(key, struct dbt_loss_drop_key);
	__type(value, struct dbt_loss_drop);
} loss_drops SEC(".maps");

/* Every drop, by reason slot: exact even when loss_drops is full. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_loss_reasons);
} loss_reasons SEC(".maps");

/* Namespaces whose sockets or devices showed up: user space reads the
 * listeners and /proc/net/netstat of each. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, DBT_LOSS_MAX_NETNS);
	__type(key, __u32);
	__type(value, __u32);
} loss_netns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct dbt_loss_sock);
} loss_sk_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_LOSS_MAX_SOCKS);
	__type(key, __u64);                /* struct sock address */
	__type(value, struct dbt_loss_sock);
} loss_socks SEC(".maps");

/* Set by user space: socket state in loss_socks even on the typed path
 * (no socket storage in tracing programs before 5.11). */
const volatile bool socks_in_hash = false;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_loss_stats);
} loss_stats SEC(".maps");

static __always_inline struct dbt_loss_stats *stats(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&loss_stats, &zero);
}

static __always_inline __u32 sock_netns(const struct sock *sk)
{
	if (!bpf_core_field_exists(sk->__sk_common.skc_net.net))
		return 0;
	return BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum);
}

static __always_inline void note_netns(__u32 inum)
{
	struct dbt_loss_stats *st;
	__u32 one = 1;

	if (!inum)
		return;
	if (!dbt_lookup_or_init(&loss_netns, &inum, &one, NULL)) {
		st = stats();
		if (st)
			st->netns_failed++;
	}
}

/* Service port and role as the net family decides them (bpf/net.bpf.c,
 * sock_set_up): an accepted socket inherits its listener's backlog. A
 * listener itself has a backlog and its own port. */
static __always_inline void sock_port(const struct sock *sk, struct dbt_loss_port_key *k)
{
	if (BPF_CORE_READ(sk, sk_max_ack_backlog)) {
		k->role = DBT_NET_SERVER;
		k->port = BPF_CORE_READ(sk, __sk_common.skc_num);
	} else {
		k->role = DBT_NET_CLIENT;
		k->port = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	}
}

static __always_inline bool tcp_sock_of_inet(const struct sock *sk)
{
	__u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);

	return (family == AF_INET || family == AF_INET6) &&
	       BPF_CORE_READ(sk, sk_protocol) == IPPROTO_TCP;
}

static __always_inline struct dbt_loss_port *port_entry(const struct dbt_loss_port_key *k)
{
	struct dbt_loss_port zero = {}, *p = dbt_lookup_or_init(&loss_ports, k, &zero, NULL);
	struct dbt_loss_stats *st;

	if (!p) {
		st = stats();
		if (st)
			st->port_failed++;
	}
	return p;
}

/* The socket's state, created on first use; NULL when it cannot be kept. */
static __always_inline struct dbt_loss_sock *sock_state(const struct sock *sk, const bool typed)
{
	struct dbt_loss_stats *st;
	struct dbt_loss_sock *s;

	if (typed && !socks_in_hash) {
		s = bpf_sk_storage_get(&loss_sk_state, (struct sock *)sk, NULL,
				       BPF_SK_STORAGE_GET_F_CREATE);
	} else {
		__u64 key = (__u64)sk;
		__u64 addrpair = KREAD(typed, sk, __sk_common.skc_addrpair);
		__u32 portpair = KREAD(typed, sk, __sk_common.skc_portpair);
		struct dbt_loss_sock fresh = { .addrpair = addrpair, .portpair = portpair };

		s = bpf_map_lookup_elem(&loss_socks, &key);
		if (!s || s->addrpair != addrpair || s->portpair != portpair) {
			bpf_map_update_elem(&loss_socks, &key, &fresh, BPF_ANY);
			s = bpf_map_lookup_elem(&loss_socks, &key);
		}
	}
	if (!s) {
		st = stats();
		if (st)
			st->sock_failed++;
	}
	return s;
}

/* --- retransmits ------------------------------------------------------- */

static __always_inline void on_retx(const struct sock *sk, const struct sk_buff *skb,
				    const bool typed)
{
	const struct inet_connection_sock *icsk = (const void *)sk;
	const struct tcp_skb_cb *cb = (const void *)__builtin_preserve_access_index(&skb->cb);
	struct dbt_loss_port_key k = {};
	struct dbt_loss_port *p;
	struct dbt_loss_sock *s;
	__u8 ca, pending = 0;
	__u32 segs;
	int kind;

	if (!sk || !skb || !tcp_sock_of_inet(sk))
		return;
	segs = BPF_CORE_READ(cb, tcp_gso_segs);
	if (!segs)
		segs = 1;
	if (BPF_CORE_READ(cb, tcp_flags) & TCPHDR_SYN) {
		kind = DBT_RETX_SYN;
	} else {
		ca = BPF_CORE_READ_BITFIELD_PROBED(icsk, icsk_ca_state);
		pending = BPF_CORE_READ(icsk, icsk_pending);
		if (ca == TCP_CA_Loss)
			kind = DBT_RETX_TIMEOUT;
		else if (ca == TCP_CA_Recovery)
			kind = DBT_RETX_FAST;
		else if (pending == ICSK_TIME_LOSS_PROBE)
			kind = DBT_RETX_TLP;
		else
			kind = DBT_RETX_OTHER;
	}
	note_netns(sock_netns(sk));
	sock_port(sk, &k);
	p = port_entry(&k);
	if (!p)
		return;
	if (kind < 0 || kind >= DBT_RETX_KINDS)
		return;
	p->segs[kind] += segs;
	s = sock_state(sk, typed);
	if (s && !s->retransmitted) {
		s->retransmitted = 1;
		p->conns++;
	}
	if (kind == DBT_RETX_TIMEOUT && !pending)
		p->rto_timer++;
	else if (kind == DBT_RETX_TLP)
		p->tlp_probes++;
	else
		return;
	/* a timer fired: the data at snd_una waited for it. Once per stall:
	 * an RTO backing off, or an RTO after a TLP, re-sends the same data */
	{
		__u32 una = BPF_CORE_READ((const struct tcp_sock *)sk, snd_una);

		if (s && s->stalled && s->stall_una == una)
			return;
		if (s) {
			s->stalled = 1;
			s->stall_una = una;
		}
		p->stalls++;
		p->stall_rto_jiffies += BPF_CORE_READ(icsk, icsk_rto);
	}
}

/* The err argument (6.17+): only what reached the device layer counts,
 * as in tcpi_total_retrans; before, the tracepoint fired only for those. */
static __always_inline bool retx_sent(unsigned long long *ctx)
{
	if (!bpf_core_field_exists(struct trace_event_raw_tcp_retransmit_skb, err))
		return true;
	return (int)ctx[2] >= 0;
}

static __always_inline void on_synack(const struct sock *listener)
{
	struct dbt_loss_port_key k = {};
	struct dbt_loss_port *p;

	if (!listener)
		return;
	note_netns(sock_netns(listener));
	sock_port(listener, &k);
	p = port_entry(&k);
	if (p)
		p->segs[DBT_RETX_SYN]++;
}

/* --- drops ------------------------------------------------------------- */

static __always_inline __u32 dev_netns(const struct net_device *dev)
{
	if (!bpf_core_field_exists(dev->nd_net.net))
		return 0;
	return BPF_CORE_READ(dev, nd_net.net, ns.inum);
}

static __always_inline void on_drop(struct sk_buff *skb, __u32 reason, const struct sock *rx_sk,
				    const bool typed)
{
	__u32 slot = reason < DBT_LOSS_REASON_OTHER ? reason : DBT_LOSS_REASON_OTHER;
	struct dbt_loss_drop_key k = { .reason = reason };
	struct dbt_loss_drop fresh = {}, *d;
	struct dbt_loss_port_key pk = {};
	struct dbt_loss_reasons *all;
	struct dbt_loss_stats *st;
	struct net_device *dev;
	const struct sock *sk;
	__u32 zero = 0;

	if (bpf_core_enum_value_exists(enum skb_drop_reason, SKB_CONSUMED) &&
	    reason == bpf_core_enum_value(enum skb_drop_reason, SKB_CONSUMED))
		return;
	all = bpf_map_lookup_elem(&loss_reasons, &zero);
	/* the compiler would index with the unclamped reason: hide the
	 * clamp's result from it so the mask stays for the verifier */
	dbt_opaque(slot);
	if (all)
		all->n[slot & (DBT_LOSS_REASON_SLOTS - 1)]++;
	dev = KREAD(typed, skb, dev);
	if (dev) {
		k.ifindex = KREAD(typed, dev, ifindex);
		k.netns = dev_netns(dev);
	}
	sk = KREAD(typed, skb, sk);
	if (!sk)
		sk = rx_sk;
	if (sk && tcp_sock_of_inet(sk)) {
		sock_port(sk, &pk);
		k.port = pk.port;
		k.role = (__u8)pk.role;
		if (!k.netns)
			k.netns = sock_netns(sk);
	}
	note_netns(k.netns);
	d = bpf_map_lookup_elem(&loss_drops, &k);
	if (!d) {
		if (dev)
			BPF_CORE_READ_STR_INTO(&fresh.dev, dev, name);
		d = dbt_lookup_or_init(&loss_drops, &k, &fresh, NULL);
	}
	if (d) {
		d->count++;
		return;
	}
	st = stats();
	if (st)
		st->drop_failed++;
}

/* The reason and the receiving socket, where this kernel's tracepoint has them. */
static __always_inline __u32 drop_reason(unsigned long long *ctx)
{
	if (!bpf_core_field_exists(struct trace_event_raw_kfree_skb, reason))
		return DBT_LOSS_REASON_UNKNOWN;
	return (__u32)ctx[2];
}

static __always_inline const struct sock *drop_rx_sk(unsigned long long *ctx)
{
	if (!bpf_core_field_exists(struct trace_event_raw_kfree_skb, rx_sk))
		return NULL;
	return (const struct sock *)ctx[3];
}

/* --- variant "tp_btf" -------------------------------------------------- */

SEC("?tp_btf/tcp_retransmit_skb")
int BPF_PROG(loss_retx_btf, const struct sock *sk, const struct sk_buff *skb)
{
	if (retx_sent(ctx))
		on_retx(sk, skb, true);
	return 0;
}

SEC("?tp_btf/tcp_retransmit_synack")
int BPF_PROG(loss_synack_btf, const struct sock *sk)
{
	on_synack(sk);
	return 0;
}

SEC("?tp_btf/kfree_skb")
int BPF_PROG(loss_drop_btf, struct sk_buff *skb)
{
	on_drop(skb, drop_reason(ctx), drop_rx_sk(ctx), true);
	return 0;
}

/* --- variant "raw_tp" -------------------------------------------------- */

SEC("?raw_tp/tcp_retransmit_skb")
int BPF_PROG(loss_retx_raw, const struct sock *sk, const struct sk_buff *skb)
{
	if (retx_sent(ctx))
		on_retx(sk, skb, false);
	return 0;
}

SEC("?raw_tp/tcp_retransmit_synack")
int BPF_PROG(loss_synack_raw, const struct sock *sk)
{
	on_synack(sk);
	return 0;
}

SEC("?raw_tp/kfree_skb")
int BPF_PROG(loss_drop_raw, struct sk_buff *skb)
{
	on_drop(skb, drop_reason(ctx), drop_rx_sk(ctx), false);
	return 0;
}
