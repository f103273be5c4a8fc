/* The net family's port slots as user space sees them, to give back the
 * slots of ports that went quiet. The kernel side hands a slot of its
 * per-CPU port array to each new (port, role) and, before this, never took
 * one back: a long-running `serve` or capture on a host whose clients
 * reach many service ports (or a listener made with listen(fd, 0), whose
 * accepted sockets look like clients of each peer's ephemeral port) ran
 * out of the 256 slots for good, and every later port went unmeasured.
 *
 * Each read observes which key holds which slot and its activity
 * (requests + reads). When more than three quarters of the slots are
 * taken, those quiet for NET_PORT_SLOT_IDLE_NS are given back, the
 * longest quiet first, down to half. A key whose slot changes hands gets
 * a new incarnation number: its counters start over, and the model does
 * not subtract the old slot's counts from the new one's. Pure. */
#ifndef DBTRACE_MODEL_NET_PORT_SLOTS_H
#define DBTRACE_MODEL_NET_PORT_SLOTS_H

#include <stdbool.h>
#include <stdint.h>
#include "dbtrace/net.h"

/* Quiet this long before a slot may go: longer than any interval a
 * pressure-free read is taken at (1 s by default), and a port that comes
 * back after it only starts its counters over. */
#define NET_PORT_SLOT_IDLE_NS (5 * 1000000000ull)
#define NET_PORT_SLOTS_HIGH (DBT_NET_MAX_PORTS * 3 / 4)   /* reclaim above */
#define NET_PORT_SLOTS_LOW (DBT_NET_MAX_PORTS / 2)        /* down to */

struct net_port_slot_use {
	bool used;
	bool seen;                     /* in the read being taken */
	uint16_t port;
	uint8_t role;
	uint32_t gen;                  /* incarnation of the key in this slot */
	uint64_t activity;             /* requests + reads at the latest read */
	uint64_t changed_ns;           /* when activity last changed, or the key arrived */
};

struct net_port_slots {
	struct net_port_slot_use slot[DBT_NET_MAX_PORTS];
	uint32_t next_gen;
};

void net_port_slots_init(struct net_port_slots *t);
/* A read starts: every slot is unseen until observed. */
void net_port_slots_begin(struct net_port_slots *t);
/* The read found (port, role) in slot with that activity at now_ns.
 * Returns the key's incarnation (never 0); 0 for a slot out of range. */
uint32_t net_port_slots_observe(struct net_port_slots *t, uint32_t slot, uint16_t port,
				uint8_t role, uint64_t activity, uint64_t now_ns);
/* The read is over: slots not observed are free. Then, when more than
 * NET_PORT_SLOTS_HIGH are taken, the slots to give back (quiet at least
 * NET_PORT_SLOT_IDLE_NS, longest quiet first, down to NET_PORT_SLOTS_LOW)
 * go to out (room for max) and are marked free. Returns how many. */
int net_port_slots_end(struct net_port_slots *t, uint64_t now_ns, uint32_t *out, int max);

#endif
