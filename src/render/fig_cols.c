#include "render/fig_cols.h"
#include "render/text.h"

#include <math.h>
#include <stdio.h>

int fig_cols(const struct fig_own_col *own, int n_own, const struct fig_table *const *tables, int n_tables,
	     struct fig_tcol *cols)
{
	int n = 0;

	for (int i = 0; i < n_own && n < FIG_COLS_MAX; i++) {
		const struct fig_col *c = &own[i].col;

		cols[n++] = (struct fig_tcol){ { c->key, c->title, c->width, own[i].left ? TABLE_LEFT : TABLE_RIGHT,
						 0, c->decimals, NULL }, c->at, &own[i], 0, { 0 } };
	}
	for (int t = 0; t < n_tables; t++) {
		struct fig_ref refs[FIG_COLS_MAX];
		int nf = figure_top_cols(tables[t], refs, FIG_COLS_MAX);

		for (int i = 0; i < nf && i < FIG_COLS_MAX && n < FIG_COLS_MAX; i++) {
			const struct fig_col *c = refs[i].top;

			cols[n++] = (struct fig_tcol){ { c->key, c->title, c->width,
							 refs[i].f->type == FIG_TEXT ? TABLE_LEFT : TABLE_RIGHT, 0,
							 c->decimals, NULL }, c->at, NULL, t, refs[i] };
		}
	}
	/* by place; insertion sort keeps equal places in order */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && cols[k - 1].at > cols[k].at; k--) {
			struct fig_tcol tmp = cols[k];

			cols[k] = cols[k - 1];
			cols[k - 1] = tmp;
		}
	return n;
}

const struct fig_tcol *fig_cols_find(const struct fig_tcol *cols, int n, char key)
{
	for (int i = 0; key && i < n; i++)
		if (cols[i].col.key == key)
			return &cols[i];
	return NULL;
}

void fig_cols_header(char *buf, size_t len, const struct fig_tcol *cols, int n, char sort_key)
{
	struct table_col tc[FIG_COLS_MAX];

	for (int i = 0; i < n; i++)
		tc[i] = cols[i].col;
	table_header(buf, len, tc, (size_t)n, sort_key);
}

const char *fig_cols_help(const struct fig_tcol *cols, int n, const char *prefix, const char *tail, char *buf,
			  size_t len)
{
	size_t at = text_put(buf, len, 0, "%s:", prefix);
	bool first = true;

	for (int i = 0; i < n; i++)
		if (cols[i].col.key) {
			at = text_put(buf, len, at, "%s%c %s", first ? " " : "  ", cols[i].col.key, cols[i].col.title);
			first = false;
		}
	text_put(buf, len, at, "   %s", tail);
	return buf;
}

double fig_cols_value(const struct fig_tcol *c, const void *const *rows)
{
	const void *row = rows[c->source];

	return row ? figure_value(c->ref.f, row, c->ref.key) : NAN;
}

double fig_cols_sort_value(const struct fig_tcol *c, const void *const *rows)
{
	const void *row = rows[c->source];

	if (c->ref.top && c->ref.top->sort)
		return row ? c->ref.top->sort(row) : NAN;
	return fig_cols_value(c, rows);
}

size_t fig_cols_cell(char *buf, size_t len, size_t at, const char *sep, const struct fig_tcol *c,
		     const struct fig_table *const *tables, const void *const *rows, size_t text_len)
{
	const void *row = rows[c->source];
	const struct figure *f = c->ref.f;
	int w = c->col.width;
	double v;

	if (f->type == FIG_TEXT) {
		char text[256];
		const char *s = row ? figure_text(tables[c->source], f, row, NULL, text,
						  text_len < sizeof(text) ? text_len : sizeof(text)) : NULL;

		return text_put(buf, len, at, "%s%-*s", sep, w, s ? s : "-");
	}
	v = fig_cols_value(c, rows);
	/* a latency from a histogram sampled under load (some timed
	 * measurement counts for several), marked in the column's width */
	if (row && f->sampled && f->sampled(row) && !isnan(v) && w >= 2)
		return text_put(buf, len, at, "%s%*.*f~", sep, w - 1, c->col.decimals, v);
	return table_num(buf, len, at, sep, w, c->col.decimals, v);
}
