#define _GNU_SOURCE
#include "out/net_table.h"
#include "out/text.h"
#include "findings/tx_queueing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number right-aligned in width, "-" when unknown. */
static size_t num(char *buf, size_t len, size_t at, int width, int decimals, double v)
{
	if (isnan(v))
		return text_put(buf, len, at, " %*s", width, "-");
	return text_put(buf, len, at, " %*.*f", width, decimals, v);
}

/* --- devices ------------------------------------------------------------ */

static double dev_mbit(const struct net_dev_stats *d)
{
	return (isnan(d->tx_mbps) ? 0 : d->tx_mbps) + (isnan(d->rx_mbps) ? 0 : d->rx_mbps);
}

static double dev_pps(const struct net_dev_stats *d)
{
	return (isnan(d->tx_pps) ? 0 : d->tx_pps) + (isnan(d->rx_pps) ? 0 : d->rx_pps);
}

static double dev_txq99(const struct net_dev_stats *d)
{
	return d->txq_p99_us;
}

static const struct {
	char key;
	double (*get)(const struct net_dev_stats *d);
} dev_keys[] = { { 'M', dev_mbit }, { 'P', dev_pps }, { 'Q', dev_txq99 } };

/* --- ports ------------------------------------------------------------- */

static double port_rate(const struct net_port_stats *p)
{
	return p->requests_per_s;
}

static double port_resp99(const struct net_port_stats *p)
{
	return p->resp_p99_us;
}

static double port_rxq99(const struct net_port_stats *p)
{
	return p->rxq_p99_us;
}

static const struct {
	char key;
	double (*get)(const struct net_port_stats *p);
} port_keys[] = { { 'R', port_rate }, { '9', port_resp99 }, { 'X', port_rxq99 } };

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

bool net_table_valid_key(char key)
{
	for (size_t i = 0; i < NKEYS(dev_keys); i++)
		if (dev_keys[i].key == key)
			return true;
	for (size_t i = 0; i < NKEYS(port_keys); i++)
		if (port_keys[i].key == key)
			return true;
	return false;
}

const char *net_table_key_help(void)
{
	return "sort devices: M Mbit/s  P packets/s  Q txq p99   ports: R requests/s  9 response p99  "
	       "X rxq p99   v next view  q quit";
}

static const char *mark(char key, char sort_key)
{
	return key == sort_key ? "*" : "";
}

void net_dev_header(char *buf, size_t len, char sort_key)
{
	char t[3][16];

	snprintf(t[0], sizeof(t[0]), "%sTXpps", mark('P', sort_key));
	snprintf(t[1], sizeof(t[1]), "%sTXMbit", mark('M', sort_key));
	snprintf(t[2], sizeof(t[2]), "%sTXQp99us", mark('Q', sort_key));
	snprintf(buf, len, "%-24s %7s %9s %9s %8s %8s %6s %9s %9s %s", "DEVICE", "SPEED", t[0],
		 "RXpps", t[1], "RXMbit", "%LINK", "TXQp50us", t[2], "QDISC");
}

void net_dev_row(char *buf, size_t len, const struct net_dev_stats *d)
{
	char name[64];
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	net_dev_subject(d, name, sizeof(name));
	at = text_put(buf, len, at, "%-24.24s", name);
	at = num(buf, len, at, 7, 0, d->speed_mbps);
	at = num(buf, len, at, 9, 0, d->tx_pps);
	at = num(buf, len, at, 9, 0, d->rx_pps);
	at = num(buf, len, at, 8, 1, d->tx_mbps);
	at = num(buf, len, at, 8, 1, d->rx_mbps);
	at = num(buf, len, at, 6, 1, d->util_pct);
	at = num(buf, len, at, 9, 0, d->txq_p50_us);
	at = num(buf, len, at, 9, 0, d->txq_p99_us);
	text_put(buf, len, at, " %s", d->qdisc_text[0] ? d->qdisc_text : "-");
}

void net_port_header(char *buf, size_t len, char sort_key)
{
	char r[16], p99[16], x[16];

	snprintf(r, sizeof(r), "%sREQ/s", mark('R', sort_key));
	snprintf(p99, sizeof(p99), "%sRESPp99us", mark('9', sort_key));
	snprintf(x, sizeof(x), "%sRXQp99us", mark('X', sort_key));
	snprintf(buf, len, "%-6s %-6s %9s %10s %10s %9s %9s %9s", "PORT", "ROLE", r, "RESPp50us", p99,
		 "READS/s", "RXQp50us", x);
}

void net_port_row(char *buf, size_t len, const struct net_port_stats *p)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	at = text_put(buf, len, at, "%-6u %-6s", p->port, net_role_name(p->role));
	at = num(buf, len, at, 9, 0, p->requests_per_s);
	at = num(buf, len, at, 10, 0, p->resp_p50_us);
	at = num(buf, len, at, 10, 0, p->resp_p99_us);
	at = num(buf, len, at, 9, 0, p->reads_per_s);
	at = num(buf, len, at, 9, 0, p->rxq_p50_us);
	num(buf, len, at, 9, 0, p->rxq_p99_us);
}

/* Sorting: the key's value, highest first, unknown last, then the
 * model's own order (stable by index). */
struct sort_ctx {
	const double *v;
};

static int cmp_desc(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	double vx = c->v[x], vy = c->v[y];

	if (isnan(vx) != isnan(vy))
		return isnan(vx) ? 1 : -1;
	if (!isnan(vx) && vx != vy)
		return vx > vy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int sort_by(const double *v, int n, int *order)
{
	struct sort_ctx c = { v };

	for (int i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, (size_t)n, sizeof(*order), cmp_desc, &c);
	return n;
}

int net_dev_sort(const struct net_interval *iv, char sort_key, int *order)
{
	double (*get)(const struct net_dev_stats *d) = dev_mbit;
	double *v;
	int n;

	for (size_t i = 0; i < NKEYS(dev_keys); i++)
		if (dev_keys[i].key == sort_key)
			get = dev_keys[i].get;
	v = malloc(sizeof(*v) * (size_t)(iv->n_devs ? iv->n_devs : 1));
	if (!v)
		return -1;
	for (int i = 0; i < iv->n_devs; i++)
		v[i] = get(&iv->devs[i]);
	n = sort_by(v, iv->n_devs, order);
	free(v);
	return n;
}

int net_port_sort(const struct net_interval *iv, char sort_key, int *order)
{
	double (*get)(const struct net_port_stats *p) = port_rate;
	double *v;
	int n;

	for (size_t i = 0; i < NKEYS(port_keys); i++)
		if (port_keys[i].key == sort_key)
			get = port_keys[i].get;
	v = malloc(sizeof(*v) * (size_t)(iv->n_ports ? iv->n_ports : 1));
	if (!v)
		return -1;
	for (int i = 0; i < iv->n_ports; i++)
		v[i] = get(&iv->ports[i]);
	n = sort_by(v, iv->n_ports, order);
	free(v);
	return n;
}
