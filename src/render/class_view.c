#define _GNU_SOURCE
#include "render/class_view.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cols_of(const struct class_view *v, struct fig_tcol *cols)
{
	return fig_cols(v->who, v->n_who, &v->figs, 1, cols);
}

bool class_view_valid_key(const struct class_view *v, char key)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	return fig_cols_find(cols, cols_of(v, cols), key) != NULL;
}

const char *class_view_key_help(const struct class_view *v, char *buf, size_t len)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	return fig_cols_help(cols, cols_of(v, cols), "sort", v->help_tail, buf, len);
}

void class_view_header(const struct class_view *v, char *buf, size_t len, char sort_key)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	fig_cols_header(buf, len, cols, cols_of(v, cols), sort_key);
}

/* The number a column shows (and sorts by); NAN: "-". */
static double value(const struct fig_tcol *c, const struct class_row *r)
{
	const void *rows[] = { r->cls };

	if (!c->own)
		return fig_cols_sort_value(c, rows);
	if (!r->group)   /* the "other" row */
		return c->own->id == WHO_THREADS ? r->cls->threads : NAN;
	switch (c->own->id) {
	case WHO_PID:
		return r->group->pid;
	case WHO_THREADS:
		return r->cls->threads;
	case WHO_PROCS:
		/* the row's group: its processes this interval ("-": unknown,
		 * a capture read back from before groups) */
		return r->group->n_procs > 0 ? r->group->n_procs : NAN;
	default:
		return NAN;
	}
}

void class_view_row(const struct class_view *v, char *buf, size_t len, const struct class_row *r)
{
	struct fig_tcol cols[FIG_COLS_MAX];
	const void *rows[] = { r->cls };
	int n = cols_of(v, cols);
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		const struct fig_tcol *c = &cols[i];
		const char *sep = i ? " " : "";
		int w = c->col.width;

		if (!c->own)
			at = fig_cols_cell(buf, len, at, sep, c, &v->figs, rows, v->text_len);
		else if (c->own->id == WHO_COMM || c->own->id == WHO_CLASS)
			at = text_put(buf, len, at, "%s%-*.*s", sep, w, w,
				      c->own->id == WHO_CLASS ? r->cls->name : r->group ? r->group->comm : "-");
		else   /* "-": not measured */
			at = table_num(buf, len, at, sep, w, c->col.decimals, value(c, r));
	}
}

static int compare(const void *a, const void *b, void *arg)
{
	const struct fig_tcol *col = arg;
	const struct class_row *x = a, *y = b;
	/* by pid: ascending, as the ties are */
	int c = col->own && col->own->id == WHO_PID ? 0 : table_cmp_desc(value(col, x), value(col, y));

	if (c)
		return c;
	if (x->group->pid != y->group->pid)
		return x->group->pid < y->group->pid ? -1 : 1;
	return strcmp(x->cls->name, y->cls->name);
}

int class_view_rows(const struct class_view *v, const struct sched_interval *iv, char sort_key, bool all,
		    struct class_rows *out)
{
	struct fig_tcol cols[FIG_COLS_MAX];
	int ncols = cols_of(v, cols), n = 0, shown;
	const struct fig_tcol *col = fig_cols_find(cols, ncols, sort_key);
	struct class_row *r;

	memset(out, 0, sizeof(*out));
	if (!col)
		col = fig_cols_find(cols, ncols, v->default_key);
	for (int i = 0; i < iv->n_groups; i++)
		n += iv->groups[i].n_classes;
	r = calloc(n ? (size_t)n : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	n = 0;
	for (int i = 0; i < iv->n_groups; i++)
		for (int k = 0; k < iv->groups[i].n_classes; k++) {
			if (v->timed_only && !iv->groups[i].classes[k].time.thread_ns)
				continue;
			r[n].group = &iv->groups[i];
			r[n].cls = &iv->groups[i].classes[k];
			n++;
		}
	qsort(r, (size_t)n, sizeof(*r), class_row_by_cost);
	shown = class_rank_split(r, n, 0, all);
	qsort_r(r, (size_t)shown, sizeof(*r), compare, (void *)col);
	out->row = r;
	out->n = shown;
	if (shown < n) {
		int err = class_fold(&out->other, r + shown, n - shown);

		if (err) {
			free(r);
			out->row = NULL;
			return err;
		}
		out->folded = n - shown;
		r[shown] = (struct class_row){ NULL, &out->other };
		out->n = shown + 1;
	}
	return 0;
}

void class_rows_free(struct class_rows *r)
{
	free(r->row);
	if (r->folded)
		sched_class_free(&r->other);
	memset(r, 0, sizeof(*r));
}
