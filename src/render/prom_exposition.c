/* Prometheus exposition. Each kind with a per-key series (thread class,
 * port, device) keeps top_n live slots: a key takes a free slot, or
 * displaces the slot with the least recent activity when it is more than
 * twice as busy; otherwise it is summed into the kind's "other" series.
 * A displaced key's counters are kept aside (at most RETIRED_PER_SLOT
 * per slot, the longest gone dropped first) and restored when it comes
 * back, so its series resumes instead of going down to zero. */
#include "render/prom_exposition.h"
#include "model/hist.h"
#include "model/softirq_vec.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct slot_meta {
	bool used;
	bool seen;                     /* touched in the interval being added */
	double score;                  /* decayed activity per interval */
	double now;                    /* activity in the interval being added */
	uint64_t retired_at;           /* set aside: the order it was */
};

#define RETIRED_PER_SLOT 8

/* The series of one kind. Entries are structs that start with a
 * struct slot_meta; same() compares their keys. */
struct kind {
	void *live;                    /* top_n entries */
	void *retired;                 /* n_retired of cap_retired */
	int n_live, n_retired, cap_retired;
	size_t size;
	bool (*same)(const void *a, const void *b);
	uint64_t clock;
};

struct prom_hist {
	uint64_t slots[DBT_HIST_SLOTS];
	double sum_s;
};

struct prom_class {
	struct slot_meta m;            /* first: slots are handled as slot_meta */
	int pid;
	char comm[16];
	char name[TCLASS_NAME_MAX];
	int threads;                   /* in the latest interval */
	double oncpu_s;
	uint64_t vol, invol;
	struct prom_hist runq;
};

struct prom_port {
	struct slot_meta m;
	uint16_t port;
	uint8_t role;
	struct prom_hist resp, rxq;
};

struct prom_dev {
	struct slot_meta m;
	uint32_t netns;
	char name[16];
	char netns_name[NET_NETNS_NAME_MAX];
	struct prom_hist txq;
};

struct prom_state {
	struct prom_config cfg;
	int ncpus;
	double *sirq_s;                /* [cpu * DBT_SOFTIRQ_VECS + vec] */
	double *hardirq_s;
	bool *cpu_seen;
	struct kind classes, ports, devs;
	struct prom_class other_class;
	struct prom_port other_port;
	struct prom_dev other_dev;
	struct finding *findings;      /* the latest interval's, worst first */
	int n_findings;
	uint64_t intervals;
	double interval_s;
	uint64_t lost_events, thread_evictions;
};

#define SLOT(base, size, i) ((struct slot_meta *)((char *)(base) + (size_t)(i) * (size)))

static bool same_class(const void *a, const void *b)
{
	const struct prom_class *x = a, *y = b;

	return x->pid == y->pid && !strcmp(x->name, y->name);
}

static bool same_port(const void *a, const void *b)
{
	const struct prom_port *x = a, *y = b;

	return x->port == y->port && x->role == y->role;
}

static bool same_dev(const void *a, const void *b)
{
	const struct prom_dev *x = a, *y = b;

	return x->netns == y->netns && !strcmp(x->name, y->name);
}

static int kind_init(struct kind *k, int n, size_t size, bool (*same)(const void *, const void *))
{
	k->n_live = n;
	k->size = size;
	k->same = same;
	k->cap_retired = n * RETIRED_PER_SLOT;
	k->live = calloc((size_t)n, size);
	k->retired = calloc((size_t)k->cap_retired, size);
	return k->live && k->retired ? 0 : -ENOMEM;
}

int prom_state_new(struct prom_state **out, const struct prom_config *cfg)
{
	struct prom_state *st = calloc(1, sizeof(*st));
	int n = cfg->top_n > 0 ? cfg->top_n : 1;

	if (!st)
		return -ENOMEM;
	st->cfg = *cfg;
	st->cfg.top_n = n;
	st->findings = calloc((size_t)n, sizeof(*st->findings));
	if (!st->findings || kind_init(&st->classes, n, sizeof(struct prom_class), same_class) ||
	    kind_init(&st->ports, n, sizeof(struct prom_port), same_port) ||
	    kind_init(&st->devs, n, sizeof(struct prom_dev), same_dev)) {
		prom_state_free(st);
		return -ENOMEM;
	}
	*out = st;
	return 0;
}

