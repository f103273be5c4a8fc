#include "render/check_report.h"
#include "capture/capture_write.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static void list(const struct dbt_cpuset *set, char *buf, size_t len)
{
	if (dbt_cpuset_format_list(set, buf, len) < 0 && len > 4)
		snprintf(buf + len - 4, 4, "...");
	else if (!buf[0])
		snprintf(buf, len, "-");
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "none";
}

/* Findings in print order: worst severity first, then as the rules
 * produced them (the rules' order is the audit's order). */
static void order(const struct finding_list *l, int *idx)
{
	int n = 0;

	for (int sev = SEV_CRITICAL; sev >= SEV_INFO; sev--)
		for (int i = 0; i < l->n; i++)
			if ((int)l->items[i].severity == sev)
				idx[n++] = i;
}

static const struct qdisc_info *root_qdisc(const struct static_input *in, const struct dbt_nic *n)
{
	if (!in->qdiscs || n->ifindex <= 0)
		return NULL;
	return qdisc_table_root(in->qdiscs, (uint32_t)n->ifindex);
}

static void text_nic(FILE *fp, const struct static_input *in, size_t i)
{
	const struct dbt_nic *n = &in->nics->nics[i];
	const struct qdisc_info *q = root_qdisc(in, n);
	long mbps = in->link_mbps ? in->link_mbps[i] : -1;
	char qd[160] = "unknown", cl[128], el[128];

	if (q)
		qdisc_format(q, qd, sizeof(qd));
	else if (in->qdiscs)
		snprintf(qd, sizeof(qd), "none");
	fprintf(fp, "  %-14s", n->dev);
	if (mbps > 0)
		fprintf(fp, " %ld Mbit/s,", mbps);
	else
		fprintf(fp, " speed unknown,");
	fprintf(fp, " qdisc %s", qd);
	if (n->master[0])
		fprintf(fp, ", port of %s", n->master);
	fprintf(fp, "\n");
	for (size_t k = 0; k < n->n_irqs; k++) {
		const struct dbt_nic_irq *irq = &n->irqs[k];

		if (irq->has_affinity) {
			list(&irq->aff.configured, cl, sizeof(cl));
			if (irq->aff.has_effective)
				list(&irq->aff.effective, el, sizeof(el));
			else
				snprintf(el, sizeof(el), "?");
		} else {
			snprintf(cl, sizeof(cl), "?");
			snprintf(el, sizeof(el), "?");
		}
		fprintf(fp, "    IRQ %-5d %-24.24s affinity %-10s effective %-6s count %llu\n",
			irq->irq, irq->name[0] ? irq->name : "-", cl, el,
			(unsigned long long)irq->count);
	}
	for (size_t k = 0; k < n->queues.n; k++) {
		const struct dbt_net_queue *qu = &n->queues.q[k];

		if (qu->has_mask)
			list(&qu->cpus, cl, sizeof(cl));
		else
			snprintf(cl, sizeof(cl), "n/a");
		fprintf(fp, "    %s-%-3u %s %s\n", qu->kind == DBT_QUEUE_RX ? "rx" : "tx", qu->index,
			qu->kind == DBT_QUEUE_RX ? "rps_cpus" : "xps_cpus",
			qu->has_mask && dbt_cpuset_empty(&qu->cpus) ? "off" : cl);
	}
}

