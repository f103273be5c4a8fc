/* Each kind with per-key totals (thread class, port, device) keeps top_n
 * live slots: a key takes a free slot, or displaces the slot with the
 * least recent activity when it is more than twice as busy; otherwise it
 * is summed into the kind's "other" total. A displaced key's totals are
 * kept aside (at most RETIRED_PER_SLOT per slot, the longest gone dropped
 * first) and restored when it comes back, so its counters resume instead
 * of going down to zero. */
#include "metrics/prom_totals.h"
#include "core/vec.h"
#include "model/net_loss.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bookkeeping of a slot, ahead of the totals it holds. */
struct slot_meta {
	bool used;
	bool seen;                     /* touched in the interval being added */
	double score;                  /* decayed activity per interval */
	double now;                    /* activity in the interval being added */
	uint64_t retired_at;           /* set aside: the order it was */
};

struct class_slot {
	struct slot_meta m;            /* first: slots are handled as slot_meta */
	struct prom_class_total v;
};

struct port_slot {
	struct slot_meta m;
	struct prom_port_total v;
};

struct dev_slot {
	struct slot_meta m;
	struct prom_dev_total v;
};

#define RETIRED_PER_SLOT 8

/* The slots of one kind. Slots are structs that start with a struct
 * slot_meta; same() compares their keys. */
struct kind {
	void *live;                    /* top_n slots */
	void *retired;                 /* n_retired of cap_retired */
	int n_live, n_retired, cap_retired;
	size_t size;
	bool (*same)(const void *a, const void *b);
	uint64_t clock;
};

struct cpu_slot {
	bool seen;                     /* softirq time measured at least once */
	struct prom_cpu_total v;
};

struct prom_totals {
	int top_n;
	struct cpu_slot *cpus;         /* indexed by CPU number */
	size_t n_cpus, cap_cpus;
	struct kind classes, ports, devs;
	struct class_slot other_class;
	struct port_slot other_port;
	struct dev_slot other_dev;
	struct finding *findings;      /* the latest interval's, worst first */
	int n_findings;
	struct prom_run_totals run;
	struct prom_loss loss;
};

#define SLOT(base, size, i) ((struct slot_meta *)((char *)(base) + (size_t)(i) * (size)))

static bool same_class(const void *a, const void *b)
{
	const struct prom_class_total *x = &((const struct class_slot *)a)->v;
	const struct prom_class_total *y = &((const struct class_slot *)b)->v;

	return x->pid == y->pid && !strcmp(x->name, y->name);
}

static bool same_port(const void *a, const void *b)
{
	const struct prom_port_total *x = &((const struct port_slot *)a)->v;
	const struct prom_port_total *y = &((const struct port_slot *)b)->v;

	return x->port == y->port && x->role == y->role;
}

