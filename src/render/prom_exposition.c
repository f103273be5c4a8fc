/* The Prometheus text format (version 0.0.4) of the running totals: one
 * HELP and TYPE line per family, then its samples; label values escaped
 * and cut to valid UTF-8. Every kind with per-key series ends with its
 * "other" series, when anything was summed there. */
#include "render/prom_exposition.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/softirq_vec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and code points above U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* Appends the escaped value to dst (bounded; whole characters only). */
static void escape_into(char *dst, size_t cap, size_t *at, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		char tmp[4];
		int n = utf8_len(p), k = 0;

		if (n == 1 && (*p == '\\' || *p == '"')) {
			tmp[k++] = '\\';
			tmp[k++] = (char)*p;
		} else if (n == 1 && *p == '\n') {
			tmp[k++] = '\\';
			tmp[k++] = 'n';
		} else if (n == 0) {
			tmp[k++] = '?';
			n = 1;
		} else {
			for (; k < n; k++)
				tmp[k] = (char)p[k];
		}
		if (*at + (size_t)k + 1 > cap)
			break;
		memcpy(dst + *at, tmp, (size_t)k);
		*at += (size_t)k;
		p += n;
	}
	dst[*at] = 0;
}

void prom_label_value(FILE *f, const char *s)
{
	char buf[1024];
	size_t at = 0;

	escape_into(buf, sizeof(buf), &at, s);
	fputs(buf, f);
}

/* A label set "k1=\"v1\",k2=\"v2\"" built pair by pair. */
struct lset {
	char s[768];
	size_t n;
};

static void lset_add(struct lset *l, const char *key, const char *value)
{
	int w = snprintf(l->s + l->n, sizeof(l->s) - l->n, "%s%s=\"", l->n ? "," : "", key);

	if (w < 0 || (size_t)w >= sizeof(l->s) - l->n - 2)
		return;
	l->n += (size_t)w;
	escape_into(l->s, sizeof(l->s) - 1, &l->n, value);
	l->s[l->n++] = '"';
	l->s[l->n] = 0;
}

static void lset_addf(struct lset *l, const char *key, const char *fmt, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, v);
	lset_add(l, key, buf);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(FILE *f, const char *name, const struct lset *l, double v)
{
	if (l && l->n)
		fprintf(f, "%s{%s} %.12g\n", name, l->s, v);
	else
		fprintf(f, "%s %.12g\n", name, v);
}

static void sample_u64(FILE *f, const char *name, const struct lset *l, uint64_t v)
{
	if (l && l->n)
		fprintf(f, "%s{%s} %" PRIu64 "\n", name, l->s, v);
	else
		fprintf(f, "%s %" PRIu64 "\n", name, v);
}

/* One histogram series on the fixed bounds (metrics/prom_totals.h); the
 * last slot (above 10 s) only counts in +Inf. */
static void histogram(FILE *f, const char *name, const struct lset *l, const struct prom_hist *h)
{
	const char *sep = l->n ? "," : "";
	uint64_t cum = 0;

	for (int i = 0; i < PROM_LE_N; i++) {
		cum += h->slots[i];
		fprintf(f, "%s_bucket{%s%sle=\"%.9g\"} %" PRIu64 "\n", name, l->s, sep,
			prom_le_s[i], cum);
	}
	cum += h->slots[PROM_LE_N];
	fprintf(f, "%s_bucket{%s%sle=\"+Inf\"} %" PRIu64 "\n", name, l->s, sep, cum);
	fprintf(f, "%s_sum{%s} %.12g\n", name, l->s, h->sum_s);
	fprintf(f, "%s_count{%s} %" PRIu64 "\n", name, l->s, cum);
}

