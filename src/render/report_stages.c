#include "render/report_stages.h"
#include "render/report_table.h"

#include <math.h>

#define BAR_W 640
#define BAR_H 22

/* One colour per stage, the same in every bar. */
static const char *const stage_colour[DBT_NET_STAGES] = {
	[DBT_NET_STAGE_RX] = "#6c8ebf",
	[DBT_NET_STAGE_SOCKET_WAIT] = "#d79b00",
	[DBT_NET_STAGE_SERVER] = "#82b366",
	[DBT_NET_STAGE_TX] = "#b85450",
	[DBT_NET_STAGE_OUTSIDE] = "#9673a6",
};

/* The stages a role goes through, in time order (dbtrace/net.h). */
static int stages_in_order(int role, int *out)
{
	int n = 0;

	for (int pos = 0; pos < DBT_NET_STAGE_POS; pos++) {
		int st = dbt_net_stage_of(role, pos);

		if (st >= 0)
			out[n++] = st;
	}
	return n;
}

static void bar(FILE *f, const struct net_port_stats *p)
{
	int order[DBT_NET_STAGE_POS], n = stages_in_order(p->role, order);
	double x = 0;

	fprintf(f, "<figure class=\"stages\"><figcaption>%u/%s: %.1f µs mean over %llu requests (%llu timed)",
		p->port, net_role_name(p->role), p->total_mean_us, (unsigned long long)p->staged,
		(unsigned long long)p->staged_timed);
	fprintf(f, "</figcaption><svg class=\"stages\" width=\"%d\" height=\"%d\" role=\"img\">", BAR_W, BAR_H * 2);
	for (int i = 0; i < n; i++) {
		int st = order[i];
		double pct = p->stage_pct[st], w = isnan(pct) ? 0 : pct / 100 * BAR_W;

		fprintf(f, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", x, w, BAR_H,
			stage_colour[st]);
		report_esc(f, net_stage_name(st));
		fprintf(f, ": %.1f µs mean (%.1f%%), p50 %.1f, p99 %.1f µs</title></rect>", p->stage_mean_us[st],
			pct, p->stage_p50_us[st], p->stage_p99_us[st]);
		/* a label where the part is wide enough for one */
		if (w >= 60)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s %.0f%%</text>", x + 3, BAR_H + 14,
				net_stage_name(st), pct);
		x += w;
	}
	fputs("</svg></figure>\n", f);
}

void report_stage_bars(FILE *f, const struct net_interval *ni, int n)
{
	bool any = false;

	for (int i = 0; i < n && i < ni->n_ports; i++)
		any |= ni->ports[i].staged > 0;
	if (!any)
		return;
	fputs("<h3>Where the requests' time goes</h3>\n<p>Each port's staged requests (every stage timed, "
	      "request by request), split in time order: <b>server</b> role: rx (from the segment reaching TCP "
	      "to readable), socket_wait (to the application's read), server (to the reply's send), tx "
	      "(to the reply's segment leaving); <b>client</b> role: tx, outside (the network and the peer), rx. "
	      "Hover a part for its mean and percentiles.</p>\n<div class=\"stage-bars\">\n", f);
	for (int i = 0; i < n && i < ni->n_ports; i++)
		if (ni->ports[i].staged)
			bar(f, &ni->ports[i]);
	fputs("</div>\n", f);
}
