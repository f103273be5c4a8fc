#include "findings/softirq_on_db_cores.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sodc_config_default(struct sodc_config *cfg)
{
	cfg->cpu_net_pct = 10.0;
	cfg->outside_idle_pct = 50.0;
}

static double net_pct(const struct cpu_row *r)
{
	return r->softirq_pct[DBT_SOFTIRQ_NET_RX] + r->softirq_pct[DBT_SOFTIRQ_NET_TX];
}

static bool in_set(const struct dbt_cpuset *s, int cpu)
{
	return cpu >= 0 && dbt_cpuset_test(s, (unsigned int)cpu);
}

int softirq_on_db_cores_check(const struct cpu_row *rows, int n_rows,
			      const struct misbind_target *t, const struct misbind_host *host,
			      const struct sodc_config *cfg, int interval_index,
			      struct finding_list *out)
{
	struct dbt_cpuset hot, outside, mine;
	const struct cpu_row *top = NULL;
	double out_net = 0, out_idle = 0;
	char hl[128], pl[128], ol[128], per[160] = "", irqs[160], rps[160], cmds[320] = "";
	int n_out = 0, n_irq, n_rps;
	struct finding f;

	dbt_cpuset_zero(&hot);
	dbt_cpuset_zero(&outside);
	dbt_cpuset_zero(&mine);
	for (int i = 0; i < n_rows; i++) {
		const struct cpu_row *r = &rows[i];

		/* NAN: softirq time not measured (the family is off or
		 * failed): no verdict on it, either way */
		if (!r->valid || !in_set(&host->online, r->cpu) || isnan(net_pct(r)))
			continue;
		if (!in_set(&t->cpus, r->cpu)) {
			dbt_cpuset_set(&outside, (unsigned int)r->cpu);
			out_net += net_pct(r);
			out_idle += r->idle_pct;
			n_out++;
			continue;
		}
		dbt_cpuset_set(&mine, (unsigned int)r->cpu);
		if (net_pct(r) <= cfg->cpu_net_pct)
			continue;
		dbt_cpuset_set(&hot, (unsigned int)r->cpu);
		if (!top || net_pct(r) > net_pct(top))
			top = r;
		size_t at = strlen(per);

		snprintf(per + at, sizeof(per) - at, "%s%d:%.1f", at ? " " : "", r->cpu, net_pct(r));
	}
	/* no hot CPU, or no CPU outside the set to steer the work to */
	if (!top || !n_out)
		return 0;
	out_net /= n_out;
	out_idle /= n_out;
	/* the network work is spread evenly: heavy traffic, not misbinding */
	if (out_net >= cfg->cpu_net_pct || out_net >= net_pct(top) / 2)
		return 0;

	memset(&f, 0, sizeof(f));
	snprintf(f.id, sizeof(f.id), "softirq_on_db_cores");
	/* idle unknown (no /proc/stat): judged on the softirq numbers alone */
	if (!isnan(out_idle) && out_idle < cfg->outside_idle_pct)
		f.severity = SEV_INFO;
	else
		f.severity = net_pct(top) >= 25 ? SEV_CRITICAL : SEV_WARNING;
	f.pid = t->pid;
	misbind_cpulist(&hot, hl, sizeof(hl));
	misbind_cpulist(&mine, pl, sizeof(pl));
	misbind_cpulist(&outside, ol, sizeof(ol));
	snprintf(f.title, sizeof(f.title),
		 "network softirq takes %.1f%% of CPU %d, where %.15s (pid %d) runs; CPUs %.40s carry %.1f%%",
		 net_pct(top), top->cpu, t->comm[0] ? t->comm : "the process", t->pid, ol, out_net);
	finding_text(&f, "cpus", "%s", hl);
	finding_num(&f, "net_rx_pct", top->softirq_pct[DBT_SOFTIRQ_NET_RX]);
	finding_num(&f, "net_tx_pct", top->softirq_pct[DBT_SOFTIRQ_NET_TX]);
	finding_text(&f, "per_cpu_net_pct", "%s", per);
	finding_text(&f, "process_cpus", "%s", pl);
	if (!isnan(t->oncpu_pct))
		finding_num(&f, "process_oncpu_pct", t->oncpu_pct);
	finding_text(&f, "outside_cpus", "%s", ol);
	finding_num(&f, "outside_net_pct", out_net);
	finding_num(&f, "outside_idle_pct", out_idle);
	n_irq = misbind_irqs_on(host->nics, &hot, irqs, sizeof(irqs));
	n_rps = misbind_rps_on(host->nics, &hot, rps, sizeof(rps));
	finding_text(&f, "irqs", "%s", n_irq ? irqs : host->nics ? "none" : "unknown");
	finding_text(&f, "rps_queues", "%s", n_rps ? rps : host->nics ? "none" : "unknown");
	finding_num(&f, "threshold_pct", cfg->cpu_net_pct);

	misbind_fix_commands(host, &hot, &outside, cmds, sizeof(cmds));
	if (cmds[0])
		snprintf(f.hint, sizeof(f.hint),
			 "Steer NET_RX off CPU %.40s to %.40s (dry run; dbtrace changes nothing): %s; "
			 "or move the process: taskset -apc %.40s %d",
			 hl, ol, cmds, ol, t->pid);
	else
		snprintf(f.hint, sizeof(f.hint),
			 "No NIC IRQ or RPS mask in this namespace points at CPU %.40s: the packets "
			 "come from another network namespace, a tunnel or RPS/RFS on a device "
			 "elsewhere; steer that device's IRQs/rps_cpus to CPUs %.40s, or move the "
			 "process: taskset -apc %.40s %d",
			 hl, ol, ol, t->pid);
	f.first_interval = f.last_interval = interval_index;
	return findings_merge(out, &f);
}