static void class_labels(struct lset *l, const struct prom_class_total *c, bool other)
{
	l->n = 0;
	l->s[0] = 0;
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

static void render_classes(const struct prom_totals *t, FILE *f)
{
	int n = prom_totals_limit(t);
	struct lset l;

	family(f, "dbtrace_class_cpu_seconds_total", "counter",
	       "On-CPU time of a thread class (threads of one process grouped by name).");
	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		sample(f, "dbtrace_class_cpu_seconds_total", &l, c->oncpu_s);
	}
	family(f, "dbtrace_class_context_switches_total", "counter",
	       "Context switches of a thread class: voluntary (left the CPU not runnable) or "
	       "involuntary (preempted while runnable).");
	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		lset_add(&l, "kind", "voluntary");
		sample_u64(f, "dbtrace_class_context_switches_total", &l, c->vol);
		class_labels(&l, c, i == n);
		lset_add(&l, "kind", "involuntary");
		sample_u64(f, "dbtrace_class_context_switches_total", &l, c->invol);
	}
	family(f, "dbtrace_class_threads", "gauge", "Threads of a thread class seen in the latest interval.");
	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		sample(f, "dbtrace_class_threads", &l, c->threads);
	}
	/* one series per group whose classes hold a slot (not other's) */
	family(f, "dbtrace_group_processes", "gauge",
	       "Processes of a group (a process alone, or e.g. PostgreSQL's postmaster and its "
	       "backends: --group-by) in the latest interval; pid and comm are its leader's.");
	for (int i = 0; i < n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);
		bool seen = false;

		if (!c || !c->procs)
			continue;
		for (int j = 0; j < i && !seen; j++) {
			const struct prom_class_total *d = prom_totals_class(t, j);

			seen = d && d->procs && d->pid == c->pid;
		}
		if (seen)
			continue;
		l.n = 0;
		l.s[0] = 0;
		lset_addf(&l, "pid", "%ld", c->pid);
		lset_add(&l, "comm", c->comm);
		sample(f, "dbtrace_group_processes", &l, c->procs);
	}
	family(f, "dbtrace_class_runqueue_delay_seconds", "histogram",
	       "Run-queue delay of a thread class: from wakeup or preemption to running again.");
	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		histogram(f, "dbtrace_class_runqueue_delay_seconds", &l, &c->runq);
	}
	family(f, "dbtrace_class_state_seconds_total", "counter",
	       "Thread-seconds of a thread class by state: on CPU, waiting for a CPU, under softirqs, "
	       "or blocked by reason (futex, net, disk, sleep, pipe_other, kernel).");
	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (!c)
			continue;
		for (int s = 0; s < CT_STATES; s++) {
			class_labels(&l, c, i == n);
			lset_add(&l, "state", class_state_name(s));
			sample(f, "dbtrace_class_state_seconds_total", &l, c->state_s[s]);
		}
	}
	family(f, "dbtrace_class_oncpu_mode_seconds_total", "counter",
	       "The oncpu state of a thread class split into user and system time by the kernel's "
	       "utime/stime ticks (inside state=\"oncpu\", not added to it; intervals without a "
	       "tick are not split).");
	for (int i = 0; i <= n; i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		lset_add(&l, "mode", "user");
		sample(f, "dbtrace_class_oncpu_mode_seconds_total", &l, c->user_s);
		class_labels(&l, c, i == n);
		lset_add(&l, "mode", "system");
		sample(f, "dbtrace_class_oncpu_mode_seconds_total", &l, c->sys_s);
	}
}

static void port_labels(struct lset *l, const struct prom_port_total *p, bool other)
{
	l->n = 0;
	l->s[0] = 0;
	if (other) {
		lset_add(l, "port", "other");
		lset_add(l, "role", "");
	} else {
		lset_addf(l, "port", "%ld", p->port);
		lset_add(l, "role", net_role_name(p->role));
	}
}

static void dev_labels(struct lset *l, const struct prom_dev_total *d, bool other)
{
	l->n = 0;
	l->s[0] = 0;
	lset_add(l, "device", other ? "other" : d->name);
	lset_add(l, "netns", other ? "" : d->netns_name);
}

