#define _GNU_SOURCE
#include "render/class_view.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 40

/* A column of the view: the row's own, or a figure's. */
struct vcol {
	struct table_col col;          /* header, width, alignment, sort key */
	int at;
	enum class_who who;
	struct fig_ref ref;
};

static int cols_of(const struct class_view *v, struct vcol *cols)
{
	struct fig_ref refs[MAX_COLS];
	int n = 0, nf = figure_top_cols(v->figs, refs, MAX_COLS - v->n_who);

	for (int i = 0; i < v->n_who; i++) {
		const struct fig_col *c = &v->who[i].col;
		bool left = v->who[i].who == WHO_COMM || v->who[i].who == WHO_CLASS;

		cols[n++] = (struct vcol){ { c->key, c->title, c->width, left ? TABLE_LEFT : TABLE_RIGHT, 0,
					     c->decimals, NULL }, c->at, v->who[i].who, { 0 } };
	}
	for (int i = 0; i < nf && n < MAX_COLS; i++) {
		const struct fig_col *c = refs[i].top;

		cols[n++] = (struct vcol){ { c->key, c->title, c->width,
					     refs[i].f->type == FIG_TEXT ? TABLE_LEFT : TABLE_RIGHT, 0, c->decimals,
					     NULL }, c->at, WHO_FIGURE, refs[i] };
	}
	/* by place; insertion sort keeps equal places in order */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && cols[k - 1].at > cols[k].at; k--) {
			struct vcol tmp = cols[k];

			cols[k] = cols[k - 1];
			cols[k - 1] = tmp;
		}
	return n;
}

static const struct vcol *find(const struct vcol *cols, int n, char key)
{
	for (int i = 0; key && i < n; i++)
		if (cols[i].col.key == key)
			return &cols[i];
	return NULL;
}

bool class_view_valid_key(const struct class_view *v, char key)
{
	struct vcol cols[MAX_COLS];

	return find(cols, cols_of(v, cols), key) != NULL;
}

const char *class_view_key_help(const struct class_view *v, char *buf, size_t len)
{
	struct vcol cols[MAX_COLS];
	int n = cols_of(v, cols);
	size_t at = text_put(buf, len, 0, "sort:");

	for (int i = 0; i < n; i++)
		if (cols[i].col.key)
			at = text_put(buf, len, at, "%s%c %s", i ? "  " : " ", cols[i].col.key, cols[i].col.title);
	text_put(buf, len, at, "   %s", v->help_tail);
	return buf;
}

void class_view_header(const struct class_view *v, char *buf, size_t len, char sort_key)
{
	struct vcol cols[MAX_COLS];
	struct table_col tc[MAX_COLS];
	int n = cols_of(v, cols);

	for (int i = 0; i < n; i++)
		tc[i] = cols[i].col;
	table_header(buf, len, tc, (size_t)n, sort_key);
}

/* The number a column shows (and sorts by); NAN: "-". */
static double value(const struct vcol *c, const struct class_row *r)
{
	switch (c->who) {
	case WHO_PID:
		return r->group->pid;
	case WHO_THREADS:
		return r->cls->threads;
	case WHO_PROCS:
		/* the row's group: its processes this interval ("-": unknown,
		 * a capture read back from before groups) */
		return r->group->n_procs > 0 ? r->group->n_procs : NAN;
	case WHO_FIGURE:
		return figure_value(c->ref.f, r->cls, c->ref.key);
	default:
		return NAN;
	}
}

void class_view_row(const struct class_view *v, char *buf, size_t len, const struct class_row *r)
{
	struct vcol cols[MAX_COLS];
	int n = cols_of(v, cols);
	char text[256];
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		const struct vcol *c = &cols[i];
		const char *sep = i ? " " : "", *s;
		int w = c->col.width;

		if (c->who == WHO_COMM || c->who == WHO_CLASS) {
			s = c->who == WHO_COMM ? r->group->comm : r->cls->name;
			at = text_put(buf, len, at, "%s%-*.*s", sep, w, w, s);
		} else if (c->who == WHO_FIGURE && c->ref.f->type == FIG_TEXT) {
			s = figure_text(v->figs, c->ref.f, r->cls, NULL, text,
					v->text_len < sizeof(text) ? v->text_len : sizeof(text));
			at = text_put(buf, len, at, "%s%-*s", sep, w, s ? s : "-");
		} else {   /* "-": not measured (e.g. no clock samples) */
			at = table_num(buf, len, at, sep, w, c->col.decimals, value(c, r));
		}
	}
}

struct sort {
	const struct vcol *col;
};

static int compare(const void *a, const void *b, void *arg)
{
	const struct vcol *col = ((const struct sort *)arg)->col;
	const struct class_row *x = a, *y = b;
	/* by pid: ascending, as the ties are */
	int c = col->who == WHO_PID ? 0 : table_cmp_desc(value(col, x), value(col, y));

	if (c)
		return c;
	if (x->group->pid != y->group->pid)
		return x->group->pid < y->group->pid ? -1 : 1;
	return strcmp(x->cls->name, y->cls->name);
}

int class_view_rows(const struct class_view *v, const struct sched_interval *iv, char sort_key,
		    struct class_row **rows)
{
	struct vcol cols[MAX_COLS];
	int ncols = cols_of(v, cols), n = 0;
	struct sort s = { find(cols, ncols, sort_key) };
	struct class_row *r;

	if (!s.col)
		s.col = find(cols, ncols, v->default_key);
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
	qsort_r(r, (size_t)n, sizeof(*r), compare, &s);
	*rows = r;
	return n;
}
