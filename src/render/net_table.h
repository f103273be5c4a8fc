/* The network view as text: a device table (packets/s and Mbit/s each
 * way against the link speed, tx queue latency, root qdisc) and a port
 * table (response time and rx socket-queue latency per service port and
 * role), shared by `top` and `top --batch --view net`. Pure: formats
 * into buffers. */
#ifndef DBTRACE_RENDER_NET_TABLE_H
#define DBTRACE_RENDER_NET_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "model/net_loss.h"
#include "model/net_model.h"

/* One sort key for the view: device keys order the devices (ports keep
 * their default), port keys order the ports. */
#define NET_TABLE_DEFAULT_SORT 'M'     /* devices by Mbit/s both ways */
#define NET_TABLE_PORT_DEFAULT 'R'     /* ports by requests/s */

bool net_table_valid_key(char key);
const char *net_table_key_help(void);

void net_dev_header(char *buf, size_t len, char sort_key);
/* l: the row's losses (net_interval.dev_loss[i], port_loss[i]); NULL
 * when the loss family is off: its columns show "-". */
void net_dev_row(char *buf, size_t len, const struct net_dev_stats *d, const struct net_dev_loss *l);
void net_port_header(char *buf, size_t len, char sort_key);
void net_port_row(char *buf, size_t len, const struct net_port_stats *p, const struct net_port_loss *l);

/* Fill order[] (room for iv->n_devs / iv->n_ports) with row indices,
 * highest first by the key (its table's default when the key belongs to
 * the other table). Return how many. */
int net_dev_sort(const struct net_interval *iv, char sort_key, int *order);
int net_port_sort(const struct net_interval *iv, char sort_key, int *order);

#endif
