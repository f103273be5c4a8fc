/* SPDX-License-Identifier: GPL-2.0 */
/*
 * net probe family: types shared by bpf/net.bpf.c and src/collect/net.c.
 *
 * Three measurements, all aggregated in the kernel as log-linear ns
 * histograms (dbtrace/hist.h) and read once per interval (no event per
 * packet or per request reaches user space):
 *  - tx queue latency per device: net_dev_queue -> net_dev_xmit of each
 *    skb (qdisc plus driver queue), with packets and bytes;
 *  - rx socket-queue latency per service port: data readable on a TCP
 *    socket -> the application's receive call returns it;
 *  - response time per service port, tcprstat-style (see struct
 *    dbt_net_sock for the exact definitions per role).
 */
#ifndef DBTRACE_NET_H
#define DBTRACE_NET_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "dbtrace/hist.h"

/* Map capacities. Sockets and skbs in flight are LRU (bounded; an evicted
 * entry loses at most one pending sample). Devices are a per-CPU hash;
 * ports a per-CPU array, 256 x 448 B per CPU, whose slot for a port is
 * found once per socket in the net_port_slot hash (see dbt_net_sock).
 * Slots are not held forever: user space gives back the slots of ports
 * that went quiet when the array runs full (src/model/net_port_slots.h),
 * and a socket whose slot changed hands finds its port's new one. */
#define DBT_NET_MAX_SOCKS 32768
#define DBT_NET_MAX_SKBS 65536
#define DBT_NET_MAX_STAGED 4096         /* timed requests between send and leaving (and, a
					 * client's, until the reply) */
#define DBT_NET_MAX_DEVS 256
#define DBT_NET_MAX_PORTS 256

/* Which end of the connection this host is. */
enum dbt_net_role {
	DBT_NET_SERVER = 0,            /* an accepted socket */
	DBT_NET_CLIENT = 1,            /* a socket this host connected out */
};

/* Per-socket request state (struct dbt_net_sock.state). */
enum dbt_net_state {
	DBT_NET_IDLE = 0,              /* no request outstanding */
	DBT_NET_PENDING = 1,           /* server: a request is readable, not read yet */
	DBT_NET_READ = 2,              /* server: the application read it, no reply yet */
	DBT_NET_SENT = 3,              /* client: a request went out, no reply readable yet */
};

/* Device key: devices of other network namespaces (containers, the test's
 * veth pairs) share ifindex numbers, so the namespace is part of it. */
struct dbt_net_dev_key {
	__u32 netns;                   /* inode of the device's network namespace */
	__u32 ifindex;
};

/* Cumulative per device and CPU (map net_devs, per-CPU hash). */
struct dbt_net_dev {
	char name[16];                 /* set on the CPU that created the entry */
	__u64 packets;                 /* transmitted (net_dev_xmit returned OK) */
	__u64 bytes;
};

/* Per device, shared by all CPUs (map net_dev_hist, a hash with the key
 * of net_devs, updated with atomic adds): a fine histogram per CPU would
 * be 8 KB per device and CPU, where the rare timed skb (one in sixteen
 * under load) makes the shared cache line cheap. */
struct dbt_net_dev_hist {
	struct dbt_hist_sampled txq;   /* net_dev_queue -> net_dev_xmit */
};

/* Port key: the service port, i.e. the local port of an accepted socket
 * and the remote port of a connected one, so both ends of a connection to
 * port 3306 report under 3306 and a client's ephemeral ports never each
 * make an entry. */
struct dbt_net_port_key {
	__u16 port;                    /* host byte order */
	__u16 role;                    /* enum dbt_net_role */
};

/* Who holds a slot (map net_port_owner, indexed by slot): 0 while the
 * slot is free, else this of the port key holding it. A socket checks it
 * before each sample: a slot given back and handed to another port is
 * not its port's any more. */
static inline __u32 dbt_net_port_owner(__u16 port, __u16 role)
{
	return ((__u32)role << 16 | port) + 1;
}

/*
 * Where a request's time on this host goes: its stages, in time order,
 * each request's stamps taken together so that its stages add up to its
 * total exactly (struct dbt_net_port.stage_ns, dbt_net_port_hist.stage).
 * Server role, "time on host": the request's first segment reaching TCP
 * (tcp_rcv_established(), the clock TCP reads as it starts on it) ->
 * readable on the socket (rx) ->
 * the application's read returning it (socket_wait) -> the reply's first
 * send (server) -> the reply's first segment leaving the device: handed
 * to a device without a queue (lo, veth) or taken by the driver from a
 * qdisc (tx). Client role, the response time as the client sees it: the
 * request's first send -> its first segment leaving the device (tx) ->
 * the reply's first segment reaching TCP here (outside: the network and
 * the peer, and this host's receive path below TCP) -> readable (rx). A position in the arrays
 * below is a stage by role (dbt_net_stage_of).
 */
#define DBT_NET_STAGE_POS 4

enum dbt_net_stage {
	DBT_NET_STAGE_RX = 0,
	DBT_NET_STAGE_SOCKET_WAIT,
	DBT_NET_STAGE_SERVER,
	DBT_NET_STAGE_TX,
	DBT_NET_STAGE_OUTSIDE,
	DBT_NET_STAGES,
};

