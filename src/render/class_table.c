#include "render/class_table.h"

/* The row's own columns; the rest are the classes section's. */
static const struct fig_own_col who[] = {
	{ WHO_PID, { .key = 'p', .title = "PID", .width = 7, .at = 10 }, false },
	{ WHO_COMM, { .key = 0, .title = "COMM", .width = 15, .at = 20 }, true },
	{ WHO_CLASS, { .key = 0, .title = "CLASS", .width = 20, .at = 30 }, true },
	{ WHO_PROCS, { .key = 'P', .title = "PROCS", .width = 5, .at = 150 }, false },
};

static const struct class_view view = {
	&fig_classes, who, (int)(sizeof(who) / sizeof(who[0])), CLASS_TABLE_DEFAULT_SORT,
	"a all rows  v time view  q quit", 64, false,
};

bool class_table_valid_key(char key)
{
	return class_view_valid_key(&view, key);
}

const char *class_table_key_help(void)
{
	static char help[512];

	return class_view_key_help(&view, help, sizeof(help));
}

void class_table_header(char *buf, size_t len, char sort_key)
{
	class_view_header(&view, buf, len, sort_key);
}

void class_table_row(char *buf, size_t len, const struct class_row *r)
{
	class_view_row(&view, buf, len, r);
}

int class_table_rows(const struct sched_interval *iv, char sort_key, bool all, struct class_rows *rows)
{
	return class_view_rows(&view, iv, sort_key, all, rows);
}
