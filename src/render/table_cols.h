/* The column machinery the text tables share (cpu_table, class_table,
 * net_table): a column described once, the header with the sort column
 * marked, number cells that show "-" for what was not measured, and the
 * one order every table sorts in. Pure: formats into buffers. */
#ifndef DBTRACE_RENDER_TABLE_COLS_H
#define DBTRACE_RENDER_TABLE_COLS_H

#include <stddef.h>

enum table_align { TABLE_RIGHT, TABLE_LEFT };

struct table_col {
	char key;                       /* sort key; 0: not sortable */
	const char *title;
	int width;                      /* 0: as wide as its text */
	enum table_align align;
	int kind;                       /* the owning table's cell kind */
	int decimals;                   /* of a number cell */
	double (*get)(const void *row); /* the value to sort by (and show); NULL: text */
};

/* The column with sort key key, or NULL (also for key 0). */
const struct table_col *table_col_find(const struct table_col *cols, size_t n, char key);

/* The header line: the titles, one space apart, the sort column's title
 * prefixed with '*'. */
void table_header(char *buf, size_t len, const struct table_col *cols, size_t n, char sort_key);

/* Appends sep and v right-aligned in width with decimals, or "-" when v
 * is NAN (not measured). Returns the new offset, as text_put(). */
size_t table_num(char *buf, size_t len, size_t at, const char *sep, int width, int decimals,
		 double v);

/* The tables' order: highest first, unknown (NAN) last. Negative when a
 * goes first, positive when b does, 0 for a tie the caller breaks. */
int table_cmp_desc(double a, double b);

/* Fills order[0..n) with the indexes of n rows of size bytes each, sorted
 * by get() with table_cmp_desc(), ties in index order. Returns n, or -1
 * when out of memory. */
int table_order(const void *rows, size_t size, int n, double (*get)(const void *row),
		int *order);
/* The same over the rows' values v[0..n). Returns n (no memory needed). */
int table_order_values(const double *v, int n, int *order);

#endif
