#define _GNU_SOURCE
#include "model/thread_groups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sort_ctx {
	const struct tgroup_thread *t;
	char (*name)[TCLASS_NAME_MAX];   /* per thread, during the build */
};

static int by_pid_tid(const void *a, const void *b, void *arg)
{
	const struct tgroup_thread *t = ((const struct sort_ctx *)arg)->t;
	const struct tgroup_thread *x = &t[*(const int *)a], *y = &t[*(const int *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_name_tid(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	int i = *(const int *)a, j = *(const int *)b;
	int r = strcmp(c->name[i], c->name[j]);

	if (r)
		return r;
	return c->t[i].tid < c->t[j].tid ? -1 : c->t[i].tid > c->t[j].tid;
}

void tgroups_free(struct tgroups *g)
{
	free(g->order);
	free(g->class_of);
	free(g->class_name);
	free(g->procs);
	memset(g, 0, sizeof(*g));
}

/* Names the threads order[0..n) of one process into name[]. */
static int name_proc(const struct tgroup_thread *t, const int *order, int n,
		     const struct tclass_classifier *classifier, const struct tgroup_namer *namer,
		     char (*name)[TCLASS_NAME_MAX])
{
	struct tclass_thread *in = calloc((size_t)n, sizeof(*in));
	struct tclass_result res = { 0 };
	int err;

	if (!in)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		in[i].tid = t[order[i]].tid;
		in[i].comm = t[order[i]].comm;
	}
	err = tclass_assign(classifier, in, (size_t)n, &res);
	for (int i = 0; !err && i < n; i++) {
		int k = order[i];

		if (namer && namer->class_of &&
		    !namer->class_of(namer->ctx, t[k].pid, t[k].tid, name[k], TCLASS_NAME_MAX))
			continue;
		snprintf(name[k], TCLASS_NAME_MAX, "%s", res.classes[res.class_of[i]].name);
	}
	tclass_result_free(&res);
	free(in);
	return err;
}

int tgroups_build(const struct tgroup_thread *t, int n, const struct tclass_classifier *classifier,
		  const struct tgroup_namer *namer, struct tgroups *out)
{
	struct sort_ctx ctx = { .t = t };
	size_t cnt = n > 0 ? (size_t)n : 1, names_cap = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->order = malloc(sizeof(*out->order) * cnt);
	out->class_of = malloc(sizeof(*out->class_of) * cnt);
	out->procs = malloc(sizeof(*out->procs) * cnt);
	ctx.name = malloc(sizeof(*ctx.name) * cnt);   /* per thread */
	if (!out->order || !out->class_of || !out->procs || !ctx.name) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++)
		out->order[i] = i;
	qsort_r(out->order, (size_t)n, sizeof(*out->order), by_pid_tid, &ctx);

	for (int i = 0; i < n;) {
		struct tgroup_proc *p = &out->procs[out->n_procs++];
		int j = i;

		while (j < n && t[out->order[j]].pid == t[out->order[i]].pid)
			j++;
		memset(p, 0, sizeof(*p));
		p->pid = t[out->order[i]].pid;
		p->first = i;
		p->n = j - i;
		snprintf(p->comm, sizeof(p->comm), "%s", t[out->order[i]].comm);
		for (int k = i; k < j; k++)
			if (t[out->order[k]].tid == p->pid)
				snprintf(p->comm, sizeof(p->comm), "%s", t[out->order[k]].comm);
		err = name_proc(t, out->order + i, j - i, classifier, namer, ctx.name);
		if (err)
			goto out;
		/* a process's threads by class name: each class is one run */
		qsort_r(out->order + i, (size_t)(j - i), sizeof(*out->order), by_name_tid, &ctx);
		p->first_class = out->n_classes;
		for (int k = i; k < j; k++) {
			int ti = out->order[k], last = out->n_classes - 1;

			if (out->n_classes == p->first_class || strcmp(out->class_name[last], ctx.name[ti])) {
				/* grown per class, not sized per thread: a pool of 64k
				 * threads is one class, and memory is budgeted */
				if ((size_t)out->n_classes == names_cap) {
					void *bigger;

					names_cap = names_cap ? names_cap * 2 : 64;
					bigger = realloc(out->class_name, sizeof(*out->class_name) * names_cap);
					if (!bigger) {
						err = -ENOMEM;
						goto out;
					}
					out->class_name = bigger;
				}
				last = out->n_classes++;
				memcpy(out->class_name[last], ctx.name[ti], TCLASS_NAME_MAX);
			}
			out->class_of[ti] = last;
		}
		p->n_classes = out->n_classes - p->first_class;
		i = j;
	}
out:
	free(ctx.name);
	if (err)
		tgroups_free(out);
	return err;
}