/* The stage at position pos of a role's arrays; -1: none. */
static inline int dbt_net_stage_of(int role, int pos)
{
	static const signed char server[DBT_NET_STAGE_POS] = {
		DBT_NET_STAGE_RX, DBT_NET_STAGE_SOCKET_WAIT, DBT_NET_STAGE_SERVER, DBT_NET_STAGE_TX };
	static const signed char client[DBT_NET_STAGE_POS] = {
		DBT_NET_STAGE_TX, DBT_NET_STAGE_OUTSIDE, DBT_NET_STAGE_RX, -1 };

	if (pos < 0 || pos >= DBT_NET_STAGE_POS)
		return -1;
	return role == DBT_NET_SERVER ? server[pos] : client[pos];
}

/* Cumulative per port, role and CPU (map net_ports, per-CPU array,
 * indexed by the slot net_port_slot gives the port's key). */
struct dbt_net_port {
	__u64 requests;                /* requests answered (server) or replies received (client) */
	__u64 reads;                   /* receive calls that returned data */
	/* requests whose every stage was timed: weighted as their start
	 * was drawn (sum of weights), really timed, and each stage's time
	 * times the weight, ns, by position (dbt_net_stage_of) */
	__u64 staged;
	__u64 staged_timed;
	__u64 stage_ns[DBT_NET_STAGE_POS];
	/* the same of the staged requests whose total was above the slot's
	 * tail threshold (map net_tail_ns): the slow tail */
	__u64 tail;
	__u64 tail_timed;
	__u64 tail_ns[DBT_NET_STAGE_POS];
};

/* Per port slot, shared by all CPUs (map net_port_hist, an array indexed
 * like net_ports, updated with atomic adds): 2 x 7.9 KB per slot, 4 MB for
 * all 256 whatever the CPU count, where per-CPU copies would be 16 KB per
 * slot and CPU. */
struct dbt_net_port_hist {
	struct dbt_hist_sampled resp;  /* response time */
	struct dbt_hist_sampled rxq;   /* rx socket-queue wait */
	/* the staged requests: their total (server: time on host; client:
	 * send to readable) and each stage, by position */
	struct dbt_hist_sampled staged;
	struct dbt_hist_sampled stage[DBT_NET_STAGE_POS];
};

/*
 * Per-socket state: socket-local storage (map net_sk_state) on the typed
 * paths, freed with the socket; on raw_tp, which cannot use it, the LRU
 * map net_socks keyed by the struct sock address.
 *
 * Response time, server role: from the first data readable on an idle
 * socket (the request) to the first send after the application read it;
 * one sample per request. Client role: from the first send on an idle
 * socket (the request) to the first data readable after it (the reply):
 * what the client waits for, network included.
 * Rx queue: from the oldest unread data becoming readable to the receive
 * call that returns it. After a partial read the rest counts from the
 * latest arrival (a lower bound: per-byte arrival times are not kept).
 */
struct dbt_net_sock {
	__u64 addrpair;                /* skc_addrpair and skc_portpair when first */
	__u32 portpair;                /* seen: a freed socket's address reused by */
	__u16 port;                    /* another connection starts over */
	__u8 role;
	__u8 state;
	__u32 slot;                    /* its port's slot in net_ports; >= DBT_NET_MAX_PORTS: none */
	__u8 set_up;                   /* 1 once role, port and slot are set (storage starts zeroed) */
	/* each stamp's weight: 0 when its time was not read (the stamp is
	 * then 1), else how many measurements it stands for (load sampling
	 * in bpf/net.bpf.c) */
	__u8 req_w, next_req_w, rxq_w, ready_w;
	__u8 pad[3];
	__u64 req_ns;                  /* the outstanding request's start */
	__u64 next_req_ns;             /* server: the next request, readable while answering */
	__u64 rxq_ns;                  /* oldest unread data readable since; 0: none */
	__u64 last_ready_ns;           /* latest data-ready */
	/* stages (server role): when TCP took the outstanding request's
	 * first segment (0: not known), the next one's, and when the
	 * application's read returned the request */
	__u64 req_in_ns, next_req_in_ns;
	__u64 read_ns;
	/* kprobe path only (bpf/net.bpf.c, "events the kernel skipped"):
	 * the socket's rcv_nxt and write_seq as far as the events seen
	 * account for them (write_seq: through the last send seen) */
	__u32 rx_mark;
	__u32 tx_mark;
};

/* Per-CPU counters of the family itself (map net_stats). */
struct dbt_net_stats {
	__u64 socks_new;               /* socket entries created */
	__u64 sock_failed;             /* socket entry could not be created */
	__u64 port_failed;             /* no port slot free: samples lost */
	__u64 dev_failed;              /* device map full: samples lost */
	__u64 skb_failed;              /* skb timestamp could not be stored */
	__u64 unstaged;                /* timed requests whose stages could not all be
					* timed (a first segment that left off the sending
					* call's CPU, a full map) */
	__u64 skipped;                 /* requests whose start or end the kernel ran no
					* program for, counted from the socket's sequence
					* numbers (kprobe path): counted, not timed */
};

#endif
