#include "render/net_table.h"
#include "render/fig_cols.h"
#include "render/table_cols.h"
#include "render/text.h"

#include <math.h>
#include <stdlib.h>

/* Each table's own columns (a device's name; a port and its role); the
 * rest are the net section's figures (figures/figures_net.c) and the
 * loss family's beside them (figures_loss.c). */
enum { COL_DEVICE = 1, COL_PORT, COL_ROLE };

static const struct fig_own_col dev_own[] = {
	{ COL_DEVICE, { .key = 0, .title = "DEVICE", .width = 24, .at = 10 }, true },
};
static const struct fig_table *const dev_tables[] = { &fig_devices, &fig_dev_loss };

static const struct fig_own_col port_own[] = {
	{ COL_PORT, { .key = 0, .title = "PORT", .width = 6, .at = 10 }, true },
	{ COL_ROLE, { .key = 0, .title = "ROLE", .width = 6, .at = 20 }, true },
};
static const struct fig_table *const port_tables[] = { &fig_ports, &fig_port_loss };

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int dev_cols(struct fig_tcol *cols)
{
	return fig_cols(dev_own, NCOLS(dev_own), dev_tables, NCOLS(dev_tables), cols);
}

static int port_cols(struct fig_tcol *cols)
{
	return fig_cols(port_own, NCOLS(port_own), port_tables, NCOLS(port_tables), cols);
}

bool net_table_valid_key(char key)
{
	struct fig_tcol d[FIG_COLS_MAX], p[FIG_COLS_MAX];

	return fig_cols_find(d, dev_cols(d), key) || fig_cols_find(p, port_cols(p), key);
}

const char *net_table_key_help(void)
{
	static char help[512];
	char ports[256];
	struct fig_tcol d[FIG_COLS_MAX], p[FIG_COLS_MAX];

	fig_cols_help(p, port_cols(p), "ports", "g stages  v next view  q quit   ~ sampled: 1 in 16 timed", ports,
		      sizeof(ports));
	return fig_cols_help(d, dev_cols(d), "sort devices", ports, help, sizeof(help));
}

void net_dev_header(char *buf, size_t len, char sort_key)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	fig_cols_header(buf, len, cols, dev_cols(cols), sort_key);
}

void net_port_header(char *buf, size_t len, char sort_key)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	fig_cols_header(buf, len, cols, port_cols(cols), sort_key);
}

void net_dev_row(char *buf, size_t len, const struct net_dev_stats *d, const struct net_dev_loss *l)
{
	struct fig_tcol cols[FIG_COLS_MAX];
	const void *rows[] = { d, l };
	int n = dev_cols(cols);
	char name[64];
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	net_dev_subject(d, name, sizeof(name));
	for (int i = 0; i < n; i++) {
		int w = cols[i].col.width;

		if (cols[i].own)
			at = text_put(buf, len, at, "%s%-*.*s", i ? " " : "", w, w, name);
		else
			at = fig_cols_cell(buf, len, at, i ? " " : "", &cols[i], dev_tables, rows, 128);
	}
}

void net_port_row(char *buf, size_t len, const struct net_port_stats *p, const struct net_port_loss *l)
{
	struct fig_tcol cols[FIG_COLS_MAX];
	const void *rows[] = { p, l };
	int n = port_cols(cols);
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		const char *sep = i ? " " : "";
		int w = cols[i].col.width;

		if (!cols[i].own)
			at = fig_cols_cell(buf, len, at, sep, &cols[i], port_tables, rows, 128);
		else if (cols[i].own->id == COL_PORT)
			at = text_put(buf, len, at, "%s%-*u", sep, w, p->port);
		else
			at = text_put(buf, len, at, "%s%-*s", sep, w, net_role_name(p->role));
	}
}

/* Sorting: the key's value, highest first, unknown last, then the
 * model's own order; a key of the other table sorts by the default. */
static int sort_rows(const void *rows, size_t size, int n, const struct fig_tcol *cols, int ncols, char key,
		     char dflt, int *order)
{
	const struct fig_tcol *c = fig_cols_find(cols, ncols, key);
	double *v = malloc(sizeof(*v) * (size_t)(n > 0 ? n : 1));

	if (!v)
		return -1;
	if (!c)
		c = fig_cols_find(cols, ncols, dflt);
	for (int i = 0; i < n; i++) {
		const void *r[] = { (const char *)rows + (size_t)i * size, NULL };

		v[i] = fig_cols_sort_value(c, r);
	}
	table_order_values(v, n, order);
	free(v);
	return n;
}

int net_dev_sort(const struct net_interval *iv, char sort_key, int *order)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	return sort_rows(iv->devs, sizeof(*iv->devs), iv->n_devs, cols, dev_cols(cols), sort_key,
			 NET_TABLE_DEFAULT_SORT, order);
}

int net_port_sort(const struct net_interval *iv, char sort_key, int *order)
{
	struct fig_tcol cols[FIG_COLS_MAX];

	return sort_rows(iv->ports, sizeof(*iv->ports), iv->n_ports, cols, port_cols(cols), sort_key,
			 NET_TABLE_PORT_DEFAULT, order);
}
