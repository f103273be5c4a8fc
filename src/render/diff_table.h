/* Output of `dbtrace diff`: the capture diff as a table for a person, or
 * as one JSON document (--json, schema "dbtrace.diff/1", see
 * docs/diff.md). Pure: formats into a FILE. */
#ifndef DBTRACE_RENDER_DIFF_TABLE_H
#define DBTRACE_RENDER_DIFF_TABLE_H

#include <stdio.h>
#include "capture/capture_diff.h"

#define DIFF_SCHEMA "dbtrace.diff/1"

/* Returns 0 or -EIO. */
int diff_table_text(FILE *f, const struct capture *before, const struct capture *after,
		    const struct capture_diff *d);
int diff_table_json(FILE *f, const struct capture *before, const struct capture *after,
		    const struct capture_diff *d);

#endif
