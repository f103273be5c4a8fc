/* net family collector: loads bpf/net.bpf.c through the attach plan and
 * turns its maps, plus each device's link counters, speed and root qdisc,
 * into net snapshots. Devices of other network namespaces that the
 * kernel side saw are read from inside their namespace. */
#ifndef DBTRACE_COLLECT_NET_H
#define DBTRACE_COLLECT_NET_H

#include <stdint.h>
#include "core/bpf_plan.h"
#include "model/net_model.h"
#include "model/net_port_slots.h"
#include "sysinfo/netdev.h"
#include "sysinfo/qdisc.h"

#define NET_CHUNK 32                   /* map entries per batch read */
#define NET_MAX_LINKS 4096             /* /proc/net/dev lines per namespace */

/* Where a namespace seen by the kernel side can be entered. */
struct net_ns_ref {
	uint32_t inum;
	char path[300];                /* /run/netns/NAME or /proc/PID/ns/net */
	char name[NET_NETNS_NAME_MAX]; /* for people: the `ip netns` name or "net:[INODE]" */
	bool found;
	bool gone;                     /* not found: its devices were dropped from the map */
};

struct net_collector {
	struct plan_handle h;
	int devs_fd, port_slot_fd, ports_fd, stats_fd, port_owner_fd, port_free_fd;
	int port_hist_fd, dev_hist_fd;
	struct dbt_net_port_hist *port_hist;  /* one slot's histograms, read buffer */
	struct dbt_net_dev_hist *dev_hist;    /* one device's */
	int ncpus;
	uint32_t self_netns;
	void *keys, *values;           /* one chunk of a batch read (per-CPU values) */
	struct dbt_net_stats *stats;   /* ncpus */
	struct dbt_net_port *port_vals;  /* one port's per-CPU values, ncpus */
	struct netdev_counters *links; /* NET_MAX_LINKS */
	struct qdisc_table qdiscs;
	struct net_ns_ref *ns;
	int n_ns;
	size_t cap_ns;
	uint64_t failed;               /* map-full losses at the last read */
	struct net_port_slots slots;   /* which port holds which slot, to give quiet ones back */
	int tail_fd;                   /* net_tail_ns: each slot's slow-tail threshold */
	/* --netns: the one namespace measured (its inode, in self_netns) and
	 * its file, where its link counters are read; NULL: dbtrace's own */
	const char *scope_path;
	/* each slot's staged totals at the last read (NULL: none yet) and
	 * the incarnation they were of, for the next threshold */
	__u64 *tail_prev[DBT_NET_MAX_PORTS];
	uint32_t tail_gen[DBT_NET_MAX_PORTS];
	uint64_t slots_reclaimed;
};

/* scope_inum, scope_path: --netns, the one network namespace whose
 * sockets and devices are measured (0, NULL: every namespace). */
int net_collector_open(struct net_collector *c, struct probe_report *rep, struct bpf_features *kernel,
		       uint32_t scope_inum, const char *scope_path);
/* Fills snap (emptied first). */
int net_collector_read(struct net_collector *c, struct net_snapshot *snap);
/* Events the kernel skipped plus samples lost to full maps, so far. */
uint64_t net_collector_lost(const struct net_collector *c);
void net_collector_close(struct net_collector *c);

#endif
