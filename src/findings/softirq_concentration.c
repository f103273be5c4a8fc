#include "findings/softirq_concentration.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sconc_config_default(struct sconc_config *cfg)
{
	cfg->share_pct = 70.0;
	cfg->cpu_fraction = 0.25;
	cfg->min_cpu_pct = 10.0;
}

struct share {
	int cpu;
	double pct;
};

/* Busiest first; equal shares by CPU number, so the result is stable. */
static int by_pct_desc(const void *a, const void *b)
{
	const struct share *x = a, *y = b;

	if (x->pct != y->pct)
		return x->pct > y->pct ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

int softirq_concentration_check(const struct cpu_row *rows, int n_rows,
				const struct misbind_target *targets, int n_targets,
				const struct misbind_host *host, const struct sconc_config *cfg,
				int interval_index, struct finding_list *out)
{
	struct dbt_cpuset hot, rest;
	double total = 0, acc = 0;
	char hl[128], rl[128], per[160] = "", irqs[160], rps[160], who[160] = "",
		cmds[320] = "";
	struct share *s;
	struct finding f;
	int n = 0, k = 0, n_irq, n_rps, err;

	if (n_rows <= 0)
		return 0;
	s = calloc((size_t)n_rows, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (int i = 0; i < n_rows; i++) {
		/* NAN: softirq time not measured (the family is off) */
		if (!rows[i].valid || rows[i].cpu < 0 || isnan(rows[i].softirq_pct[DBT_SOFTIRQ_NET_RX]))
			continue;
		s[n].cpu = rows[i].cpu;
		s[n].pct = rows[i].softirq_pct[DBT_SOFTIRQ_NET_RX];
		total += s[n].pct;
		n++;
	}
	if (n == 0 || total <= 0) {
		free(s);
		return 0;
	}
	qsort(s, (size_t)n, sizeof(*s), by_pct_desc);
	/* the fewest CPUs holding share_pct of all NET_RX time */
	while (k < n && acc < total * cfg->share_pct / 100.0)
		acc += s[k++].pct;
	if (s[0].pct <= cfg->min_cpu_pct || (double)k >= cfg->cpu_fraction * n) {
		free(s);
		return 0;
	}
	dbt_cpuset_zero(&hot);
	dbt_cpuset_zero(&rest);
	for (int i = 0; i < n; i++) {
		dbt_cpuset_set(i < k ? &hot : &rest, (unsigned int)s[i].cpu);
		if (i < k) {
			size_t at = strlen(per);

			snprintf(per + at, sizeof(per) - at, "%s%d:%.1f", i ? " " : "", s[i].cpu,
				 s[i].pct);
		}
	}
	misbind_cpulist(&hot, hl, sizeof(hl));
	misbind_cpulist(&rest, rl, sizeof(rl));

	memset(&f, 0, sizeof(f));
	snprintf(f.id, sizeof(f.id), "softirq_concentration");
	f.severity = SEV_WARNING;
	snprintf(f.title, sizeof(f.title),
		 "%.0f%% of NET_RX time lands on %d of %d CPUs (%.40s); the busiest spends %.1f%% in it",
		 100.0 * acc / total, k, n, hl, s[0].pct);
	finding_text(&f, "cpus", "%s", hl);
	finding_num(&f, "share_pct", 100.0 * acc / total);
	finding_num(&f, "n_cpus", k);
	finding_num(&f, "cpus_measured", n);
	finding_text(&f, "per_cpu_net_rx_pct", "%s", per);
	finding_text(&f, "other_cpus", "%s", rl);
	finding_num(&f, "net_rx_total_pct", total);
	n_irq = misbind_irqs_on(host->nics, &hot, irqs, sizeof(irqs));
	n_rps = misbind_rps_on(host->nics, &hot, rps, sizeof(rps));
	finding_text(&f, "irqs", "%s", n_irq ? irqs : host->nics ? "none" : "unknown");
	finding_text(&f, "rps_queues", "%s", n_rps ? rps : host->nics ? "none" : "unknown");
	for (int i = 0; i < n_targets; i++) {
		struct dbt_cpuset both;
		size_t at = strlen(who);

		dbt_cpuset_and(&both, &targets[i].cpus, &hot);
		if (!dbt_cpuset_empty(&both))
			snprintf(who + at, sizeof(who) - at, "%s%.15s (pid %d)", at ? ", " : "",
				 targets[i].comm, targets[i].pid);
	}
	if (who[0])
		finding_text(&f, "processes_on_hot_cpus", "%s", who);
	finding_text(&f, "irqbalance", host->irqbalance_running ? "running" : "not running");
	/* to all measured CPUs, not just the quiet ones: RPS hashes flows over
	 * its mask and the kernel gives each IRQ its own CPU of a wide set,
	 * whereas moving everything to the quiet CPUs only moves the hot spot */
	dbt_cpuset_or(&rest, &rest, &hot);
	misbind_fix_commands(host, &hot, &rest, cmds, sizeof(cmds));
	snprintf(f.hint, sizeof(f.hint),
		 "Spread NET_RX: more NIC queues (ethtool -L DEV combined N), queue IRQs over more "
		 "CPUs, or RPS to the idle ones (dry run; dbtrace changes nothing)%s%s",
		 cmds[0] ? ": " : "", cmds);
	f.first_interval = f.last_interval = interval_index;
	err = findings_merge(out, &f);
	free(s);
	return err;
}
