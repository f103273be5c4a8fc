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
	int ncols = cols_of(v, cols), err;
	const struct fig_tcol *col = fig_cols_find(cols, ncols, sort_key);
	struct class_ranking *rk = &out->rank;

	memset(out, 0, sizeof(*out));
	if (!col)
		col = fig_cols_find(cols, ncols, v->default_key);
	err = class_rank(iv->groups, iv->n_groups, v->timed_only, 0, all, rk);
	if (err)
		return err;
	qsort_r(rk->row, (size_t)rk->shown, sizeof(*rk->row), compare, (void *)col);
	out->row = rk->row;
	out->n = rk->shown;
	if (rk->shown < rk->n) {
		/* the first folded row's place, now that it is counted there */
		out->folded = rk->n - rk->shown;
		rk->row[out->n++] = (struct class_row){ NULL, &rk->other };
	}
	return 0;
}

void class_rows_free(struct class_rows *r)
{
	class_ranking_free(&r->rank);
	memset(r, 0, sizeof(*r));
}
