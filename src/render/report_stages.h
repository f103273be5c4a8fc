/* The report's picture of where each service port's requests spend their
 * time: a bar per port and role, split into its stages (capture
 * net.ports[].stages), each part as wide as the stage's share of the
 * mean total. Pure: writes into a FILE. */
#ifndef DBTRACE_RENDER_REPORT_STAGES_H
#define DBTRACE_RENDER_REPORT_STAGES_H

#include <stdio.h>
#include "model/net_model.h"

/* The bars of the first n ports of ni that have staged requests; nothing
 * when none has. */
void report_stage_bars(FILE *f, const struct net_interval *ni, int n);

#endif