void prom_state_free(struct prom_state *st)
{
	if (!st)
		return;
	free(st->sirq_s);
	free(st->hardirq_s);
	free(st->cpu_seen);
	free(st->classes.live);
	free(st->classes.retired);
	free(st->ports.live);
	free(st->ports.retired);
	free(st->devs.live);
	free(st->devs.retired);
	free(st->findings);
	free(st);
}

/* --- keeping the sums ---------------------------------------------------- */

/* A slot for a new key: a free one, or the weakest not touched in this
 * interval when the newcomer is more than twice as busy. -1: "other". */
static int slot_pick(void *base, size_t size, int n, double activity)
{
	int weakest = -1;

	for (int i = 0; i < n; i++) {
		struct slot_meta *m = SLOT(base, size, i);

		if (!m->used)
			return i;
		if (!m->seen && (weakest < 0 || m->score < SLOT(base, size, weakest)->score))
			weakest = i;
	}
	if (weakest >= 0 && activity > 0 && activity > 2 * SLOT(base, size, weakest)->score)
		return weakest;
	return -1;
}

/* Sets a displaced entry aside, over the longest gone when full. */
static void kind_retire(struct kind *k, const struct slot_meta *victim)
{
	int at = k->n_retired;

	if (at == k->cap_retired) {
		at = 0;
		for (int i = 1; i < k->n_retired; i++)
			if (SLOT(k->retired, k->size, i)->retired_at < SLOT(k->retired, k->size, at)->retired_at)
				at = i;
	} else {
		k->n_retired++;
	}
	memcpy(SLOT(k->retired, k->size, at), victim, k->size);
	SLOT(k->retired, k->size, at)->retired_at = ++k->clock;
}

/* The live entry for probe's key (probe: an entry with only its key
 * set), taking a slot when the key deserves one; NULL: "other". A key
 * that was set aside gets its counters back; a new one starts at zero.
 * The taker's activity becomes its score, so an equally busy key cannot
 * displace it at the next interval. */
static void *kind_get(struct kind *k, const void *probe, double activity)
{
	struct slot_meta *m;
	int idx;

	for (int i = 0; i < k->n_live; i++) {
		m = SLOT(k->live, k->size, i);
		if (m->used && k->same(m, probe))
			return m;
	}
	idx = slot_pick(k->live, k->size, k->n_live, activity);
	if (idx < 0)
		return NULL;
	m = SLOT(k->live, k->size, idx);
	if (m->used)
		kind_retire(k, m);
	memcpy(m, probe, k->size);
	for (int i = 0; i < k->n_retired; i++) {
		struct slot_meta *r = SLOT(k->retired, k->size, i);

		if (!k->same(r, probe))
			continue;
		memcpy(m, r, k->size);
		memmove(r, SLOT(k->retired, k->size, i + 1), (size_t)(k->n_retired - i - 1) * k->size);
		k->n_retired--;
		break;
	}
	m->used = true;
	m->seen = false;
	m->now = 0;
	m->retired_at = 0;
	m->score = activity;
	return m;
}

static void slot_touch(struct slot_meta *m, double activity)
{
	m->seen = true;
	m->now += activity;
}

static void slots_age(void *base, size_t size, int n)
{
	for (int i = 0; i < n; i++) {
		struct slot_meta *m = SLOT(base, size, i);

		if (!m->used)
			continue;
		m->score = 0.7 * m->score + 0.3 * m->now;
		m->now = 0;
		m->seen = false;
	}
}

/* Midpoint of a log2 µs slot, for the sums of histograms the kernel keeps
 * no sum for: slot 0 holds [0, 2) µs, slot i [2^i, 2^(i+1)). */
