#include "findings/static_checks.h"

#include <stdio.h>
#include <string.h>
#include "findings/gettimeofday_hotspot.h"

#define TC_ROOT 0xffffffffu

static struct finding *start(struct finding *f, const char *id, enum finding_severity sev)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->id, sizeof(f->id), "%s", id);
	f->severity = sev;
	f->first_interval = f->last_interval = -1;
	return f;
}

/* Targets whose CPUs meet set: "observer (pid 4242) on 0-1", cut to len. */
static int targets_on(const struct static_input *in, const struct dbt_cpuset *set,
		      unsigned int min_cpus, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i < in->n_targets; i++) {
		struct dbt_cpuset both;
		char cl[64];
		size_t at = strlen(buf);

		dbt_cpuset_and(&both, &in->targets[i].cpus, set);
		if (dbt_cpuset_count(&both) < min_cpus || !dbt_cpuset_count(&both))
			continue;
		misbind_cpulist(&both, cl, sizeof(cl));
		snprintf(buf + at, len - at, "%s%.15s (pid %d) on %s", n ? ", " : "",
			 in->targets[i].comm, in->targets[i].pid, cl);
		n++;
	}
	return n;
}

static int clocksource_rule(const struct static_input *in, struct finding_list *out)
{
	const struct clock_env *env = &in->clock;
	struct clock_env only_cs = *env;
	enum dbt_vdso v;
	const char *why;
	char avail[160] = "", hint[400];
	struct finding f;

	if (!env->have_cs || !env->cs.current[0])
		return 0;
	v = dbt_clocksource_vdso(env->cs.current, &why);
	if (v != DBT_VDSO_NO && v != DBT_VDSO_UNRELIABLE)
		return 0;
	start(&f, "clocksource_no_vdso", v == DBT_VDSO_NO ? SEV_WARNING : SEV_INFO);
	snprintf(f.title, sizeof(f.title), v == DBT_VDSO_NO
		 ? "clocksource %s: every clock_gettime/gettimeofday is a system call"
		 : "clocksource %s: clock reads are system calls unless the hypervisor marks the TSC stable",
		 env->cs.current);
	for (unsigned int i = 0; i < env->cs.n_available; i++) {
		size_t at = strlen(avail);

		snprintf(avail + at, sizeof(avail) - at, "%s%s", i ? " " : "", env->cs.available[i]);
	}
	finding_text(&f, "clocksource", "%s", env->cs.current);
	finding_text(&f, "available", "%s", env->cs.has_available ? avail : "unknown");
	finding_text(&f, "vdso", "%s", dbt_vdso_str(v));
	finding_text(&f, "why", "%s", why);
	if (env->have_log && env->log.n_unstable)
		finding_num(&f, "tsc_unstable_messages", env->log.n_unstable);
	/* the clock hint of gettimeofday_hotspot, without its command-line part */
	only_cs.have_cmdline = false;
	gtod_hint(&only_cs, GTOD_SYSCALLS, hint, sizeof(hint));
	snprintf(f.hint, sizeof(f.hint), "A database reads the clock per query and per row "
		 "(timeouts, statistics); %s", hint[0] ? hint : "prefer tsc when it is stable");
	return findings_merge(out, &f);
}

