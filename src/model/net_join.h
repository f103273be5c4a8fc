/* Two hosts joined: a service port whose client end one capture saw and
 * whose server end another saw (a database server and its clients; two
 * network namespaces standing for two hosts with --netns). The client's
 * `outside` stage (its request leaving to the reply arriving) holds the
 * server host's whole time on host; what is left is the network between
 * them, both directions together. Pure. */
#ifndef DBTRACE_MODEL_NET_JOIN_H
#define DBTRACE_MODEL_NET_JOIN_H

#include "model/net_model.h"

#define NET_JOIN_MAX 64
#define DBT_JOIN_HOSTS 8               /* captures joined at most */

/* The parts of one joined request path, in time order (µs, means over
 * each side's staged requests). */
enum net_join_part {
	NJ_CLIENT_TX,                  /* the client host's tx */
	NJ_NETWORK,                    /* between the hosts, both ways */
	NJ_SERVER_RX,                  /* the server host's four stages */
	NJ_SERVER_SOCKET_WAIT,
	NJ_SERVER_SERVER,
	NJ_SERVER_TX,
	NJ_CLIENT_RX,                  /* the client host's rx */
	NJ_PARTS,
};

struct net_joined {
	uint16_t port;
	int client_host, server_host;  /* indices of the hosts given */
	double part_us[NJ_PARTS];
	double client_total_us;        /* the client's staged total: the parts' sum */
	double server_host_us;         /* the server's time on host */
	double network_pct;            /* NJ_NETWORK's % of the client's total */
};

/* "client tx", "network", "server rx", ... */
const char *net_join_part_name(int part);

/* The joined paths of hosts[0..n) (each a capture's whole-run net
 * interval; NULL: that host has none), a port's client row with staged
 * requests against its server row on another host (on the same host when
 * no other has it: one capture of both ends), into out (at most max).
 * Returns how many. */
int net_join_paths(const struct net_interval *const *hosts, int n, struct net_joined *out, int max);

#endif
