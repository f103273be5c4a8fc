/* softnet_backlog_drops: a CPU's receive backlog (the per-CPU queue that
 * netif_rx, RPS and veth fill) held more than net.core.netdev_max_backlog
 * packets and the kernel dropped the rest (/proc/net/softnet_stat, 2nd
 * column): NET_RX on that CPU cannot keep up, because RPS or a single
 * queue sends it everything, or the limit is small for the burst. */
#ifndef DBTRACE_FINDINGS_SOFTNET_BACKLOG_DROPS_H
#define DBTRACE_FINDINGS_SOFTNET_BACKLOG_DROPS_H

#include <stdint.h>
#include "findings/finding.h"
#include "model/loss_model.h"

struct softnet_config {
	uint64_t min_drops;            /* default 1 in the window */
};

void softnet_config_default(struct softnet_config *cfg);

/* One host-wide finding naming the CPUs that dropped. Returns 0 or -ENOMEM. */
int softnet_backlog_drops_check(const struct loss_interval *li, const struct softnet_config *cfg,
				int interval_index, struct finding_list *out);

#endif