static int cmdline_rules(const struct static_input *in, struct finding_list *out)
{
	const struct dbt_cmdline *c = &in->clock.cmdline;
	struct finding f;
	char who[160];
	int err = 0;

	if (!in->clock.have_cmdline)
		return 0;
	if (c->skew_tick_present && c->skew_tick) {
		start(&f, "skew_tick", SEV_WARNING);
		if (in->clock.tuned.profile[0])
			snprintf(f.title, sizeof(f.title), "skew_tick=%ld on the kernel command line "
				 "(tuned profile %.100s)", c->skew_tick, in->clock.tuned.profile);
		else
			snprintf(f.title, sizeof(f.title), "skew_tick=%ld on the kernel command line",
				 c->skew_tick);
		finding_num(&f, "skew_tick", (double)c->skew_tick);
		finding_text(&f, "tuned_profile", "%s", in->clock.tuned.file_present
			     ? in->clock.tuned.profile : "none");
		finding_text(&f, "clocksource", "%s", in->clock.have_cs ? in->clock.cs.current : "unknown");
		snprintf(f.hint, sizeof(f.hint), "Field case: 44%% of CPU in __kernel_gettimeofday under "
			 "sysbench with skew_tick=1 from tuned network-latency; the clock cost fell back "
			 "under 5%% without it. Remove it (dry run): grubby --update-kernel=ALL "
			 "--remove-args=skew_tick, or with tuned a profile that does not set it "
			 "(tuned-adm profile throughput-performance), then reboot");
		err = findings_merge(out, &f);
	}
	if (!err && c->nohz_full.present) {
		start(&f, "nohz_full", SEV_INFO);
		snprintf(f.title, sizeof(f.title), "nohz_full=%s: the tick stops on those CPUs, and "
			 "every kernel entry there pays for context tracking", c->nohz_full.raw);
		finding_text(&f, "nohz_full", "%s", c->nohz_full.raw);
		if (!c->nohz_full.parse_err && targets_on(in, &c->nohz_full.cpus, 1, who, sizeof(who)))
			finding_text(&f, "processes", "%s", who);
		snprintf(f.hint, sizeof(f.hint), "Meant for one busy-polling thread per CPU; a "
			 "database that makes many system calls (network I/O, futexes) runs slower "
			 "there than on a CPU with the tick");
		err = findings_merge(out, &f);
	}
	if (!err && c->isolcpus.present) {
		bool domain = c->isolcpus_flags & DBT_ISOL_DOMAIN;
		int n = !c->isolcpus.parse_err && domain
			? targets_on(in, &c->isolcpus.cpus, 2, who, sizeof(who)) : 0;

		start(&f, "isolcpus", n ? SEV_WARNING : SEV_INFO);
		if (n)
			snprintf(f.title, sizeof(f.title), "isolcpus=%.40s: the scheduler does not balance "
				 "threads across them, yet %.60s may use several", c->isolcpus.raw, who);
		else
			snprintf(f.title, sizeof(f.title), "isolcpus=%s: no load balancing on those CPUs",
				 c->isolcpus.raw);
		finding_text(&f, "isolcpus", "%s", c->isolcpus.raw);
		finding_text(&f, "domain_isolation", "%s", domain ? "yes" : "no (managed_irq/nohz only)");
		if (n)
			finding_text(&f, "processes", "%s", who);
		snprintf(f.hint, sizeof(f.hint), "Threads of a process allowed on several isolated "
			 "CPUs stay where they were woken: pin each thread to one isolated CPU "
			 "(taskset -pc CPU TID) or take the CPUs out of isolcpus=");
		err = findings_merge(out, &f);
	}
	if (!err && c->idle.present && !strcmp(c->idle.value, "poll")) {
		start(&f, "idle_poll", SEV_INFO);
		snprintf(f.title, sizeof(f.title), "idle=poll: idle CPUs spin instead of sleeping");
		finding_text(&f, "idle", "%s", c->idle.value);
		snprintf(f.hint, sizeof(f.hint), "Lower wake-up latency, but a spinning CPU takes "
			 "execution units from its SMT sibling and turbo headroom from the package; "
			 "compare a run without it");
		err = findings_merge(out, &f);
	}
	if (!err && c->mitigations.present && !strncmp(c->mitigations.value, "off", 3)) {
		start(&f, "mitigations_off", SEV_INFO);
		snprintf(f.title, sizeof(f.title), "mitigations=%s: CPU vulnerability mitigations are off",
			 c->mitigations.value);
		finding_text(&f, "mitigations", "%s", c->mitigations.value);
		snprintf(f.hint, sizeof(f.hint), "System calls are cheaper than on a default host: "
			 "results are not comparable with hosts that run the mitigations");
		err = findings_merge(out, &f);
	}
	return err;
}

/* Drivers whose "powersave" still scales up under load (the CPU picks the
 * frequency); elsewhere powersave pins the lowest one. */
static bool governor_is_hwp(const char *driver)
{
	return !strcmp(driver, "intel_pstate") || !strcmp(driver, "amd-pstate-epp");
}

