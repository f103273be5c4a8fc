/* top's breakdown of each service port's requests into their stages
 * (the net view's `g` toggle): per port and role, the share of requests
 * staged, their mean total and
 * each stage's mean with its share, in time order. Pure: formats into
 * buffers. */
#ifndef DBTRACE_RENDER_STAGE_TABLE_H
#define DBTRACE_RENDER_STAGE_TABLE_H

#include <stddef.h>
#include "model/net_model.h"

#define STAGE_TABLE_KEY 'g'

void stage_table_header(char *buf, size_t len);
/* "-" where the role has no such stage or nothing was staged. */
void stage_table_row(char *buf, size_t len, const struct net_port_stats *p);

#endif