static double slot_mid_s(int i)
{
	return (i == 0 ? 1.0 : 1.5 * (double)((uint64_t)1 << i)) / 1e6;
}

static void hist_add(struct prom_hist *h, const __u64 *slots, bool estimate_sum)
{
	for (int i = 0; i < DBT_HIST_SLOTS; i++) {
		h->slots[i] += slots[i];
		if (estimate_sum)
			h->sum_s += (double)slots[i] * slot_mid_s(i);
	}
}

static int grow_cpus(struct prom_state *st, int ncpus)
{
	double *s, *h;
	bool *seen;

	if (ncpus <= st->ncpus)
		return 0;
	s = realloc(st->sirq_s, sizeof(*s) * (size_t)ncpus * DBT_SOFTIRQ_VECS);
	if (!s)
		return -ENOMEM;
	st->sirq_s = s;
	h = realloc(st->hardirq_s, sizeof(*h) * (size_t)ncpus);
	if (!h)
		return -ENOMEM;
	st->hardirq_s = h;
	seen = realloc(st->cpu_seen, sizeof(*seen) * (size_t)ncpus);
	if (!seen)
		return -ENOMEM;
	st->cpu_seen = seen;
	for (int c = st->ncpus; c < ncpus; c++) {
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			s[c * DBT_SOFTIRQ_VECS + v] = 0;
		h[c] = 0;
		seen[c] = false;
	}
	st->ncpus = ncpus;
	return 0;
}

static void add_cpus(struct prom_state *st, const struct interval_view *iv)
{
	for (int i = 0; i < iv->ncpus; i++) {
		const struct cpu_row *r = &iv->rows[i];
		int c = r->cpu;

		if (!r->valid || !r->have_sirq || c < 0 || c >= st->ncpus)
			continue;
		st->cpu_seen[c] = true;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			if (isfinite(r->softirq_pct[v]) && r->softirq_pct[v] > 0)
				st->sirq_s[c * DBT_SOFTIRQ_VECS + v] += r->softirq_pct[v] / 100.0 * iv->dt_s;
		if (isfinite(r->hardirq_pct) && r->hardirq_pct > 0)
			st->hardirq_s[c] += r->hardirq_pct / 100.0 * iv->dt_s;
	}
}

static void add_classes(struct prom_state *st, const struct sched_interval *si)
{
	struct prom_class *live = st->classes.live;

	for (int i = 0; i < st->classes.n_live; i++)
		live[i].threads = 0;
	st->other_class.threads = 0;
	for (int p = 0; p < si->n_procs; p++) {
		const struct sched_proc_stats *ps = &si->procs[p];

		for (int k = 0; k < ps->n_classes; k++) {
			const struct sched_class_stats *c = &ps->classes[k];
			/* on-CPU seconds, and a little for switches so a class
			 * that only sleeps and wakes still counts as active */
			double act = (double)c->oncpu_ns / 1e9 + (double)(c->vol + c->invol) * 1e-6;
			struct prom_class probe = { .pid = ps->pid }, *e;

			snprintf(probe.comm, sizeof(probe.comm), "%s", ps->comm);
			snprintf(probe.name, sizeof(probe.name), "%s", c->name);
			e = kind_get(&st->classes, &probe, act);
			if (!e)
				e = &st->other_class;
			e->m.used = true;
			slot_touch(&e->m, act);
			e->threads += c->threads;
			e->oncpu_s += (double)c->oncpu_ns / 1e9;
			e->vol += c->vol;
			e->invol += c->invol;
			hist_add(&e->runq, c->runq_hist, false);
			e->runq.sum_s += (double)c->runq_ns / 1e9;
		}
	}
	slots_age(st->classes.live, st->classes.size, st->classes.n_live);
}

