/* The columns of one of top's text tables: the table's own columns (a
 * CPU's number, a device's name, a class's group) and the figures of
 * sections' tables (figures/figures.h) that have a place in top, merged
 * by their places, with the header, the key help and the figure cells
 * made from them. Each of top's tables (render/cpu_table.c,
 * net_table.c, class_view.c) declares only its own columns. Pure:
 * formats into buffers. */
#ifndef DBTRACE_RENDER_FIG_COLS_H
#define DBTRACE_RENDER_FIG_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include "figures/figures.h"
#include "render/table_cols.h"

#define FIG_COLS_MAX 40

/* A table's own column: id says which to the table. */
struct fig_own_col {
	int id;
	struct fig_col col;
	bool left;                     /* left-aligned (a name) */
};

struct fig_tcol {
	struct table_col col;          /* header, width, alignment, sort key, decimals */
	int at;
	const struct fig_own_col *own; /* NULL: a figure */
	int source;                    /* a figure's: which of the tables */
	struct fig_ref ref;
};

/* The columns, by place. Returns how many (at most FIG_COLS_MAX). */
int fig_cols(const struct fig_own_col *own, int n_own, const struct fig_table *const *tables, int n_tables,
	     struct fig_tcol *cols);
const struct fig_tcol *fig_cols_find(const struct fig_tcol *cols, int n, char key);
void fig_cols_header(char *buf, size_t len, const struct fig_tcol *cols, int n, char sort_key);
/* "PREFIX: k TITLE  k TITLE ...   TAIL" of the sortable columns; buf. */
const char *fig_cols_help(const struct fig_tcol *cols, int n, const char *prefix, const char *tail, char *buf,
			  size_t len);

/* A figure column's number for rows[its table] (NULL: NAN), and what its
 * key sorts by. */
double fig_cols_value(const struct fig_tcol *c, const void *const *rows);
double fig_cols_sort_value(const struct fig_tcol *c, const void *const *rows);
/* Appends sep and a figure column's cell: its number in the column's
 * width ('-' unknown, a trailing '~' when it rests on a sample), or its
 * text (made in at most text_len bytes; '-' for none). Returns the new
 * offset, as text_put(). */
size_t fig_cols_cell(char *buf, size_t len, size_t at, const char *sep, const struct fig_tcol *c,
		     const struct fig_table *const *tables, const void *const *rows, size_t text_len);

#endif
