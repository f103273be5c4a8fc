#include "render/class_table.h"

/* The row's own columns; the rest are the classes section's. */
static const struct fig_own_col who[] = {
	{ WHO_PID, { .key = 'p', .title = "PID", .width = 7, .at = 10 }, false },
	{ WHO_COMM, { .key = 0, .title = "COMM", .width = 15, .at = 20 }, true },
	{ WHO_CLASS, { .key = 0, .title = "CLASS", .width = 20, .at = 30 }, true },
	{ WHO_PROCS, { .key = 'P', .title = "PROCS", .width = 5, .at = 150 }, false },
};

const struct class_view class_table_view = {
	&fig_classes, who, (int)(sizeof(who) / sizeof(who[0])), CLASS_TABLE_DEFAULT_SORT,
	"a all rows  v time view  q quit", 64, false,
};
