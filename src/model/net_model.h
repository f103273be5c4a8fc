/* Network model: per-device and per-port snapshots in (the net family's
 * cumulative maps plus each device's link counters, speed and root
 * qdisc), per-interval rows out: packets/s and Mbit/s each way against
 * the link speed, tx queue latency, response time and rx socket-queue
 * latency per service port. Pure. */
#ifndef DBTRACE_MODEL_NET_MODEL_H
#define DBTRACE_MODEL_NET_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dbtrace/net.h"
#include "sysinfo/qdisc.h"

#define NET_NETNS_NAME_MAX 40
#define NET_QDISC_TEXT_MAX 96

/* One device at one snapshot, identified by namespace and name. */
struct net_dev_sample {
	uint32_t netns;                /* namespace inode */
	char name[16];
	char netns_name[NET_NETNS_NAME_MAX];  /* "" for dbtrace's own namespace */
	/* the kernel side (tx queue); cumulative */
	bool have_txq;
	uint64_t xmit_packets, xmit_bytes;
	uint64_t txq_timed;            /* skbs really timed (see struct dbt_hist_sampled) */
	__u64 txq_hist[DBT_HIST_BUCKETS];  /* weighted, ns */
	/* /proc/net/dev; cumulative */
	bool have_link;
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	long speed_mbps;               /* -1: unknown */
	bool have_qdisc;
	struct qdisc_info qdisc;       /* the root qdisc */
};

/* One service port and role at one snapshot; cumulative while the port
 * keeps its kernel-side slot. */
struct net_port_sample {
	uint16_t port;
	uint8_t role;                  /* enum dbt_net_role */
	/* the slot's incarnation (model/net_port_slots.h): a port whose slot
	 * was given back and that came back in another counts from zero */
	uint32_t gen;
	uint64_t requests, reads;
	uint64_t resp_timed, rxq_timed;    /* really timed (struct dbt_hist_sampled) */
	__u64 resp_hist[DBT_HIST_BUCKETS];  /* weighted, ns */
	__u64 rxq_hist[DBT_HIST_BUCKETS];
	/* stages (struct dbt_net_port), by position (dbt_net_stage_of) */
	uint64_t staged, staged_timed;
	uint64_t stage_ns[DBT_NET_STAGE_POS];
	uint64_t tail, tail_timed;
	uint64_t tail_ns[DBT_NET_STAGE_POS];
	__u64 staged_hist[DBT_HIST_BUCKETS];
	__u64 stage_hist[DBT_NET_STAGE_POS][DBT_HIST_BUCKETS];
};

struct net_snapshot {
	uint64_t mono_ns;
	uint32_t self_netns;
	struct net_dev_sample *dev;
	int n_dev;
	size_t cap_dev;
	struct net_port_sample *port;
	int n_port;
	size_t cap_port;
	struct dbt_net_stats stats;    /* summed over CPUs, cumulative */
};

/* A device over a window. Rates are NAN when the link counters are not
 * known at both ends; percentiles NAN without samples. */
struct net_dev_stats {
	char name[16];
	uint32_t netns;
	char netns_name[NET_NETNS_NAME_MAX];
	bool foreign;                  /* another namespace than dbtrace's */
	bool have_qdisc;
	struct qdisc_info qdisc;
	char qdisc_text[NET_QDISC_TEXT_MAX];  /* "" when unknown */
	double speed_mbps;             /* NAN: unknown (virtual device, link down) */
	double tx_pps, rx_pps, tx_mbps, rx_mbps;
	double util_pct;               /* busier direction, % of the link speed; NAN: unknown */
	uint64_t txq_samples;          /* skbs the histogram stands for (weighted) */
	uint64_t txq_timed;            /* of which really timed */
	double txq_p50_us, txq_p99_us;
	__u64 txq_hist[DBT_HIST_BUCKETS];
};

