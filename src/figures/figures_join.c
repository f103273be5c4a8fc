/* Two hosts joined (rows: struct net_joined, model/net_join.h): not in a
 * capture, made from several; `diff` compares them when each side is
 * several hosts' captures. */
#include "figures/figures.h"
#include "model/net_join.h"

#include <stddef.h>

#define JOIN(field) offsetof(struct net_joined, field)

/* The capture-style name of a part: net_join_part_name()'s, with '_'
 * for ' ' ("client tx" -> "client_tx"), so the parts are named once. */
static const char *part_name(int part)
{
	static char names[NJ_PARTS][32];

	if (part < 0 || part >= NJ_PARTS)
		return "?";
	if (!names[part][0]) {
		const char *from = net_join_part_name(part);
		size_t i;

		for (i = 0; from[i] && i < sizeof(names[part]) - 1; i++)
			names[part][i] = from[i] == ' ' ? '_' : from[i];
		names[part][i] = 0;
	}
	return names[part];
}

static const struct fig_keys parts = { NJ_PARTS, part_name, "<part>", false };

static const struct figure join_figs[] = {
	{ .name = "part_us", .unit = "µs", .type = FIG_NUM, .offset = JOIN(part_us), .keys = &parts,
	  .doc = "each part of the joined path's mean, in time order: the client host's `tx`, the `network` "
		 "between the hosts (the client's `outside` less the server's time on host, both directions "
		 "together), the server host's four stages, the client's `rx`",
	  .diff = { FIG_LOWER, 5, 0.10, 0, "%s_us" } },
	{ .name = "client_total_us", .unit = "µs", .type = FIG_NUM, .offset = JOIN(client_total_us),
	  .doc = "the client's staged total: the parts' sum", .diff = { FIG_LOWER, 5, 0.10 } },
	{ .name = "server_host_us", .unit = "µs", .type = FIG_NUM, .offset = JOIN(server_host_us),
	  .doc = "the server's time on host", .diff = { FIG_LOWER, 5, 0.10 } },
};

const struct fig_table fig_joined = FIG_TABLE(NULL, join_figs);
