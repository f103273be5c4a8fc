#define _GNU_SOURCE
#include "render/table_cols.h"
#include "render/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const struct table_col *table_col_find(const struct table_col *cols, size_t n, char key)
{
	for (size_t i = 0; key && i < n; i++)
		if (cols[i].key == key)
			return &cols[i];
	return NULL;
}

void table_header(char *buf, size_t len, const struct table_col *cols, size_t n, char sort_key)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < n; i++) {
		const struct table_col *c = &cols[i];
		char title[24];

		snprintf(title, sizeof(title), "%s%s", c->key && c->key == sort_key ? "*" : "", c->title);
		at = text_put(buf, len, at, c->align == TABLE_LEFT ? "%s%-*s" : "%s%*s", i ? " " : "",
			      c->width, title);
	}
}

size_t table_num(char *buf, size_t len, size_t at, const char *sep, int width, int decimals,
		 double v)
{
	if (isnan(v))
		return text_put(buf, len, at, "%s%*s", sep, width, "-");
	return text_put(buf, len, at, "%s%*.*f", sep, width, decimals, v);
}

int table_cmp_desc(double a, double b)
{
	if (isnan(a) != isnan(b))
		return isnan(a) ? 1 : -1;
	if (!isnan(a) && a != b)
		return a > b ? -1 : 1;
	return 0;
}

static int cmp_order(const void *a, const void *b, void *arg)
{
	const double *v = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int c = table_cmp_desc(v[x], v[y]);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

int table_order_values(const double *v, int n, int *order)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, (size_t)(n > 0 ? n : 0), sizeof(*order), cmp_order, (void *)v);
	return n;
}

int table_order(const void *rows, size_t size, int n, double (*get)(const void *row),
		int *order)
{
	double *v = malloc(sizeof(*v) * (size_t)(n > 0 ? n : 1));

	if (!v)
		return -1;
	for (int i = 0; i < n; i++)
		v[i] = get((const char *)rows + (size_t)i * size);
	table_order_values(v, n, order);
	free(v);
	return n;
}
