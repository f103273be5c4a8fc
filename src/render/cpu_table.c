#define _GNU_SOURCE
#include "render/cpu_table.h"
#include "render/fig_cols.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <math.h>
#include <stdlib.h>

/* The table's own columns: the CPU number (or "all", and "offline" ends
 * the row), and NET_RX runs shown per second; the rest are the CPUs
 * section's figures (figures/figures_cpus.c). */
enum { COL_CPU = 1, COL_RX_RATE };

static const struct fig_own_col own[] = {
	{ COL_CPU, { .key = 'c', .title = "CPU", .width = 4, .at = 10 }, true },
	{ COL_RX_RATE, { .key = 'x', .title = "rx/s", .width = 8, .at = 130 }, false },
};

static const struct fig_table *const tables[] = { &fig_cpus };

static int cols_of(struct fig_tcol *cols)
{
	return fig_cols(own, (int)(sizeof(own) / sizeof(own[0])), tables, 1, cols);
}

bool cpu_table_valid_key(char key)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	return fig_cols_find(cols, cols_of(cols), key) != NULL;
}

const char *cpu_table_key_help(void)
{
	static char help[512];
	struct fig_tcol cols[FIG_COLS_MAX];

	return fig_cols_help(cols, cols_of(cols), "sort", "v class view  q quit", help, sizeof(help));
}

void cpu_table_header(char *buf, size_t len, char sort_key)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	fig_cols_header(buf, len, cols, cols_of(cols), sort_key);
}

/* A column's number: the CPU's, its NET_RX runs (a count: a rate shown),
 * a figure's. */
static double value(const struct fig_tcol *c, const struct cpu_row *r)
{
	const void *rows[] = { r };

	if (!c->own)
		return fig_cols_sort_value(c, rows);
	return c->own->id == COL_CPU ? r->cpu : (double)r->entries[DBT_SOFTIRQ_NET_RX];
}

void cpu_table_row(char *buf, size_t len, const struct cpu_row *r, double dt_s)
{
	struct fig_tcol cols[FIG_COLS_MAX];
	const void *rows[] = { r };
	int n = cols_of(cols);
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		const struct fig_tcol *c = &cols[i];
		const char *sep = i ? " " : "";

		if (!c->own) {   /* "-": not measured (no family, no /proc/stat, no wait) */
			at = fig_cols_cell(buf, len, at, sep, c, tables, rows, 64);
		} else if (c->own->id == COL_RX_RATE) {
			at = table_num(buf, len, at, sep, c->col.width, c->col.decimals,
				       dt_s > 0 ? value(c, r) / dt_s : 0);
		} else {
			if (r->cpu < 0)
				at = text_put(buf, len, at, "%-*s", c->col.width, "all");
			else
				at = text_put(buf, len, at, "%-*d", c->col.width, r->cpu);
			if (!r->valid) {
				text_put(buf, len, at, " offline");
				return;
			}
		}
	}
}

struct sort {
	const struct cpu_row *rows;
	const struct fig_tcol *col;
};

static int compare(const void *a, const void *b, void *arg)
{
	const struct sort *s = arg;
	const struct cpu_row *ra = &s->rows[*(const int *)a], *rb = &s->rows[*(const int *)b];
	int c = s->col->own && s->col->own->id == COL_CPU ? 0
		: table_cmp_desc(value(s->col, ra), value(s->col, rb));

	if (c)
		return c;
	return ra->cpu < rb->cpu ? -1 : ra->cpu > rb->cpu;
}

int cpu_table_sort(const struct cpu_row *rows, int n, char sort_key, int *order)
{
	struct fig_tcol cols[FIG_COLS_MAX];
	int ncols = cols_of(cols), k = 0;
	struct sort s = { rows, fig_cols_find(cols, ncols, sort_key) };

	if (!s.col)
		s.col = fig_cols_find(cols, ncols, CPU_TABLE_DEFAULT_SORT);
	for (int i = 0; i < n; i++)
		if (rows[i].valid)
			order[k++] = i;
	qsort_r(order, (size_t)k, sizeof(*order), compare, &s);
	return k;
}
