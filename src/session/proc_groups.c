#include "session/proc_groups.h"
#include "core/vec.h"
#include "model/load_group.h"
#include "model/proc_title.h"
#include "sysinfo/proc_scan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A process is read again in its first ticks: a fork seen before its
 * exec, a PostgreSQL backend before it sets its title. */
#define REREADS 3

bool proc_groups_cgroup_in(const char *cg, const char *sel)
{
	size_t n = strlen(sel);

	while (n > 1 && sel[n - 1] == '/')
		n--;
	if (n == 1 && sel[0] == '/')
		return cg[0] == '/';
	return !strncmp(cg, sel, n) && (cg[n] == '\0' || cg[n] == '/');
}

static int by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

static int entry_by_pid(const void *a, const void *b)
{
	const struct proc_groups_entry *x = a, *y = b;

	return by_int(&x->id.pid, &y->id.pid);
}

/* The pids of cur's threads, sorted, once each, into g->selected (as
 * scratch: it is rebuilt after). */
static int snapshot_pids(struct proc_groups *g, const struct world_snapshot *cur, size_t *n_out)
{
	size_t n = 0, total = (cur->have_sched ? (size_t)cur->sched.n : 0) +
			      (cur->have_clock ? (size_t)cur->clock.n : 0);

	if (VEC_RESERVE(g->selected, g->selected_cap, total + (size_t)g->n_pids + 1))
		return -ENOMEM;
	/* the recorded command is read even while it sleeps: its processes'
	 * chains of parents lead to it */
	if (g->load_pid)
		g->selected[n++] = g->load_pid;
	for (int i = 0; cur->have_sched && i < cur->sched.n; i++)
		g->selected[n++] = (int)cur->sched.t[i].pid;
	for (int i = 0; cur->have_clock && i < cur->clock.n; i++)
		g->selected[n++] = (int)cur->clock.t[i].c.pid;
	qsort(g->selected, n, sizeof(*g->selected), by_int);
	*n_out = 0;
	for (size_t i = 0; i < n; i++)
		if (g->selected[i] > 0 && (!*n_out || g->selected[*n_out - 1] != g->selected[i]))
			g->selected[(*n_out)++] = g->selected[i];
	return 0;
}

static void read_entry(const char *root, struct proc_groups_entry *e, int pid, unsigned long tick)
{
	char title[TCLASS_NAME_MAX];

	e->reads++;
	e->read_tick = tick;
	e->known = !dbt_proc_identity_read(root, pid, &e->id);
	e->id.pid = pid;
	if (!e->known)
		return;   /* gone: keeps what an earlier read saw, if any */
	if (proc_title_class(e->id.title, sizeof(e->id.title), title, sizeof(title)) == 1)
		memcpy(e->title_class, title, sizeof(title));
	else
		e->title_class[0] = '\0';
}

/* Fresh entries for pids[0..n): kept ones moved over, new ones read. */
static int refresh(struct proc_groups *g, const char *root, const int *pids, size_t n)
{
	struct proc_groups_entry *e = calloc(n ? n : 1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct proc_groups_entry key = { .id.pid = pids[i] };
		const struct proc_groups_entry *old =
			g->n ? bsearch(&key, g->e, g->n, sizeof(key), entry_by_pid) : NULL;

		if (old)
			e[i] = *old;
		if (!old || (old->reads < REREADS && old->read_tick != g->tick)) {
			struct proc_groups_entry prev = e[i];

			read_entry(root, &e[i], pids[i], g->tick);
			if (!e[i].known && prev.known) {
				e[i] = prev;   /* exited since: what it was */
				e[i].reads = REREADS;
			}
		}
	}
	free(g->e);
	g->e = e;
	g->n = g->cap = n;
	return 0;
}

/* The parents of pids[0..*n) that are not among them, read too (pids has
 * room for 2 * *n). */
