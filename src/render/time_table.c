#include "render/time_table.h"

/* The row's own columns; the rest are the time section's. */
static const struct fig_own_col who[] = {
	{ WHO_PID, { .key = 'p', .title = "PID", .width = 7, .at = 10 }, false },
	{ WHO_COMM, { .key = 0, .title = "COMM", .width = 15, .at = 20 }, true },
	{ WHO_CLASS, { .key = 0, .title = "CLASS", .width = 20, .at = 30 }, true },
	{ WHO_THREADS, { .key = 't', .title = "THR", .width = 5, .at = 40 }, false },
};

const struct class_view time_table_view = {
	&fig_time, who, (int)(sizeof(who) / sizeof(who[0])), TIME_TABLE_DEFAULT_SORT,
	"a all rows  v net view  q quit", 96, true,
};
