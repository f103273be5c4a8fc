/* The metric families and how each one's samples are read from the
 * running totals (metrics/prom_totals.h). Every kind with per-key series
 * ends with its "other" series, when anything was summed there. */
#include "render/prom_families.h"
#include "model/class_time.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/softirq_vec.h"
#include "render/prom_text.h"

#include <inttypes.h>

/* --- CPUs ---------------------------------------------------------------- */

static void cpu_softirq(const struct prom_family *fam, const struct prom_out *o)
{
	int ncpus = prom_totals_ncpus(o->t);
	struct lset l;

	for (int c = 0; c < ncpus; c++) {
		const struct prom_cpu_total *cpu = prom_totals_cpu(o->t, c);

		if (!cpu)
			continue;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
			lset_clear(&l);
			lset_addf(&l, "cpu", "%ld", c);
			lset_add(&l, "vector", softirq_vec_key(v));
			prom_sample(o->f, fam->name, &l, cpu->softirq_s[v]);
		}
	}
}

static void cpu_hardirq(const struct prom_family *fam, const struct prom_out *o)
{
	int ncpus = prom_totals_ncpus(o->t);
	struct lset l;

	for (int c = 0; c < ncpus; c++) {
		const struct prom_cpu_total *cpu = prom_totals_cpu(o->t, c);

		if (!cpu)
			continue;
		lset_clear(&l);
		lset_addf(&l, "cpu", "%ld", c);
		prom_sample(o->f, fam->name, &l, cpu->hardirq_s);
	}
}

/* --- classes ------------------------------------------------------------- */

static void class_labels(struct lset *l, const struct prom_class_total *c, bool other)
{
	lset_clear(l);
	if (other) {
		lset_add(l, "pid", "");
		lset_add(l, "comm", "");
		lset_add(l, "class", "other");
	} else {
		lset_addf(l, "pid", "%ld", c->pid);
		lset_add(l, "comm", c->comm);
		lset_add(l, "class", c->name);
	}
}

enum { CLASS_CPU = 1, CLASS_SWITCHES, CLASS_THREADS, CLASS_STATES, CLASS_MODES };

/* A class family: one series per class and variant (the kinds of switch,
 * the states, the modes), with the variant as a label. */
static void class_samples(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(o->t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		switch (fam->which) {
		case CLASS_CPU:
			prom_sample(o->f, fam->name, &l, c->oncpu_s);
			break;
		case CLASS_THREADS:
			prom_sample(o->f, fam->name, &l, c->threads);
			break;
		case CLASS_SWITCHES:
			lset_add(&l, "kind", "voluntary");
			prom_sample_u64(o->f, fam->name, &l, c->vol);
			class_labels(&l, c, i == n);
			lset_add(&l, "kind", "involuntary");
			prom_sample_u64(o->f, fam->name, &l, c->invol);
			break;
		case CLASS_STATES:
			for (int s = 0; s < CT_STATES; s++) {
				class_labels(&l, c, i == n);
				lset_add(&l, "state", class_state_name(s));
				prom_sample(o->f, fam->name, &l, c->state_s[s]);
			}
			break;
		case CLASS_MODES:
			lset_add(&l, "mode", "user");
			prom_sample(o->f, fam->name, &l, c->user_s);
			class_labels(&l, c, i == n);
			lset_add(&l, "mode", "system");
			prom_sample(o->f, fam->name, &l, c->sys_s);
			break;
		}
	}
}

/* one series per group whose classes hold a slot (not other's) */
static void group_processes(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i < n; i++) {
		const struct prom_class_total *c = prom_totals_class(o->t, i);
		bool seen = false;

		if (!c || !c->procs)
			continue;
		for (int j = 0; j < i && !seen; j++) {
			const struct prom_class_total *d = prom_totals_class(o->t, j);

			seen = d && d->procs && d->pid == c->pid;
		}
		if (seen)
			continue;
		lset_clear(&l);
		lset_addf(&l, "pid", "%ld", c->pid);
		lset_add(&l, "comm", c->comm);
		prom_sample(o->f, fam->name, &l, c->procs);
	}
}

static void class_runqueue(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(o->t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		prom_histogram(o->f, fam->name, &l, &c->runq);
	}
}

/* --- ports and devices ----------------------------------------------------- */