static void add_net(struct prom_state *st, const struct net_interval *ni)
{
	for (int p = 0; p < ni->n_ports; p++) {
		const struct net_port_stats *ps = &ni->ports[p];
		double act = (double)(ps->requests + ps->reads);
		struct prom_port probe = { .port = ps->port, .role = ps->role }, *e;

		e = kind_get(&st->ports, &probe, act);
		if (!e)
			e = &st->other_port;
		e->m.used = true;
		slot_touch(&e->m, act);
		hist_add(&e->resp, ps->resp_hist, true);
		hist_add(&e->rxq, ps->rxq_hist, true);
	}
	slots_age(st->ports.live, st->ports.size, st->ports.n_live);

	for (int d = 0; d < ni->n_devs; d++) {
		const struct net_dev_stats *ds = &ni->devs[d];
		double pkts = (isfinite(ds->tx_pps) ? ds->tx_pps : 0) + (isfinite(ds->rx_pps) ? ds->rx_pps : 0);
		double act = (double)ds->txq_samples + pkts * ni->dt_s;
		struct prom_dev probe = { .netns = ds->netns }, *e;

		snprintf(probe.name, sizeof(probe.name), "%s", ds->name);
		snprintf(probe.netns_name, sizeof(probe.netns_name), "%s", ds->foreign ? ds->netns_name : "");
		e = kind_get(&st->devs, &probe, act);
		if (!e)
			e = &st->other_dev;
		e->m.used = true;
		slot_touch(&e->m, act);
		hist_add(&e->txq, ds->txq_hist, true);
	}
	slots_age(st->devs.live, st->devs.size, st->devs.n_live);
}

