#define _GNU_SOURCE
#include "model/class_map.h"
#include "core/vec.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int class_map_input_add(struct class_map_input *in, uint32_t pid, uint32_t tid,
			const char *comm, const char *pcomm)
{
	if (VEC_RESERVE(in->t, in->cap, in->n + 1))
		return -ENOMEM;
	in->t[in->n++] = (struct class_map_thread){
		.pid = pid, .tid = tid, .comm = comm, .pcomm = pcomm, .view = in->view,
	};
	return 0;
}

void class_map_input_next_view(struct class_map_input *in)
{
	in->view++;
}

void class_map_input_free(struct class_map_input *in)
{
	free(in->t);
	memset(in, 0, sizeof(*in));
}

void class_map_free(struct class_map *map)
{
	free(map->members);
	free(map->classes);
	free(map->groups);
	free(map->pids);
	memset(map, 0, sizeof(*map));
}

/* An input thread placed in its group. */
struct entry {
	uint32_t pid, tid;
	const char *comm, *pcomm;
	unsigned int view;
	uint32_t group;                /* its group's key */
	const char *name;              /* the text its class is named from */
};

/* Scratch space for naming one group, sized for the largest. */
struct work {
	const struct entry **e;   /* the group's entries: by tid, then input order */
	const struct entry **memb;/* its members: each tid's first entry */
	const char **name;                   /* [member]: its class name */
	const char **sorted;                 /* the names, sorted */
	struct tclass_thread *tin;           /* one view's threads, for thread_class */
	size_t *owner;                       /* [tin index]: the member it names, or SIZE_MAX */
};

/* Input indices by (group, tid, pid), then input order: a thread's entry
 * in an earlier view comes first. */