static void port_labels(struct lset *l, const struct prom_port_total *p, bool other)
{
	lset_clear(l);
	if (other) {
		lset_add(l, "port", "other");
		lset_add(l, "role", "");
	} else {
		lset_addf(l, "port", "%ld", p->port);
		lset_add(l, "role", net_role_name(p->role));
	}
}

enum { PORT_RESPONSE = 1, PORT_RXQ, PORT_STAGED, PORT_STAGE_TIME };

static void port_hist(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(o->t, i);

		if (!p)
			continue;
		port_labels(&l, p, i == n);
		prom_histogram(o->f, fam->name, &l, fam->which == PORT_RESPONSE ? &p->resp : &p->rxq);
	}
}

static void device_txq(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_dev_total *d = prom_totals_dev(o->t, i);

		if (!d)
			continue;
		lset_clear(&l);
		lset_add(&l, "device", i == n ? "other" : d->name);
		lset_add(&l, "netns", i == n ? "" : d->netns_name);
		prom_histogram(o->f, fam->name, &l, &d->txq);
	}
}

/* The loss family per port and role (series only for ports it measured). */
static void port_retransmits(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(o->t, i);

		if (!p || !p->loss.seen)
			continue;
		for (int k = 0; k < DBT_RETX_KINDS; k++) {
			port_labels(&l, p, i == n);
			lset_add(&l, "kind", loss_kind_name(k));
			prom_sample_u64(o->f, fam->name, &l, p->loss.segs[k]);
		}
	}
}

/* Where the requests' time goes (net family, "stages"): each stage a
 * role has, summed over its staged requests, and how many those were. */
static void port_stages(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(o->t, i);

		if (!p || !p->staged)
			continue;
		if (fam->which == PORT_STAGED) {
			port_labels(&l, p, i == n);
			prom_sample_u64(o->f, fam->name, &l, p->staged);
			continue;
		}
		for (int st = 0; st < DBT_NET_STAGES; st++) {
			if (!net_role_has_stage(p->role, st))
				continue;
			port_labels(&l, p, i == n);
			lset_add(&l, "stage", net_stage_name(st));
			prom_sample(o->f, fam->name, &l, p->stage_s[st]);
		}
	}
}

enum { LOSS_RTO = 1, LOSS_TLP, LOSS_STALLS, LOSS_DROPS };

static void port_loss(const struct prom_family *fam, const struct prom_out *o)
{
	int n = prom_totals_limit(o->t);
	struct lset l;

	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(o->t, i);
		uint64_t v;

		if (!p || !p->loss.seen)
			continue;
		v = fam->which == LOSS_RTO ? p->loss.rto_timer : fam->which == LOSS_TLP ? p->loss.tlp_probes
		    : fam->which == LOSS_STALLS ? p->loss.stalls : p->loss.drops;
		port_labels(&l, p, i == n);
		prom_sample_u64(o->f, fam->name, &l, v);
	}
}

/* --- the loss family's host-wide series ------------------------------------ */

static void drop_reasons(const struct prom_family *fam, const struct prom_out *o)
{
	const struct prom_loss *p = prom_totals_loss(o->t);
	struct lset l;

	for (int s = 0; p->seen && s < DBT_LOSS_REASON_SLOTS; s++) {
		if (!p->reasons[s])
			continue;
		lset_clear(&l);
		lset_add(&l, "reason", p->reason_name[s]);
		prom_sample_u64(o->f, fam->name, &l, p->reasons[s]);
	}
}

enum { SOFTNET_BACKLOG = 1, SOFTNET_SQUEEZES };

static void softnet(const struct prom_family *fam, const struct prom_out *o)
{
	const struct prom_loss *p = prom_totals_loss(o->t);
	struct lset l;

	for (size_t c = 0; c < p->n_cpus; c++) {
		if (!p->cpus[c].seen)
			continue;
		lset_clear(&l);
		lset_addf(&l, "cpu", "%ld", (long)c);
		prom_sample_u64(o->f, fam->name, &l, fam->which == SOFTNET_BACKLOG ? p->cpus[c].backlog_drops
										   : p->cpus[c].time_squeezes);
	}
}

enum { NS_OVERFLOWS = 1, NS_DROPS, NS_PRESSURES, NS_PRESSURE_S };

