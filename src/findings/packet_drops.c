#include "findings/packet_drops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void drops_config_default(struct drops_config *cfg)
{
	cfg->per_s = 50;
	cfg->critical_per_s = 1000;
}

const char *packet_drops_advice(const char *reason)
{
	static const struct {
		const char *reason;
		const char *advice;
	} table[] = {
		{ "qdisc_drop", "a qdisc's queue was full: its limit (`tc -s qdisc`), or a shaper's rate below the traffic." },
		{ "qdisc_overlimit", "a qdisc's limit was exceeded: `tc -s qdisc`." },
		{ "cpu_backlog", "a CPU's receive backlog was full: raise net.core.netdev_max_backlog, spread RPS (see softnet_backlog_drops)." },
		{ "socket_rcvbuff", "a socket's receive buffer was full: the application reads too slowly, or rmem is small." },
		{ "socket_backlog", "a busy socket's backlog was full while the application held its lock." },
		{ "tcp_listen_overflow", "a listener's accept queue was full (see accept_queue_overflow)." },
		{ "proto_mem", "TCP memory was under pressure: net.ipv4.tcp_mem, the TCPMemoryPressures counter." },
		{ "netfilter_drop", "a firewall rule dropped it: `nft list ruleset`, `iptables -L -v`." },
		{ "no_socket", "nothing listens there: connections to a closed port, or late packets of closed connections." },
		{ "full_ring", "a device's ring was full: `ethtool -g`, `ethtool -S`." },
		{ "nomem", "an allocation failed: memory pressure in the kernel." },
		{ "neigh_queuefull", "ARP/ND resolution queued too many packets." },
		{ "tc_egress", "a tc filter on egress dropped it." },
		{ "tc_ingress", "a tc filter on ingress dropped it." },
		{ "not_specified", "the kernel gave no reason (older call sites, many drivers)." },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(reason, table[i].reason))
			return table[i].advice;
	return "";
}

/* "rb@router", "eth0", "port 3306 (server)" or "-". */
static void place(const struct loss_drop_stats *d, char *buf, size_t len)
{
	if (d->dev[0] && d->foreign)
		snprintf(buf, len, "%s@%s", d->dev, d->netns_name);
	else if (d->dev[0])
		snprintf(buf, len, "%s", d->dev);
	else if (d->port)
		snprintf(buf, len, "port %u (%s)", d->port, net_role_name(d->role));
	else
		snprintf(buf, len, "-");
}

int packet_drops_check(const struct loss_interval *li, const struct drops_config *cfg,
		       int interval_index, struct finding_list *out)
{
	const struct loss_reason_stats *top = li->n_reasons ? &li->reasons[0] : NULL;
	char where[64] = "-", list[160] = "", places[160] = "";
	const struct loss_drop_stats *first = NULL;
	struct finding f;
	size_t at = 0;

	if (!top || !(li->drops_per_s >= cfg->per_s))
		return 0;
	for (int i = 0; i < li->n_drops && !first; i++)
		if (!strcmp(li->drops[i].reason_name, top->name))
			first = &li->drops[i];
	if (first)
		place(first, where, sizeof(where));
	for (int i = 0; i < li->n_reasons && i < 3; i++)
		at += (size_t)snprintf(list + at, at < sizeof(list) ? sizeof(list) - at : 0, "%s%s %llu",
				       i ? ", " : "", li->reasons[i].name,
				       (unsigned long long)li->reasons[i].count);
	at = 0;
	for (int i = 0; i < li->n_drops && i < 3 && at < sizeof(places); i++) {
		char p[64];

		place(&li->drops[i], p, sizeof(p));
		at += (size_t)snprintf(places + at, sizeof(places) - at, "%s%s: %s %llu", i ? "; " : "", p,
				       li->drops[i].reason_name, (unsigned long long)li->drops[i].count);
	}
	memset(&f, 0, sizeof(f));
	snprintf(f.id, sizeof(f.id), "packet_drops");
	f.severity = li->drops_per_s >= cfg->critical_per_s ? SEV_CRITICAL : SEV_WARNING;
	snprintf(f.title, sizeof(f.title), "%.0f packets/s dropped, most for %s (%.0f%%) at %s",
		 li->drops_per_s, top->name, 100.0 * (double)top->count / (double)li->drops_total, where);
	finding_num(&f, "drops", (double)li->drops_total);
	finding_num(&f, "drops_per_s", li->drops_per_s);
	finding_text(&f, "top_reason", "%s", top->name);
	finding_num(&f, "top_reason_pct", 100.0 * (double)top->count / (double)li->drops_total);
	finding_text(&f, "top_place", "%s", where);
	finding_text(&f, "reasons", "%s", list);
	finding_text(&f, "places", "%s", places);
	finding_num(&f, "interval_s", li->dt_s);
	snprintf(f.hint, sizeof(f.hint),
		 "Each dropped TCP segment costs a retransmit, a lost lone request a retransmit "
		 "timeout. %s: %s Reasons come from the running kernel (skb:kfree_skb); "
		 "`perf record -e skb:kfree_skb -g` shows the call sites.",
		 top->name, packet_drops_advice(top->name));
	f.first_interval = f.last_interval = interval_index;
	return findings_merge(out, &f);
}
