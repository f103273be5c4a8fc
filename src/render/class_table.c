#define _GNU_SOURCE
#include "render/class_table.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cell kinds: the PID sorts ascending, text cells come from the row. */
enum col_kind { COL_PID, COL_TEXT, COL_NUM };

static const struct sched_class_stats *cls(const void *r)
{
	return ((const struct class_row *)r)->cls;
}

static double get_pid(const void *r) { return ((const struct class_row *)r)->group->pid; }
static double get_threads(const void *r) { return cls(r)->threads; }
static double get_cpu(const void *r) { return cls(r)->oncpu_pct; }
static double get_vol(const void *r) { return cls(r)->vol_per_s; }
static double get_invol(const void *r) { return cls(r)->invol_per_s; }
static double get_p50(const void *r) { return cls(r)->runq_p50_us; }
static double get_p99(const void *r) { return cls(r)->runq_p99_us; }
static double get_max(const void *r) { return cls(r)->runq_max_us; }
static double get_mig(const void *r) { return cls(r)->migrations_per_s; }
static double get_runnable(const void *r) { return cls(r)->runnable_avg; }
static double get_silost(const void *r) { return cls(r)->softirq_lost_pct; }
static double get_vdso(const void *r) { return cls(r)->vdso_pct; }
/* the row's group: its processes this interval ("-": unknown, a capture
 * read back from before groups) */
static double get_procs(const void *r)
{
	int n = ((const struct class_row *)r)->group->n_procs;

	return n > 0 ? n : NAN;
}

static const struct table_col columns[] = {
	{ 'p', "PID", 7, TABLE_RIGHT, COL_PID, 0, get_pid },
	{ 0, "COMM", 15, TABLE_LEFT, COL_TEXT, 0, NULL },
	{ 0, "CLASS", 20, TABLE_LEFT, COL_TEXT, 0, NULL },
	{ 't', "THR", 5, TABLE_RIGHT, COL_NUM, 0, get_threads },
	{ 'C', "%CPU", 7, TABLE_RIGHT, COL_NUM, 1, get_cpu },
	{ 'V', "VOL/s", 8, TABLE_RIGHT, COL_NUM, 0, get_vol },
	{ 'I', "INVOL/s", 8, TABLE_RIGHT, COL_NUM, 0, get_invol },
	{ 'R', "RUNNABLE", 8, TABLE_RIGHT, COL_NUM, 1, get_runnable },
	{ '5', "RQp50us", 8, TABLE_RIGHT, COL_NUM, 0, get_p50 },
	{ '9', "RQp99us", 8, TABLE_RIGHT, COL_NUM, 0, get_p99 },
	{ 'M', "RQmaxus", 8, TABLE_RIGHT, COL_NUM, 0, get_max },
	{ 'm', "MIG/s", 7, TABLE_RIGHT, COL_NUM, 0, get_mig },
	{ 'L', "%SILOST", 7, TABLE_RIGHT, COL_NUM, 1, get_silost },
	{ 'D', "vDSO%", 6, TABLE_RIGHT, COL_NUM, 1, get_vdso },
	{ 'P', "PROCS", 5, TABLE_RIGHT, COL_NUM, 0, get_procs },
	{ 0, "CPUS", 0, TABLE_LEFT, COL_TEXT, 0, NULL },
};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

static const struct table_col *find(char key)
{
	return table_col_find(columns, NCOLS, key);
}

bool class_table_valid_key(char key)
{
	return find(key) != NULL;
}

const char *class_table_key_help(void)
{
	return "sort: p pid  t threads  C %cpu  V vol/s  I invol/s  R runnable  5/9/M runq p50/p99/max  "
	       "m migrations  L lost to softirq  D vDSO  P processes   v time view  q quit";
}

void class_table_header(char *buf, size_t len, char sort_key)
{
	table_header(buf, len, columns, NCOLS, sort_key);
}

void class_table_row(char *buf, size_t len, const struct class_row *r)
{
	char cpus[64];
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	sched_cpus_format(r->cls->cpus, r->cls->cpus_beyond, cpus, sizeof(cpus));
	for (size_t i = 0; i < NCOLS; i++) {
		const struct table_col *c = &columns[i];
		const char *sep = i ? " " : "";

		if (c->kind != COL_TEXT)   /* "-": not measured (e.g. no clock samples) */
			at = table_num(buf, len, at, sep, c->width, c->decimals, c->get(r));
		else if (!strcmp(c->title, "COMM"))
			at = text_put(buf, len, at, "%s%-*.*s", sep, c->width, c->width, r->group->comm);
		else if (!strcmp(c->title, "CLASS"))
			at = text_put(buf, len, at, "%s%-*.*s", sep, c->width, c->width, r->cls->name);
		else
			at = text_put(buf, len, at, "%s%s", sep, cpus);
	}
}

static int compare(const void *a, const void *b, void *arg)
{
	const struct table_col *col = arg;
	const struct class_row *x = a, *y = b;
	int c = col->kind == COL_PID ? 0 : table_cmp_desc(col->get(x), col->get(y));

	if (c)
		return c;
	if (x->group->pid != y->group->pid)
		return x->group->pid < y->group->pid ? -1 : 1;
	return strcmp(x->cls->name, y->cls->name);
}

int class_table_rows(const struct sched_interval *iv, char sort_key, struct class_row **rows)
{
	const struct table_col *col = find(sort_key);
	struct class_row *r;
	int n = 0;

	if (!col)
		col = find(CLASS_TABLE_DEFAULT_SORT);
	for (int i = 0; i < iv->n_groups; i++)
		n += iv->groups[i].n_classes;
	r = calloc(n ? (size_t)n : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	n = 0;
	for (int i = 0; i < iv->n_groups; i++)
		for (int k = 0; k < iv->groups[i].n_classes; k++) {
			r[n].group = &iv->groups[i];
			r[n].cls = &iv->groups[i].classes[k];
			n++;
		}
	qsort_r(r, (size_t)n, sizeof(*r), compare, (void *)col);
	*rows = r;
	return n;
}