static void text_facts(FILE *fp, const struct check_report *r)
{
	const struct static_input *in = r->in;
	const struct clock_env *ce = &in->clock;
	const struct dbt_cmdline *c = &ce->cmdline;
	char cl[128];

	fprintf(fp, "dbtrace check: static audit of %s\n", r->root);
	if (ce->have_cs) {
		fprintf(fp, "  clocksource    %s (vDSO %s; available:", ce->cs.current,
			dbt_vdso_str(dbt_clocksource_vdso(ce->cs.current, NULL)));
		for (unsigned int i = 0; i < ce->cs.n_available; i++)
			fprintf(fp, " %s", ce->cs.available[i]);
		fprintf(fp, "%s)\n", ce->cs.has_available ? "" : " unknown");
	} else {
		fprintf(fp, "  clocksource    unknown\n");
	}
	if (ce->have_cmdline) {
		fprintf(fp, "  kernel cmdline skew_tick=%ld nohz_full=%s isolcpus=%s idle=%s mitigations=%s\n",
			c->skew_tick_present ? c->skew_tick : 0L,
			c->nohz_full.present ? c->nohz_full.raw : "-",
			c->isolcpus.present ? c->isolcpus.raw : "-",
			c->idle.present ? c->idle.value : "-",
			c->mitigations.present ? c->mitigations.value : "default");
	} else {
		fprintf(fp, "  kernel cmdline unknown\n");
	}
	fprintf(fp, "  tuned          %s\n", ce->tuned.file_present ? or_none(ce->tuned.profile) : "not installed");
	if (!in->have_cpufreq || !in->cpufreq.n_with_governor) {
		fprintf(fp, "  cpufreq        none (no frequency scaling exposed: VM or driver off)\n");
	} else {
		fprintf(fp, "  cpufreq       ");
		for (size_t i = 0; i < in->cpufreq.n_groups; i++) {
			list(&in->cpufreq.groups[i].cpus, cl, sizeof(cl));
			fprintf(fp, " %s/%s on %s", in->cpufreq.groups[i].governor,
				or_none(in->cpufreq.groups[i].driver), cl);
		}
		fprintf(fp, "\n");
	}
	if (in->have_thp && (in->thp.has_enabled || in->thp.has_defrag))
		fprintf(fp, "  THP            enabled=%s defrag=%s\n",
			in->thp.has_enabled ? in->thp.enabled : "?", in->thp.has_defrag ? in->thp.defrag : "?");
	else
		fprintf(fp, "  THP            not available\n");
	if (!in->have_irqbalance)
		fprintf(fp, "  irqbalance     unknown\n");
	else if (in->irqbalance.running)
		fprintf(fp, "  irqbalance     running (pid %d)\n", in->irqbalance.pid);
	else
		fprintf(fp, "  irqbalance     not running\n");
	if (in->have_online) {
		list(&in->online, cl, sizeof(cl));
		fprintf(fp, "  online CPUs    %s\n", cl);
	}
	if (!in->n_targets)
		fprintf(fp, "  processes      none busy (pass -p PID to audit a process's CPUs)\n");
	for (int i = 0; i < in->n_targets; i++) {
		list(&in->targets[i].cpus, cl, sizeof(cl));
		fprintf(fp, "  process        %s (pid %d) may run on CPUs %s", in->targets[i].comm,
			in->targets[i].pid, cl);
		if (in->targets[i].n_threads > 1)
			fprintf(fp, " (%u threads, %u bound differently from the main one)",
				in->targets[i].n_threads, in->targets[i].n_differ);
		fprintf(fp, "\n");
	}
	if (!in->nics) {
		fprintf(fp, "  network        unknown\n");
		return;
	}
	fprintf(fp, "  network        %zu device%s\n", in->nics->n, in->nics->n == 1 ? "" : "s");
	for (size_t i = 0; i < in->nics->n; i++)
		text_nic(fp, in, i);
}

