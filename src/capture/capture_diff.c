#include "capture/capture_diff.h"
#include "model/net_join.h"
#include "figures/figures.h"
#include "core/vec.h"
#include "model/net_loss.h"
#include "model/softirq_vec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A row key and the two things it stands for (either may be NULL). */
struct pair {
	char key[96];
	const void *a, *b;
	double rank;
};

struct pairs {
	struct pair *p;
	int n;
	size_t cap;
};

const char *cdiff_dir_name(enum cdiff_dir dir)
{
	static const char *const names[CDIFF_DIRS] = {
		"same", "better", "worse", "up", "down", "changed", "new", "gone",
	};

	return dir >= 0 && dir < CDIFF_DIRS ? names[dir] : "?";
}

static struct cdiff_row *new_row(struct capture_diff *d, enum cdiff_section_id id, const char *key,
				 const char *metric)
{
	struct cdiff_section *s = &d->sec[id];
	struct cdiff_row *r;

	if (VEC_RESERVE(s->rows, s->cap, (size_t)s->n + 1))
		return NULL;
	r = &s->rows[s->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	r->before = r->after = r->change = r->change_pct = NAN;
	return r;
}

/* How a change is judged (figures/figure.h): which way is better, and
 * the change that is still noise (absolute, and relative to the larger
 * value). */
static enum cdiff_dir judge(const struct fig_diff *sp, double a, double b)
{
	double delta = b - a, big = fmax(fabs(a), fabs(b));

	if (isnan(a))
		return CDIFF_NEW;
	if (isnan(b))
		return CDIFF_GONE;
	if (fabs(delta) <= sp->abs_floor || fabs(delta) <= sp->rel_floor * big)
		return CDIFF_SAME;
	if (sp->better == FIG_NEUTRAL)
		return delta > 0 ? CDIFF_UP : CDIFF_DOWN;
	return (delta < 0) == (sp->better == FIG_LOWER) ? CDIFF_BETTER : CDIFF_WORSE;
}

/* A numeric row; none when neither capture has a number. */
static int num_row(struct capture_diff *d, enum cdiff_section_id id, const char *key,
		   const struct fig_diff *sp, const char *metric, double a, double b)
{
	struct cdiff_row *r;

	if (isnan(a) && isnan(b))
		return 0;
	r = new_row(d, id, key, metric ? metric : sp->metric);
	if (!r)
		return -ENOMEM;
	r->before = a;
	r->after = b;
	if (!isnan(a) && !isnan(b)) {
		r->change = b - a;
		if (a != 0)
			r->change_pct = 100.0 * (b - a) / fabs(a);
	}
	r->dir = judge(sp, a, b);
	d->count[r->dir]++;
	return 0;
}

static int text_row(struct capture_diff *d, enum cdiff_section_id id, const char *key,
		    const char *metric, const char *a, const char *b)
{
	struct cdiff_row *r;

	if (!a && !b)
		return 0;
	r = new_row(d, id, key, metric);
	if (!r)
		return -ENOMEM;
	r->is_text = true;
	snprintf(r->before_text, sizeof(r->before_text), "%s", a ? a : "");
	snprintf(r->after_text, sizeof(r->after_text), "%s", b ? b : "");
	r->dir = !a ? CDIFF_NEW : !b ? CDIFF_GONE : strcmp(a, b) ? CDIFF_CHANGED : CDIFF_SAME;
	d->count[r->dir]++;
	return 0;
}

/* --- keys ---------------------------------------------------------------- */

static int pairs_add(struct pairs *ps, const char *key, const void *item, bool after, double rank)
{
	struct pair *p = NULL;

	for (int i = 0; i < ps->n && !p; i++)
		if (!strcmp(ps->p[i].key, key))
			p = &ps->p[i];
	if (!p) {
		int err = VEC_RESERVE(ps->p, ps->cap, (size_t)ps->n + 1);

		if (err)
			return err;
		p = &ps->p[ps->n++];
		memset(p, 0, sizeof(*p));
		snprintf(p->key, sizeof(p->key), "%s", key);
	}
	if (after)
		p->b = item;
	else
		p->a = item;
	if (rank > p->rank)
		p->rank = rank;
	return 0;
}

static int by_rank(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->key, b->key);
}