static int cpufreq_rule(const struct static_input *in, struct finding_list *out)
{
	const struct dbt_cpufreq *cf = &in->cpufreq;
	char cl[128], groups[160] = "";
	struct finding f;
	bool pinned_low = false, any = false;

	if (!in->have_cpufreq || !cf->n_with_governor)
		return 0;
	for (size_t i = 0; i < cf->n_groups; i++) {
		const struct dbt_cpufreq_group *g = &cf->groups[i];
		size_t at = strlen(groups);

		misbind_cpulist(&g->cpus, cl, sizeof(cl));
		snprintf(groups + at, sizeof(groups) - at, "%s%s/%s on %s", at ? ", " : "",
			 g->governor, g->driver[0] ? g->driver : "?", cl);
		if (!strcmp(g->governor, "performance"))
			continue;
		any = true;
		if ((!strcmp(g->governor, "powersave") && !governor_is_hwp(g->driver)) ||
		    !strcmp(g->governor, "userspace"))
			pinned_low = true;
	}
	if (!any)
		return 0;
	start(&f, "cpufreq_governor", pinned_low ? SEV_WARNING : SEV_INFO);
	snprintf(f.title, sizeof(f.title), pinned_low
		 ? "CPU frequency governor holds some CPUs at a fixed (usually the lowest) frequency"
		 : "CPU frequency governor is not performance: the clock ramps up only after load arrives");
	finding_text(&f, "governors", "%s", groups);
	finding_num(&f, "cpus_with_governor", cf->n_with_governor);
	snprintf(f.hint, sizeof(f.hint), "For benchmarks: cpupower frequency-set -g performance "
		 "(or tuned-adm profile throughput-performance); dry run, dbtrace changes nothing");
	return findings_merge(out, &f);
}

static int thp_rules(const struct static_input *in, struct finding_list *out)
{
	struct finding f;
	int err = 0;

	if (!in->have_thp)
		return 0;
	if (in->thp.has_enabled && !strcmp(in->thp.enabled, "always")) {
		start(&f, "thp_enabled", SEV_INFO);
		snprintf(f.title, sizeof(f.title), "transparent huge pages: enabled=always");
		finding_text(&f, "enabled", "%s", in->thp.enabled);
		finding_text(&f, "defrag", "%s", in->thp.has_defrag ? in->thp.defrag : "unknown");
		snprintf(f.hint, sizeof(f.hint), "khugepaged collapses the buffer pool's pages in the "
			 "background and memory use grows; most database vendors advise madvise or never: "
			 "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (dry run)");
		err = findings_merge(out, &f);
	}
	if (!err && in->thp.has_defrag && !strcmp(in->thp.defrag, "always")) {
		start(&f, "thp_defrag", SEV_WARNING);
		snprintf(f.title, sizeof(f.title), "transparent huge pages: defrag=always stalls page "
			 "faults in direct compaction");
		finding_text(&f, "defrag", "%s", in->thp.defrag);
		finding_text(&f, "enabled", "%s", in->thp.has_enabled ? in->thp.enabled : "unknown");
		snprintf(f.hint, sizeof(f.hint), "A fault that finds no free huge page compacts memory "
			 "before it returns: millisecond latency spikes under memory pressure. "
			 "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag (dry run)");
		err = findings_merge(out, &f);
	}
	return err;
}

static const char *qdisc_dev(const struct static_input *in, const struct qdisc_info *q,
			     char *buf, size_t len)
{
	if (q->dev[0])
		return q->dev;
	for (size_t i = 0; in->nics && i < in->nics->n; i++)
		if (in->nics->nics[i].ifindex > 0 && (uint32_t)in->nics->nics[i].ifindex == q->ifindex)
			return in->nics->nics[i].dev;
	snprintf(buf, len, "ifindex %u", q->ifindex);
	return buf;
}

static long link_of(const struct static_input *in, const char *dev)
{
	for (size_t i = 0; in->nics && in->link_mbps && i < in->nics->n; i++)
		if (!strcmp(in->nics->nics[i].dev, dev))
			return in->link_mbps[i];
	return -1;
}

