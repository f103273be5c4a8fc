/* The net section of a capture (docs/capture-schema.md): "net", its
 * devices and ports (with the loss family's numbers beside them and its
 * own lists, capture_loss.h), written and read back here as a pair; a
 * row's figures are the tables' (figures/figures_net.c,
 * figures_loss.c), walked by capture_figures.c. */
#ifndef DBTRACE_CAPTURE_CAPTURE_NET_H
#define DBTRACE_CAPTURE_CAPTURE_NET_H

#include <stdbool.h>
#include "model/loss_model.h"
#include "model/net_loss.h"
#include "model/net_model.h"

struct json_object;

/* At most this many of the net family's devices (busiest first) and ports. */
#define CAPTURE_MAX_NET_ROWS 64

/* The "net" object of an interval or the whole capture; li: the loss
 * family's window (NULL: off). */
struct json_object *capture_net_object(const struct net_interval *iv, const struct loss_interval *li);

/* It back into ni (over seconds) and, when it has the loss family's
 * fields, li (*have_loss set). *have_hist: its rows carry histograms
 * (older captures do not); *devs_omitted, *ports_omitted: the rows left
 * out. 0 or -ENOMEM. */
int capture_net_read(struct json_object *o, double seconds, struct net_interval *ni, bool *have_hist,
		     int *devs_omitted, int *ports_omitted, struct loss_interval *li, bool *have_loss);

#endif
