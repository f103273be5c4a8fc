/* `top --batch`: the tables as plain text, one block per interval. */
#ifndef DBTRACE_RENDER_BATCH_H
#define DBTRACE_RENDER_BATCH_H

#include <stdbool.h>
#include <stdio.h>
#include "findings/finding.h"
#include "session/interval.h"

/* The views of `top`, in the order the 'v' key cycles through them. */
enum top_view {
	TOP_VIEW_CPUS = 0,
	TOP_VIEW_CLASSES = 1,
	TOP_VIEW_NET = 2,
	TOP_VIEW_TIME = 3,
	TOP_VIEW_COUNT,
};

/* One interval's view (and its findings) as text; all: every class in
 * the class and time views, none folded into "other" (render/class_view.h).
 * Returns 0 or a negative errno. */
int batch_print(FILE *out, const struct interval *iv, const struct finding_list *found, enum top_view view,
		char sort_key, bool all);

#endif
