#include "findings/nic_traffic.h"
#include "core/vec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct nic_traffic *find(const struct nic_traffic_table *t, const char *dev)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->items[i].dev, dev))
			return &t->items[i];
	return NULL;
}

const struct nic_traffic *nic_traffic_find(const struct nic_traffic_table *t, const char *dev)
{
	return find(t, dev);
}

/* The row of dev in dbtrace's own namespace; NULL when absent. */
static const struct net_dev_stats *own_row(const struct net_interval *ni, const char *dev)
{
	for (int i = 0; i < ni->n_devs; i++)
		if (!ni->devs[i].foreign && !strcmp(ni->devs[i].name, dev))
			return &ni->devs[i];
	return NULL;
}

int nic_traffic_update(struct nic_traffic_table *t, const struct dbt_nic_layout *nics,
		       const struct net_interval *ni)
{
	if (!ni)
		return 0;
	t->measured = true;
	for (size_t i = 0; nics && i < nics->n; i++) {
		const char *dev = nics->nics[i].dev;
		const struct net_dev_stats *r = own_row(ni, dev);
		struct nic_traffic *e;

		/* no link counters at both ends of the window: not a reading */
		if (!r || !isfinite(r->rx_pps) || !isfinite(r->tx_pps))
			continue;
		e = find(t, dev);
		if (!e) {
			if (VEC_RESERVE(t->items, t->cap, t->n + 1))
				return -ENOMEM;
			e = &t->items[t->n++];
			memset(e, 0, sizeof(*e));
			memcpy(e->dev, dev, sizeof(e->dev));
			e->dev[sizeof(e->dev) - 1] = 0;
		}
		e->rx_pps = r->rx_pps;
		e->tx_pps = r->tx_pps;
		if (r->rx_pps + r->tx_pps > e->peak_pps)
			e->peak_pps = r->rx_pps + r->tx_pps;
	}
	return 0;
}

void nic_traffic_free(struct nic_traffic_table *t)
{
	free(t->items);
	memset(t, 0, sizeof(*t));
}
