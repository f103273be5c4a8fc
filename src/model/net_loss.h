/* The loss family's numbers beside the net family's rows: the network
 * view, the capture's net section and the metrics show one row per
 * service port and role, and a port that only retransmits (a bulk
 * sender: no request, no read) gets a row of its own. Pure. */
#ifndef DBTRACE_MODEL_NET_LOSS_H
#define DBTRACE_MODEL_NET_LOSS_H

#include <stdbool.h>
#include <stdint.h>
#include "model/loss_model.h"
#include "model/net_model.h"

/* One port row's losses in the window (net_interval.port_loss[i] belongs
 * to net_interval.ports[i]). */
struct net_port_loss {
	uint64_t segs[DBT_RETX_KINDS]; /* retransmitted segments by kind */
	uint64_t retrans;              /* all kinds */
	uint64_t rto_timer, tlp_probes, stalls, conns;
	uint64_t drops;                /* dropped skbs whose socket has this port and role */
	double retrans_per_s, rto_per_s, tlp_per_s, stalls_per_s, drops_per_s;
	double stall_pct;              /* stalls per 100 requests of the row; NAN without requests */
	double stall_rto_ms;           /* mean RTO at the stalls; NAN: none or HZ unknown */
};

/* One device row's drops in the window. */
struct net_dev_loss {
	uint64_t drops;
	double drops_per_s;
};

/* Adds li's numbers to ni: port_loss and dev_loss (index-aligned with
 * ports and devs), and a row, appended, for every port li saw that ni
 * has no row for and filter keeps (its net fields 0 and NAN). Returns 0
 * or -ENOMEM (ni is then left without loss arrays). */
int net_loss_join(struct net_interval *ni, const struct loss_interval *li,
		  const struct net_filter *filter);

/* An interval of no devices and no ports over dt_s, for the loss rows
 * when the net family is off (loss_only set). */
void net_interval_empty(struct net_interval *ni, double dt_s);

#endif
