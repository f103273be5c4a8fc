/* Loss model: where packets are lost and what it costs. Snapshots in
 * (the loss family's cumulative maps, /proc/net/softnet_stat, and per
 * network namespace /proc/net/netstat and the TCP listeners), per-interval
 * rows out: retransmits per service port and role by kind, drops by
 * reason and place, backlog drops and time squeezes per CPU, accept-queue
 * fill and overflows per listening port. Pure. */
#ifndef DBTRACE_MODEL_LOSS_MODEL_H
#define DBTRACE_MODEL_LOSS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dbtrace/loss.h"
#include "model/net_model.h"
#include "sysinfo/netstat.h"
#include "sysinfo/softnet.h"

#define LOSS_REASON_NAME_MAX 40

/* The running kernel's names of the drop-reason slots ("qdisc_drop",
 * "not_specified", ...), from its BTF; "" where it has none. */
struct loss_reason_names {
	char name[DBT_LOSS_REASON_SLOTS][LOSS_REASON_NAME_MAX];
};

/* "timeout", "fast", "tlp", "syn", "other" (enum dbt_retx_kind). */
const char *loss_kind_name(int kind);

/* A reason value as people read it: the kernel's name, "unknown" for
 * drops on a kernel without reasons, "subsys_S_R" for a subsystem's
 * reason, "reason_N" for a value the names lack. */
void loss_reason_format(const struct loss_reason_names *names, uint32_t reason, char *buf,
			size_t len);

/* Cumulative, at one snapshot. */
struct loss_port_sample {
	uint16_t port;
	uint8_t role;                  /* enum dbt_net_role */
	struct dbt_loss_port c;        /* summed over CPUs */
};

struct loss_drop_sample {
	struct dbt_loss_drop_key key;
	char dev[16];
	uint64_t count;
};

/* One network namespace read at the snapshot. */
struct loss_ns_sample {
	uint32_t netns;
	char name[NET_NETNS_NAME_MAX]; /* "" for dbtrace's own */
	struct tcp_netstat tcp;
	struct net_limits limits;
};

/* One listening socket. */
struct loss_listener_sample {
	uint32_t netns;
	uint32_t inode;                /* a socket made anew restarts its counter */
	uint16_t port;
	uint32_t queue, backlog;
	bool have_drops;
	uint32_t drops;
};

struct loss_snapshot {
	uint64_t mono_ns;
	uint32_t self_netns;
	long hz;                       /* kernel HZ (icsk_rto's unit); <= 0 unknown */
	const struct loss_reason_names *names;  /* the collector's; NULL: none */
	struct loss_port_sample *port;
	int n_port;
	size_t cap_port;
	struct loss_drop_sample *drop;
	int n_drop;
	size_t cap_drop;
	uint64_t reasons[DBT_LOSS_REASON_SLOTS];
	struct softnet_cpu *softnet;
	int n_softnet;
	size_t cap_softnet;
	struct loss_ns_sample *ns;
	int n_ns;
	size_t cap_ns;
	struct loss_listener_sample *lis;
	int n_lis;
	size_t cap_lis;
	struct dbt_loss_stats stats;   /* summed over CPUs */
};

/* --- one window ------------------------------------------------------- */

struct loss_port_stats {
	uint16_t port;
	uint8_t role;
	uint64_t segs[DBT_RETX_KINDS]; /* retransmitted segments by kind */
	uint64_t retrans;              /* all kinds */
	uint64_t rto_timer, tlp_probes, stalls, conns;
	double retrans_per_s, rto_per_s, tlp_per_s, stalls_per_s;
	double stall_rto_ms;           /* mean RTO at the stalls; NAN: none, or HZ unknown */
};

struct loss_drop_stats {
	uint32_t reason;
	char reason_name[LOSS_REASON_NAME_MAX];
	uint32_t netns;
	char netns_name[NET_NETNS_NAME_MAX];
	bool foreign;                  /* another namespace than dbtrace's */
	uint32_t ifindex;
	char dev[16];                  /* "" when the skb had no device */
	uint16_t port;                 /* 0: no TCP socket */
	uint8_t role;
	uint64_t count;
	double per_s;
};

