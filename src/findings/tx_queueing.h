/* tx_queueing: packets wait in a device's transmit queue (qdisc plus
 * driver queue) long enough to show in request latency. Field case: a
 * 1 ms netem delay left on bond0 doubled transaction latency. */
#ifndef DBTRACE_FINDINGS_TX_QUEUEING_H
#define DBTRACE_FINDINGS_TX_QUEUEING_H

#include <stddef.h>
#include <stdint.h>
#include "findings/finding.h"
#include "model/net_model.h"

struct txq_config {
	double p99_us;                 /* default 1000: 1 ms */
	uint64_t min_samples;          /* default 20 packets in the window */
};

void txq_config_default(struct txq_config *cfg);

/* What to look at, from the device's root qdisc and load. Pure. Returns
 * the length written (cut to len - 1). */
size_t tx_queueing_hint(const struct net_dev_stats *d, char *buf, size_t len);

/* Judges every device of the window; merges findings into out tagged with
 * interval_index. Returns 0 or -ENOMEM. */
int tx_queueing_check(const struct net_interval *iv, const struct txq_config *cfg,
		      int interval_index, struct finding_list *out);

#endif
