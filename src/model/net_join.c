#include "model/net_join.h"

#include <math.h>
#include <string.h>

const char *net_join_part_name(int part)
{
	static const char *const names[NJ_PARTS] = {
		[NJ_CLIENT_TX] = "client tx",
		[NJ_NETWORK] = "network",
		[NJ_SERVER_RX] = "server rx",
		[NJ_SERVER_SOCKET_WAIT] = "server socket_wait",
		[NJ_SERVER_SERVER] = "server",
		[NJ_SERVER_TX] = "server tx",
		[NJ_CLIENT_RX] = "client rx",
	};

	return part >= 0 && part < NJ_PARTS ? names[part] : "?";
}

/* The staged row of port and role in ni, or NULL. */
static const struct net_port_stats *staged_row(const struct net_interval *ni, uint16_t port, int role)
{
	for (int i = 0; ni && i < ni->n_ports; i++)
		if (ni->ports[i].port == port && ni->ports[i].role == role && ni->ports[i].staged)
			return &ni->ports[i];
	return NULL;
}

static void join(struct net_joined *j, const struct net_port_stats *c, const struct net_port_stats *s)
{
	j->part_us[NJ_CLIENT_TX] = c->stage_mean_us[DBT_NET_STAGE_TX];
	j->part_us[NJ_NETWORK] = c->stage_mean_us[DBT_NET_STAGE_OUTSIDE] - s->total_mean_us;
	j->part_us[NJ_SERVER_RX] = s->stage_mean_us[DBT_NET_STAGE_RX];
	j->part_us[NJ_SERVER_SOCKET_WAIT] = s->stage_mean_us[DBT_NET_STAGE_SOCKET_WAIT];
	j->part_us[NJ_SERVER_SERVER] = s->stage_mean_us[DBT_NET_STAGE_SERVER];
	j->part_us[NJ_SERVER_TX] = s->stage_mean_us[DBT_NET_STAGE_TX];
	j->part_us[NJ_CLIENT_RX] = c->stage_mean_us[DBT_NET_STAGE_RX];
	j->client_total_us = c->total_mean_us;
	j->server_host_us = s->total_mean_us;
	j->network_pct = c->total_mean_us > 0 ? 100 * j->part_us[NJ_NETWORK] / c->total_mean_us : NAN;
}

int net_join_paths(const struct net_interval *const *hosts, int n, struct net_joined *out, int max)
{
	int found = 0;

	for (int h = 0; h < n; h++) {
		for (int i = 0; hosts[h] && i < hosts[h]->n_ports; i++) {
			const struct net_port_stats *c = &hosts[h]->ports[i], *s = NULL;
			int sh = -1;

			if (c->role != DBT_NET_CLIENT || !c->staged)
				continue;
			/* another host first: the same one only for a capture
			 * that saw both ends */
			for (int k = 0; k < n && !s; k++)
				if (k != h && (s = staged_row(hosts[k], c->port, DBT_NET_SERVER)))
					sh = k;
			if (!s && (s = staged_row(hosts[h], c->port, DBT_NET_SERVER)))
				sh = h;
			if (!s)
				continue;
			if (found < max) {
				memset(&out[found], 0, sizeof(out[found]));
				out[found].port = c->port;
				out[found].client_host = h;
				out[found].server_host = sh;
				join(&out[found], c, s);
			}
			found++;
		}
	}
	return found < max ? found : max;
}
