/* The report's stage bars and top's stage table: a port's staged
 * requests drawn and printed stage by stage, in time order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/report_stages.h"
#include "render/stage_table.h"

/* A server row: rx 2, socket_wait 30, server 200, tx 3 us. */
static void server_row(struct net_port_stats *p)
{
	static const double mean[DBT_NET_STAGES] = { 2, 30, 200, 3, NAN };

	memset(p, 0, sizeof(*p));
	p->port = 3306;
	p->role = DBT_NET_SERVER;
	p->requests = 100;
	p->staged = 80;
	p->staged_timed = 80;
	p->total_mean_us = 235;
	for (int st = 0; st < DBT_NET_STAGES; st++) {
		p->stage_mean_us[st] = mean[st];
		p->stage_pct[st] = isnan(mean[st]) ? NAN : 100 * mean[st] / 235;
		p->stage_p50_us[st] = p->stage_p99_us[st] = mean[st];
	}
}

static char *bars(const struct net_interval *ni)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_stage_bars(f, ni, ni->n_ports);
	fclose(f);
	return buf;
}

static void test_bars(void **state)
{
	struct net_port_stats rows[2];
	struct net_interval ni = { .ports = rows, .n_ports = 2 };
	char *html;
	const char *rx, *sw, *srv, *tx;

	(void)state;
	server_row(&rows[0]);
	memset(&rows[1], 0, sizeof(rows[1]));
	rows[1].port = 5432;
	html = bars(&ni);
	assert_non_null(strstr(html, "<figcaption>3306/server: 235.0 µs mean over 80 requests (80 timed)"));
	assert_null(strstr(html, "5432"));            /* nothing staged: no bar */
	/* time order, each part as wide as its share of 640 px */
	rx = strstr(html, "<title>rx: 2.0 µs mean");
	sw = strstr(html, "<title>socket_wait: 30.0 µs mean");
	srv = strstr(html, "<title>server: 200.0 µs mean (85.1%)");
	tx = strstr(html, "<title>tx: 3.0 µs mean");
	assert_true(rx && sw && srv && tx && rx < sw && sw < srv && srv < tx);
	assert_non_null(strstr(html, "width=\"544.7\""));   /* 200/235 of 640 */
	assert_null(strstr(html, "<title>outside"));
	free(html);

	/* no port staged: no section at all */
	rows[0].staged = 0;
	html = bars(&ni);
	assert_string_equal(html, "");
	free(html);
}

static void test_table(void **state)
{
	struct net_port_stats p;
	char head[256], row[256];

	(void)state;
	server_row(&p);
	stage_table_header(head, sizeof(head));
	stage_table_row(row, sizeof(row), &p);
	assert_non_null(strstr(head, "PORT"));
	assert_non_null(strstr(head, "SOCKET_WAIT"));
	assert_non_null(strstr(head, "OUTSIDE"));
	assert_int_equal(strlen(head), strlen(row));   /* columns line up */
	assert_non_null(strstr(row, "3306   server"));
	assert_non_null(strstr(row, "200.0us  85%"));
	assert_non_null(strstr(row, "      80      235.0"));   /* 80% of requests staged */
	/* the client's stages the server has not, and a row with none */
	p.staged = 0;
	stage_table_row(row, sizeof(row), &p);
	assert_int_equal(strlen(head), strlen(row));
	assert_null(strstr(row, "us"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