static void pairs_top(struct pairs *ps, int top_n)
{
	/* none at all (a capture without the section): ps->p is NULL, which
	 * qsort must not be given even for no items */
	if (ps->n > 1)
		qsort(ps->p, (size_t)ps->n, sizeof(*ps->p), by_rank);
	if (top_n > 0 && ps->n > top_n)
		ps->n = top_n;
}

/* "mysqld", or "mysqld#2" for the second busiest process of that name:
 * PIDs differ between runs, names and ranks do not. */
static void proc_key(const char (*comms)[16], int idx, char *buf, size_t len)
{
	int ord = 1;

	for (int i = 0; i < idx; i++)
		ord += !strcmp(comms[i], comms[idx]);
	if (ord > 1)
		snprintf(buf, len, "%s#%d", comms[idx], ord);
	else
		snprintf(buf, len, "%s", comms[idx]);
}

/* "mysqld#2/TNT_*"; just the process key for the class named after it. */
static void class_key(const char *proc, const char *comm, const char *cls, char *buf, size_t len)
{
	if (!strcmp(comm, cls))
		snprintf(buf, len, "%s", proc);
	else
		snprintf(buf, len, "%.31s/%.63s", proc, cls);
}

/* The process key and comm of a PID in a capture, "pid N" when it is
 * not listed. */
static void pid_key(const struct capture *c, int pid, char *buf, size_t len, char *comm)
{
	const struct sched_summary *s = &c->sched;
	char comms[64][16];

	for (int i = 0; i < s->n_groups; i++) {
		if (s->groups[i].pid != pid)
			continue;
		memcpy(comm, s->groups[i].comm, 16);
		if (i < 64) {
			for (int k = 0; k <= i; k++)
				memcpy(comms[k], s->groups[k].comm, 16);
			proc_key((const char (*)[16])comms, i, buf, len);
		} else {
			snprintf(buf, len, "%s", s->groups[i].comm);
		}
		return;
	}
	for (int i = 0; i < c->clock.n_groups; i++)
		if (c->clock.groups[i].pid == pid) {
			snprintf(buf, len, "%s", c->clock.groups[i].comm);
			memcpy(comm, c->clock.groups[i].comm, 16);
			return;
		}
	snprintf(buf, len, "pid %d", pid);
	comm[0] = 0;
}

/* --- sections ------------------------------------------------------------ */

const struct cdiff_section_def cdiff_sections[CDIFF_SECTIONS] = {
	[CDIFF_SOFTIRQ] = { "softirq", "softirq share per CPU (% of wall time)", { &fig_cpus } },
	[CDIFF_CLASSES] = { "classes", "thread classes (process/class)", { &fig_classes, &fig_time } },
	[CDIFF_PORTS] = { "ports", "service ports (PORT/ROLE)", { &fig_ports, &fig_port_loss } },
	[CDIFF_DEVICES] = { "devices", "network devices", { &fig_devices, &fig_dev_loss } },
	[CDIFF_CLOCK] = { "clock", "clock reads (process/class)", { &fig_clock } },
	[CDIFF_FINDINGS] = { "findings", "findings (subject, id: severity)", { NULL } },
	[CDIFF_OVERHEAD] = { "overhead", "dbtrace's own BPF programs (family, or all)", { &fig_bpf } },
	[CDIFF_JOINED] = { "joined", "service ports joined across several hosts' captures (by port)",
			   { &fig_joined } },
};

/* The tables of a section, k-th (see cdiff_sections). */
#define TABLE(id, k) (cdiff_sections[id].tables[k])

static const struct cpu_row *cpu_of(const struct capture *c, int cpu)
{
	for (int i = 0; i < c->n_cpus; i++)
		if (c->cpus[i].cpu == cpu)
			return &c->cpus[i];
	return NULL;
}

static bool has_sirq(const struct capture *c)
{
	for (int i = 0; i < c->n_cpus; i++)
		if (c->cpus[i].have_sirq)
			return true;
	return false;
}

/* The rows of one key (a class, a port) for the figures of t diff
 * compares, a and b its rows in the two captures (either NULL: not in
 * that capture). A figure shown only from a size (a state a class was
 * hardly in) has no row when neither side reaches it. */
