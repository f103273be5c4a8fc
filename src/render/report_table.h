/* A table of the HTML report whose columns are the figures of sections'
 * tables (figures/figures.h) that have a place in the report, beside a
 * row's own columns (its pid, its name: numbers and texts the caller
 * gives), merged by their places: the report's tables of classes,
 * devices, ports, clock reads and losses are all made this way. Cells
 * carry their raw value for sorting. Pure: writes into a FILE. */
#ifndef DBTRACE_RENDER_REPORT_TABLE_H
#define DBTRACE_RENDER_REPORT_TABLE_H

#include <stdio.h>
#include "figures/figures.h"

#define REPORT_TABLE_COLS 48
#define REPORT_TABLE_SOURCES 2
#define REPORT_TABLE_OWN 4

/* A row's own column: its value is the row's num[slot] or text[slot]. */
struct report_own_col {
	const char *title;
	int at;
	bool text;
	int slot;
};

struct report_col {
	const char *title;
	int at;
	const struct report_own_col *own;   /* NULL: a figure */
	int source;                    /* a figure's: which of the tables */
	struct fig_ref ref;
};

/* The columns of a table: own (n_own), and each of the n_tables tables'
 * figures with a report place. Returns how many (at most
 * REPORT_TABLE_COLS). */
int report_table_cols(const struct report_own_col *own, int n_own, const struct fig_table *const *tables,
		      int n_tables, struct report_col *cols);

/* "<thead>...</thead><tbody>" of those columns, each sortable. */
void report_table_head(FILE *f, const struct report_col *cols, int n);

/* A row's own values, by slot. */
struct report_own {
	double num[REPORT_TABLE_OWN];
	const char *text[REPORT_TABLE_OWN];
};

/* One row's cells: own's values, and each figure's value in rows[its
 * table] (NULL: "-"), texts through the table with ctx. */
void report_table_cells(FILE *f, const struct fig_table *const *tables, const struct report_col *cols, int n,
			const struct report_own *own, const void *const *rows, const void *ctx);

/* The cells the report writes: a number with its raw value for sorting
 * ("-" for NAN), a text escaped. */
void report_td_num(FILE *f, double v);
void report_td_text(FILE *f, const char *s);
/* HTML-escaped text. */
void report_esc(FILE *f, const char *s);
/* Whole numbers as such, others with fewer decimals the larger they
 * are; "-" for not measured. */
void report_fmt(char *buf, size_t len, double v);

#endif