static int add_parents(struct proc_groups *g, const char *root, int *pids, size_t *n)
{
	size_t m = *n;

	for (size_t i = 0; i < *n; i++) {
		int pp = g->e[i].id.ppid;

		if (g->e[i].known && pp > 1 &&
		    !bsearch(&pp, pids, *n, sizeof(*pids), by_int))
			pids[m++] = pp;
	}
	if (m == *n)
		return 0;
	qsort(pids, m, sizeof(*pids), by_int);
	*n = 0;
	for (size_t i = 0; i < m; i++)
		if (!*n || pids[*n - 1] != pids[i])
			pids[(*n)++] = pids[i];
	return refresh(g, root, pids, *n);
}

/* -p's pids, then every process of a --cgroup; with either, the
 * recorded command too (its group is always shown). */
static int select_pids(struct proc_groups *g)
{
	g->n_selected = 0;
	if (VEC_RESERVE(g->selected, g->selected_cap, g->n + (size_t)g->n_pids + 1))
		return -ENOMEM;
	for (int i = 0; i < g->n_pids; i++)
		g->selected[g->n_selected++] = g->pids[i];
	if (g->load_pid && (g->n_pids || g->n_cgroups))
		g->selected[g->n_selected++] = g->load_pid;
	for (size_t i = 0; g->n_cgroups && i < g->n; i++)
		for (int c = 0; c < g->n_cgroups; c++)
			if (g->e[i].known && g->e[i].id.cgroup[0] &&
			    proc_groups_cgroup_in(g->e[i].id.cgroup, g->cgroups[c])) {
				g->selected[g->n_selected++] = g->e[i].id.pid;
				break;
			}
	return 0;
}

/* The groups of the processes in g->e, and the selection. */
static int form(struct proc_groups *g)
{
	size_t n = g->n;
	struct proc_group_proc *p = calloc(n ? n : 1, sizeof(*p));
	int err;

	if (!p || VEC_RESERVE(g->procs, g->procs_cap, n ? n : 1)) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct proc_groups_entry *e = &g->e[i];

		p[i] = (struct proc_group_proc){
			.pid = (uint32_t)e->id.pid,
			/* unknown: its own parent, so it joins no siblings */
			.ppid = (uint32_t)(e->known ? e->id.ppid : e->id.pid),
			.exe = e->id.exe, .comm = e->id.comm, .cgroup = e->id.cgroup,
			.load = e->load,
		};
	}
	err = proc_group_form(p, n, g->by);
	if (!err)
		err = proc_group_join_load(p, n, (uint32_t)g->load_pid);
	for (size_t i = 0; !err && i < n; i++)
		g->e[i].load = p[i].load;
	for (size_t i = 0; !err && i < n; i++)
		g->procs[i] = (struct class_map_proc){
			.pid = p[i].pid,
			.group = p[i].key,
			.title_class = g->e[i].title_class[0] ? g->e[i].title_class : NULL,
		};
	free(p);
	if (!err)
		err = select_pids(g);
	return err;
}

/* Reads pids[0..n) (sorted, unique; room for 2n) and their parents. */
static int read_pids(struct proc_groups *g, const char *root, int *pids, size_t n)
{
	int err;

	g->tick++;
	err = refresh(g, root, pids, n);
	if (!err)
		err = add_parents(g, root, pids, &n);
	return err ? err : form(g);
}

int proc_groups_update(struct proc_groups *g, const struct world_snapshot *cur)
{
	size_t n = 0;
	int *pids, err;

	err = snapshot_pids(g, cur, &n);
	if (err)
		return err;
	pids = malloc(sizeof(*pids) * (n ? 2 * n : 1));
	if (!pids)
		return -ENOMEM;
	memcpy(pids, g->selected, sizeof(*pids) * n);
	err = read_pids(g, NULL, pids, n);
	free(pids);
	return err;
}

struct pid_list {
	int *v;
	size_t n, cap;
};

static int add_pid(void *ctx, int pid)
{
	struct pid_list *l = ctx;

	if (VEC_RESERVE(l->v, l->cap, 2 * (l->n + 1)))
		return -ENOMEM;
	l->v[l->n++] = pid;
	return 0;
}