static int figure_rows(struct capture_diff *d, enum cdiff_section_id id, const char *key,
		       const struct fig_table *t, const void *a, const void *b)
{
	struct fig_ref refs[64];
	int n = figure_diff_rows(t, refs, 64), err = 0;

	if (n < 0)
		return -ENOMEM;
	for (int i = 0; i < n && i < 64 && !err; i++) {
		const struct fig_ref *r = &refs[i];
		double x = a ? figure_value(r->f, a, r->key) : NAN, y = b ? figure_value(r->f, b, r->key) : NAN;
		char metric[32];

		if (r->diff->shown_from > 0 && !(x >= r->diff->shown_from) && !(y >= r->diff->shown_from))
			continue;
		snprintf(metric, sizeof(metric), r->diff->metric ? r->diff->metric : r->f->name,
			 r->f->keys ? r->f->keys->name(r->key) : "");
		err = num_row(d, id, key, r->diff, metric, x, y);
	}
	return err;
}

static int softirq_section(struct capture_diff *d, const struct capture *a, const struct capture *b)
{
	int max_cpu = -1, err = 0;

	for (int i = 0; i < a->n_cpus; i++)
		max_cpu = a->cpus[i].cpu > max_cpu ? a->cpus[i].cpu : max_cpu;
	for (int i = 0; i < b->n_cpus; i++)
		max_cpu = b->cpus[i].cpu > max_cpu ? b->cpus[i].cpu : max_cpu;
	for (int cpu = 0; cpu <= max_cpu && !err; cpu++) {
		const struct cpu_row *ra = cpu_of(a, cpu), *rb = cpu_of(b, cpu);
		char key[16];

		if (!ra && !rb)
			continue;
		snprintf(key, sizeof(key), "cpu%d", cpu);
		err = figure_rows(d, CDIFF_SOFTIRQ, key, TABLE(CDIFF_SOFTIRQ, 0), ra, rb);
	}
	return err;
}

static int class_pairs(struct pairs *ps, const struct sched_summary *s, bool after)
{
	char (*comms)[16] = calloc((size_t)s->n_groups + 1, 16);
	int err = 0;

	if (!comms)
		return -ENOMEM;
	for (int i = 0; i < s->n_groups; i++)
		memcpy(comms[i], s->groups[i].comm, 16);
	for (int i = 0; i < s->n_groups && !err; i++) {
		char pk[48], key[96];

		proc_key((const char (*)[16])comms, i, pk, sizeof(pk));
		for (int k = 0; k < s->groups[i].n_classes && !err; k++) {
			const struct sched_class_stats *c = &s->groups[i].classes[k];

			class_key(pk, s->groups[i].comm, c->name, key, sizeof(key));
			err = pairs_add(ps, key, c, after, isnan(c->oncpu_pct) ? 0 : c->oncpu_pct);
		}
	}
	free(comms);
	return err;
}

static int classes_section(struct capture_diff *d, const struct capture *a, const struct capture *b,
			   int top_n)
{
	struct pairs ps = { 0 };
	int err = class_pairs(&ps, &a->sched, false);

	if (!err)
		err = class_pairs(&ps, &b->sched, true);
	pairs_top(&ps, top_n);
	for (int i = 0; i < ps.n && !err; i++) {
		/* both tables' rows are the class's */
		for (int k = 0; k < 2 && !err; k++)
			err = figure_rows(d, CDIFF_CLASSES, ps.p[i].key, TABLE(CDIFF_CLASSES, k), ps.p[i].a,
					  ps.p[i].b);
	}
	free(ps.p);
	return err;
}

/* The loss family's row beside a port or device row of a capture (NULL
 * when that capture has none). */
static const struct net_port_loss *port_loss_of(const struct net_interval *ni, const struct net_port_stats *p)
{
	return p && ni->port_loss ? &ni->port_loss[p - ni->ports] : NULL;
}

static const struct net_dev_loss *dev_loss_of(const struct net_interval *ni, const struct net_dev_stats *v)
{
	return v && ni->dev_loss ? &ni->dev_loss[v - ni->devs] : NULL;
}

static double zero_nan(double v)
{
	return isnan(v) ? 0 : v;
}

