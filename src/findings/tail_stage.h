/* The stage that holds a port's slow tail (model/net_model.h, "the slow
 * tail"), as evidence and a sentence for the findings about slow groups
 * of requests (bimodal_response, retransmit_timeouts). Pure. */
#ifndef DBTRACE_FINDINGS_TAIL_STAGE_H
#define DBTRACE_FINDINGS_TAIL_STAGE_H

#include <stddef.h>
#include "findings/finding.h"
#include "model/net_model.h"

/* Adds slow_stage, slow_stage_pct, slow_tail_pct and slow_tail_extra_us
 * to f and writes "By stage, the slowest 10% took 5.1 ms more than the
 * rest, 4.9 ms of it (96%) in the tx stage (...). " into buf; nothing (buf "") when the port's tail is not
 * known or took no longer. */
void tail_stage_describe(struct finding *f, const struct net_port_stats *p, char *buf, size_t len);

/* Puts sentence before f's hint (the hint's tail is what gets cut). */
void tail_stage_prepend(struct finding *f, const char *sentence);

#endif
