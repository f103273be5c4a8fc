/* `top --batch`: the tables as plain text, one block per interval. */
#ifndef DBTRACE_RENDER_BATCH_H
#define DBTRACE_RENDER_BATCH_H

#include <stdbool.h>
#include <stdio.h>
#include "session/interval.h"

/* The views of `top`, in the order the 'v' key cycles through them. */
enum top_view {
	TOP_VIEW_CPUS = 0,
	TOP_VIEW_CLASSES = 1,
	TOP_VIEW_NET = 2,
	TOP_VIEW_TIME = 3,
	TOP_VIEW_COUNT,
};

int batch_print(FILE *out, const struct interval_view *iv, enum top_view view, char sort_key);

#endif
