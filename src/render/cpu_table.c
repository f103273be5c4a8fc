#define _GNU_SOURCE
#include "render/cpu_table.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <stdlib.h>

/* Cell kinds: the CPU number (or "all", and "offline" ends the row),
 * counts shown per second, and shares and times. */
enum col_kind { COL_CPU, COL_RATE, COL_NUM };

static const struct cpu_row *row(const void *r) { return r; }

static double get_cpu(const void *r) { return row(r)->cpu; }
static double get_usr(const void *r) { return row(r)->usr_pct; }
static double get_sys(const void *r) { return row(r)->sys_pct; }
static double get_si(const void *r) { return row(r)->softirq_total_pct; }
static double get_net_rx(const void *r) { return row(r)->softirq_pct[DBT_SOFTIRQ_NET_RX]; }
static double get_net_tx(const void *r) { return row(r)->softirq_pct[DBT_SOFTIRQ_NET_TX]; }
static double get_timer(const void *r) { return row(r)->softirq_pct[DBT_SOFTIRQ_TIMER]; }
static double get_sched(const void *r) { return row(r)->softirq_pct[DBT_SOFTIRQ_SCHED]; }
static double get_rcu(const void *r) { return row(r)->softirq_pct[DBT_SOFTIRQ_RCU]; }
static double get_hi(const void *r) { return row(r)->hardirq_pct; }
static double get_idle(const void *r) { return row(r)->idle_pct; }
static double get_steal(const void *r) { return row(r)->steal_pct; }
static double get_rx_rate(const void *r) { return (double)row(r)->entries[DBT_SOFTIRQ_NET_RX]; }
static double get_wait99(const void *r) { return row(r)->wait_all_p99_us; }

static const struct table_col columns[] = {
	{ 'c', "CPU", 4, TABLE_LEFT, COL_CPU, 0, get_cpu },
	{ 'u', "%usr", 6, TABLE_RIGHT, COL_NUM, 1, get_usr },
	{ 's', "%sys", 6, TABLE_RIGHT, COL_NUM, 1, get_sys },
	{ 'S', "%si", 6, TABLE_RIGHT, COL_NUM, 1, get_si },
	{ 'n', "NET_RX", 7, TABLE_RIGHT, COL_NUM, 1, get_net_rx },
	{ 't', "NET_TX", 7, TABLE_RIGHT, COL_NUM, 1, get_net_tx },
	{ 'T', "TIMER", 6, TABLE_RIGHT, COL_NUM, 1, get_timer },
	{ 'h', "SCHED", 6, TABLE_RIGHT, COL_NUM, 1, get_sched },
	{ 'r', "RCU", 6, TABLE_RIGHT, COL_NUM, 1, get_rcu },
	{ 'H', "%hirq", 6, TABLE_RIGHT, COL_NUM, 1, get_hi },
	{ 'i', "%idle", 6, TABLE_RIGHT, COL_NUM, 1, get_idle },
	{ 'l', "%steal", 6, TABLE_RIGHT, COL_NUM, 1, get_steal },
	{ 'x', "rx/s", 8, TABLE_RIGHT, COL_RATE, 0, get_rx_rate },
	{ 'w', "wait99us", 9, TABLE_RIGHT, COL_NUM, 0, get_wait99 },
};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

static const struct table_col *find(char key)
{
	return table_col_find(columns, NCOLS, key);
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
	table_header(buf, len, columns, NCOLS, sort_key);
}

void cpu_table_row(char *buf, size_t len, const struct cpu_row *r, double dt_s)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < NCOLS; i++) {
		const struct table_col *c = &columns[i];
		double v = c->get(r);
		const char *sep = i ? " " : "";

		switch (c->kind) {
		case COL_CPU:
			if (r->cpu < 0)
				at = text_put(buf, len, at, "%-*s", c->width, "all");
			else
				at = text_put(buf, len, at, "%-*d", c->width, r->cpu);
			if (!r->valid) {
				text_put(buf, len, at, " offline");
				return;
			}
			break;
		case COL_RATE:
			at = table_num(buf, len, at, sep, c->width, c->decimals, dt_s > 0 ? v / dt_s : 0);
			break;
		default:   /* "-": not measured (no family, no /proc/stat, no wait) */
			at = table_num(buf, len, at, sep, c->width, c->decimals, v);
			break;
		}
	}
}

static int compare(const void *a, const void *b, void *arg)
{
	const struct cpu_row *rows = ((const struct cpu_row **)arg)[0];
	const struct table_col *col = ((const struct table_col **)arg)[1];
	const struct cpu_row *ra = &rows[*(const int *)a], *rb = &rows[*(const int *)b];
	int c = col->kind == COL_CPU ? 0 : table_cmp_desc(col->get(ra), col->get(rb));

	if (c)
		return c;
	return ra->cpu < rb->cpu ? -1 : ra->cpu > rb->cpu;
}

int cpu_table_sort(const struct cpu_row *rows, int n, char sort_key, int *order)
{
	const struct table_col *col = find(sort_key);
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
