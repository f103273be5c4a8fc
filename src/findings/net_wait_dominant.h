/* net_wait_dominant: a server's thread class spends most of its time
 * waiting on the network (recv, poll, epoll_wait on sockets) while the
 * clients of one of this host's service ports see a response time far
 * above the server's own for the same port: the time goes to the network
 * between them (round trips, the client side), not to the database. From
 * the wall-time budget and the net family's port rows. Judged only when
 * both sides of a port are on this host (its client and server rows). */
#ifndef DBTRACE_FINDINGS_NET_WAIT_DOMINANT_H
#define DBTRACE_FINDINGS_NET_WAIT_DOMINANT_H

#include "findings/finding.h"
#include "model/net_model.h"
#include "model/sched_interval.h"

struct netwait_config {
	double net_pct;                /* default 50: net share of the class's thread time */
	double client_p99_us;          /* default 5000: the clients' response p99 */
	double server_ratio;           /* default 0.5: the server's p99 at most this x the clients' */
	double wakeups_per_request;    /* default 0.5: the class's voluntary switches per request
	                                  of the port's server row, to be that server */
	/* default 20: requests of the port's client row in the interval. A
	 * p99 of a handful of requests is one slow request, and against a
	 * handful of requests any thread that woke once (a listener in
	 * accept, at the interval its clients connected) passes the
	 * wakeups test */
	uint64_t min_requests;
};

void netwait_config_default(struct netwait_config *cfg);

/* Whether class c of group p is the server of port (one of the
 * processes its threads belong to holds a socket bound to it locally):
 * 1 yes, 0 no, negative unknown. The port rows carry no process, and a
 * client class waiting in recv() for each reply matches the rule's
 * numbers as well as the server does: this tells them apart. I/O, so the
 * caller's (sysinfo/port_socket.h); NULL judges without it. */
typedef int (*netwait_serves_fn)(const struct sched_group_stats *p, const struct sched_class_stats *c,
				 uint16_t port, void *arg);

int net_wait_dominant_check(const struct sched_interval *si, const struct net_interval *ni,
			    const struct netwait_config *cfg, netwait_serves_fn serves,
			    void *serves_arg, int interval_index, struct finding_list *out);

#endif