int check_report_text(FILE *fp, const struct check_report *r)
{
	const struct finding_list *l = r->findings;
	int idx[l->n > 0 ? l->n : 1], worst = static_checks_worst(l);

	text_facts(fp, r);
	fprintf(fp, "\n");
	order(l, idx);
	for (int k = 0; k < l->n; k++) {
		const struct finding *f = &l->items[idx[k]];
		char sev[16];

		snprintf(sev, sizeof(sev), "%s", finding_severity_name(f->severity));
		for (char *p = sev; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
		fprintf(fp, "%-8s %s: %s\n", sev, f->id, f->title);
		for (int e = 0; e < f->n_ev; e++) {
			if (f->ev[e].is_text)
				fprintf(fp, "         %s: %s\n", f->ev[e].key, f->ev[e].text);
			else
				fprintf(fp, "         %s: %.4g\n", f->ev[e].key, f->ev[e].num);
		}
		fprintf(fp, "         hint: %s\n\n", f->hint);
	}
	if (worst < 0)
		fprintf(fp, "no findings\n");
	else
		fprintf(fp, "%d finding%s, worst: %s\n", l->n, l->n == 1 ? "" : "s",
			finding_severity_name((enum finding_severity)worst));
	if (r->elapsed_ms >= 0)
		fprintf(fp, "(audit took %.0f ms)\n", r->elapsed_ms);
	return ferror(fp) ? -EIO : 0;
}

/* ---- JSON ---------------------------------------------------------- */

static json_object *num(double v)
{
	/* NAN (nothing measured) is null, not a bogus number */
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

static json_object *cpus(const struct dbt_cpuset *set)
{
	char buf[1024];

	if (dbt_cpuset_format_list(set, buf, sizeof(buf)) < 0)
		return NULL;
	return str(buf);
}

static json_object *findings_json(const struct finding_list *l)
{
	json_object *a = json_object_new_array();
	int idx[l->n > 0 ? l->n : 1];

	order(l, idx);
	for (int k = 0; k < l->n; k++) {
		json_object_array_add(a, capture_json_finding(&l->items[idx[k]]));
	}
	return a;
}

static json_object *nic_json(const struct static_input *in, size_t i)
{
	const struct dbt_nic *n = &in->nics->nics[i];
	const struct qdisc_info *q = root_qdisc(in, n);
	json_object *o = json_object_new_object(), *irqs = json_object_new_array(),
		*queues = json_object_new_array();
	long mbps = in->link_mbps ? in->link_mbps[i] : -1;
	char qd[160];

	json_object_object_add(o, "device", str(n->dev));
	if (n->master[0])
		json_object_object_add(o, "master", str(n->master));
	json_object_object_add(o, "speed_mbit", mbps > 0 ? json_object_new_int64(mbps) : NULL);
	if (q) {
		qdisc_format(q, qd, sizeof(qd));
		json_object_object_add(o, "qdisc", str(qd));
	} else {
		json_object_object_add(o, "qdisc", NULL);
	}
	json_object_object_add(o, "irqs_from", str(n->irqs_from_msi ? "msi_irqs" : "names"));
	for (size_t k = 0; k < n->n_irqs; k++) {
		const struct dbt_nic_irq *irq = &n->irqs[k];
		json_object *io = json_object_new_object();

		json_object_object_add(io, "irq", json_object_new_int(irq->irq));
		json_object_object_add(io, "name", str(irq->name));
		json_object_object_add(io, "count", json_object_new_int64(
			irq->count > INT64_MAX ? INT64_MAX : (int64_t)irq->count));
		json_object_object_add(io, "affinity", irq->has_affinity ? cpus(&irq->aff.configured) : NULL);
		json_object_object_add(io, "effective", irq->has_affinity && irq->aff.has_effective
				       ? cpus(&irq->aff.effective) : NULL);
		json_object_array_add(irqs, io);
	}
	json_object_object_add(o, "irqs", irqs);
	for (size_t k = 0; k < n->queues.n; k++) {
		const struct dbt_net_queue *qu = &n->queues.q[k];
		json_object *qo = json_object_new_object();
		char name[24];

		snprintf(name, sizeof(name), "%s-%u", qu->kind == DBT_QUEUE_RX ? "rx" : "tx", qu->index);
		json_object_object_add(qo, "queue", str(name));
		json_object_object_add(qo, qu->kind == DBT_QUEUE_RX ? "rps_cpus" : "xps_cpus",
				       qu->has_mask ? cpus(&qu->cpus) : NULL);
		json_object_array_add(queues, qo);
	}
	json_object_object_add(o, "queues", queues);
	return o;
}

static json_object *host_json(const struct static_input *in)
{
	const struct clock_env *ce = &in->clock;
	const struct dbt_cmdline *c = &ce->cmdline;
	json_object *h = json_object_new_object(), *o, *a;

	if (ce->have_cs) {
		o = json_object_new_object();
		a = json_object_new_array();
		json_object_object_add(o, "current", str(ce->cs.current));
		for (unsigned int i = 0; i < ce->cs.n_available; i++)
			json_object_array_add(a, str(ce->cs.available[i]));
		json_object_object_add(o, "available", ce->cs.has_available ? a : NULL);
		if (!ce->cs.has_available)
			json_object_put(a);
		json_object_object_add(o, "vdso", str(dbt_vdso_str(dbt_clocksource_vdso(ce->cs.current, NULL))));
		json_object_object_add(h, "clocksource", o);
	} else {
		json_object_object_add(h, "clocksource", NULL);
	}
	if (ce->have_cmdline) {
		o = json_object_new_object();
		json_object_object_add(o, "skew_tick", json_object_new_int64(c->skew_tick_present ? c->skew_tick : 0));
		json_object_object_add(o, "nohz_full", c->nohz_full.present ? str(c->nohz_full.raw) : NULL);
		json_object_object_add(o, "isolcpus", c->isolcpus.present ? str(c->isolcpus.raw) : NULL);
		json_object_object_add(o, "idle", c->idle.present ? str(c->idle.value) : NULL);
		json_object_object_add(o, "mitigations", c->mitigations.present ? str(c->mitigations.value) : NULL);
		json_object_object_add(h, "cmdline", o);
	} else {
		json_object_object_add(h, "cmdline", NULL);
	}
	json_object_object_add(h, "tuned_profile", ce->tuned.file_present ? str(ce->tuned.profile) : NULL);
	a = json_object_new_array();
	for (size_t i = 0; in->have_cpufreq && i < in->cpufreq.n_groups; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "governor", str(in->cpufreq.groups[i].governor));
		json_object_object_add(o, "driver", str(in->cpufreq.groups[i].driver));
		json_object_object_add(o, "cpus", cpus(&in->cpufreq.groups[i].cpus));
		json_object_array_add(a, o);
	}
	json_object_object_add(h, "cpufreq", a);
	o = json_object_new_object();
	json_object_object_add(o, "enabled", in->have_thp && in->thp.has_enabled ? str(in->thp.enabled) : NULL);
	json_object_object_add(o, "defrag", in->have_thp && in->thp.has_defrag ? str(in->thp.defrag) : NULL);
	json_object_object_add(h, "thp", o);
	if (in->have_irqbalance) {
		o = json_object_new_object();
		json_object_object_add(o, "running", json_object_new_boolean(in->irqbalance.running));
		if (in->irqbalance.running)
			json_object_object_add(o, "pid", json_object_new_int(in->irqbalance.pid));
		json_object_object_add(o, "banned_cpus", cpus(&in->irqbalance.banned));
		json_object_object_add(h, "irqbalance", o);
	} else {
		json_object_object_add(h, "irqbalance", NULL);
	}
	json_object_object_add(h, "online_cpus", in->have_online ? cpus(&in->online) : NULL);
	a = json_object_new_array();
	for (int i = 0; i < in->n_targets; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "pid", json_object_new_int(in->targets[i].pid));
		json_object_object_add(o, "comm", str(in->targets[i].comm));
		json_object_object_add(o, "cpus", cpus(&in->targets[i].cpus));
		json_object_object_add(o, "threads", json_object_new_int((int)in->targets[i].n_threads));
		json_object_object_add(o, "threads_bound_differently",
				       json_object_new_int((int)in->targets[i].n_differ));
		json_object_array_add(a, o);
	}
	json_object_object_add(h, "processes", a);
	a = json_object_new_array();
	for (size_t i = 0; in->nics && i < in->nics->n; i++)
		json_object_array_add(a, nic_json(in, i));
	json_object_object_add(h, "network", in->nics ? a : NULL);
	if (!in->nics)
		json_object_put(a);
	return h;
}