static void render_net(const struct prom_totals *t, FILE *f)
{
	struct lset l;
	int n = prom_totals_limit(t);

	family(f, "dbtrace_port_response_seconds", "histogram",
	       "Response time per service port and role (server: request readable to the first "
	       "send after the read; client: first send to the reply readable). Sampled under load: "
	       "one request in 16 timed, counting 16, so counts are estimates. _sum is estimated "
	       "from the bucket midpoints.");
	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(t, i);

		if (!p)
			continue;
		port_labels(&l, p, i == n);
		histogram(f, "dbtrace_port_response_seconds", &l, &p->resp);
	}
	family(f, "dbtrace_port_rx_queue_seconds", "histogram",
	       "Rx socket-queue wait per service port and role: data readable to the receive call "
	       "returning it. Sampled under load: one read in 16 timed, counting 16, so counts are "
	       "estimates. _sum is estimated from the bucket midpoints.");
	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(t, i);

		if (!p)
			continue;
		port_labels(&l, p, i == n);
		histogram(f, "dbtrace_port_rx_queue_seconds", &l, &p->rxq);
	}
	family(f, "dbtrace_device_tx_queue_seconds", "histogram",
	       "Tx queue latency per network device: net_dev_queue to net_dev_xmit (qdisc and "
	       "driver queue). Sampled under load: one packet in 16 timed, counting 16, so counts "
	       "are estimates. _sum is estimated from the bucket midpoints.");
	for (int i = 0; i <= n; i++) {
		const struct prom_dev_total *d = prom_totals_dev(t, i);

		if (!d)
			continue;
		dev_labels(&l, d, i == n);
		histogram(f, "dbtrace_device_tx_queue_seconds", &l, &d->txq);
	}
}

/* The loss family per port and role (series only for ports it measured). */
static void render_port_loss(const struct prom_totals *t, FILE *f)
{
	static const struct {
		const char *name, *help;
		int field;
	} counters[] = {
		{ "dbtrace_port_retransmit_timeouts_total",
		  "Retransmission timer (RTO) expirations that re-sent data, per service port and role.", 0 },
		{ "dbtrace_port_tail_loss_probes_total", "Tail loss probes sent, per service port and role.", 1 },
		{ "dbtrace_port_rto_waits_total",
		  "Requests (client role) or replies (server role) that waited for a retransmit timer "
		  "(RTO or tail loss probe), once per stall.", 2 },
		{ "dbtrace_port_drops_total",
		  "Dropped packets whose socket had this service port and role (skb:kfree_skb).", 3 },
	};
	int n = prom_totals_limit(t);
	struct lset l;

	family(f, "dbtrace_port_retransmits_total", "counter",
	       "Retransmitted TCP segments per service port and role, by kind (timeout, fast, tlp, "
	       "syn, other): what the kernel adds to tcpi_total_retrans.");
	for (int i = 0; i <= n; i++) {
		const struct prom_port_total *p = prom_totals_port(t, i);

		if (!p || !p->loss.seen)
			continue;
		for (int k = 0; k < DBT_RETX_KINDS; k++) {
			port_labels(&l, p, i == n);
			lset_add(&l, "kind", loss_kind_name(k));
			sample_u64(f, "dbtrace_port_retransmits_total", &l, p->loss.segs[k]);
		}
	}
	for (size_t c = 0; c < sizeof(counters) / sizeof(counters[0]); c++) {
		family(f, counters[c].name, "counter", counters[c].help);
		for (int i = 0; i <= n; i++) {
			const struct prom_port_total *p = prom_totals_port(t, i);
			const uint64_t v[] = { p ? p->loss.rto_timer : 0, p ? p->loss.tlp_probes : 0,
					       p ? p->loss.stalls : 0, p ? p->loss.drops : 0 };

			if (!p || !p->loss.seen)
				continue;
			port_labels(&l, p, i == n);
			sample_u64(f, counters[c].name, &l, v[counters[c].field]);
		}
	}
}