static int net_pairs(struct pairs *ports, struct pairs *devs, const struct net_interval *ni, bool after)
{
	int err = 0;

	for (int i = 0; i < ni->n_ports && !err; i++) {
		const struct net_port_stats *p = &ni->ports[i];
		char key[32];

		snprintf(key, sizeof(key), "%u/%s", p->port, net_role_name(p->role));
		err = pairs_add(ports, key, p, after, zero_nan(p->requests_per_s) + 1);
	}
	for (int i = 0; i < ni->n_devs && !err; i++) {
		const struct net_dev_stats *v = &ni->devs[i];
		double busy = zero_nan(v->tx_mbps) + zero_nan(v->rx_mbps);
		char key[96];

		if (v->foreign)
			snprintf(key, sizeof(key), "%s@%s", v->name, v->netns_name);
		else
			snprintf(key, sizeof(key), "%s", v->name);
		/* rank 0: idle (dropped when it is idle on both sides) */
		err = pairs_add(devs, key, v, after,
				busy + zero_nan(v->tx_pps) / 1e6 + zero_nan(v->rx_pps) / 1e6 +
				(double)v->txq_samples / 1e9);
	}
	return err;
}

static int net_sections(struct capture_diff *d, const struct capture *a, const struct capture *b,
			int top_n)
{
	struct pairs ports = { 0 }, devs = { 0 };
	int err = net_pairs(&ports, &devs, &a->net, false);

	if (!err)
		err = net_pairs(&ports, &devs, &b->net, true);
	pairs_top(&ports, top_n);
	pairs_top(&devs, top_n);
	/* devices idle on both sides say nothing */
	while (devs.n && devs.p[devs.n - 1].rank <= 0)
		devs.n--;
	for (int i = 0; i < ports.n && !err; i++)
		err = figure_rows(d, CDIFF_PORTS, ports.p[i].key, TABLE(CDIFF_PORTS, 0), ports.p[i].a, ports.p[i].b);
	for (int i = 0; i < ports.n && !err; i++)
		err = figure_rows(d, CDIFF_PORTS, ports.p[i].key, TABLE(CDIFF_PORTS, 1),
				  port_loss_of(&a->net, ports.p[i].a),
				  port_loss_of(&b->net, ports.p[i].b));
	for (int i = 0; i < devs.n && !err; i++) {
		const struct net_dev_stats *x = devs.p[i].a, *y = devs.p[i].b;

		err = figure_rows(d, CDIFF_DEVICES, devs.p[i].key, TABLE(CDIFF_DEVICES, 0), x, y);
		if (!err)
			err = figure_rows(d, CDIFF_DEVICES, devs.p[i].key, TABLE(CDIFF_DEVICES, 1),
					  dev_loss_of(&a->net, x),
					  dev_loss_of(&b->net, y));
		/* the one text a diff compares: a qdisc added or changed */
		if (!err)
			err = text_row(d, CDIFF_DEVICES, devs.p[i].key, "qdisc",
				       x && x->qdisc_text[0] ? x->qdisc_text : x ? "unknown" : NULL,
				       y && y->qdisc_text[0] ? y->qdisc_text : y ? "unknown" : NULL);
	}
	free(ports.p);
	free(devs.p);
	return err;
}

static int clock_pairs(struct pairs *ps, const struct clock_interval *ci, bool after)
{
	char (*comms)[16] = calloc((size_t)ci->n_groups + 1, 16);
	int err = 0;

	if (!comms)
		return -ENOMEM;
	for (int i = 0; i < ci->n_groups; i++)
		memcpy(comms[i], ci->groups[i].comm, 16);
	for (int i = 0; i < ci->n_groups && !err; i++) {
		char pk[48], key[96];

		proc_key((const char (*)[16])comms, i, pk, sizeof(pk));
		for (int k = 0; k < ci->groups[i].n_classes && !err; k++) {
			const struct clock_stats *c = &ci->groups[i].classes[k];
			double clock_time = zero_nan(c->vdso_pct) + zero_nan(c->sys_pct);

			/* only the classes that read the clock at all */
			if (clock_time <= 0 && zero_nan(c->reads_per_s) <= 0)
				continue;
			class_key(pk, ci->groups[i].comm, c->name, key, sizeof(key));
			err = pairs_add(ps, key, c, after,
					clock_time * (double)c->samples + zero_nan(c->reads_per_s));
		}
	}
	free(comms);
	return err;
}

