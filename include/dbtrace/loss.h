/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loss probe family: types shared by bpf/loss.bpf.c and src/collect/loss.c.
 *
 * Where packets are lost and what the loss costs, counted in the kernel
 * and read once per interval (no event per packet reaches user space;
 * these hooks fire on rare events, a retransmit or a dropped skb):
 *  - TCP retransmits per service port and role, by kind (see enum
 *    dbt_retx_kind for how each kind is decided), from tcp:tcp_retransmit_skb
 *    and tcp:tcp_retransmit_synack;
 *  - dropped skbs by the kernel's drop reason, device and socket port,
 *    from skb:kfree_skb.
 */
#ifndef DBTRACE_LOSS_H
#define DBTRACE_LOSS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Map capacities: all bounded. A full map costs the detail, not the
 * count: every drop is also counted in the per-reason array. */
#define DBT_LOSS_MAX_PORTS 1024        /* port and role keys */
#define DBT_LOSS_MAX_DROPS 2048        /* reason, device and port keys */
#define DBT_LOSS_MAX_SOCKS 16384       /* raw_tp's per-socket LRU (typed paths: socket storage) */
#define DBT_LOSS_MAX_NETNS 64          /* namespaces whose sockets retransmitted or dropped */

/* Drop reasons are an enum of the running kernel (enum skb_drop_reason,
 * 5.17+), named at user side from its BTF. Counted per reason in an array
 * of this many slots; reasons of a subsystem (the high 16 bits set:
 * mac80211, openvswitch) and any beyond the array share the last slot. */
#define DBT_LOSS_REASON_SLOTS 256
#define DBT_LOSS_REASON_UNKNOWN 0      /* slot of drops on kernels without reasons */
#define DBT_LOSS_REASON_OTHER (DBT_LOSS_REASON_SLOTS - 1)

/*
 * Kinds of retransmit, decided at tcp:tcp_retransmit_skb from the
 * socket's state when it fires (the tracepoint has no kind of its own):
 *  SYN      the segment carries SYN (a connect() whose SYN went
 *           unanswered, a Fast Open SYN-ACK), or tcp:tcp_retransmit_synack
 *           (a listener's SYN-ACK, re-sent by the request timer);
 *  TIMEOUT  icsk_ca_state is TCP_CA_Loss: the retransmission timer fired
 *           (tcp_retransmit_timer() enters Loss before it re-sends the
 *           head) or the go-back-N re-sending that follows it;
 *  FAST     TCP_CA_Recovery: fast retransmit and SACK/RACK recovery,
 *           started by duplicate ACKs or SACKs (or RACK's reorder timer);
 *  TLP      neither, and the pending socket timer is the loss probe
 *           (icsk_pending == ICSK_TIME_LOSS_PROBE: tcp_write_timer_handler()
 *           leaves it set while tcp_send_loss_probe() runs): a tail loss
 *           probe, re-sending the last segment after about 2 RTT. With
 *           one packet in flight Linux waits 2 RTT + 200 ms for it, capped
 *           at the RTO, so a lost lone request is often re-sent by a TLP
 *           after as long as an RTO would have taken;
 *  OTHER    anything else (none seen in practice: kept so the kinds add
 *           up to every retransmit).
 * Limits: a retransmit in Disorder or CWR state with no probe pending
 * is OTHER; kinds are decided per retransmitted skb, so one RTO episode's
 * go-back-N segments are all TIMEOUT.
 */
enum dbt_retx_kind {
	DBT_RETX_TIMEOUT = 0,
	DBT_RETX_FAST = 1,
	DBT_RETX_TLP = 2,
	DBT_RETX_SYN = 3,
	DBT_RETX_OTHER = 4,
	DBT_RETX_KINDS = 5,
};

/* Port key, as the net family's: the service port (local for an accepted
 * socket, remote for a connected one) and enum dbt_net_role. */
struct dbt_loss_port_key {
	__u16 port;                    /* host byte order */
	__u16 role;
};

/* Cumulative per port, role and CPU (map loss_ports). */
struct dbt_loss_port {
	/* retransmitted segments by kind: tcp_skb_pcount() of each
	 * retransmitted skb, which is what the kernel adds to the socket's
	 * tcpi_total_retrans and to TcpRetransSegs */
	__u64 segs[DBT_RETX_KINDS];
	__u64 rto_timer;               /* retransmission timer expirations that re-sent data */
	__u64 tlp_probes;              /* tail loss probes sent */
	/* stalls: unacknowledged data that waited for a timer (RTO or TLP)
	 * before it was re-sent, counted once per stall however often the
	 * timer fires for the same snd_una: on a client socket a request
	 * that waited, on a server socket a reply */
	__u64 stalls;
	__u64 stall_rto_jiffies;       /* sum of the socket's icsk_rto at each stall */
	__u64 conns;                   /* sockets retransmitting for the first time */
};

/* Drop key: what the skb says about where it was dropped. */
struct dbt_loss_drop_key {
	__u32 reason;                  /* enum skb_drop_reason; 0 without reasons */
	__u32 netns;                   /* the device's namespace (else the socket's); 0 unknown */
	__u32 ifindex;                 /* skb->dev; 0 none */
	__u16 port;                    /* service port of skb->sk; 0 none */
	__u8 role;                     /* enum dbt_net_role, with port */
	__u8 pad;
};

/* Cumulative per drop key and CPU (map loss_drops). */
struct dbt_loss_drop {
	__u64 count;
	char dev[16];                  /* the device's name, set on the CPU that made the entry */
};

/* Every drop by reason slot, per CPU (map loss_reasons, one entry): one
 * read per interval instead of one per slot. */
struct dbt_loss_reasons {
	__u64 n[DBT_LOSS_REASON_SLOTS];
};

/* Per-socket state (socket storage on tp_btf; LRU hash on raw_tp). */
struct dbt_loss_sock {
	__u64 addrpair;                /* raw_tp: an address reused by another */
	__u32 portpair;                /* connection starts over */
	__u32 stall_una;               /* snd_una of the last stall counted */
	__u8 retransmitted;            /* counted in conns */
	__u8 stalled;                  /* stall_una is set */
	__u8 pad[6];
};

/* Per-CPU counters of the family itself (map loss_stats). */
struct dbt_loss_stats {
	__u64 port_failed;             /* port map full: a retransmit's detail lost */
	__u64 drop_failed;             /* drop map full: counted per reason only */
	__u64 sock_failed;             /* socket state could not be kept */
	__u64 netns_failed;            /* namespace set full */
};

#endif
