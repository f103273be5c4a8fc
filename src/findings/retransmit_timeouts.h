/* retransmit_timeouts: requests on a port waited for TCP's retransmission
 * timer. A lost request (or reply, or its ACK) is re-sent only when the
 * RTO fires, 200 ms at the least on Linux, or when a tail-loss probe
 * fires, which with one packet in flight waits about as long: a response
 * time's second mode at ~200 ms on an otherwise sub-millisecond port.
 * Field case: a hypervisor's packet-rate limit dropped packets of a MySQL
 * VM and every drop cost an RTO; clients saw 8.3 ms on average. */
#ifndef DBTRACE_FINDINGS_RETRANSMIT_TIMEOUTS_H
#define DBTRACE_FINDINGS_RETRANSMIT_TIMEOUTS_H

#include <stdint.h>
#include "findings/bimodal_response.h"
#include "findings/finding.h"
#include "model/net_loss.h"
#include "model/net_model.h"

struct rto_config {
	uint64_t min_waits;            /* default 1 request that waited in the window */
	double warn_pct;               /* default 0.1: below, info */
	double critical_pct;           /* default 1 */
};

void rto_config_default(struct rto_config *cfg);

/* Judges each port row of the window with the loss family's numbers
 * (iv->port_loss): a row whose requests waited for a retransmit timer.
 * The client row of a port speaks for it when this host has one (its
 * waits are requests the client waited for); a server row alone is
 * judged on its own (a reply, or the ACK of one, was lost). bimodal
 * configures how the response-time histogram's slow mode is found.
 * Returns 0 or -ENOMEM. */
int retransmit_timeouts_check(const struct net_interval *iv, const struct rto_config *cfg,
			      const struct bimodal_config *bimodal, int interval_index,
			      struct finding_list *out);

/* Adds the retransmit timeouts of a port to every bimodal_response
 * finding of that port in l (evidence rto_waits, rto_wait_pct, rto_ms,
 * and a sentence of the hint): the slow group is retransmissions. */
void retransmit_timeouts_join(struct finding_list *l);

#endif
