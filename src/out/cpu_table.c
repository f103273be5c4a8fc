#define _GNU_SOURCE
#include "out/cpu_table.h"
#include "out/text.h"
#include "model/hist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum col_kind { COL_CPU, COL_PCT, COL_RATE, COL_US };

struct column {
	char key;
	const char *title;
	int width;
	enum col_kind kind;
	double (*get)(const struct cpu_row *r);
};

static double get_cpu(const struct cpu_row *r) { return r->cpu; }
static double get_usr(const struct cpu_row *r) { return r->usr_pct; }
static double get_sys(const struct cpu_row *r) { return r->sys_pct; }
static double get_si(const struct cpu_row *r) { return r->softirq_total_pct; }
static double get_net_rx(const struct cpu_row *r) { return r->softirq_pct[DBT_SOFTIRQ_NET_RX]; }
static double get_net_tx(const struct cpu_row *r) { return r->softirq_pct[DBT_SOFTIRQ_NET_TX]; }
static double get_timer(const struct cpu_row *r) { return r->softirq_pct[DBT_SOFTIRQ_TIMER]; }
static double get_sched(const struct cpu_row *r) { return r->softirq_pct[DBT_SOFTIRQ_SCHED]; }
static double get_rcu(const struct cpu_row *r) { return r->softirq_pct[DBT_SOFTIRQ_RCU]; }
static double get_hi(const struct cpu_row *r) { return r->hardirq_pct; }
static double get_idle(const struct cpu_row *r) { return r->idle_pct; }
static double get_steal(const struct cpu_row *r) { return r->steal_pct; }
static double get_rx_rate(const struct cpu_row *r) { return (double)r->entries[DBT_SOFTIRQ_NET_RX]; }

double cpu_row_wait_p99(const struct cpu_row *r)
{
	__u64 merged[DBT_HIST_SLOTS] = { 0 };

	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
		for (int s = 0; s < DBT_HIST_SLOTS; s++)
			merged[s] += r->wait_hist[v][s];
	return hist_percentile(merged, DBT_HIST_SLOTS, 0.99);
}

static const struct column columns[] = {
	{ 'c', "CPU", 4, COL_CPU, get_cpu },
	{ 'u', "%usr", 6, COL_PCT, get_usr },
	{ 's', "%sys", 6, COL_PCT, get_sys },
	{ 'S', "%si", 6, COL_PCT, get_si },
	{ 'n', "NET_RX", 7, COL_PCT, get_net_rx },
	{ 't', "NET_TX", 7, COL_PCT, get_net_tx },
	{ 'T', "TIMER", 6, COL_PCT, get_timer },
	{ 'h', "SCHED", 6, COL_PCT, get_sched },
	{ 'r', "RCU", 6, COL_PCT, get_rcu },
	{ 'H', "%hirq", 6, COL_PCT, get_hi },
	{ 'i', "%idle", 6, COL_PCT, get_idle },
	{ 'l', "%steal", 6, COL_PCT, get_steal },
	{ 'x', "rx/s", 8, COL_RATE, get_rx_rate },
	{ 'w', "wait99us", 9, COL_US, cpu_row_wait_p99 },
};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

static const struct column *find(char key)
{
	for (size_t i = 0; i < NCOLS; i++)
		if (columns[i].key == key)
			return &columns[i];
	return NULL;
}

bool cpu_table_valid_key(char key)
{
	return find(key) != NULL;
}

const char *cpu_table_key_help(void)
{
	return "sort: c cpu  u usr  s sys  S si  n NET_RX  t NET_TX  T TIMER  h SCHED  r RCU  "
	       "H hirq  i idle  l steal  x rx/s  w wait99   v class view  q quit";
}

void cpu_table_header(char *buf, size_t len, char sort_key)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < NCOLS; i++) {
		char title[24];

		snprintf(title, sizeof(title), "%s%s", columns[i].key == sort_key ? "*" : "",
			 columns[i].title);
		at = text_put(buf, len, at, i ? " %*s" : "%-*s", columns[i].width, title);
	}
}

void cpu_table_row(char *buf, size_t len, const struct cpu_row *r, double dt_s)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < NCOLS; i++) {
		const struct column *c = &columns[i];
		double v = c->get(r);
		const char *sep = i ? " " : "";

		if (c->kind == COL_CPU) {
			if (r->cpu < 0)
				at = text_put(buf, len, at, "%-*s", c->width, "all");
			else
				at = text_put(buf, len, at, "%-*d", c->width, r->cpu);
			if (!r->valid) {
				text_put(buf, len, at, " offline");
				return;
			}
			continue;
		}
		switch (c->kind) {
		case COL_PCT:
			if (isnan(v))   /* not measured: no family or no /proc/stat */
				at = text_put(buf, len, at, "%s%*s", sep, c->width, "-");
			else
				at = text_put(buf, len, at, "%s%*.1f", sep, c->width, v);
			break;
		case COL_RATE:
			at = text_put(buf, len, at, "%s%*.0f", sep, c->width, dt_s > 0 ? v / dt_s : 0);
			break;
		case COL_US:
			if (isnan(v))
				at = text_put(buf, len, at, "%s%*s", sep, c->width, "-");
			else
				at = text_put(buf, len, at, "%s%*.0f", sep, c->width, v);
			break;
		default:
			break;
		}
	}
}

static int compare(const void *a, const void *b, void *arg)
{
	const struct cpu_row *rows = ((const struct cpu_row **)arg)[0];
	const struct column *col = ((const struct column **)arg)[1];
	const struct cpu_row *ra = &rows[*(const int *)a], *rb = &rows[*(const int *)b];
	double va = col->get(ra), vb = col->get(rb);

	/* empty values sort last whatever the direction */
	if (isnan(va) != isnan(vb))
		return isnan(va) ? 1 : -1;
	if (col->kind != COL_CPU && !isnan(va) && va != vb)
		return va > vb ? -1 : 1;
	return ra->cpu < rb->cpu ? -1 : ra->cpu > rb->cpu;
}

int cpu_table_sort(const struct cpu_row *rows, int n, char sort_key, int *order)
{
	const struct column *col = find(sort_key);
	const void *arg[2];
	int k = 0;

	if (!col)
		col = find(CPU_TABLE_DEFAULT_SORT);
	for (int i = 0; i < n; i++)
		if (rows[i].valid)
			order[k++] = i;
	arg[0] = rows;
	arg[1] = col;
	qsort_r(order, (size_t)k, sizeof(*order), compare, (void *)arg);
	return k;
}
