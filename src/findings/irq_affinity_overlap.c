#include "findings/irq_affinity_overlap.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends a formatted part to a terminated text, cutting at len. */
static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(buf, len);
	va_list ap;

	if (at + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

static void set_minus(struct dbt_cpuset *dst, const struct dbt_cpuset *a,
		      const struct dbt_cpuset *b)
{
	for (size_t i = 0; i < DBT_CPUSET_WORDS; i++)
		dst->bits[i] = a->bits[i] & ~b->bits[i];
}

static bool intersects(const struct dbt_cpuset *a, const struct dbt_cpuset *b)
{
	for (size_t i = 0; i < DBT_CPUSET_WORDS; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

void misbind_cpulist(const struct dbt_cpuset *set, char *buf, size_t len)
{
	/* a list too long for the evidence ends in "..." rather than mid-number */
	if (dbt_cpuset_format_list(set, buf, len) < 0 && len > 4)
		snprintf(buf + len - 4, 4, "...");
}

/* The delivery CPUs of an IRQ that fired, or NULL. */
static const struct dbt_cpuset *fired_cpus(const struct dbt_nic_irq *irq)
{
	return irq->count ? dbt_nic_irq_cpus(irq) : NULL;
}

static const struct dbt_cpuset *rps_cpus(const struct dbt_net_queue *q)
{
	return q->kind == DBT_QUEUE_RX && q->has_mask && !dbt_cpuset_empty(&q->cpus)
	       ? &q->cpus : NULL;
}

/* Lists the IRQs (queues false) or rx queues (true) of every NIC whose
 * delivery CPUs meet set, "NAME (cpu LIST)" comma-separated. */
static int reach_text(const struct dbt_nic_layout *nics, const struct dbt_cpuset *set,
		      bool queues, char *buf, size_t len)
{
	int n = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; nics && i < nics->n; i++) {
		const struct dbt_nic *nic = &nics->nics[i];
		size_t m = queues ? nic->queues.n : nic->n_irqs;

		for (size_t k = 0; k < m; k++) {
			const struct dbt_cpuset *c = queues ? rps_cpus(&nic->queues.q[k])
							    : fired_cpus(&nic->irqs[k]);
			struct dbt_cpuset on;
			char cl[64];

			if (!c || !intersects(c, set))
				continue;
			dbt_cpuset_and(&on, c, set);
			misbind_cpulist(&on, cl, sizeof(cl));
			if (queues)
				append(buf, len, "%s%s rx-%u (cpu %s)", n ? ", " : "", nic->dev,
				       nic->queues.q[k].index, cl);
			else
				append(buf, len, "%s%d %.24s (cpu %s)", n ? ", " : "", nic->irqs[k].irq,
				       nic->irqs[k].name[0] ? nic->irqs[k].name : nic->dev, cl);
			n++;
		}
	}
	return n;
}

int misbind_irqs_on(const struct dbt_nic_layout *nics, const struct dbt_cpuset *set,
		    char *buf, size_t len)
{
	return reach_text(nics, set, false, buf, len);
}

int misbind_rps_on(const struct dbt_nic_layout *nics, const struct dbt_cpuset *set,
		   char *buf, size_t len)
{
	return reach_text(nics, set, true, buf, len);
}

int misbind_format_mask(const struct dbt_cpuset *set, char *buf, size_t len)
{
	int top = -1, at = 0;

	for (int c = dbt_cpuset_next(set, -1); c >= 0; c = dbt_cpuset_next(set, c))
		top = c;
	/* 32-bit words, most significant first, the first without leading
	 * zeros: the format bitmap_print_to_pagebuf() writes */
	for (int w = top < 0 ? 0 : top / 32; w >= 0; w--) {
		uint32_t v = (uint32_t)(set->bits[w / 2] >> (32 * (w % 2)));
		int n = snprintf(buf + at, len > (size_t)at ? len - (size_t)at : 0,
				 at ? ",%08x" : "%x", v);

		if (n < 0 || (size_t)(at + n) >= len)
			return -ENOSPC;
		at += n;
	}
	return at;
}

int misbind_fix_commands(const struct misbind_host *host, const struct dbt_cpuset *from,
			 const struct dbt_cpuset *to, char *buf, size_t len)
{
	const struct dbt_nic_layout *nics = host->nics;
	char tl[128], mask[160], irqs[160] = "";
	int n_irq = 0, n = 0;

	if (dbt_cpuset_empty(to) || !nics)
		return 0;
	misbind_cpulist(to, tl, sizeof(tl));
	if (misbind_format_mask(to, mask, sizeof(mask)) < 0)
		return 0;
	for (size_t i = 0; i < nics->n; i++)
		for (size_t k = 0; k < nics->nics[i].n_irqs; k++) {
			const struct dbt_cpuset *c = fired_cpus(&nics->nics[i].irqs[k]);

			if (c && intersects(c, from)) {
				append(irqs, sizeof(irqs), "%s%d", n_irq ? " " : "",
				       nics->nics[i].irqs[k].irq);
				n_irq++;
			}
		}
	if (n_irq == 1) {
		append(buf, len, "echo %s > /proc/irq/%s/smp_affinity_list", tl, irqs);
		n++;
	} else if (n_irq > 1) {
		append(buf, len, "for i in %s; do echo %s > /proc/irq/$i/smp_affinity_list; done",
		       irqs, tl);
		n++;
	}
	for (size_t i = 0; i < nics->n; i++) {
		const struct dbt_nic *nic = &nics->nics[i];
		char qs[160] = "";
		int nq = 0;

		for (size_t k = 0; k < nic->queues.n; k++) {
			const struct dbt_cpuset *c = rps_cpus(&nic->queues.q[k]);

			if (c && intersects(c, from)) {
				append(qs, sizeof(qs), "%srx-%u", nq ? " " : "", nic->queues.q[k].index);
				nq++;
			}
		}
		if (!nq)
			continue;
		if (nq == 1)
			append(buf, len, "%secho %s > /sys/class/net/%s/queues/%s/rps_cpus",
			       n ? "; " : "", mask, nic->dev, qs);
		else
			append(buf, len, "%sfor q in %s; do echo %s > /sys/class/net/%s/queues/$q/rps_cpus; done",
			       n ? "; " : "", qs, mask, nic->dev);
		n++;
	}
	return n;
}

/* Every CPU some NIC IRQ that fired or some RPS mask sends work to. */
static void nic_cpus(const struct dbt_nic_layout *nics, struct dbt_cpuset *out)
{
	dbt_cpuset_zero(out);
	for (size_t i = 0; nics && i < nics->n; i++) {
		for (size_t k = 0; k < nics->nics[i].n_irqs; k++) {
			const struct dbt_cpuset *c = fired_cpus(&nics->nics[i].irqs[k]);

			if (c)
				dbt_cpuset_or(out, out, c);
		}
		for (size_t k = 0; k < nics->nics[i].queues.n; k++) {
			const struct dbt_cpuset *c = rps_cpus(&nics->nics[i].queues.q[k]);

			if (c)
				dbt_cpuset_or(out, out, c);
		}
	}
}

/* Whether a fired IRQ or an RPS mask of nic reaches set. */
static bool nic_reaches(const struct dbt_nic *nic, const struct dbt_cpuset *set)
{
	for (size_t k = 0; k < nic->n_irqs; k++) {
		const struct dbt_cpuset *c = fired_cpus(&nic->irqs[k]);

		if (c && intersects(c, set))
			return true;
	}
	for (size_t k = 0; k < nic->queues.n; k++) {
		const struct dbt_cpuset *c = rps_cpus(&nic->queues.q[k]);

		if (c && intersects(c, set))
			return true;
	}
	return false;
}

/* What the NICs reaching set carried: evidence, and whether they have
 * been idle all run (every one measured, their peaks summed under the
 * threshold). */
static bool traffic_evidence(const struct misbind_host *host, const struct dbt_cpuset *set,
			     struct finding *f, double *peak_out)
{
	const struct nic_traffic_table *tt = host->traffic;
	char text[200] = "";
	double pps = 0, peak = 0;
	bool all_known = true;
	int n = 0;

	*peak_out = NAN;
	if (!tt || !tt->measured) {
		finding_text(f, "traffic", "not measured (%s)",
			     tt ? "the net family is off" : "a static check reads no counters over time");
		return false;
	}
	for (size_t i = 0; i < host->nics->n; i++) {
		const struct dbt_nic *nic = &host->nics->nics[i];
		const struct nic_traffic *tr;

		if (!nic_reaches(nic, set))
			continue;
		tr = nic_traffic_find(tt, nic->dev);
		if (!tr) {
			all_known = false;
			append(text, sizeof(text), "%s%s not measured", n++ ? ", " : "", nic->dev);
			continue;
		}
		pps += tr->rx_pps + tr->tx_pps;
		peak += tr->peak_pps;
		append(text, sizeof(text), "%s%s %.0f pkt/s (rx %.0f, tx %.0f; peak %.0f)", n++ ? ", " : "",
		       nic->dev, tr->rx_pps + tr->tx_pps, tr->rx_pps, tr->tx_pps, tr->peak_pps);
	}
	finding_text(f, "traffic", "%s", text);
	finding_num(f, "overlap_pps", pps);
	finding_num(f, "overlap_peak_pps", peak);
	finding_text(f, "traffic_scope", "per device (/proc/net/dev): per-queue packet counts are not read");
	*peak_out = peak;
	return all_known && peak < IRQ_OVERLAP_IDLE_PPS;
}

int irq_affinity_overlap_check(const struct misbind_target *t, const struct misbind_host *host,
			       int interval_index, struct finding_list *out)
{
	double peak;
	bool idle;
	struct dbt_cpuset mine, outside, hit, free_cpus, used;
	char irqs[160], rps[160], pl[128], hl[128], ol[128], cmds[400] = "";
	struct finding f;
	int n_irq, n_rps;

	dbt_cpuset_and(&mine, &t->cpus, &host->online);
	set_minus(&outside, &host->online, &mine);
	/* unbound, or bound to CPUs we do not see: nothing to move it from */
	if (dbt_cpuset_empty(&mine) || dbt_cpuset_empty(&outside) || !host->nics)
		return 0;
	n_irq = misbind_irqs_on(host->nics, &mine, irqs, sizeof(irqs));
	n_rps = misbind_rps_on(host->nics, &mine, rps, sizeof(rps));
	if (!n_irq && !n_rps)
		return 0;
	nic_cpus(host->nics, &used);
	dbt_cpuset_and(&hit, &used, &mine);
	set_minus(&free_cpus, &host->online, &used);

	memset(&f, 0, sizeof(f));
	snprintf(f.id, sizeof(f.id), "irq_affinity_overlap");
	f.severity = SEV_WARNING;
	f.pid = t->pid;
	misbind_cpulist(&mine, pl, sizeof(pl));
	misbind_cpulist(&hit, hl, sizeof(hl));
	misbind_cpulist(&outside, ol, sizeof(ol));
	snprintf(f.title, sizeof(f.title),
		 "%.15s (pid %d) is bound to CPUs %.40s; %d NIC IRQ%s and %d RPS queue%s send network work to CPUs %.40s",
		 t->comm[0] ? t->comm : "process", t->pid, pl, n_irq, n_irq == 1 ? "" : "s",
		 n_rps, n_rps == 1 ? "" : "s", hl);
	finding_text(&f, "process_cpus", "%s", pl);
	finding_text(&f, "overlap_cpus", "%s", hl);
	finding_text(&f, "outside_cpus", "%s", ol);
	finding_num(&f, "n_irqs", n_irq);
	finding_text(&f, "irqs", "%s", n_irq ? irqs : "none");
	finding_num(&f, "n_rps_queues", n_rps);
	finding_text(&f, "rps_queues", "%s", n_rps ? rps : "none");
	if (host->irqbalance_running)
		finding_text(&f, "irqbalance", "running (pid %d)", host->irqbalance_pid);
	else
		finding_text(&f, "irqbalance", "not running");
	idle = traffic_evidence(host, &mine, &f, &peak);
	if (idle) {
		/* the layout is wrong, but it has cost nothing yet */
		f.severity = SEV_INFO;
		append(f.title, sizeof(f.title), "; idle so far (peak %.0f pkt/s)", peak);
	}
	misbind_fix_commands(host, &mine, &outside, cmds, sizeof(cmds));
	snprintf(f.hint, sizeof(f.hint), "%sKeep the NIC off CPUs %s (dry run; dbtrace changes nothing): %s",
		 idle ? "The NIC has carried no traffic yet: this matters once it does. " : "", pl, cmds);
	if (host->irqbalance_running)
		append(f.hint, sizeof(f.hint), "; irqbalance (pid %d) rewrites IRQ affinity: ban CPUs %s "
		       "with IRQBALANCE_BANNED_CPULIST=%s", host->irqbalance_pid, pl, pl);
	if (!dbt_cpuset_empty(&free_cpus)) {
		char fl[128];

		misbind_cpulist(&free_cpus, fl, sizeof(fl));
		append(f.hint, sizeof(f.hint), "; or move the process to CPUs the NIC leaves alone: "
		       "taskset -apc %s %d", fl, t->pid);
	}
	f.first_interval = f.last_interval = interval_index;
	return findings_merge(out, &f);
}
