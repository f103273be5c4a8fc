/* packet_drops: the kernel dropped packets at a rate that costs
 * something, named by the kernel's own drop reasons and where the skb
 * says it was (device, socket port). A drop of a TCP segment costs a
 * retransmit, of a lone request a retransmit timeout. */
#ifndef DBTRACE_FINDINGS_PACKET_DROPS_H
#define DBTRACE_FINDINGS_PACKET_DROPS_H

#include <stddef.h>
#include "findings/finding.h"
#include "model/loss_model.h"

struct drops_config {
	double per_s;                  /* default 50 drops/s in the window */
	double critical_per_s;         /* default 1000 */
};

void drops_config_default(struct drops_config *cfg);

/* What a drop reason usually means and what to check, one sentence;
 * "" for reasons without advice. */
const char *packet_drops_advice(const char *reason);

/* One host-wide finding when the window's drops pass the threshold.
 * Returns 0 or -ENOMEM. */
int packet_drops_check(const struct loss_interval *li, const struct drops_config *cfg,
		       int interval_index, struct finding_list *out);

#endif
