/* What each NIC carried, for the misbinding rules: packets/s from the net
 * model's rows (/proc/net/dev deltas of dbtrace's own namespace) in the
 * interval being judged, and the busiest interval of the run so far. A
 * NIC's IRQs on a database's cores matter in proportion to its packets:
 * one that has been idle all run costs those cores nothing yet. Per
 * device only: the kernel keeps no per-queue packet counts in /proc or
 * /sys (ethtool -S has driver-specific ones), and per-queue IRQ counts
 * would mean re-reading /proc/interrupts, tens of MiB on large hosts,
 * every interval. Pure. */
#ifndef DBTRACE_FINDINGS_NIC_TRAFFIC_H
#define DBTRACE_FINDINGS_NIC_TRAFFIC_H

#include <stddef.h>
#include "model/net_model.h"
#include "sysinfo/nic_layout.h"

struct nic_traffic {
	char dev[16];
	double rx_pps, tx_pps;         /* the latest interval */
	double peak_pps;               /* rx + tx, the busiest interval so far */
};

/* One entry per NIC of the layout that had its counters read at least
 * once. Empty and not measured until the first update with an interval. */
struct nic_traffic_table {
	struct nic_traffic *items;
	size_t n, cap;
	bool measured;                 /* an interval with the net model's rows came */
};

/* Takes the NICs of nics from ni's devices of dbtrace's own namespace (a
 * device whose rates are unknown in ni keeps what it had). ni NULL (the
 * net family is off): nothing changes. Returns 0 or -ENOMEM. */
int nic_traffic_update(struct nic_traffic_table *t, const struct dbt_nic_layout *nics,
		       const struct net_interval *ni);
/* NULL when the NIC was never measured. */
const struct nic_traffic *nic_traffic_find(const struct nic_traffic_table *t, const char *dev);
void nic_traffic_free(struct nic_traffic_table *t);

#endif