/* per namespace, the top_n kept and "other" when anything is in it */
static void netns_counter(const struct prom_family *fam, const struct prom_out *o)
{
	const struct prom_loss *p = prom_totals_loss(o->t);
	struct lset l;

	for (int i = 0; i <= p->top_n && p->ns; i++) {
		const struct prom_loss_ns *s = &p->ns[i];
		const double v[] = { (double)s->listen_overflows, (double)s->listen_drops, (double)s->memory_pressures,
				     s->memory_pressure_s };

		if (i >= p->n_ns && i != p->top_n)
			continue;
		if (i == p->top_n && !v[0] && !v[1] && !v[2] && !v[3])
			continue;
		lset_clear(&l);
		lset_add(&l, "netns", s->netns);
		prom_sample(o->f, fam->name, &l, v[fam->which - NS_OVERFLOWS]);
	}
}

static void listener_overflows(const struct prom_family *fam, const struct prom_out *o)
{
	const struct prom_loss *p = prom_totals_loss(o->t);
	struct lset l;

	for (int i = 0; i <= p->top_n && p->lis; i++) {
		const struct prom_loss_listener *s = &p->lis[i];

		if ((i >= p->n_lis && i != p->top_n) || (i == p->top_n && !s->overflows && !s->live))
			continue;
		lset_clear(&l);
		if (i == p->top_n)
			lset_add(&l, "port", "other");
		else
			lset_addf(&l, "port", "%ld", s->port);
		lset_add(&l, "netns", i == p->top_n ? "" : s->netns);
		prom_sample_u64(o->f, fam->name, &l, s->overflows);
	}
}

enum { LISTENER_QUEUE = 1, LISTENER_BACKLOG };

static void listener_gauge(const struct prom_family *fam, const struct prom_out *o)
{
	const struct prom_loss *p = prom_totals_loss(o->t);
	struct lset l;

	for (int i = 0; i < p->n_lis; i++) {
		if (!p->lis[i].live)
			continue;
		lset_clear(&l);
		lset_addf(&l, "port", "%ld", p->lis[i].port);
		lset_add(&l, "netns", p->lis[i].netns);
		prom_sample(o->f, fam->name, &l, fam->which == LISTENER_QUEUE ? p->lis[i].queue : p->lis[i].backlog);
	}
}

/* --- findings and the exporter itself -------------------------------------- */

static void findings(const struct prom_family *fam, const struct prom_out *o)
{
	struct lset l;

	for (int i = 0; i < prom_totals_n_findings(o->t); i++) {
		const struct finding *fd = prom_totals_finding(o->t, i);

		lset_clear(&l);
		lset_add(&l, "id", fd->id);
		lset_add(&l, "severity", finding_severity_name(fd->severity));
		if (fd->pid)
			lset_addf(&l, "pid", "%ld", fd->pid);
		else
			lset_add(&l, "pid", "");
		lset_add(&l, "subject", fd->class_name);
		prom_sample(o->f, fam->name, &l, 1);
	}
}

static void build_info(const struct prom_family *fam, const struct prom_out *o)
{
	struct lset l;

	lset_clear(&l);
	lset_add(&l, "version", o->b->version ? o->b->version : "");
	prom_sample(o->f, fam->name, &l, 1);
}

static void probe_info(const struct prom_family *fam, const struct prom_out *o)
{
	struct lset l;

	for (int i = 0; i < o->b->n_probes; i++) {
		lset_clear(&l);
		lset_add(&l, "family", o->b->probes[i].family);
		lset_add(&l, "attach", o->b->probes[i].attach);
		prom_sample(o->f, fam->name, &l, 1);
	}
}

enum { RUN_LIMIT = 1, RUN_INTERVALS, RUN_INTERVAL_S, RUN_LOST, RUN_EVICTIONS, RUN_NET_SKIPPED };

static void run_value(const struct prom_family *fam, const struct prom_out *o)
{
	const struct prom_run_totals *run = prom_totals_run(o->t);

	switch (fam->which) {
	case RUN_LIMIT: prom_sample(o->f, fam->name, NULL, prom_totals_limit(o->t)); break;
	case RUN_INTERVALS: prom_sample_u64(o->f, fam->name, NULL, run->intervals); break;
	case RUN_INTERVAL_S: prom_sample(o->f, fam->name, NULL, run->interval_s); break;
	case RUN_LOST: prom_sample_u64(o->f, fam->name, NULL, run->lost_events); break;
	case RUN_EVICTIONS: prom_sample_u64(o->f, fam->name, NULL, run->thread_evictions); break;
	case RUN_NET_SKIPPED: prom_sample_u64(o->f, fam->name, NULL, run->net_skipped_requests); break;
	}
}