int check_report_json(FILE *fp, const struct check_report *r)
{
	json_object *doc = json_object_new_object(), *sum = json_object_new_object();
	const struct finding_list *l = r->findings;
	int worst = static_checks_worst(l), counts[3] = { 0 };
	const char *text;

	if (!doc || !sum) {
		json_object_put(doc);
		json_object_put(sum);
		return -ENOMEM;
	}
	for (int i = 0; i < l->n; i++)
		counts[l->items[i].severity]++;
	json_object_object_add(doc, "schema", str("dbtrace.check/1"));
	json_object_object_add(doc, "root", str(r->root));
	json_object_object_add(doc, "host", host_json(r->in));
	json_object_object_add(doc, "findings", findings_json(l));
	json_object_object_add(sum, "critical", json_object_new_int(counts[SEV_CRITICAL]));
	json_object_object_add(sum, "warning", json_object_new_int(counts[SEV_WARNING]));
	json_object_object_add(sum, "info", json_object_new_int(counts[SEV_INFO]));
	json_object_object_add(sum, "worst", worst < 0 ? NULL
			       : str(finding_severity_name((enum finding_severity)worst)));
	if (r->elapsed_ms >= 0)
		json_object_object_add(sum, "elapsed_ms", num(r->elapsed_ms));
	json_object_object_add(doc, "summary", sum);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		json_object_put(doc);
		return -ENOMEM;
	}
	fprintf(fp, "%s\n", text);
	json_object_put(doc);
	return ferror(fp) ? -EIO : 0;
}
