/* loss family collector: loads bpf/loss.bpf.c through the attach plan and
 * turns its maps into loss snapshots, with what the kernel counts itself
 * outside BPF: /proc/net/softnet_stat, and in each network namespace
 * that matters (dbtrace's own, those `ip netns` names, and those whose
 * sockets or devices the kernel side saw) /proc/net/netstat, the queue
 * sysctls and the TCP listeners over sock_diag. Names the drop reasons
 * from the running kernel's BTF. */
#ifndef DBTRACE_COLLECT_LOSS_H
#define DBTRACE_COLLECT_LOSS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/bpf_plan.h"
#include "model/loss_model.h"
#include "sysinfo/listeners.h"

#define LOSS_CHUNK 32                  /* map entries per batch read */

/* A namespace to read listeners and counters in. */
struct loss_ns_ref {
	uint32_t inum;
	char path[300];                /* /run/netns/NAME or /proc/PID/ns/net */
	char name[NET_NETNS_NAME_MAX];
	bool live;                     /* found at the latest read */
};

struct loss_collector {
	struct plan_handle h;
	int ports_fd, drops_fd, reasons_fd, netns_fd, stats_fd;
	int ncpus;
	uint32_t self_netns;
	long hz;                       /* kernel HZ; <= 0 unknown */
	struct loss_reason_names names;
	void *keys, *values;           /* one chunk of a batch read (per-CPU values) */
	struct dbt_loss_reasons *reasons;  /* ncpus */
	struct dbt_loss_stats *stats;      /* ncpus */
	struct listener_table lis;     /* scratch for one namespace's dump */
	struct loss_ns_ref *ns;
	int n_ns;
	size_t cap_ns;
	uint64_t failed;               /* details lost to full maps, at the last read */
};

int loss_collector_open(struct loss_collector *c, struct probe_report *rep, struct bpf_features *kernel);
/* Fills snap (emptied first). */
int loss_collector_read(struct loss_collector *c, struct loss_snapshot *snap);
uint64_t loss_collector_lost(const struct loss_collector *c);
void loss_collector_close(struct loss_collector *c);

#endif
