#define _GNU_SOURCE
#include "render/time_table.h"
#include "model/syscall_name.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum col_kind { COL_PID, COL_TEXT, COL_NUM };

static const struct class_time *tm(const void *r)
{
	return &((const struct class_row *)r)->cls->time;
}

static double get_pid(const void *r) { return ((const struct class_row *)r)->group->pid; }
static double get_threads(const void *r) { return ((const struct class_row *)r)->cls->threads; }
static double get_oncpu(const void *r) { return tm(r)->pct[CT_ONCPU]; }
static double get_user(const void *r) { return tm(r)->oncpu_user_pct; }
static double get_sys(const void *r) { return tm(r)->oncpu_sys_pct; }
static double get_runq(const void *r) { return tm(r)->pct[CT_RUNQ]; }
static double get_sirq(const void *r) { return tm(r)->pct[CT_SOFTIRQ]; }
static double get_blocked(const void *r) { return tm(r)->blocked_pct; }
static double get_futex(const void *r) { return tm(r)->pct[CT_FUTEX]; }
static double get_net(const void *r) { return tm(r)->pct[CT_NET]; }
static double get_disk(const void *r) { return tm(r)->pct[CT_DISK]; }
static double get_sleep(const void *r) { return tm(r)->pct[CT_SLEEP]; }
static double get_other(const void *r) { return tm(r)->pct[CT_PIPE_OTHER]; }
static double get_kernel(const void *r) { return tm(r)->pct[CT_KERNEL]; }

/* The futex word the class waited on longest: its share of the class's
 * futex time (model/class_time.h), its address beside it */
static double get_word(const void *r) { return class_time_top_word_futex_pct(tm(r)); }

static const struct table_col columns[] = {
	{ 'p', "PID", 7, TABLE_RIGHT, COL_PID, 0, get_pid },
	{ 0, "COMM", 15, TABLE_LEFT, COL_TEXT, 0, NULL },
	{ 0, "CLASS", 20, TABLE_LEFT, COL_TEXT, 0, NULL },
	{ 't', "THR", 5, TABLE_RIGHT, COL_NUM, 0, get_threads },
	{ 'o', "%ONCPU", 6, TABLE_RIGHT, COL_NUM, 1, get_oncpu },
	/* inside %ONCPU, not added to the sum; '-' when the kernel counted
	 * no tick of the class (model/class_time.h) */
	{ 'u', "%USR", 5, TABLE_RIGHT, COL_NUM, 1, get_user },
	{ 'y', "%SYS", 5, TABLE_RIGHT, COL_NUM, 1, get_sys },
	{ 'r', "%RUNQ", 6, TABLE_RIGHT, COL_NUM, 1, get_runq },
	{ 's', "%SIRQ", 6, TABLE_RIGHT, COL_NUM, 1, get_sirq },
	{ 'b', "%BLOCK", 6, TABLE_RIGHT, COL_NUM, 1, get_blocked },
	{ 'f', "%FUTEX", 6, TABLE_RIGHT, COL_NUM, 1, get_futex },
	{ 'n', "%NET", 6, TABLE_RIGHT, COL_NUM, 1, get_net },
	{ 'd', "%DISK", 6, TABLE_RIGHT, COL_NUM, 1, get_disk },
	{ 'z', "%SLEEP", 6, TABLE_RIGHT, COL_NUM, 1, get_sleep },
	{ 'x', "%OTHER", 6, TABLE_RIGHT, COL_NUM, 1, get_other },
	{ 'k', "%KERN", 6, TABLE_RIGHT, COL_NUM, 1, get_kernel },
	{ 'w', "%WORD", 5, TABLE_RIGHT, COL_NUM, 0, get_word },
	{ 0, "FUTEX-WORD", 14, TABLE_LEFT, COL_TEXT, 0, NULL },
	{ 0, "OTHER-SYSCALLS", 0, TABLE_LEFT, COL_TEXT, 0, NULL },
};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

static const struct table_col *find(char key)
{
	return table_col_find(columns, NCOLS, key);
}

bool time_table_valid_key(char key)
{
	return find(key) != NULL;
}

const char *time_table_key_help(void)
{
	return "sort: p pid  t threads  o on-CPU  u user  y system  r runq  s softirq  b blocked  f futex  n net  d disk  "
	       "z sleep  x other syscalls  k kernel  w top futex word   v net view  q quit";
}

void time_table_header(char *buf, size_t len, char sort_key)
{
	table_header(buf, len, columns, NCOLS, sort_key);
}

void time_table_other_syscalls(char *buf, size_t len, const struct class_time *t)
{
	uint64_t other = t->ns[CT_PIPE_OTHER];
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < t->n_sys && i < 3 && other; i++) {
		const char *name = syscall_name(t->sys_nr[i]);

		if (name)
			at = text_put(buf, len, at, "%s%s %.0f%%", at ? " " : "", name,
				      100.0 * (double)t->sys_ns[i] / (double)other);
		else
			at = text_put(buf, len, at, "%s#%d %.0f%%", at ? " " : "", t->sys_nr[i],
				      100.0 * (double)t->sys_ns[i] / (double)other);
	}
}

/* The address of that word (a user address: the same lock in every
 * process forked with it, PostgreSQL's shared memory), "-" for none */
static size_t futex_word(char *buf, size_t len, size_t at, const char *sep, int width,
			 const struct class_time *t)
{
	if (isnan(class_time_top_word_futex_pct(t)))
		return text_put(buf, len, at, "%s%-*s", sep, width, "-");
	return text_put(buf, len, at, "%s%#-*llx", sep, width, (unsigned long long)t->futex_addr[0]);
}

void time_table_row(char *buf, size_t len, const struct class_row *r)
{
	char sys[96];
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	time_table_other_syscalls(sys, sizeof(sys), &r->cls->time);
	for (size_t i = 0; i < NCOLS; i++) {
		const struct table_col *c = &columns[i];
		const char *sep = i ? " " : "";

		if (c->kind != COL_TEXT)
			at = table_num(buf, len, at, sep, c->width, c->decimals, c->get(r));
		else if (!strcmp(c->title, "COMM"))
			at = text_put(buf, len, at, "%s%-*.*s", sep, c->width, c->width, r->group->comm);
		else if (!strcmp(c->title, "CLASS"))
			at = text_put(buf, len, at, "%s%-*.*s", sep, c->width, c->width, r->cls->name);
		else if (!strcmp(c->title, "FUTEX-WORD"))
			at = futex_word(buf, len, at, sep, c->width, &r->cls->time);
		else
			at = text_put(buf, len, at, "%s%s", sep, sys);
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

int time_table_rows(const struct sched_interval *iv, char sort_key, struct class_row **rows)
{
	const struct table_col *col = find(sort_key);
	int n = class_table_rows(iv, 'p', rows), kept = 0;

	if (n < 0)
		return n;
	if (!col)
		col = find(TIME_TABLE_DEFAULT_SORT);
	for (int i = 0; i < n; i++)
		if ((*rows)[i].cls->time.thread_ns)
			(*rows)[kept++] = (*rows)[i];
	qsort_r(*rows, (size_t)kept, sizeof(**rows), compare, (void *)col);
	return kept;
}
