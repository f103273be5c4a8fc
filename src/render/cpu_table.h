/* The per-CPU table as text: columns, sorting and row formatting, shared
 * by `top` (ncurses) and `top --batch`. Pure: formats into buffers. */
#ifndef DBTRACE_RENDER_CPU_TABLE_H
#define DBTRACE_RENDER_CPU_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "model/cpu_model.h"

#define CPU_TABLE_DEFAULT_SORT 'S'   /* softirq total, highest first */

/* true when key names a column. */
bool cpu_table_valid_key(char key);

/* Header line; the sort column's title is marked with '*'. */
void cpu_table_header(char *buf, size_t len, char sort_key);

/* The keys line shown under the table in interactive mode. */
const char *cpu_table_key_help(void);

/* One row; a row with cpu < 0 is labelled "all". dt_s turns counts into
 * rates. Invalid (offline) rows print "offline". */
void cpu_table_row(char *buf, size_t len, const struct cpu_row *r, double dt_s);

/* Fills order[] with the indices of the valid rows, sorted by the column
 * (descending, except the CPU number ascending). Returns how many. */
int cpu_table_sort(const struct cpu_row *rows, int n, char sort_key, int *order);

#endif