static int by_group_tid_index(const void *a, const void *b, void *arg)
{
	const struct entry *t = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (t[i].group != t[j].group)
		return t[i].group < t[j].group ? -1 : 1;
	if (t[i].tid != t[j].tid)
		return t[i].tid < t[j].tid ? -1 : 1;
	if (t[i].pid != t[j].pid)
		return t[i].pid < t[j].pid ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int member_by_tid_pid(const void *a, const void *b)
{
	const struct class_map_member *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The group's comm from its entries in view, lowest tid first: the
 * leader's own comm is the freshest (prctl renames), else any thread's
 * record of its process's comm; the group's leading process first. */
static void group_comm(struct class_map_group *g, const struct entry *const *e, size_t n,
		       unsigned int view)
{
	const char *comm = NULL;
	bool lead = false;

	for (size_t i = 0; i < n; i++) {
		if (e[i]->view != view)
			continue;
		if (!comm)
			comm = e[i]->pcomm && e[i]->pcomm[0] ? e[i]->pcomm : e[i]->comm;
		if (e[i]->tid == e[i]->pid && (e[i]->pid == e[i]->group || !lead)) {
			comm = e[i]->comm;
			lead = e[i]->pid == e[i]->group;
		}
	}
	snprintf(g->comm, sizeof(g->comm), "%s", comm ? comm : "");
}

/* Names the members whose first entry is in view, among view's threads
 * of the group; res keeps the names. */
static int name_view(const struct tclass_classifier *classifier, struct work *w, size_t n_e,
		     unsigned int view, struct tclass_result *res)
{
	size_t q = 0, mi = 0;
	int err;

	for (size_t k = 0; k < n_e; k++) {
		if (k && w->e[k]->tid != w->e[k - 1]->tid)
			mi++;   /* the next member */
		if (w->e[k]->view != view)
			continue;
		/* a view holding a thread twice: its first entry */
		if (q && w->tin[q - 1].tid == w->e[k]->tid)
			continue;
		w->tin[q].tid = w->e[k]->tid;
		w->tin[q].comm = w->e[k]->name;
		w->owner[q++] = w->memb[mi] == w->e[k] ? mi : SIZE_MAX;
	}
	err = tclass_assign(classifier, w->tin, q, res);
	for (size_t i = 0; !err && i < q; i++)
		if (w->owner[i] != SIZE_MAX)
			w->name[w->owner[i]] = res->classes[res->class_of[i]].name;
	return err;
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The group's processes, ascending and once each, to map->pids. */
static void group_pids(struct class_map *map, struct class_map_group *g,
		       const struct entry *const *memb, size_t n_memb)
{
	uint32_t *p = map->pids + map->n_pids;
	size_t n = 0;

	for (size_t i = 0; i < n_memb; i++)
		p[i] = memb[i]->pid;
	qsort(p, n_memb, sizeof(*p), by_u32);
	for (size_t i = 0; i < n_memb; i++)
		if (!n || p[n - 1] != p[i])
			p[n++] = p[i];
	g->first_pid = map->n_pids;
	g->n_pids = n;
	map->n_pids += n;
}

size_t class_map_class_pids(const struct class_map *map, uint32_t cls, uint32_t *out, size_t max)
{
	size_t kept = 0;

	/* members are sorted by (tid, pid), not by class: one pass, each
	 * new pid inserted in order; when full, a lower pid pushes the
	 * highest out */
	for (size_t i = 0; i < map->n_members && max; i++) {
		uint32_t pid = map->members[i].pid;
		size_t at = 0;

		if (map->members[i].cls != cls)
			continue;
		while (at < kept && out[at] < pid)
			at++;
		if ((at < kept && out[at] == pid) || at == max)
			continue;
		if (kept < max)
			kept++;
		memmove(out + at + 1, out + at, (kept - 1 - at) * sizeof(*out));
		out[at] = pid;
	}
	return kept;
}

int class_map_group_has(const struct class_map *map, size_t g, uint32_t pid)
{
	const struct class_map_group *gr = &map->groups[g];

	return bsearch(&pid, map->pids + gr->first_pid, gr->n_pids, sizeof(pid), by_u32) != NULL;
}

/* Adds the group of the entries w->e[0..n_e) (one key), naming its
 * members into its classes; its members go to map->members. */
static int add_group(struct class_map *map, const struct tclass_classifier *classifier,
		     struct work *w, size_t n_e)
{
	struct tclass_result *res = NULL;      /* one per view that names a member */
	size_t n_res = 0, res_cap = 0, n_memb = 0, n_names = 0;
	unsigned int view = UINT_MAX;
	struct class_map_group *g;
	int err = 0;

	for (size_t k = 0; k < n_e; k++)
		if (!k || w->e[k]->tid != w->e[k - 1]->tid) {
			w->memb[n_memb++] = w->e[k];
			if (w->e[k]->view < view)
				view = w->e[k]->view;
		}
	/* the views that name members, earliest first */
	for (unsigned int v = view; !err;) {
		unsigned int next = UINT_MAX;

		if (VEC_RESERVE(res, res_cap, n_res + 1)) {
			err = -ENOMEM;
			break;
		}
		memset(&res[n_res], 0, sizeof(res[0]));
		err = name_view(classifier, w, n_e, v, &res[n_res]);
		n_res++;
		for (size_t i = 0; i < n_memb; i++)
			if (w->memb[i]->view > v && w->memb[i]->view < next)
				next = w->memb[i]->view;
		if (next == UINT_MAX)
			break;
		v = next;
	}
	if (!err && (VEC_RESERVE(map->groups, map->groups_cap, map->n_groups + 1) ||
		     VEC_RESERVE(map->classes, map->classes_cap, map->n_classes + n_memb)))
		err = -ENOMEM;
	if (err)
		goto out;
	/* the classes: the members' names, sorted, once each */
	memcpy(w->sorted, w->name, sizeof(*w->name) * n_memb);
	qsort(w->sorted, n_memb, sizeof(*w->sorted), by_name);
	for (size_t i = 0; i < n_memb; i++)
		if (!n_names || strcmp(w->sorted[n_names - 1], w->sorted[i]))
			w->sorted[n_names++] = w->sorted[i];
	g = &map->groups[map->n_groups];
	memset(g, 0, sizeof(*g));
	g->pid = w->memb[0]->group;
	group_comm(g, w->e, n_e, view);
	group_pids(map, g, w->memb, n_memb);
	g->first_class = map->n_classes;
	g->n_classes = n_names;
	for (size_t c = 0; c < n_names; c++)
		snprintf(map->classes[map->n_classes + c].name, TCLASS_NAME_MAX, "%s", w->sorted[c]);
	for (size_t i = 0; i < n_memb; i++) {
		const char **at = bsearch(&w->name[i], w->sorted, n_names, sizeof(*w->sorted), by_name);

		map->members[map->n_members++] = (struct class_map_member){
			.pid = w->memb[i]->pid,
			.tid = w->memb[i]->tid,
			.group = (uint32_t)map->n_groups,
			.cls = (uint32_t)(g->first_class + (size_t)(at - w->sorted)),
		};
	}
	map->n_classes += n_names;
	map->n_groups++;
out:
	for (size_t i = 0; i < n_res; i++)
		tclass_result_free(&res[i]);
	free(res);
	return err;
}

static int proc_by_pid(const void *a, const void *b)
{
	const struct class_map_proc *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The thread's group and naming text: its process's title names the
 * threads that kept the process's comm (the others named themselves). */
static void place(struct entry *t, const struct class_map_thread *in,
		  const struct class_map_proc *procs, size_t n)
{
	struct class_map_proc key = { .pid = in->pid };
	const struct class_map_proc *p = n ? bsearch(&key, procs, n, sizeof(key), proc_by_pid) : NULL;
	bool as_process = in->tid == in->pid || (in->pcomm && !strcmp(in->comm, in->pcomm));

	*t = (struct entry){
		.pid = in->pid, .tid = in->tid, .comm = in->comm, .pcomm = in->pcomm, .view = in->view,
	};
	t->group = p ? p->group : t->pid;
	t->name = p && p->title_class && as_process ? p->title_class : t->comm;
}

int class_map_build(struct class_map *map, const struct class_map_input *in,
		    const struct tclass_classifier *classifier)
{
	return class_map_build_grouped(map, in, classifier, NULL, 0);
}

int class_map_build_grouped(struct class_map *map, const struct class_map_input *in,
			    const struct tclass_classifier *classifier,
			    const struct class_map_proc *procs, size_t n_procs)
{
	size_t n = in->n, cnt = n ? n : 1;
	size_t *order = NULL;
	struct entry *t = NULL;
	struct work w = { 0 };
	int err = 0;

	memset(map, 0, sizeof(*map));
	if (n > INT_MAX)
		return -E2BIG;   /* indices are ints in the families' rows */
	for (size_t i = 0; i < n; i++)
		if (!in->t[i].comm)
			return -EINVAL;
	t = malloc(sizeof(*t) * cnt);
	map->pids = malloc(sizeof(*map->pids) * cnt);
	if (!t || !map->pids) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		place(&t[i], &in->t[i], procs, n_procs);
	}
	order = malloc(sizeof(*order) * cnt);
	w.e = malloc(sizeof(*w.e) * cnt);
	w.memb = malloc(sizeof(*w.memb) * cnt);
	w.name = malloc(sizeof(*w.name) * cnt);
	w.sorted = malloc(sizeof(*w.sorted) * cnt);
	w.tin = malloc(sizeof(*w.tin) * cnt);
	w.owner = malloc(sizeof(*w.owner) * cnt);
	map->members = malloc(sizeof(*map->members) * cnt);
	if (!order || !w.e || !w.memb || !w.name || !w.sorted || !w.tin || !w.owner ||
	    !map->members) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_group_tid_index, t);
	for (size_t i = 0; i < n && !err;) {
		size_t j = i;

		while (j < n && t[order[j]].group == t[order[i]].group) {
			w.e[j - i] = &t[order[j]];
			j++;
		}
		err = add_group(map, classifier, &w, j - i);
		i = j;
	}
	if (!err)
		qsort(map->members, map->n_members, sizeof(*map->members), member_by_tid_pid);
out:
	free(t);
	free(order);
	free(w.e);
	free(w.memb);
	free(w.name);
	free(w.sorted);
	free(w.tin);
	free(w.owner);
	if (err)
		class_map_free(map);
	return err;
}

const struct class_map_member *class_map_find(const struct class_map *map, uint32_t pid,
					      uint32_t tid)
{
	struct class_map_member key = { .pid = pid, .tid = tid };

	if (!map->n_members)
		return NULL;
	return bsearch(&key, map->members, map->n_members, sizeof(key), member_by_tid_pid);
}