static int clock_section(struct capture_diff *d, const struct capture *a, const struct capture *b,
			 int top_n)
{
	struct pairs ps = { 0 };
	int err = clock_pairs(&ps, &a->clock, false);

	if (!err)
		err = clock_pairs(&ps, &b->clock, true);
	pairs_top(&ps, top_n);
	for (int i = 0; i < ps.n && !err; i++)
		err = figure_rows(d, CDIFF_CLOCK, ps.p[i].key, TABLE(CDIFF_CLOCK, 0), ps.p[i].a, ps.p[i].b);
	free(ps.p);
	return err;
}

/* What a finding is about, in terms that survive a rerun. */
static void finding_subject(const struct capture *c, const struct finding *f, char *buf, size_t len)
{
	char pk[64], comm[16];

	if (f->pid) {
		pid_key(c, f->pid, pk, sizeof(pk), comm);
		if (f->class_name[0])
			class_key(pk, comm, f->class_name, buf, len);
		else
			snprintf(buf, len, "%s", pk);
	} else {
		snprintf(buf, len, "%s", f->class_name[0] ? f->class_name : "host");
	}
}

static int finding_pairs(struct pairs *ps, const struct capture *c, bool after)
{
	int err = 0;

	for (int i = 0; i < c->findings.n && !err; i++) {
		const struct finding *f = &c->findings.items[i];
		char subject[96], key[160];

		finding_subject(c, f, subject, sizeof(subject));
		snprintf(key, sizeof(key), "%s\t%s", subject, f->id);
		err = pairs_add(ps, key, f, after, (double)f->severity);
	}
	return err;
}

static int findings_section(struct capture_diff *d, const struct capture *a, const struct capture *b)
{
	struct pairs ps = { 0 };
	int err = finding_pairs(&ps, a, false);

	if (!err)
		err = finding_pairs(&ps, b, true);
	pairs_top(&ps, 0);
	for (int i = 0; i < ps.n && !err; i++) {
		const struct finding *x = ps.p[i].a, *y = ps.p[i].b;
		char *tab = strchr(ps.p[i].key, '\t');
		struct cdiff_row *r;

		*tab = 0;
		r = new_row(d, CDIFF_FINDINGS, ps.p[i].key, tab + 1);
		if (!r) {
			err = -ENOMEM;
			break;
		}
		r->is_text = true;
		r->before = x ? x->severity : NAN;
		r->after = y ? y->severity : NAN;
		snprintf(r->before_text, sizeof(r->before_text), "%s", x ? finding_severity_name(x->severity) : "");
		snprintf(r->after_text, sizeof(r->after_text), "%s", y ? finding_severity_name(y->severity) : "");
		snprintf(r->note, sizeof(r->note), "%s", (y ? y : x)->title);
		r->dir = !x ? CDIFF_NEW : !y ? CDIFF_GONE
			 : y->severity > x->severity ? CDIFF_WORSE
			 : y->severity < x->severity ? CDIFF_BETTER : CDIFF_SAME;
		d->count[r->dir]++;
	}
	free(ps.p);
	return err;
}

static const struct bpf_cost_row *bpf_row_of(const struct capture *c, int family)
{
	if (!c->bpf.have || !(c->bpf.measured_s > 0))
		return NULL;
	if (family == FAM_COUNT)
		return &c->bpf.total;
	for (int i = 0; i < c->bpf.n; i++)
		if (c->bpf.fams[i].family == family)
			return &c->bpf.fams[i];
	return NULL;
}

/* dbtrace's own programs: one row of all of them, then each family. */
static int overhead_rows(struct capture_diff *d, const struct capture *a, const struct capture *b, int f)
{
	const struct bpf_cost_row *x = bpf_row_of(a, f), *y = bpf_row_of(b, f);

	if (!x && !y)
		return 0;
	return figure_rows(d, CDIFF_OVERHEAD, f == FAM_COUNT ? "all" : dbt_family_names[f], TABLE(CDIFF_OVERHEAD, 0),
			   x, y);
}

static int overhead_section(struct capture_diff *d, const struct capture *a, const struct capture *b)
{
	int err = overhead_rows(d, a, b, FAM_COUNT);

	for (int f = 0; f < FAM_COUNT && !err; f++)
		err = overhead_rows(d, a, b, f);
	return err;
}

/* One side's joined paths: its first capture and the others. */
static int side_joins(const struct capture *c, const struct capture *const *others, int n_others,
		      struct net_joined *out)
{
	const struct net_interval *nets[DBT_JOIN_HOSTS] = { c->have_net ? &c->net : NULL };
	int n = 1;

