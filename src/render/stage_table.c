#include "render/stage_table.h"
#include "render/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>

#define STAGE_W 16                     /* "  2041.2us  95%" */

void stage_table_header(char *buf, size_t len)
{
	size_t at = text_put(buf, len, 0, "%-6s %-6s %8s %10s", "PORT", "ROLE", "%STAGED", "TOTALus");

	for (int st = 0; st < DBT_NET_STAGES; st++) {
		char title[24];
		int i = 0;

		for (const char *c = net_stage_name(st); *c && i < (int)sizeof(title) - 1; c++)
			title[i++] = (char)toupper((unsigned char)*c);
		title[i] = 0;
		at = text_put(buf, len, at, " %*s", STAGE_W, title);
	}
}

void stage_table_row(char *buf, size_t len, const struct net_port_stats *p)
{
	size_t at = text_put(buf, len, 0, "%-6u %-6s", p->port, net_role_name(p->role));

	if (!p->staged) {
		at = text_put(buf, len, at, " %8s %10s", "-", "-");
		for (int st = 0; st < DBT_NET_STAGES; st++)
			at = text_put(buf, len, at, " %*s", STAGE_W, "-");
		return;
	}
	/* the share of the requests the stages stand for (weighted: about
	 * 100 when every request's segments stayed on their calls' CPUs) */
	at = text_put(buf, len, at, " %8.0f %10.1f",
		      p->requests ? 100.0 * (double)p->staged / (double)p->requests : NAN, p->total_mean_us);
	for (int st = 0; st < DBT_NET_STAGES; st++) {
		char cell[40];

		if (isnan(p->stage_mean_us[st]))
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.1fus %3.0f%%", p->stage_mean_us[st], p->stage_pct[st]);
		at = text_put(buf, len, at, " %*s", STAGE_W, cell);
	}
}