int proc_groups_scan(struct proc_groups *g, const char *root)
{
	struct pid_list l = { 0 };
	int err = dbt_proc_for_each_pid(root, add_pid, &l);

	if (!err && VEC_RESERVE(l.v, l.cap, 2 * l.n + 1))
		err = -ENOMEM;
	if (!err) {
		qsort(l.v, l.n, sizeof(*l.v), by_int);
		err = read_pids(g, root, l.v, l.n);
	}
	free(l.v);
	return err;
}

int proc_groups_key(const struct proc_groups *g, int pid)
{
	struct proc_groups_entry key = { .id.pid = pid };
	const struct proc_groups_entry *e;

	if (!g || !g->n)
		return pid;
	e = bsearch(&key, g->e, g->n, sizeof(key), entry_by_pid);
	return e ? (int)g->procs[e - g->e].group : pid;
}

static int cpu_by_pid(const void *a, const void *b)
{
	return by_int(&((const struct dbt_proc_cpu *)a)->pid, &((const struct dbt_proc_cpu *)b)->pid);
}

void proc_groups_fold_cpu(const struct proc_groups *g, struct dbt_proc_cpu *procs, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		int key = proc_groups_key(g, procs[i].pid);

		if (key != procs[i].pid) {
			procs[i].pid = key;
			procs[i].comm[0] = '\0';   /* a member's: the leader's is not known here */
		}
	}
	qsort(procs, *n, sizeof(*procs), cpu_by_pid);
	for (size_t i = 0; i < *n; i++) {
		if (k && procs[k - 1].pid == procs[i].pid) {
			procs[k - 1].ticks += procs[i].ticks;
			if (!procs[k - 1].comm[0])
				memcpy(procs[k - 1].comm, procs[i].comm, sizeof(procs[i].comm));
			continue;
		}
		procs[k++] = procs[i];
	}
	*n = k;
}

int proc_groups_task_cpus(const struct proc_groups *g, const char *root, int pid,
			  struct dbt_task_cpus *out)
{
	int key = proc_groups_key(g, pid), err;
	struct dbt_task_cpus tc;
	bool any = false;

	/* the leader first: its comm names the group, its set is the norm */
	err = dbt_proc_task_cpus(root, key, out);
	if (!err)
		any = true;
	else
		memset(out, 0, sizeof(*out));
	for (size_t i = 0; g && i < g->n; i++) {
		if ((int)g->procs[i].group != key || (int)g->procs[i].pid == key)
			continue;
		if (dbt_proc_task_cpus(root, (int)g->procs[i].pid, &tc))
			continue;   /* gone */
		if (!any) {
			*out = tc;
			any = true;
			continue;
		}
		/* a member bound elsewhere: all its threads differ */
		out->n_differ += dbt_cpuset_equal(&tc.allowed, &out->allowed) ? tc.n_differ : tc.n_threads;
		out->n_threads += tc.n_threads;
		dbt_cpuset_or(&out->allowed, &out->allowed, &tc.allowed);
	}
	return any ? 0 : err;
}

void proc_groups_free(struct proc_groups *g)
{
	free(g->e);
	free(g->procs);
	free(g->selected);
	memset(g, 0, sizeof(*g));
}

int proc_groups_record(const struct proc_groups *g, const struct sched_interval *si,
		       struct proc_group_log *log)
{
	uint32_t *pids = malloc(sizeof(*pids) * (g->n ? g->n : 1));
	int err = pids ? 0 : -ENOMEM;

	log->by = g->by;
	for (int i = 0; !err && i < si->n_groups; i++) {
		const struct sched_group_stats *p = &si->groups[i];
		size_t n = 0;

		for (size_t k = 0; k < g->n; k++)
			if (g->procs[k].group == (uint32_t)p->pid)
				pids[n++] = g->procs[k].pid;
		if (!n)
			pids[n++] = (uint32_t)p->pid;   /* not read: alone */
		err = proc_group_log_add(log, p->pid, p->comm, pids, n);
	}
	free(pids);
	return err;
}
