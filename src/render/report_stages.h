/* The report's picture of where each service port's requests spend their
 * time: a bar per port and role, split into its stages (capture
 * net.ports[].stages), each part as wide as the stage's share of the
 * mean total. Pure: writes into a FILE. */
#ifndef DBTRACE_RENDER_REPORT_STAGES_H
#define DBTRACE_RENDER_REPORT_STAGES_H

#include <stdio.h>
#include "model/net_model.h"

/* A bar of n parts (names, mean µs, colours) as wide as their sum, each
 * as wide as its share; a part that is NAN or negative takes no room. */
void report_bar(FILE *f, const char *caption, int n, const char *const *names, const double *us,
		const char *const *colours);
/* The colour of a stage (enum dbt_net_stage) in every bar. */
const char *report_stage_colour(int stage);

/* The bars of the first n ports of ni that have staged requests; nothing
 * when none has. */
void report_stage_bars(FILE *f, const struct net_interval *ni, int n);

#endif