/* The loss family's host-wide series. */
static void render_loss(const struct prom_totals *t, FILE *f)
{
	const struct prom_loss *p = prom_totals_loss(t);
	struct lset l;

	family(f, "dbtrace_packet_drops_total", "counter",
	       "Packets the kernel dropped (skb:kfree_skb), by the running kernel's drop reason.");
	for (int s = 0; p->seen && s < DBT_LOSS_REASON_SLOTS; s++) {
		if (!p->reasons[s])
			continue;
		l.n = 0;
		lset_add(&l, "reason", p->reason_name[s]);
		sample_u64(f, "dbtrace_packet_drops_total", &l, p->reasons[s]);
	}
	family(f, "dbtrace_softnet_backlog_drops_total", "counter",
	       "Packets dropped because a CPU's receive backlog held netdev_max_backlog (/proc/net/softnet_stat).");
	for (size_t c = 0; c < p->n_cpus; c++) {
		if (!p->cpus[c].seen)
			continue;
		l.n = 0;
		lset_addf(&l, "cpu", "%ld", (long)c);
		sample_u64(f, "dbtrace_softnet_backlog_drops_total", &l, p->cpus[c].backlog_drops);
	}
	family(f, "dbtrace_softnet_time_squeezes_total", "counter",
	       "NET_RX runs that ended with work left, budget or time used up (/proc/net/softnet_stat).");
	for (size_t c = 0; c < p->n_cpus; c++) {
		if (!p->cpus[c].seen)
			continue;
		l.n = 0;
		lset_addf(&l, "cpu", "%ld", (long)c);
		sample_u64(f, "dbtrace_softnet_time_squeezes_total", &l, p->cpus[c].time_squeezes);
	}
	{
		static const struct {
			const char *name, *help;
		} ns[] = {
			{ "dbtrace_listen_overflows_total", "TcpExt ListenOverflows of a network namespace: accept queue full." },
			{ "dbtrace_listen_drops_total", "TcpExt ListenDrops of a network namespace: every drop at a listener." },
			{ "dbtrace_tcp_memory_pressures_total", "TcpExt TCPMemoryPressures: entries into tcp_mem pressure." },
			{ "dbtrace_tcp_memory_pressure_seconds_total", "TcpExt TCPMemoryPressuresChrono: time under tcp_mem pressure." },
		};

		for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
			family(f, ns[k].name, "counter", ns[k].help);
			for (int i = 0; i <= p->top_n && p->ns; i++) {
				const struct prom_loss_ns *s = &p->ns[i];
				const double v[] = { (double)s->listen_overflows, (double)s->listen_drops,
						     (double)s->memory_pressures, s->memory_pressure_s };

				if (i >= p->n_ns && i != p->top_n)
					continue;
				if (i == p->top_n && !v[0] && !v[1] && !v[2] && !v[3])
					continue;
				l.n = 0;
				lset_add(&l, "netns", s->netns);
				sample(f, ns[k].name, &l, v[k]);
			}
		}
	}
	family(f, "dbtrace_listener_overflows_total", "counter",
	       "Connection attempts a listening port dropped (its sockets' drop counters: accept queue full).");
	for (int i = 0; i <= p->top_n && p->lis; i++) {
		const struct prom_loss_listener *s = &p->lis[i];

		if ((i >= p->n_lis && i != p->top_n) || (i == p->top_n && !s->overflows && !s->live))
			continue;
		l.n = 0;
		if (i == p->top_n)
			lset_add(&l, "port", "other");
		else
			lset_addf(&l, "port", "%ld", s->port);
		lset_add(&l, "netns", i == p->top_n ? "" : s->netns);
		sample_u64(f, "dbtrace_listener_overflows_total", &l, s->overflows);
	}
	family(f, "dbtrace_listener_accept_queue", "gauge",
	       "Connections waiting for accept() on a listening port at the latest read.");
	for (int i = 0; i < p->n_lis; i++) {
		if (!p->lis[i].live)
			continue;
		l.n = 0;
		lset_addf(&l, "port", "%ld", p->lis[i].port);
		lset_add(&l, "netns", p->lis[i].netns);
		sample(f, "dbtrace_listener_accept_queue", &l, p->lis[i].queue);
	}
	family(f, "dbtrace_listener_backlog", "gauge",
	       "The accept queue's limit of a listening port (listen() backlog capped at somaxconn).");
	for (int i = 0; i < p->n_lis; i++) {
		if (!p->lis[i].live)
			continue;
		l.n = 0;
		lset_addf(&l, "port", "%ld", p->lis[i].port);
		lset_add(&l, "netns", p->lis[i].netns);
		sample(f, "dbtrace_listener_backlog", &l, p->lis[i].backlog);
	}
}

