#include "render/net_table.h"
#include "render/table_cols.h"
#include "render/text.h"
#include "model/hist.h"

#include <math.h>

/* --- devices ------------------------------------------------------------ */

static const struct net_dev_stats *dev(const void *d) { return d; }

/* Both directions; an unknown one counts as nothing. */
static double both(double tx, double rx)
{
	return (isnan(tx) ? 0 : tx) + (isnan(rx) ? 0 : rx);
}

static double dev_mbit(const void *d) { return both(dev(d)->tx_mbps, dev(d)->rx_mbps); }
static double dev_pps(const void *d) { return both(dev(d)->tx_pps, dev(d)->rx_pps); }
static double dev_txq99(const void *d) { return dev(d)->txq_p99_us; }

/* The two rate keys sort by both directions and mark the TX column. */
static const struct table_col dev_cols[] = {
	{ 0, "DEVICE", 24, TABLE_LEFT, 0, 0, NULL },
	{ 0, "SPEED", 7, TABLE_RIGHT, 0, 0, NULL },
	{ 'P', "TXpps", 9, TABLE_RIGHT, 0, 0, dev_pps },
	{ 0, "RXpps", 9, TABLE_RIGHT, 0, 0, NULL },
	{ 'M', "TXMbit", 8, TABLE_RIGHT, 0, 1, dev_mbit },
	{ 0, "RXMbit", 8, TABLE_RIGHT, 0, 1, NULL },
	{ 0, "%LINK", 6, TABLE_RIGHT, 0, 1, NULL },
	{ 0, "TXQp50us", 9, TABLE_RIGHT, 0, 0, NULL },
	{ 'Q', "TXQp99us", 9, TABLE_RIGHT, 0, 0, dev_txq99 },
	{ 0, "DROP/s", 7, TABLE_RIGHT, 0, 0, NULL },
	{ 0, "QDISC", 0, TABLE_RIGHT, 0, 0, NULL },
};

/* --- ports ------------------------------------------------------------- */

static const struct net_port_stats *port(const void *p) { return p; }

static double port_rate(const void *p) { return port(p)->requests_per_s; }
static double port_resp99(const void *p) { return port(p)->resp_p99_us; }
static double port_rxq99(const void *p) { return port(p)->rxq_p99_us; }

static const struct table_col port_cols[] = {
	{ 0, "PORT", 6, TABLE_LEFT, 0, 0, NULL },
	{ 0, "ROLE", 6, TABLE_LEFT, 0, 0, NULL },
	{ 'R', "REQ/s", 9, TABLE_RIGHT, 0, 0, port_rate },
	{ 0, "RESPp50us", 10, TABLE_RIGHT, 0, 0, NULL },
	{ '9', "RESPp99us", 10, TABLE_RIGHT, 0, 0, port_resp99 },
	{ 0, "READS/s", 9, TABLE_RIGHT, 0, 0, NULL },
	{ 0, "RXQp50us", 9, TABLE_RIGHT, 0, 0, NULL },
	{ 'X', "RXQp99us", 9, TABLE_RIGHT, 0, 0, port_rxq99 },
	/* the loss family: retransmitted segments, retransmission timer
	 * expirations, drops of skbs of this port's sockets */
	{ 0, "RETX/s", 7, TABLE_RIGHT, 0, 0, NULL },
	{ 0, "RTO/s", 6, TABLE_RIGHT, 0, 1, NULL },
	{ 0, "DROP/s", 7, TABLE_RIGHT, 0, 0, NULL },
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

bool net_table_valid_key(char key)
{
	return table_col_find(dev_cols, NCOLS(dev_cols), key) ||
	       table_col_find(port_cols, NCOLS(port_cols), key);
}

const char *net_table_key_help(void)
{
	return "sort devices: M Mbit/s  P packets/s  Q txq p99   ports: R requests/s  9 response p99  "
	       "X rxq p99   v next view  q quit   ~ sampled: 1 in 16 timed";
}

/* A latency from a histogram that was sampled under load (some timed
 * measurement counts for several) is marked with a trailing '~', in the
 * column's width. */
static size_t latency(char *buf, size_t len, size_t at, const struct table_col *c, double v,
		      bool sampled)
{
	if (!sampled || isnan(v) || c->width < 2)
		return table_num(buf, len, at, " ", c->width, c->decimals, v);
	return text_put(buf, len, at, " %*.*f~", c->width - 1, c->decimals, v);
}

static bool sampled(const __u64 *hist, uint64_t timed)
{
	return timed < hist_total(hist, DBT_HIST_BUCKETS);
}

void net_dev_header(char *buf, size_t len, char sort_key)
{
	table_header(buf, len, dev_cols, NCOLS(dev_cols), sort_key);
}

void net_dev_row(char *buf, size_t len, const struct net_dev_stats *d, const struct net_dev_loss *l)
{
	/* dev_cols[1] to [9] */
	const double v[] = { d->speed_mbps, d->tx_pps, d->rx_pps, d->tx_mbps, d->rx_mbps,
			     d->util_pct, d->txq_p50_us, d->txq_p99_us, l ? l->drops_per_s : NAN };
	const int w = dev_cols[0].width;
	char name[64];
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	net_dev_subject(d, name, sizeof(name));
	at = text_put(buf, len, at, "%-*.*s", w, w, name);
	for (size_t i = 0; i < NCOLS(v); i++)
		at = latency(buf, len, at, &dev_cols[i + 1], v[i],
			     (i == 6 || i == 7) && sampled(d->txq_hist, d->txq_timed));
	text_put(buf, len, at, " %s", d->qdisc_text[0] ? d->qdisc_text : "-");
}

void net_port_header(char *buf, size_t len, char sort_key)
{
	table_header(buf, len, port_cols, NCOLS(port_cols), sort_key);
}

void net_port_row(char *buf, size_t len, const struct net_port_stats *p, const struct net_port_loss *l)
{
	/* port_cols[2] to [10] */
	const double v[] = { p->requests_per_s, p->resp_p50_us, p->resp_p99_us, p->reads_per_s,
			     p->rxq_p50_us, p->rxq_p99_us, l ? l->retrans_per_s : NAN,
			     l ? l->rto_per_s : NAN, l ? l->drops_per_s : NAN };
	bool resp = sampled(p->resp_hist, p->resp_timed), rxq = sampled(p->rxq_hist, p->rxq_timed);
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	at = text_put(buf, len, at, "%-*u %-*s", port_cols[0].width, p->port, port_cols[1].width,
		      net_role_name(p->role));
	for (size_t i = 0; i < NCOLS(v); i++)
		at = latency(buf, len, at, &port_cols[i + 2], v[i],
			     ((i == 1 || i == 2) && resp) || ((i == 4 || i == 5) && rxq));
}

/* Sorting: the key's value, highest first, unknown last, then the
 * model's own order; a key of the other table sorts by the default. */
int net_dev_sort(const struct net_interval *iv, char sort_key, int *order)
{
	const struct table_col *c = table_col_find(dev_cols, NCOLS(dev_cols), sort_key);

	return table_order(iv->devs, sizeof(*iv->devs), iv->n_devs, c ? c->get : dev_mbit, order);
}

int net_port_sort(const struct net_interval *iv, char sort_key, int *order)
{
	const struct table_col *c = table_col_find(port_cols, NCOLS(port_cols), sort_key);

	return table_order(iv->ports, sizeof(*iv->ports), iv->n_ports, c ? c->get : port_rate, order);
}