static bool same_dev(const void *a, const void *b)
{
	const struct prom_dev_total *x = &((const struct dev_slot *)a)->v;
	const struct prom_dev_total *y = &((const struct dev_slot *)b)->v;

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

static void kind_free(struct kind *k)
{
	free(k->live);
	free(k->retired);
}

int prom_totals_new(struct prom_totals **out, int top_n)
{
	struct prom_totals *t = calloc(1, sizeof(*t));
	int n = top_n > 0 ? top_n : 1;

	if (!t)
		return -ENOMEM;
	t->top_n = n;
	t->findings = calloc((size_t)n, sizeof(*t->findings));
	if (!t->findings || prom_loss_init(&t->loss, n) ||
	    kind_init(&t->classes, n, sizeof(struct class_slot), same_class) ||
	    kind_init(&t->ports, n, sizeof(struct port_slot), same_port) ||
	    kind_init(&t->devs, n, sizeof(struct dev_slot), same_dev)) {
		prom_totals_free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

void prom_totals_free(struct prom_totals *t)
{
	if (!t)
		return;
	free(t->cpus);
	kind_free(&t->classes);
	kind_free(&t->ports);
	kind_free(&t->devs);
	prom_loss_free(&t->loss);
	free(t->findings);
	free(t);
}

/* --- slots ---------------------------------------------------------------- */

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

/* Sets a displaced slot aside, over the longest gone when full. */
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

/* The live slot for probe's key (probe: a slot with only its key set),
 * taking a slot when the key deserves one; NULL: "other". A key that was
 * set aside gets its totals back; a new one starts at zero. The taker's
 * activity becomes its score, so an equally busy key cannot displace it
 * at the next interval. */
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

/* Slot i of a kind's live slots, or its "other" at i == n_live; NULL when
 * out of range or never used. */
static const void *kind_at(const struct kind *k, const void *other, int i)
{
	const struct slot_meta *m;

	if (i < 0 || i > k->n_live)
		return NULL;
	m = i < k->n_live ? SLOT(k->live, k->size, i) : other;
	return m->used ? m : NULL;
}

/* --- adding an interval --------------------------------------------------- */

const double prom_le_s[PROM_LE_N] = {
	1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3,
	5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1, 2, 5, 10,
};

static double bucket_mid_s(uint32_t b)
{
	return ((double)dbt_hist_low(b) + (double)dbt_hist_high(b)) / 2 / 1e9;
}

int prom_le_slot(uint32_t b)
{
	double mid = bucket_mid_s(b);
	int i = 0;

	/* the last fine bucket is open above: never under a finite bound */
	if (b == DBT_HIST_BUCKETS - 1)
		return PROM_LE_N;
	while (i < PROM_LE_N && mid > prom_le_s[i] * (1 + 1e-12))
		i++;
	return i;
}

static void hist_add(struct prom_hist *h, const __u64 *b, bool estimate_sum)
{
	for (uint32_t i = 0; i < DBT_HIST_BUCKETS; i++) {
		if (!b[i])
			continue;
		h->slots[prom_le_slot(i)] += b[i];
		if (estimate_sum)
			h->sum_s += (double)b[i] * bucket_mid_s(i);
	}
}

/* Room for CPU numbers below ncpus; new CPUs start at zero, unseen. */
static int grow_cpus(struct prom_totals *t, size_t ncpus)
{
	if (ncpus <= t->n_cpus)
		return 0;
	if (VEC_RESERVE(t->cpus, t->cap_cpus, ncpus))
		return -ENOMEM;
	memset(&t->cpus[t->n_cpus], 0, (ncpus - t->n_cpus) * sizeof(*t->cpus));
	t->n_cpus = ncpus;
	return 0;
}

static void add_cpus(struct prom_totals *t, const struct interval *iv)
{
	for (int i = 0; i < iv->ncpus; i++) {
		const struct cpu_row *r = &iv->rows[i];
		struct prom_cpu_total *c;

		if (!r->valid || !r->have_sirq || r->cpu < 0 || (size_t)r->cpu >= t->n_cpus)
			continue;
		t->cpus[r->cpu].seen = true;
		c = &t->cpus[r->cpu].v;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			if (isfinite(r->softirq_pct[v]) && r->softirq_pct[v] > 0)
				c->softirq_s[v] += r->softirq_pct[v] / 100.0 * iv->dt_s;
		if (isfinite(r->hardirq_pct) && r->hardirq_pct > 0)
			c->hardirq_s += r->hardirq_pct / 100.0 * iv->dt_s;
	}
}

static void add_classes(struct prom_totals *t, const struct sched_interval *si)
{
	struct class_slot *live = t->classes.live;

	/* threads is a gauge: only the latest interval counts */
	for (int i = 0; i < t->classes.n_live; i++)
		live[i].v.threads = live[i].v.procs = 0;
	t->other_class.v.threads = t->other_class.v.procs = 0;
	for (int p = 0; p < si->n_groups; p++) {
		const struct sched_group_stats *ps = &si->groups[p];

		for (int k = 0; k < ps->n_classes; k++) {
			const struct sched_class_stats *c = &ps->classes[k];
			/* on-CPU seconds, and a little for switches so a class
			 * that only sleeps and wakes still counts as active */
			double act = (double)c->oncpu_ns / 1e9 + (double)(c->vol + c->invol) * 1e-6;
			struct class_slot probe = { .v.pid = ps->pid }, *e;

			snprintf(probe.v.comm, sizeof(probe.v.comm), "%s", ps->comm);
			snprintf(probe.v.name, sizeof(probe.v.name), "%s", c->name);
			e = kind_get(&t->classes, &probe, act);
			if (!e)
				e = &t->other_class;
			e->m.used = true;
			slot_touch(&e->m, act);
			e->v.threads += c->threads;
			if (e != &t->other_class)
				e->v.procs = ps->n_procs;
			e->v.oncpu_s += (double)c->oncpu_ns / 1e9;
			e->v.vol += c->vol;
			e->v.invol += c->invol;
			if (c->runq_hist)
				hist_add(&e->v.runq, c->runq_hist, false);
			e->v.runq.sum_s += (double)c->runq_ns / 1e9;
			for (int s = 0; s < CT_STATES; s++)
				e->v.state_s[s] += (double)c->time.ns[s] / 1e9;
			e->v.user_s += (double)c->time.oncpu_user_ns / 1e9;
			e->v.sys_s += (double)c->time.oncpu_sys_ns / 1e9;
		}
	}
	slots_age(t->classes.live, t->classes.size, t->classes.n_live);
}

static void add_port_loss(struct prom_port_loss *l, const struct net_port_loss *w)
{
	l->seen = true;
	for (int k = 0; k < DBT_RETX_KINDS; k++)
		l->segs[k] += w->segs[k];
	l->rto_timer += w->rto_timer;
	l->tlp_probes += w->tlp_probes;
	l->stalls += w->stalls;
	l->drops += w->drops;
}

static void add_ports(struct prom_totals *t, const struct net_interval *ni)
{
	for (int p = 0; p < ni->n_ports; p++) {
		const struct net_port_stats *ps = &ni->ports[p];
		double act = (double)(ps->requests + ps->reads);
		struct port_slot probe = { .v.port = ps->port, .v.role = ps->role }, *e;

		e = kind_get(&t->ports, &probe, act);
		if (!e)
			e = &t->other_port;
		e->m.used = true;
		slot_touch(&e->m, act);
		hist_add(&e->v.resp, ps->resp_hist, true);
		hist_add(&e->v.rxq, ps->rxq_hist, true);
		e->v.staged += ps->staged;
		for (int st = 0; st < DBT_NET_STAGES; st++)
			if (ps->staged && !isnan(ps->stage_mean_us[st]))
				e->v.stage_s[st] += ps->stage_mean_us[st] * (double)ps->staged / 1e6;
		if (ni->port_loss)
			add_port_loss(&e->v.loss, &ni->port_loss[p]);
	}
	slots_age(t->ports.live, t->ports.size, t->ports.n_live);
}

static void add_devs(struct prom_totals *t, const struct net_interval *ni)
{
	for (int d = 0; d < ni->n_devs; d++) {
		const struct net_dev_stats *ds = &ni->devs[d];
		double pkts = (isfinite(ds->tx_pps) ? ds->tx_pps : 0) + (isfinite(ds->rx_pps) ? ds->rx_pps : 0);
		/* tx-queue samples, or packets for a device that queues none */
		double act = (double)ds->txq_samples + pkts * ni->dt_s;
		struct dev_slot probe = { .v.netns = ds->netns }, *e;

		snprintf(probe.v.name, sizeof(probe.v.name), "%s", ds->name);
		snprintf(probe.v.netns_name, sizeof(probe.v.netns_name), "%s", ds->foreign ? ds->netns_name : "");
		e = kind_get(&t->devs, &probe, act);
		if (!e)
			e = &t->other_dev;
		e->m.used = true;
		slot_touch(&e->m, act);
		hist_add(&e->v.txq, ds->txq_hist, true);
	}
	slots_age(t->devs.live, t->devs.size, t->devs.n_live);
}

/* Worse first, then by id. */
static int by_severity(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void add_findings(struct prom_totals *t, const struct finding_list *l)
{
	t->n_findings = 0;
	for (int i = 0; l && i < l->n; i++) {
		if (t->n_findings < t->top_n) {
			t->findings[t->n_findings++] = l->items[i];
			continue;
		}
		/* full: keep the worst */
		qsort(t->findings, (size_t)t->n_findings, sizeof(*t->findings), by_severity);
		if (l->items[i].severity > t->findings[t->n_findings - 1].severity)
			t->findings[t->n_findings - 1] = l->items[i];
	}
	qsort(t->findings, (size_t)t->n_findings, sizeof(*t->findings), by_severity);
}

int prom_totals_add(struct prom_totals *t, const struct interval *iv, const struct finding_list *found)
{
	int ncpus = iv->ncpus;

	/* rows carry their CPU number, which can be past ncpus */
	for (int i = 0; i < iv->ncpus; i++)
		if (iv->rows[i].cpu + 1 > ncpus)
			ncpus = iv->rows[i].cpu + 1;
	if (ncpus > 0 && grow_cpus(t, (size_t)ncpus))
		return -ENOMEM;
	add_cpus(t, iv);
	if (iv->have_sched)
		add_classes(t, &iv->sched);
	if (iv->have_net) {
		add_ports(t, &iv->net);
		add_devs(t, &iv->net);
		t->run.net_skipped_requests += iv->net.skipped;
	}
	if (iv->have_loss && prom_loss_add(&t->loss, &iv->loss))
		return -ENOMEM;
	add_findings(t, found);
	t->run.intervals++;
	t->run.interval_s = iv->dt_s;
	t->run.lost_events = iv->lost_events;
	t->run.thread_evictions = iv->thread_evictions;
	bpf_cost_add(&t->run.bpf, &iv->bpf);
	return 0;
}

/* --- reading ---------------------------------------------------------------- */

int prom_totals_limit(const struct prom_totals *t)
{
	return t->top_n;
}

const struct prom_class_total *prom_totals_class(const struct prom_totals *t, int i)
{
	const struct class_slot *s = kind_at(&t->classes, &t->other_class, i);

	return s ? &s->v : NULL;
}

const struct prom_port_total *prom_totals_port(const struct prom_totals *t, int i)
{
	const struct port_slot *s = kind_at(&t->ports, &t->other_port, i);

	return s ? &s->v : NULL;
}

const struct prom_dev_total *prom_totals_dev(const struct prom_totals *t, int i)
{
	const struct dev_slot *s = kind_at(&t->devs, &t->other_dev, i);

	return s ? &s->v : NULL;
}

int prom_totals_ncpus(const struct prom_totals *t)
{
	return (int)t->n_cpus;
}

const struct prom_cpu_total *prom_totals_cpu(const struct prom_totals *t, int cpu)
{
	if (cpu < 0 || (size_t)cpu >= t->n_cpus || !t->cpus[cpu].seen)
		return NULL;
	return &t->cpus[cpu].v;
}

int prom_totals_n_findings(const struct prom_totals *t)
{
	return t->n_findings;
}

const struct finding *prom_totals_finding(const struct prom_totals *t, int i)
{
	return i >= 0 && i < t->n_findings ? &t->findings[i] : NULL;
}

const struct prom_run_totals *prom_totals_run(const struct prom_totals *t)
{
	return &t->run;
}

const struct prom_loss *prom_totals_loss(const struct prom_totals *t)
{
	return &t->loss;
}