enum { BPF_MEASURED = 1, BPF_RUN_S, BPF_RUNS };

/* dbtrace's own programs: the meter's windows, and per family the run
 * time and runs inside them (rate(run) / rate(measured): a share of a CPU) */
static void bpf_value(const struct prom_family *fam, const struct prom_out *o)
{
	const struct bpf_cost *c = &prom_totals_run(o->t)->bpf;
	struct lset l;

	if (fam->which == BPF_MEASURED) {
		prom_sample(o->f, fam->name, NULL, (double)c->on_ns / 1e9);
		return;
	}
	for (int f = 0; f < FAM_COUNT; f++) {
		if (!c->fam_on[f])
			continue;
		lset_clear(&l);
		lset_add(&l, "family", dbt_family_names[f]);
		if (fam->which == BPF_RUN_S)
			prom_sample(o->f, fam->name, &l, (double)c->fam[f].run_ns / 1e9);
		else
			prom_sample_u64(o->f, fam->name, &l, c->fam[f].runs);
	}
}

enum { SELF_CPU = 1, SELF_RSS, SELF_START };

static void self_value(const struct prom_family *fam, const struct prom_out *o)
{
	prom_sample(o->f, fam->name, NULL, fam->which == SELF_CPU ? o->self->cpu_seconds
					   : fam->which == SELF_RSS ? o->self->rss_bytes : o->self->start_time_s);
}

/* --- the registry ----------------------------------------------------------- */

