#define _GNU_SOURCE
#include "out/class_table.h"
#include "out/text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum col_kind { COL_PID, COL_TEXT, COL_INT, COL_NUM, COL_US };

struct column {
	char key;
	const char *title;
	int width;
	enum col_kind kind;
	double (*get)(const struct class_row *r);
	int decimals;
};

static double get_pid(const struct class_row *r) { return r->proc->pid; }
static double get_threads(const struct class_row *r) { return r->cls->threads; }
static double get_cpu(const struct class_row *r) { return r->cls->oncpu_pct; }
static double get_vol(const struct class_row *r) { return r->cls->vol_per_s; }
static double get_invol(const struct class_row *r) { return r->cls->invol_per_s; }
static double get_p50(const struct class_row *r) { return r->cls->runq_p50_us; }
static double get_p99(const struct class_row *r) { return r->cls->runq_p99_us; }
static double get_max(const struct class_row *r) { return r->cls->runq_max_us; }
static double get_mig(const struct class_row *r) { return r->cls->migrations_per_s; }
static double get_runnable(const struct class_row *r) { return r->cls->runnable_avg; }
static double get_silost(const struct class_row *r) { return r->cls->softirq_lost_pct; }
static double get_vdso(const struct class_row *r) { return r->cls->vdso_pct; }

static const struct column columns[] = {
	{ 'p', "PID", 7, COL_PID, get_pid, 0 },
	{ 0, "COMM", 15, COL_TEXT, NULL, 0 },
	{ 0, "CLASS", 20, COL_TEXT, NULL, 0 },
	{ 't', "THR", 5, COL_INT, get_threads, 0 },
	{ 'C', "%CPU", 7, COL_NUM, get_cpu, 1 },
	{ 'V', "VOL/s", 8, COL_NUM, get_vol, 0 },
	{ 'I', "INVOL/s", 8, COL_NUM, get_invol, 0 },
	{ 'R', "RUNNABLE", 8, COL_NUM, get_runnable, 1 },
	{ '5', "RQp50us", 8, COL_US, get_p50, 0 },
	{ '9', "RQp99us", 8, COL_US, get_p99, 0 },
	{ 'M', "RQmaxus", 8, COL_US, get_max, 0 },
	{ 'm', "MIG/s", 7, COL_NUM, get_mig, 0 },
	{ 'L', "%SILOST", 7, COL_NUM, get_silost, 1 },
	{ 'D', "vDSO%", 6, COL_NUM, get_vdso, 1 },
	{ 0, "CPUS", 0, COL_TEXT, NULL, 0 },
};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

static const struct column *find(char key)
{
	for (size_t i = 0; i < NCOLS; i++)
		if (key && columns[i].key == key)
			return &columns[i];
	return NULL;
}

bool class_table_valid_key(char key)
{
	return find(key) != NULL;
}

const char *class_table_key_help(void)
{
	return "sort: p pid  t threads  C %cpu  V vol/s  I invol/s  R runnable  5/9/M runq p50/p99/max  "
	       "m migrations  L lost to softirq  D vDSO   v net view  q quit";
}

void class_table_header(char *buf, size_t len, char sort_key)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < NCOLS; i++) {
		const struct column *c = &columns[i];
		char title[24];

		snprintf(title, sizeof(title), "%s%s", c->key && c->key == sort_key ? "*" : "", c->title);
		if (c->kind == COL_TEXT)
			at = text_put(buf, len, at, "%s%-*s", i ? " " : "", c->width, title);
		else
			at = text_put(buf, len, at, "%s%*s", i ? " " : "", c->width, title);
	}
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
		const struct column *c = &columns[i];
		const char *sep = i ? " " : "";
		double v = c->get ? c->get(r) : 0;

		switch (c->kind) {
		case COL_PID:
		case COL_INT:
			at = text_put(buf, len, at, "%s%*.0f", sep, c->width, v);
			break;
		case COL_NUM:
			if (isnan(v))   /* not measured (e.g. no clock samples) */
				at = text_put(buf, len, at, "%s%*s", sep, c->width, "-");
			else
				at = text_put(buf, len, at, "%s%*.*f", sep, c->width, c->decimals, v);
			break;
		case COL_US:
			if (isnan(v))
				at = text_put(buf, len, at, "%s%*s", sep, c->width, "-");
			else
				at = text_put(buf, len, at, "%s%*.0f", sep, c->width, v);
			break;
		case COL_TEXT:
			if (!strcmp(c->title, "COMM"))
				at = text_put(buf, len, at, "%s%-*.*s", sep, c->width, c->width, r->proc->comm);
			else if (!strcmp(c->title, "CLASS"))
				at = text_put(buf, len, at, "%s%-*.*s", sep, c->width, c->width, r->cls->name);
			else
				at = text_put(buf, len, at, "%s%s", sep, cpus);
			break;
		}
	}
}

static int compare(const void *a, const void *b, void *arg)
{
	const struct column *col = arg;
	const struct class_row *x = a, *y = b;
	double vx = col->get(x), vy = col->get(y);

	if (isnan(vx) != isnan(vy))
		return isnan(vx) ? 1 : -1;
	if (col->kind != COL_PID && !isnan(vx) && vx != vy)
		return vx > vy ? -1 : 1;
	if (x->proc->pid != y->proc->pid)
		return x->proc->pid < y->proc->pid ? -1 : 1;
	return strcmp(x->cls->name, y->cls->name);
}

int class_table_rows(const struct sched_interval *iv, char sort_key, struct class_row **rows)
{
	const struct column *col = find(sort_key);
	struct class_row *r;
	int n = 0;

	if (!col)
		col = find(CLASS_TABLE_DEFAULT_SORT);
	for (int i = 0; i < iv->n_procs; i++)
		n += iv->procs[i].n_classes;
	r = calloc(n ? (size_t)n : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	n = 0;
	for (int i = 0; i < iv->n_procs; i++)
		for (int k = 0; k < iv->procs[i].n_classes; k++) {
			r[n].proc = &iv->procs[i];
			r[n].cls = &iv->procs[i].classes[k];
			n++;
		}
	qsort_r(r, (size_t)n, sizeof(*r), compare, (void *)col);
	*rows = r;
	return n;
}
