#include "findings/softnet_backlog_drops.h"

#include <stdio.h>
#include <string.h>

void softnet_config_default(struct softnet_config *cfg)
{
	cfg->min_drops = 1;
}

int softnet_backlog_drops_check(const struct loss_interval *li, const struct softnet_config *cfg,
				int interval_index, struct finding_list *out)
{
	char cpus[160] = "", per_cpu[160] = "", squeezes[160] = "", limit[32] = "unknown";
	size_t a = 0, b = 0, c = 0;
	struct finding f;
	int n = 0;

	if (li->backlog_drops < cfg->min_drops)
		return 0;
	for (int i = 0; i < li->n_cpus; i++) {
		const struct loss_cpu_stats *s = &li->cpus[i];

		if (s->time_squeezes && c < sizeof(squeezes))
			c += (size_t)snprintf(squeezes + c, sizeof(squeezes) - c, "%s%d:%llu", c ? " " : "",
					      s->cpu, (unsigned long long)s->time_squeezes);
		if (!s->backlog_drops)
			continue;
		n++;
		if (a < sizeof(cpus))
			a += (size_t)snprintf(cpus + a, sizeof(cpus) - a, "%s%d", a ? "," : "", s->cpu);
		if (b < sizeof(per_cpu))
			b += (size_t)snprintf(per_cpu + b, sizeof(per_cpu) - b, "%s%d:%llu", b ? " " : "",
					      s->cpu, (unsigned long long)s->backlog_drops);
	}
	if (li->netdev_max_backlog >= 0)
		snprintf(limit, sizeof(limit), "%ld", li->netdev_max_backlog);
	memset(&f, 0, sizeof(f));
	snprintf(f.id, sizeof(f.id), "softnet_backlog_drops");
	f.severity = SEV_WARNING;
	snprintf(f.title, sizeof(f.title),
		 "%llu packets dropped by full receive backlogs on CPU %s (netdev_max_backlog %s)",
		 (unsigned long long)li->backlog_drops, cpus, limit);
	finding_num(&f, "backlog_drops", (double)li->backlog_drops);
	finding_num(&f, "backlog_drops_per_s", li->dt_s > 0 ? (double)li->backlog_drops / li->dt_s : 0);
	finding_text(&f, "cpus", "%s", cpus);
	finding_num(&f, "n_cpus", n);
	finding_text(&f, "per_cpu_backlog_drops", "%s", per_cpu);
	finding_num(&f, "time_squeezes", (double)li->time_squeezes);
	finding_text(&f, "per_cpu_time_squeezes", "%s", squeezes[0] ? squeezes : "none");
	if (li->netdev_max_backlog >= 0)
		finding_num(&f, "netdev_max_backlog", (double)li->netdev_max_backlog);
	finding_num(&f, "interval_s", li->dt_s);
	snprintf(f.hint, sizeof(f.hint),
		 "Packets handed to a CPU's backlog (RPS, netif_rx, veth) beyond net.core.netdev_max_backlog "
		 "(%s) are dropped. Raise it (`sysctl -w net.core.netdev_max_backlog=...`) for bursts; if "
		 "one CPU takes them all, spread RPS (`/sys/class/net/DEV/queues/rx-N/rps_cpus`) or RSS "
		 "queues over more CPUs. Time squeezes mean NET_RX ran out of budget "
		 "(net.core.netdev_budget, netdev_budget_usecs) with work left.",
		 limit);
	f.first_interval = f.last_interval = interval_index;
	return findings_merge(out, &f);
}