static int qdisc_rules(const struct static_input *in, struct finding_list *out)
{
	for (int i = 0; in->qdiscs && i < in->qdiscs->n; i++) {
		const struct qdisc_info *q = &in->qdiscs->q[i];
		char name[32], text[160], rate[32];
		const char *dev;
		struct finding f;
		long mbps;
		int err;

		if (q->parent != TC_ROOT)
			continue;
		dev = qdisc_dev(in, q, name, sizeof(name));
		qdisc_format(q, text, sizeof(text));
		mbps = link_of(in, dev);
		if (!strcmp(q->kind, "netem")) {
			start(&f, "qdisc_netem", SEV_WARNING);
			snprintf(f.title, sizeof(f.title), "%.15s has a netem root qdisc: %.150s", dev, text);
			finding_text(&f, "device", "%s", dev);
			finding_text(&f, "qdisc", "%s", text);
			finding_num(&f, "delay_ms", (double)q->delay_ns / 1e6);
			finding_num(&f, "jitter_ms", (double)q->jitter_ns / 1e6);
			finding_num(&f, "loss_pct", q->loss_pct);
			if (q->rate_bps)
				finding_num(&f, "rate_mbit", (double)q->rate_bps / 1e6);
			snprintf(f.hint, sizeof(f.hint), "netem emulates a slow network: every packet leaving "
				 "%s waits %.3g ms (field case: a 1 ms delay left on bond0 doubled client "
				 "response time while the server's stayed flat). If it is a leftover: "
				 "tc qdisc del dev %s root (dry run)", dev, (double)q->delay_ns / 1e6, dev);
		} else if (qdisc_is_shaper(q)) {
			start(&f, "qdisc_shaper", SEV_WARNING);
			snprintf(f.title, sizeof(f.title), "%.15s is rate-limited by its root qdisc: %.120s",
				 dev, text);
			finding_text(&f, "device", "%s", dev);
			finding_text(&f, "qdisc", "%s", text);
			if (q->rate_bps)
				finding_num(&f, "rate_mbit", (double)q->rate_bps / 1e6);
			if (q->ceil_bps)
				finding_num(&f, "ceil_mbit", (double)q->ceil_bps / 1e6);
			if (mbps > 0)
				finding_num(&f, "link_mbit", (double)mbps);
			qdisc_format_rate(q->rate_bps, rate, sizeof(rate));
			snprintf(f.hint, sizeof(f.hint), "Throughput on %s stops at %s whatever the database "
				 "does: flat Mbit/s and pps in the benchmark. If it is not intended: "
				 "tc qdisc del dev %s root (dry run)", dev, q->rate_bps ? rate : "the shaper's rate", dev);
		} else {
			continue;
		}
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	return 0;
}

static int link_rules(const struct static_input *in, struct finding_list *out)
{
	for (size_t i = 0; in->nics && in->link_mbps && i < in->nics->n; i++) {
		const struct dbt_nic *n = &in->nics->nics[i];
		long mbps = in->link_mbps[i];
		struct finding f;
		int err;

		/* ports of a bond are judged through the bond's own speed */
		if (mbps <= 0 || mbps > 1000 || n->master[0])
			continue;
		start(&f, "link_speed", SEV_INFO);
		snprintf(f.title, sizeof(f.title), "%s links at %ld Mbit/s: about %.0f MB/s of payload "
			 "at most", n->dev, mbps, (double)mbps / 8.0 * 0.94);
		finding_text(&f, "device", "%s", n->dev);
		finding_num(&f, "speed_mbit", (double)mbps);
		snprintf(f.hint, sizeof(f.hint), "Field case: a GbE port saturated at 117 MB/s capped "
			 "the benchmark; compare the interface's Mbit/s under load with this (dbtrace "
			 "capture), and check ethtool %s for a renegotiated speed", n->dev);
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	return 0;
}

static int layout_rules(const struct static_input *in, struct finding_list *out)
{
	struct misbind_host host = {
		.nics = in->nics,
		.irqbalance_running = in->have_irqbalance && in->irqbalance.running,
		.irqbalance_pid = in->irqbalance.pid,
	};

	if (!in->have_online || !in->nics)
		return 0;
	host.online = in->online;
	for (int i = 0; i < in->n_targets; i++) {
		int err = irq_affinity_overlap_check(&in->targets[i], &host, -1, out);

		if (err)
			return err;
	}
	return 0;
}

int static_checks_run(const struct static_input *in, struct finding_list *out)
{
	int (*const rules[])(const struct static_input *, struct finding_list *) = {
		clocksource_rule, cmdline_rules, cpufreq_rule, thp_rules,
		qdisc_rules, link_rules, layout_rules,
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		int err = rules[i](in, out);

		if (err)
			return err;
	}
	return 0;
}

int static_checks_worst(const struct finding_list *l)
{
	int worst = -1;

	for (int i = 0; i < l->n; i++)
		if ((int)l->items[i].severity > worst)
			worst = (int)l->items[i].severity;
	return worst;
}