static int by_severity(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void add_findings(struct prom_state *st, const struct finding_list *l)
{
	st->n_findings = 0;
	for (int i = 0; l && i < l->n; i++) {
		if (st->n_findings < st->cfg.top_n) {
			st->findings[st->n_findings++] = l->items[i];
			continue;
		}
		/* full: keep the worst */
		qsort(st->findings, (size_t)st->n_findings, sizeof(*st->findings), by_severity);
		if (l->items[i].severity > st->findings[st->n_findings - 1].severity)
			st->findings[st->n_findings - 1] = l->items[i];
	}
	qsort(st->findings, (size_t)st->n_findings, sizeof(*st->findings), by_severity);
}

int prom_state_add(struct prom_state *st, const struct interval_view *iv)
{
	int ncpus = iv->ncpus;

	for (int i = 0; i < iv->ncpus; i++)
		if (iv->rows[i].cpu + 1 > ncpus)
			ncpus = iv->rows[i].cpu + 1;
	if (grow_cpus(st, ncpus))
		return -ENOMEM;
	add_cpus(st, iv);
	if (iv->sched)
		add_classes(st, iv->sched);
	if (iv->net)
		add_net(st, iv->net);
	add_findings(st, iv->findings);
	st->intervals++;
	st->interval_s = iv->dt_s;
	st->lost_events = iv->lost_events;
	st->thread_evictions = iv->thread_evictions;
	return 0;
}

/* --- writing ------------------------------------------------------------- */

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

/* One histogram series: slot i's upper edge 2^(i+1) µs is its le; the
 * last slot (open above) only counts in +Inf. */
static void histogram(FILE *f, const char *name, const struct lset *l, const struct prom_hist *h)
{
	const char *sep = l->n ? "," : "";
	uint64_t cum = 0;

	for (int i = 0; i < DBT_HIST_SLOTS - 1; i++) {
		cum += h->slots[i];
		fprintf(f, "%s_bucket{%s%sle=\"%.9g\"} %" PRIu64 "\n", name, l->s, sep,
			(double)((uint64_t)2 << i) / 1e6, cum);
	}
	cum += h->slots[DBT_HIST_SLOTS - 1];
	fprintf(f, "%s_bucket{%s%sle=\"+Inf\"} %" PRIu64 "\n", name, l->s, sep, cum);
	fprintf(f, "%s_sum{%s} %.12g\n", name, l->s, h->sum_s);
	fprintf(f, "%s_count{%s} %" PRIu64 "\n", name, l->s, cum);
}

static void class_labels(struct lset *l, const struct prom_class *c, bool other)
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

/* Kept class i, then "other" at i == top_n; NULL when unused. */
static const struct prom_class *class_at(const struct prom_state *st, int i)
{
	const struct prom_class *c = i < st->cfg.top_n ? (const struct prom_class *)st->classes.live + i
							: &st->other_class;

	return c->m.used ? c : NULL;
}

static void render_classes(const struct prom_state *st, FILE *f)
{
	int n = st->cfg.top_n;
	struct lset l;

	family(f, "dbtrace_class_cpu_seconds_total", "counter",
	       "On-CPU time of a thread class (threads of one process grouped by name).");
	for (int i = 0; i <= n; i++) {
		const struct prom_class *c = class_at(st, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		sample(f, "dbtrace_class_cpu_seconds_total", &l, c->oncpu_s);
	}
	family(f, "dbtrace_class_context_switches_total", "counter",
	       "Context switches of a thread class: voluntary (left the CPU not runnable) or "
	       "involuntary (preempted while runnable).");
	for (int i = 0; i <= n; i++) {
		const struct prom_class *c = class_at(st, i);

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
		const struct prom_class *c = class_at(st, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		sample(f, "dbtrace_class_threads", &l, c->threads);
	}
	family(f, "dbtrace_class_runqueue_delay_seconds", "histogram",
	       "Run-queue delay of a thread class: from wakeup or preemption to running again.");
	for (int i = 0; i <= n; i++) {
		const struct prom_class *c = class_at(st, i);

		if (!c)
			continue;
		class_labels(&l, c, i == n);
		histogram(f, "dbtrace_class_runqueue_delay_seconds", &l, &c->runq);
	}
}

static void port_labels(struct lset *l, const struct prom_port *p, bool other)
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

static void dev_labels(struct lset *l, const struct prom_dev *d, bool other)
{
	l->n = 0;
	l->s[0] = 0;
	lset_add(l, "device", other ? "other" : d->name);
	lset_add(l, "netns", other ? "" : d->netns_name);
}

static void render_net(const struct prom_state *st, FILE *f)
{
	struct lset l;
	int n = st->cfg.top_n;

	family(f, "dbtrace_port_response_seconds", "histogram",
	       "Response time per service port and role (server: request readable to the first "
	       "send after the read; client: first send to the reply readable). _sum is estimated "
	       "from the bucket midpoints.");
	for (int i = 0; i <= n; i++) {
		const struct prom_port *p = i < n ? (const struct prom_port *)st->ports.live + i : &st->other_port;

		if (!p->m.used)
			continue;
		port_labels(&l, p, i == n);
		histogram(f, "dbtrace_port_response_seconds", &l, &p->resp);
	}
	family(f, "dbtrace_port_rx_queue_seconds", "histogram",
	       "Rx socket-queue wait per service port and role: data readable to the receive call "
	       "returning it. _sum is estimated from the bucket midpoints.");
	for (int i = 0; i <= n; i++) {
		const struct prom_port *p = i < n ? (const struct prom_port *)st->ports.live + i : &st->other_port;

		if (!p->m.used)
			continue;
		port_labels(&l, p, i == n);
		histogram(f, "dbtrace_port_rx_queue_seconds", &l, &p->rxq);
	}
	family(f, "dbtrace_device_tx_queue_seconds", "histogram",
	       "Tx queue latency per network device: net_dev_queue to net_dev_xmit (qdisc and "
	       "driver queue). _sum is estimated from the bucket midpoints.");
	for (int i = 0; i <= n; i++) {
		const struct prom_dev *d = i < n ? (const struct prom_dev *)st->devs.live + i : &st->other_dev;

		if (!d->m.used)
			continue;
		dev_labels(&l, d, i == n);
		histogram(f, "dbtrace_device_tx_queue_seconds", &l, &d->txq);
	}
}

static void render_cpus(const struct prom_state *st, FILE *f)
{
	struct lset l;

	family(f, "dbtrace_softirq_seconds_total", "counter",
	       "Time each CPU spent in softirq handlers, by vector.");
	for (int c = 0; c < st->ncpus; c++) {
		if (!st->cpu_seen[c])
			continue;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
			l.n = 0;
			lset_addf(&l, "cpu", "%ld", c);
			lset_add(&l, "vector", softirq_vec_key(v));
			sample(f, "dbtrace_softirq_seconds_total", &l, st->sirq_s[c * DBT_SOFTIRQ_VECS + v]);
		}
	}
	family(f, "dbtrace_hardirq_seconds_total", "counter", "Time each CPU spent in hard irq handlers.");
	for (int c = 0; c < st->ncpus; c++) {
		if (!st->cpu_seen[c])
			continue;
		l.n = 0;
		lset_addf(&l, "cpu", "%ld", c);
		sample(f, "dbtrace_hardirq_seconds_total", &l, st->hardirq_s[c]);
	}
}

static void render_findings(const struct prom_state *st, FILE *f)
{
	struct lset l;

	family(f, "dbtrace_finding", "gauge",
	       "1 for each finding raised in the latest interval (worst first, at most --top-n); "
	       "subject is the thread class, device or PORT/ROLE it is about.");
	for (int i = 0; i < st->n_findings; i++) {
		const struct finding *fd = &st->findings[i];

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

static void render_self(const struct prom_state *st, const struct prom_self *self, FILE *f)
{
	struct lset l;

	family(f, "dbtrace_build_info", "gauge", "dbtrace's version, always 1.");
	l.n = 0;
	lset_add(&l, "version", st->cfg.version ? st->cfg.version : "");
	sample(f, "dbtrace_build_info", &l, 1);
	family(f, "dbtrace_probe_info", "gauge",
	       "1 per probe family with the attach path it took; attach=\"\" when it did not attach.");
	for (int i = 0; i < st->cfg.n_probes; i++) {
		l.n = 0;
		lset_add(&l, "family", st->cfg.probes[i].family);
		lset_add(&l, "attach", st->cfg.probes[i].attach);
		sample(f, "dbtrace_probe_info", &l, 1);
	}
	family(f, "dbtrace_series_limit", "gauge",
	       "--top-n: classes, ports, devices and findings with series of their own.");
	sample(f, "dbtrace_series_limit", NULL, st->cfg.top_n);
	family(f, "dbtrace_intervals_total", "counter", "Measuring intervals completed.");
	sample_u64(f, "dbtrace_intervals_total", NULL, st->intervals);
	family(f, "dbtrace_interval_seconds", "gauge", "Length of the latest interval.");
	sample(f, "dbtrace_interval_seconds", NULL, st->interval_s);
	family(f, "dbtrace_lost_events_total", "counter",
	       "Events the kernel did not deliver to dbtrace's programs or that could not be recorded.");
	sample_u64(f, "dbtrace_lost_events_total", NULL, st->lost_events);
	family(f, "dbtrace_thread_evictions_total", "counter",
	       "Per-thread entries the kernel's LRU map dropped to make room.");
	sample_u64(f, "dbtrace_thread_evictions_total", NULL, st->thread_evictions);
	family(f, "process_cpu_seconds_total", "counter", "dbtrace's own user and system CPU time.");
	sample(f, "process_cpu_seconds_total", NULL, self->cpu_seconds);
	family(f, "process_resident_memory_bytes", "gauge", "dbtrace's resident memory.");
	sample(f, "process_resident_memory_bytes", NULL, self->rss_bytes);
	family(f, "process_start_time_seconds", "gauge", "When dbtrace started, since the Unix epoch.");
	sample(f, "process_start_time_seconds", NULL, self->start_time_s);
}

int prom_render(const struct prom_state *st, const struct prom_self *self, FILE *f)
{
	render_cpus(st, f);
	render_classes(st, f);
	render_net(st, f);
	render_findings(st, f);
	render_self(st, self, f);
	return ferror(f) ? -EIO : 0;
}