const struct prom_family prom_families[] = {
	{ .name = "dbtrace_softirq_seconds_total", .type = "counter",
	  .help = "Time each CPU spent in softirq handlers, by vector.",
	  .labels = "`cpu`, `vector` (`hi`, `timer`, `net_tx`, `net_rx`, `block`, `irq_poll`, `tasklet`, "
		    "`sched`, `hrtimer`, `rcu`)",
	  .doc = "time each CPU spent in softirq handlers of the vector (softirq family)",
	  .samples = cpu_softirq },
	{ .name = "dbtrace_hardirq_seconds_total", .type = "counter",
	  .help = "Time each CPU spent in hard irq handlers.",
	  .labels = "`cpu`",
	  .doc = "time each CPU spent in hard irq handlers",
	  .samples = cpu_hardirq },
	{ .name = "dbtrace_class_cpu_seconds_total", .type = "counter",
	  .help = "On-CPU time of a thread class (threads of one process grouped by name).",
	  .labels = "`pid`, `comm`, `class`",
	  .doc = "on-CPU time of a thread class: threads of one process (or one group of processes: `pid` "
		 "and `comm` are then its leader's, e.g. PostgreSQL's postmaster, see capture-schema.md's "
		 "groups) grouped by name (`worker-*`, `TNT_L0_1002`, `--class NAME=GLOB`); "
		 "`class=\"other\"` with empty `pid` and `comm` for the classes without a slot (sched "
		 "family)",
	  .samples = class_samples, .which = CLASS_CPU },
	{ .name = "dbtrace_class_context_switches_total", .type = "counter",
	  .help = "Context switches of a thread class: voluntary (left the CPU not runnable) or "
		  "involuntary (preempted while runnable).",
	  .labels = "`pid`, `comm`, `class`, `kind` (`voluntary`, `involuntary`)",
	  .doc = "switches where the thread left the CPU not runnable / was preempted while runnable (the "
		 "kernel's nvcsw/nivcsw; the idle task never counts)",
	  .samples = class_samples, .which = CLASS_SWITCHES },
	{ .name = "dbtrace_class_threads", .type = "gauge",
	  .help = "Threads of a thread class seen in the latest interval.",
	  .labels = "`pid`, `comm`, `class`",
	  .doc = "threads of the class seen in the latest interval",
	  .samples = class_samples, .which = CLASS_THREADS },
	{ .name = "dbtrace_group_processes", .type = "gauge",
	  .help = "Processes of a group (a process alone, or e.g. PostgreSQL's postmaster and its "
		  "backends: --group-by) in the latest interval; pid and comm are its leader's.",
	  .labels = "`pid`, `comm`",
	  .doc = "processes of the group whose classes hold a slot, in the latest interval: 1 for a "
		 "process alone, the postmaster and its backends for PostgreSQL (`--group-by`, "
		 "capture-schema.md's groups); `pid` and `comm` are the leader's, as in the class series "
		 "(added)",
	  .samples = group_processes },
	{ .name = "dbtrace_class_runqueue_delay_seconds", .type = "histogram",
	  .help = "Run-queue delay of a thread class: from wakeup or preemption to running again.",
	  .labels = "`pid`, `comm`, `class`",
	  .doc = "run-queue delay: from wakeup, or preemption, to running again; `_sum` is the measured "
		 "total",
	  .samples = class_runqueue },
	{ .name = "dbtrace_class_state_seconds_total", .type = "counter",
	  .help = "Thread-seconds of a thread class by state: on CPU, waiting for a CPU, under softirqs, "
		  "or blocked by reason (futex, net, disk, sleep, pipe_other, kernel).",
	  .labels = "`pid`, `comm`, `class`, `state` (`oncpu`, `runqueue`, `softirq`, `futex`, `net`, `disk`, "
		    "`sleep`, `pipe_other`, `kernel`)",
	  .doc = "the class's wall-time budget: thread-seconds in each state (see capture-schema.md, "
		 "`time`); summed over states, the threads' alive time, so `rate()` of one state over the "
		 "sum is its share",
	  .samples = class_samples, .which = CLASS_STATES },
	{ .name = "dbtrace_class_oncpu_mode_seconds_total", .type = "counter",
	  .help = "The oncpu state of a thread class split into user and system time by the kernel's "
		  "utime/stime ticks (inside state=\"oncpu\", not added to it; intervals without a "
		  "tick are not split).",
	  .labels = "`pid`, `comm`, `class`, `mode` (`user`, `system`)",
	  .doc = "the class's `oncpu` state split into user and system time by the ratio of the kernel's "
		 "`utime`/`stime` ticks (capture-schema.md, `oncpu_split`): inside `state=\"oncpu\"`, not "
		 "added to it; an interval in which no tick landed on the class is not split, so the two "
		 "may sum to less than `oncpu`",
	  .samples = class_samples, .which = CLASS_MODES },
	{ .name = "dbtrace_port_response_seconds", .type = "histogram",
	  .help = "Response time per service port and role (server: request readable to the first "
		  "send after the read; client: first send to the reply readable). Sampled under load: "
		  "one request in 16 timed, counting 16, so counts are estimates. _sum is estimated "
		  "from the bucket midpoints.",
	  .labels = "`port`, `role` (`server`, `client`)",
	  .doc = "response time per service port (net family): `server` from a request becoming readable "
		 "to the first send after the application read it, `client` from the first send on an idle "
		 "socket to the reply becoming readable; `_count` is the number of requests (under load an "
		 "estimate: one request in sixteen is timed and counts sixteen times, see "
		 "capture-schema.md); `_sum` is estimated from the bucket midpoints",
	  .samples = port_hist, .which = PORT_RESPONSE },
	{ .name = "dbtrace_port_rx_queue_seconds", .type = "histogram",
	  .help = "Rx socket-queue wait per service port and role: data readable to the receive call "
		  "returning it. Sampled under load: one read in 16 timed, counting 16, so counts are "
		  "estimates. _sum is estimated from the bucket midpoints.",
	  .labels = "`port`, `role`",
	  .doc = "rx socket-queue wait: data readable to the receive call returning it; sampled like the "
		 "response time; `_sum` estimated",
	  .samples = port_hist, .which = PORT_RXQ },
	{ .name = "dbtrace_device_tx_queue_seconds", .type = "histogram",
	  .help = "Tx queue latency per network device: net_dev_queue to net_dev_xmit (qdisc and "
		  "driver queue). Sampled under load: one packet in 16 timed, counting 16, so counts "
		  "are estimates. _sum is estimated from the bucket midpoints.",
	  .labels = "`device`, `netns` (`\"\"` for dbtrace's namespace)",
	  .doc = "tx queue latency: `net_dev_queue` to `net_dev_xmit`, qdisc plus driver queue; sampled "
		 "under load like the response time (one packet in sixteen timed, counting sixteen), so "
		 "`_count` estimates all packets; `_sum` estimated",
	  .samples = device_txq },
	{ .name = "dbtrace_port_stage_seconds_total", .type = "counter",
	  .help = "Time the staged requests of a service port and role spent in each stage (server: rx, "
		  "socket_wait, server, tx; client: tx, outside, rx). Sampled under load: one request in 16 "
		  "timed, counting 16.",
	  .labels = "`port`, `role`, `stage`",
	  .doc = "the time the staged requests spent in each stage (capture-schema.md, `stages`): "
		 "`server` `rx`, `socket_wait`, `server`, `tx`; `client` `tx`, `outside`, `rx`; divided by "
		 "`dbtrace_port_staged_requests_total`'s rate, each stage's mean; under load an estimate "
		 "(one request in sixteen timed, counting sixteen)",
	  .samples = port_stages, .which = PORT_STAGE_TIME },
	{ .name = "dbtrace_port_staged_requests_total", .type = "counter",
	  .help = "Requests of a service port and role whose every stage was timed (weighted as drawn).",
	  .labels = "`port`, `role`",
	  .doc = "the requests behind `dbtrace_port_stage_seconds_total` (weighted as drawn: an estimate "
		 "under load)",
	  .samples = port_stages, .which = PORT_STAGED },
	{ .name = "dbtrace_port_retransmits_total", .type = "counter",
	  .help = "Retransmitted TCP segments per service port and role, by kind (timeout, fast, tlp, "
		  "syn, other): what the kernel adds to tcpi_total_retrans.",
	  .labels = "`port`, `role`, `kind` (`timeout`, `fast`, `tlp`, `syn`, `other`)",
	  .doc = "retransmitted TCP segments per service port and role (loss family): what the kernel adds "
		 "to `tcpi_total_retrans`; kinds as in "
		 "[capture-schema.md](capture-schema.md#the-loss-family-in-net)",
	  .samples = port_retransmits },
	{ .name = "dbtrace_port_retransmit_timeouts_total", .type = "counter",
	  .help = "Retransmission timer (RTO) expirations that re-sent data, per service port and role.",
	  .labels = "`port`, `role`",
	  .doc = "retransmission timer (RTO) expirations that re-sent data",
	  .samples = port_loss, .which = LOSS_RTO },
	{ .name = "dbtrace_port_tail_loss_probes_total", .type = "counter",
	  .help = "Tail loss probes sent, per service port and role.",
	  .labels = "`port`, `role`",
	  .doc = "tail-loss probes sent",
	  .samples = port_loss, .which = LOSS_TLP },
	{ .name = "dbtrace_port_rto_waits_total", .type = "counter",
	  .help = "Requests (client role) or replies (server role) that waited for a retransmit timer "
		  "(RTO or tail loss probe), once per stall.",
	  .labels = "`port`, `role`",
	  .doc = "requests (client role) or replies (server role) that waited for a retransmit timer, once "
		 "per stall: divide by `rate(dbtrace_port_response_seconds_count)` for the share of "
		 "requests that waited",
	  .samples = port_loss, .which = LOSS_STALLS },
	{ .name = "dbtrace_port_drops_total", .type = "counter",
	  .help = "Dropped packets whose socket had this service port and role (skb:kfree_skb).",
	  .labels = "`port`, `role`",
	  .doc = "dropped packets whose TCP socket had this service port and role",
	  .samples = port_loss, .which = LOSS_DROPS },
	{ .name = "dbtrace_packet_drops_total", .type = "counter",
	  .help = "Packets the kernel dropped (skb:kfree_skb), by the running kernel's drop reason.",
	  .labels = "`reason`",
	  .doc = "packets the kernel dropped (`skb:kfree_skb`), by the running kernel's drop reason "
		 "(`qdisc_drop`, `not_specified`, `tcp_listen_overflow`, ...; at most one series per "
		 "reason the kernel has)",
	  .samples = drop_reasons },
	{ .name = "dbtrace_softnet_backlog_drops_total", .type = "counter",
	  .help = "Packets dropped because a CPU's receive backlog held netdev_max_backlog (/proc/net/softnet_stat).",
	  .labels = "`cpu`",
	  .doc = "packets a CPU's receive backlog refused (`/proc/net/softnet_stat`, over "
		 "`net.core.netdev_max_backlog`)",
	  .samples = softnet, .which = SOFTNET_BACKLOG },
	{ .name = "dbtrace_softnet_time_squeezes_total", .type = "counter",
	  .help = "NET_RX runs that ended with work left, budget or time used up (/proc/net/softnet_stat).",
	  .labels = "`cpu`",
	  .doc = "NET_RX runs that ended with work left",
	  .samples = softnet, .which = SOFTNET_SQUEEZES },
	{ .name = "dbtrace_listen_overflows_total", .type = "counter",
	  .help = "TcpExt ListenOverflows of a network namespace: accept queue full.",
	  .labels = "`netns` (`\"\"` for dbtrace's own, `other` past `--top-n`)",
	  .doc = "`TcpExt ListenOverflows` of a network namespace",
	  .samples = netns_counter, .which = NS_OVERFLOWS },
	{ .name = "dbtrace_listen_drops_total", .type = "counter",
	  .help = "TcpExt ListenDrops of a network namespace: every drop at a listener.",
	  .labels = "`netns`",
	  .doc = "`TcpExt ListenDrops`",
	  .samples = netns_counter, .which = NS_DROPS },
	{ .name = "dbtrace_tcp_memory_pressures_total", .type = "counter",
	  .help = "TcpExt TCPMemoryPressures: entries into tcp_mem pressure.",
	  .labels = "`netns`",
	  .doc = "`TcpExt TCPMemoryPressures`: entries into `tcp_mem` pressure",
	  .samples = netns_counter, .which = NS_PRESSURES },
	{ .name = "dbtrace_tcp_memory_pressure_seconds_total", .type = "counter",
	  .help = "TcpExt TCPMemoryPressuresChrono: time under tcp_mem pressure.",
	  .labels = "`netns`",
	  .doc = "`TcpExt TCPMemoryPressuresChrono`: time under it",
	  .samples = netns_counter, .which = NS_PRESSURE_S },
	{ .name = "dbtrace_listener_overflows_total", .type = "counter",
	  .help = "Connection attempts a listening port dropped (its sockets' drop counters: accept queue full).",
	  .labels = "`port`, `netns`",
	  .doc = "connection attempts a listening port dropped: its sockets' drop counters (accept queue "
		 "full); `port=\"other\"` past `--top-n`",
	  .samples = listener_overflows },
	{ .name = "dbtrace_listener_accept_queue", .type = "gauge",
	  .help = "Connections waiting for accept() on a listening port at the latest read.",
	  .labels = "`port`, `netns`",
	  .doc = "connections waiting for accept() at the latest read (`ss -lnt` Recv-Q)",
	  .samples = listener_gauge, .which = LISTENER_QUEUE },
	{ .name = "dbtrace_listener_backlog", .type = "gauge",
	  .help = "The accept queue's limit of a listening port (listen() backlog capped at somaxconn).",
	  .labels = "`port`, `netns`",
	  .doc = "the accept queue's limit (Send-Q)",
	  .samples = listener_gauge, .which = LISTENER_BACKLOG },
	{ .name = "dbtrace_finding", .type = "gauge",
	  .help = "1 for each finding raised in the latest interval (worst first, at most --top-n); "
		  "subject is the thread class, device or PORT/ROLE it is about.",
	  .labels = "`id`, `severity` (`info`, `warning`, `critical`), `pid`, `subject`",
	  .doc = "1 for each finding raised in the latest interval; `subject` is the thread class, device "
		 "(`DEVICE@NETNS`) or `PORT/ROLE` it is about; ids as in "
		 "[capture-schema.md](capture-schema.md#findings)",
	  .samples = findings },
	{ .name = "dbtrace_build_info", .type = "gauge",
	  .help = "dbtrace's version, always 1.",
	  .labels = "`version`",
	  .doc = "always 1",
	  .samples = build_info },
	{ .name = "dbtrace_probe_info", .type = "gauge",
	  .help = "1 per probe family with the attach path it took; attach=\"\" when it did not attach.",
	  .labels = "`family`, `attach`",
	  .doc = "1 per probe family with the attach path it took (`tp_btf`, `raw_tp`, `fentry+tp_btf`, "
		 "...); `attach=\"\"` when it did not attach",
	  .samples = probe_info },
	{ .name = "dbtrace_series_limit", .type = "gauge",
	  .help = "--top-n: classes, ports, devices and findings with series of their own.",
	  .labels = "",
	  .doc = "`--top-n`",
	  .samples = run_value, .which = RUN_LIMIT },
	{ .name = "dbtrace_intervals_total", .type = "counter",
	  .help = "Measuring intervals completed.",
	  .labels = "",
	  .doc = "measuring intervals completed",
	  .samples = run_value, .which = RUN_INTERVALS },
	{ .name = "dbtrace_interval_seconds", .type = "gauge",
	  .help = "Length of the latest interval.",
	  .labels = "",
	  .doc = "length of the latest interval",
	  .samples = run_value, .which = RUN_INTERVAL_S },
	{ .name = "dbtrace_lost_events_total", .type = "counter",
	  .help = "Events the kernel did not deliver to dbtrace's programs or that could not be recorded.",
	  .labels = "",
	  .doc = "events the kernel did not deliver to dbtrace's programs (BPF recursion misses) or that "
		 "could not be recorded (a full map); lost data is counted, never silent",
	  .samples = run_value, .which = RUN_LOST },
	{ .name = "dbtrace_thread_evictions_total", .type = "counter",
	  .help = "Per-thread entries the kernel's LRU map dropped to make room.",
	  .labels = "",
	  .doc = "per-thread entries the kernel's LRU map dropped to make room",
	  .samples = run_value, .which = RUN_EVICTIONS },
	{ .name = "dbtrace_net_skipped_requests_total", .type = "counter",
	  .help = "Requests counted but not timed: the kernel skipped one of their probes (the kprobe path).",
	  .labels = "",
	  .doc = "requests the net family counted from the socket's sequence numbers, not timed, because "
		 "the kernel skipped one of their probes (the kprobe path only; the capture's "
		 "`net.skipped_requests`)",
	  .samples = run_value, .which = RUN_NET_SKIPPED },
	{ .name = "dbtrace_bpf_measured_seconds_total", .type = "counter",
	  .help = "Time the kernel's BPF run-time statistics were on for dbtrace's programs (a part of each interval).",
	  .labels = "",
	  .doc = "time the kernel's BPF run-time statistics were on, dbtrace's windows (a part of each "
		 "interval): what `dbtrace_bpf_run_seconds_total` is measured over",
	  .samples = bpf_value, .which = BPF_MEASURED },
	{ .name = "dbtrace_bpf_run_seconds_total", .type = "counter",
	  .help = "Run time of dbtrace's BPF programs inside the measured windows, per probe family.",
	  .labels = "`family`",
	  .doc = "run time of dbtrace's BPF programs inside those windows (the kernel's `run_time_ns`), per "
		 "probe family; `rate()` of it over `rate(dbtrace_bpf_measured_seconds_total)` is the share of a "
		 "CPU they take (the capture's `overhead.bpf.cpu_pct` / 100)",
	  .samples = bpf_value, .which = BPF_RUN_S },
	{ .name = "dbtrace_bpf_runs_total", .type = "counter",
	  .help = "Runs of dbtrace's BPF programs inside the measured windows, per probe family.",
	  .labels = "`family`",
	  .doc = "runs of dbtrace's BPF programs inside those windows (`run_cnt`), per probe family",
	  .samples = bpf_value, .which = BPF_RUNS },
	{ .name = "process_cpu_seconds_total", .type = "counter",
	  .help = "dbtrace's own user and system CPU time.",
	  .labels = "",
	  .doc = "dbtrace's own user and system CPU time",
	  .samples = self_value, .which = SELF_CPU },
	{ .name = "process_resident_memory_bytes", .type = "gauge",
	  .help = "dbtrace's resident memory.",
	  .labels = "",
	  .doc = "dbtrace's resident memory",
	  .samples = self_value, .which = SELF_RSS },
	{ .name = "process_start_time_seconds", .type = "gauge",
	  .help = "When dbtrace started, since the Unix epoch.",
	  .labels = "",
	  .doc = "when dbtrace started, seconds since the Unix epoch",
	  .samples = self_value, .which = SELF_START },
};

const int prom_n_families = (int)(sizeof(prom_families) / sizeof(prom_families[0]));