struct net_port_stats {
	uint16_t port;
	uint8_t role;
	uint64_t requests, reads;
	double requests_per_s, reads_per_s;
	double resp_p50_us, resp_p99_us;
	double rxq_p50_us, rxq_p99_us;
	/* the histograms are weighted (they sum to about requests and
	 * reads); the *_timed counts say how many were really timed */
	uint64_t resp_timed, rxq_timed;
	__u64 resp_hist[DBT_HIST_BUCKETS];
	__u64 rxq_hist[DBT_HIST_BUCKETS];
	/* where a request's time goes (dbtrace/net.h, "stages"): the
	 * requests whose every stage was timed (weighted, and really
	 * timed), their total and each stage by enum dbt_net_stage (NAN
	 * and empty where the role has no such stage). The stages' means
	 * add up to total_mean_us: each request's stages add up to its
	 * total. */
	uint64_t staged, staged_timed;
	double total_mean_us, total_p50_us, total_p99_us;
	double stage_mean_us[DBT_NET_STAGES], stage_p50_us[DBT_NET_STAGES], stage_p99_us[DBT_NET_STAGES];
	double stage_pct[DBT_NET_STAGES];  /* % of total_mean_us */
	__u64 total_hist[DBT_HIST_BUCKETS];
	__u64 stage_hist[DBT_NET_STAGES][DBT_HIST_BUCKETS];
	uint64_t stage_timed[DBT_NET_STAGES];  /* staged_timed, for each stage the role has */
	/* the slow tail: the staged requests above the port's p90 of the
	 * interval before (weighted, really timed, % of staged), their mean
	 * total and stages, the rest's mean total, how much longer the tail
	 * took (extra_us) and in which stage (extra_by_stage_us), and the
	 * stage that holds most of it (tail_stage, -1: none; its %) */
	uint64_t tail, tail_timed;
	double tail_pct;
	double tail_total_mean_us, rest_total_mean_us, tail_extra_us;
	double tail_mean_us[DBT_NET_STAGES], tail_extra_by_stage_us[DBT_NET_STAGES];
	int tail_stage;
	double tail_stage_pct;
};

struct net_port_loss;
struct net_dev_loss;

struct net_interval {
	double dt_s;
	struct net_dev_stats *devs;    /* busiest (tx+rx bytes/s) first */
	int n_devs;
	struct net_port_stats *ports;  /* most requests first */
	int n_ports;
	uint64_t lost;                 /* samples lost to full maps in the window */
	uint64_t skipped;              /* requests counted whose probes the kernel skipped
					* (kprobe path, bpf/net.bpf.c): not timed */
	uint64_t unstaged;             /* timed requests whose stages were not all timed */
	/* the loss family's numbers beside the rows (model/net_loss.h);
	 * NULL when that family is off */
	struct net_port_loss *port_loss;   /* n_ports, index-aligned with ports */
	struct net_dev_loss *dev_loss;     /* n_devs, index-aligned with devs */
	bool loss_only;                /* net family off: the rows come from the loss family */
};

/* Which ports the port rows keep; n_ports 0: all. */
struct net_filter {
	const uint16_t *ports;
	int n_ports;
};

const char *net_role_name(int role);   /* "server", "client" */
const char *net_stage_name(int stage); /* "rx", "socket_wait", "server", "tx", "outside" */
/* Whether a role's requests have the stage (enum dbt_net_stage). */
bool net_role_has_stage(int role, int stage);
/* The slow tail's threshold for a port slot's next interval, ns: the
 * upper edge of the bucket that holds the p90 of the staged totals in
 * the window from prev to cur (cumulative histograms); 0 with fewer than
 * NET_TAIL_MIN requests in it (the kernel then keeps the one it had). */
#define NET_TAIL_MIN 20
uint64_t net_tail_threshold_ns(const __u64 *prev, const __u64 *cur);


/* Whether --port keeps port (f NULL or empty: all). */
bool net_filter_keeps(const struct net_filter *f, uint16_t port);

/* How findings and tables name a device: "veth0", or "veth0@NETNS" for
 * a device of another network namespace. */
void net_dev_subject(const struct net_dev_stats *d, char *buf, size_t len);

void net_snapshot_init(struct net_snapshot *s);
void net_snapshot_free(struct net_snapshot *s);
/* Appends a zeroed entry (speed -1); NULL on ENOMEM. */
struct net_dev_sample *net_snapshot_add_dev(struct net_snapshot *s);
struct net_port_sample *net_snapshot_add_port(struct net_snapshot *s);
struct net_dev_sample *net_snapshot_find_dev(struct net_snapshot *s, uint32_t netns, const char *name);
const struct net_port_sample *net_snapshot_find_port(const struct net_snapshot *s, uint16_t port,
						     uint8_t role);
/* Deep copy into dst (its buffers are reused). Returns 0 or -ENOMEM. */
int net_snapshot_copy(struct net_snapshot *dst, const struct net_snapshot *src);

/* The window from prev to cur. Devices: every device of dbtrace's own
 * namespace with link counters, and devices of other namespaces with
 * traffic in the window. Ports: those with a request or a read in the
 * window that filter (NULL: all) keeps. Returns 0 or -ENOMEM. */
int net_interval_compute(const struct net_snapshot *prev, const struct net_snapshot *cur,
			 const struct net_filter *filter, struct net_interval *out);
void net_interval_free(struct net_interval *iv);
/* Deep copy (the UI keeps the last interval for redraws). */
int net_interval_copy(struct net_interval *dst, const struct net_interval *src);

#endif