	for (int i = 0; i < n_others && n < DBT_JOIN_HOSTS; i++, n++)
		nets[n] = others[i]->have_net ? &others[i]->net : NULL;
	return net_join_paths(nets, n, out, NET_JOIN_MAX);
}

static const struct net_joined *join_of(const struct net_joined *j, int n, uint16_t port)
{
	for (int i = 0; i < n; i++)
		if (j[i].port == port)
			return &j[i];
	return NULL;
}

/* Ports joined across hosts, by port, on either side. */
static int joined_section(struct capture_diff *d, const struct capture *a, const struct capture *b,
			  const struct cdiff_opts *o)
{
	struct net_joined ja[NET_JOIN_MAX], jb[NET_JOIN_MAX];
	int na = side_joins(a, o ? o->before_others : NULL, o ? o->n_before_others : 0, ja);
	int nb = side_joins(b, o ? o->after_others : NULL, o ? o->n_after_others : 0, jb);
	int err = 0;

	d->sec[CDIFF_JOINED].in_before = na > 0;
	d->sec[CDIFF_JOINED].in_after = nb > 0;
	for (int i = 0; i < na && !err; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%u", ja[i].port);
		err = figure_rows(d, CDIFF_JOINED, key, TABLE(CDIFF_JOINED, 0), &ja[i], join_of(jb, nb, ja[i].port));
	}
	for (int i = 0; i < nb && !err; i++) {
		char key[16];

		if (join_of(ja, na, jb[i].port))
			continue;
		snprintf(key, sizeof(key), "%u", jb[i].port);
		err = figure_rows(d, CDIFF_JOINED, key, TABLE(CDIFF_JOINED, 0), NULL, &jb[i]);
	}
	return err;
}

int capture_diff_compute(const struct capture *a, const struct capture *b,
			 const struct cdiff_opts *opts, struct capture_diff *d)
{
	int top_n = opts && opts->top_n > 0 ? opts->top_n : 20;
	int err;

	memset(d, 0, sizeof(*d));
	for (int i = 0; i < CDIFF_SECTIONS; i++) {
		d->sec[i].name = cdiff_sections[i].name;
		d->sec[i].title = cdiff_sections[i].title;
	}
	d->sec[CDIFF_SOFTIRQ].in_before = has_sirq(a);
	d->sec[CDIFF_SOFTIRQ].in_after = has_sirq(b);
	d->sec[CDIFF_CLASSES].in_before = a->have_sched;
	d->sec[CDIFF_CLASSES].in_after = b->have_sched;
	d->sec[CDIFF_PORTS].in_before = d->sec[CDIFF_DEVICES].in_before = a->have_net;
	d->sec[CDIFF_PORTS].in_after = d->sec[CDIFF_DEVICES].in_after = b->have_net;
	d->sec[CDIFF_CLOCK].in_before = a->have_clock;
	d->sec[CDIFF_CLOCK].in_after = b->have_clock;
	d->sec[CDIFF_FINDINGS].in_before = d->sec[CDIFF_FINDINGS].in_after = true;
	d->sec[CDIFF_OVERHEAD].in_before = bpf_row_of(a, FAM_COUNT) != NULL;
	d->sec[CDIFF_OVERHEAD].in_after = bpf_row_of(b, FAM_COUNT) != NULL;

	err = softirq_section(d, a, b);
	if (!err)
		err = classes_section(d, a, b, top_n);
	if (!err)
		err = net_sections(d, a, b, top_n);
	if (!err)
		err = clock_section(d, a, b, top_n);
	if (!err)
		err = findings_section(d, a, b);
	if (!err)
		err = overhead_section(d, a, b);
	if (!err)
		err = joined_section(d, a, b, opts);
	if (err)
		capture_diff_free(d);
	return err;
}

void capture_diff_free(struct capture_diff *d)
{
	for (int i = 0; i < CDIFF_SECTIONS; i++)
		free(d->sec[i].rows);
	memset(d, 0, sizeof(*d));
}

const struct cdiff_row *cdiff_find(const struct capture_diff *d, enum cdiff_section_id sec,
				   const char *key, const char *metric)
{
	const struct cdiff_section *s = &d->sec[sec];

	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->rows[i].key, key) && !strcmp(s->rows[i].metric, metric))
			return &s->rows[i];
	return NULL;
}