struct loss_reason_stats {
	uint32_t slot;
	char name[LOSS_REASON_NAME_MAX];
	uint64_t count;
	double per_s;
};

struct loss_cpu_stats {
	int cpu;
	uint64_t processed, backlog_drops, time_squeezes;
	double backlog_drops_per_s, time_squeezes_per_s;
};

struct loss_ns_stats {
	uint32_t netns;
	char name[NET_NETNS_NAME_MAX];
	bool foreign;
	bool have;                     /* netstat read at both ends */
	uint64_t listen_overflows, listen_drops, memory_pressures, memory_pressure_ms;
	uint64_t abort_on_memory, timeouts, loss_probes, retrans_segs;
	double listen_overflows_per_s, listen_drops_per_s;
	long somaxconn, tcp_max_syn_backlog;
};

/* A listening port of one namespace: its sockets summed (SO_REUSEPORT
 * groups, an IPv4 and an IPv6 socket). */
struct loss_listener_stats {
	uint32_t netns;
	char netns_name[NET_NETNS_NAME_MAX];
	bool foreign;
	uint16_t port;
	int sockets;
	uint32_t queue, backlog;       /* at the window's end */
	uint32_t max_backlog;          /* the largest one socket has */
	bool have_drops;
	uint64_t overflows;            /* the sockets' drop counters, in the window */
	double overflows_per_s;
	long somaxconn;                /* of its namespace; -1 unknown */
};

struct loss_interval {
	double dt_s;
	long hz;
	struct loss_port_stats *ports;     /* most retransmits first */
	int n_ports;
	struct loss_drop_stats *drops;     /* most first */
	int n_drops;
	struct loss_reason_stats *reasons; /* most first; reasons with a drop */
	int n_reasons;
	uint64_t drops_total;
	double drops_per_s;
	struct loss_cpu_stats *cpus;       /* by CPU number */
	int n_cpus;
	size_t cap_cpus;                   /* grown one by one when read back from a capture */
	uint64_t backlog_drops, time_squeezes;   /* all CPUs */
	long netdev_max_backlog;           /* -1 unknown */
	struct loss_ns_stats *ns;          /* dbtrace's own first */
	int n_ns;
	struct loss_listener_stats *listeners;  /* most overflows, then fullest, first */
	int n_listeners;
	uint64_t lost;                     /* details lost to full maps in the window */
};

void loss_snapshot_init(struct loss_snapshot *s);
void loss_snapshot_free(struct loss_snapshot *s);
/* Append a zeroed entry; NULL on ENOMEM. */
struct loss_port_sample *loss_snapshot_add_port(struct loss_snapshot *s);
struct loss_drop_sample *loss_snapshot_add_drop(struct loss_snapshot *s);
struct loss_ns_sample *loss_snapshot_add_ns(struct loss_snapshot *s);
struct loss_listener_sample *loss_snapshot_add_listener(struct loss_snapshot *s);
/* Room for n softnet rows (n_softnet set to 0); 0 or -ENOMEM. */
int loss_snapshot_reserve_softnet(struct loss_snapshot *s, int n);
/* Deep copy into dst (its buffers reused). 0 or -ENOMEM. */
int loss_snapshot_copy(struct loss_snapshot *dst, const struct loss_snapshot *src);

/* The window from prev to cur. Rows only for what changed in it, but
 * listeners (all of cur's) and namespaces (cur's). 0 or -ENOMEM. */
int loss_interval_compute(const struct loss_snapshot *prev, const struct loss_snapshot *cur,
			  struct loss_interval *out);
void loss_interval_free(struct loss_interval *iv);

const struct loss_port_stats *loss_interval_port(const struct loss_interval *iv, uint16_t port,
						 uint8_t role);

#endif
