/* The report's section on several hosts: each capture given (its host,
 * and the network namespace that stood for it), and each service port
 * joined across them, the client host's view of a request split into its
 * own stages, the network between, and the server host's stages
 * (model/net_join.h). Pure: writes into a FILE. */
#ifndef DBTRACE_RENDER_REPORT_HOSTS_H
#define DBTRACE_RENDER_REPORT_HOSTS_H

#include <stdio.h>
#include "capture/capture_read.h"
#include "model/net_join.h"

/* caps[0..n): the report's capture first (at most DBT_JOIN_HOSTS). Nothing when there is one
 * capture and no port of it is joined. */
void report_hosts_section(FILE *f, const struct capture *const *caps, int n);

#endif
