#include "model/net_port_slots.h"

#include <string.h>

void net_port_slots_init(struct net_port_slots *t)
{
	memset(t, 0, sizeof(*t));
}

void net_port_slots_begin(struct net_port_slots *t)
{
	for (int i = 0; i < DBT_NET_MAX_PORTS; i++)
		t->slot[i].seen = false;
}

uint32_t net_port_slots_observe(struct net_port_slots *t, uint32_t slot, uint16_t port,
				uint8_t role, uint64_t activity, uint64_t now_ns)
{
	struct net_port_slot_use *u;

	if (slot >= DBT_NET_MAX_PORTS)
		return 0;
	u = &t->slot[slot];
	if (!u->used || u->port != port || u->role != role) {
		/* a new holder: quiet from now, counted from zero */
		u->used = true;
		u->port = port;
		u->role = role;
		if (++t->next_gen == 0)
			t->next_gen = 1;
		u->gen = t->next_gen;
		u->activity = activity;
		u->changed_ns = now_ns;
	} else if (u->activity != activity) {
		u->activity = activity;
		u->changed_ns = now_ns;
	}
	u->seen = true;
	return u->gen;
}

/* The used slot quiet longest and for at least the idle time; -1: none. */
static int quietest(const struct net_port_slots *t, uint64_t now_ns)
{
	int best = -1;

	for (int i = 0; i < DBT_NET_MAX_PORTS; i++) {
		const struct net_port_slot_use *u = &t->slot[i];

		if (!u->used || now_ns < u->changed_ns || now_ns - u->changed_ns < NET_PORT_SLOT_IDLE_NS)
			continue;
		if (best < 0 || u->changed_ns < t->slot[best].changed_ns)
			best = i;
	}
	return best;
}

int net_port_slots_end(struct net_port_slots *t, uint64_t now_ns, uint32_t *out, int max)
{
	int used = 0, n = 0, i;

	for (i = 0; i < DBT_NET_MAX_PORTS; i++) {
		if (!t->slot[i].seen)
			t->slot[i].used = false;
		used += t->slot[i].used;
	}
	if (used <= NET_PORT_SLOTS_HIGH)
		return 0;
	while (used > NET_PORT_SLOTS_LOW && n < max && (i = quietest(t, now_ns)) >= 0) {
		t->slot[i].used = false;
		out[n++] = (uint32_t)i;
		used--;
	}
	return n;
}
