/* The loss family's fields in a capture (docs/capture-schema.md): beside
 * the net section's port and device rows, the net object's own lists
 * (drop places, drop reasons, listeners, each namespace's TCP counters)
 * and each CPU object's "softnet". Their figures are the tables'
 * (figures/figures_loss.c); written and read back here as a pair, with
 * what a row derives once read. */
#ifndef DBTRACE_CAPTURE_CAPTURE_LOSS_H
#define DBTRACE_CAPTURE_CAPTURE_LOSS_H

#include <stdbool.h>
#include "model/loss_model.h"
#include "model/net_loss.h"

struct json_object;

/* At most this many drop places, listeners and namespaces per window. */
#define CAPTURE_MAX_LOSS_ROWS 64

/* "drops", "drops_omitted", "drops_total", "drops_per_s", "drop_reasons",
 * "listeners", "listeners_omitted", "netstat", "netdev_max_backlog" and
 * "loss_lost_samples" of the net object. */
void capture_loss_net(struct json_object *net, const struct loss_interval *li);
/* "softnet" into each object of a cpus array, by its "cpu". */
void capture_loss_cpus(struct json_object *cpus, const struct loss_interval *li);

/* Reading them back: each returns whether the object had the family's
 * fields; what it lacks is NAN or 0. */
bool capture_loss_read_port(struct json_object *port, struct net_port_loss *l);
bool capture_loss_read_device(struct json_object *dev, struct net_dev_loss *l);
/* drops, drop_reasons, listeners, netstat into li (emptied first);
 * true when the net object has them. 0 or -ENOMEM in *err. */
bool capture_loss_read_net(struct json_object *net, struct loss_interval *li, int *err);
/* A summary CPU object's "softnet", appended to li->cpus. 0 or -ENOMEM. */
int capture_loss_read_cpu(struct json_object *cpu, struct loss_interval *li);

#endif