static void render_cpus(const struct prom_totals *t, FILE *f)
{
	int ncpus = prom_totals_ncpus(t);
	struct lset l;

	family(f, "dbtrace_softirq_seconds_total", "counter",
	       "Time each CPU spent in softirq handlers, by vector.");
	for (int c = 0; c < ncpus; c++) {
		const struct prom_cpu_total *cpu = prom_totals_cpu(t, c);

		if (!cpu)
			continue;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
			l.n = 0;
			lset_addf(&l, "cpu", "%ld", c);
			lset_add(&l, "vector", softirq_vec_key(v));
			sample(f, "dbtrace_softirq_seconds_total", &l, cpu->softirq_s[v]);
		}
	}
	family(f, "dbtrace_hardirq_seconds_total", "counter", "Time each CPU spent in hard irq handlers.");
	for (int c = 0; c < ncpus; c++) {
		const struct prom_cpu_total *cpu = prom_totals_cpu(t, c);

		if (!cpu)
			continue;
		l.n = 0;
		lset_addf(&l, "cpu", "%ld", c);
		sample(f, "dbtrace_hardirq_seconds_total", &l, cpu->hardirq_s);
	}
}

static void render_findings(const struct prom_totals *t, FILE *f)
{
	struct lset l;

	family(f, "dbtrace_finding", "gauge",
	       "1 for each finding raised in the latest interval (worst first, at most --top-n); "
	       "subject is the thread class, device or PORT/ROLE it is about.");
	for (int i = 0; i < prom_totals_n_findings(t); i++) {
		const struct finding *fd = prom_totals_finding(t, i);

		l.n = 0;
		lset_add(&l, "id", fd->id);
		lset_add(&l, "severity", finding_severity_name(fd->severity));
		if (fd->pid)
			lset_addf(&l, "pid", "%ld", fd->pid);
		else
			lset_add(&l, "pid", "");
		lset_add(&l, "subject", fd->class_name);
		sample(f, "dbtrace_finding", &l, 1);
	}
}

static void render_self(const struct prom_totals *t, const struct prom_build *b,
			const struct prom_self *self, FILE *f)
{
	const struct prom_run_totals *run = prom_totals_run(t);
	struct lset l;

	family(f, "dbtrace_build_info", "gauge", "dbtrace's version, always 1.");
	l.n = 0;
	lset_add(&l, "version", b->version ? b->version : "");
	sample(f, "dbtrace_build_info", &l, 1);
	family(f, "dbtrace_probe_info", "gauge",
	       "1 per probe family with the attach path it took; attach=\"\" when it did not attach.");
	for (int i = 0; i < b->n_probes; i++) {
		l.n = 0;
		lset_add(&l, "family", b->probes[i].family);
		lset_add(&l, "attach", b->probes[i].attach);
		sample(f, "dbtrace_probe_info", &l, 1);
	}
	family(f, "dbtrace_series_limit", "gauge",
	       "--top-n: classes, ports, devices and findings with series of their own.");
	sample(f, "dbtrace_series_limit", NULL, prom_totals_limit(t));
	family(f, "dbtrace_intervals_total", "counter", "Measuring intervals completed.");
	sample_u64(f, "dbtrace_intervals_total", NULL, run->intervals);
	family(f, "dbtrace_interval_seconds", "gauge", "Length of the latest interval.");
	sample(f, "dbtrace_interval_seconds", NULL, run->interval_s);
	family(f, "dbtrace_lost_events_total", "counter",
	       "Events the kernel did not deliver to dbtrace's programs or that could not be recorded.");
	sample_u64(f, "dbtrace_lost_events_total", NULL, run->lost_events);
	family(f, "dbtrace_thread_evictions_total", "counter",
	       "Per-thread entries the kernel's LRU map dropped to make room.");
	sample_u64(f, "dbtrace_thread_evictions_total", NULL, run->thread_evictions);
	family(f, "process_cpu_seconds_total", "counter", "dbtrace's own user and system CPU time.");
	sample(f, "process_cpu_seconds_total", NULL, self->cpu_seconds);
	family(f, "process_resident_memory_bytes", "gauge", "dbtrace's resident memory.");
	sample(f, "process_resident_memory_bytes", NULL, self->rss_bytes);
	family(f, "process_start_time_seconds", "gauge", "When dbtrace started, since the Unix epoch.");
	sample(f, "process_start_time_seconds", NULL, self->start_time_s);
}

int prom_render(const struct prom_totals *t, const struct prom_build *b, const struct prom_self *self,
		FILE *f)
{
	render_cpus(t, f);
	render_classes(t, f);
	render_net(t, f);
	render_port_loss(t, f);
	render_loss(t, f);
	render_findings(t, f);
	render_self(t, b, self, f);
	return ferror(f) ? -EIO : 0;
}
