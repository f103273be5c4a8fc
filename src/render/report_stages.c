#include "render/report_stages.h"
#include "render/report_table.h"

#include <math.h>

#define BAR_W 640
#define BAR_H 22

/* One colour per stage, the same in every bar. */
static const char *const stage_colours[DBT_NET_STAGES] = {
	[DBT_NET_STAGE_RX] = "#6c8ebf",
	[DBT_NET_STAGE_SOCKET_WAIT] = "#d79b00",
	[DBT_NET_STAGE_SERVER] = "#82b366",
	[DBT_NET_STAGE_TX] = "#b85450",
	[DBT_NET_STAGE_OUTSIDE] = "#9673a6",
};

const char *report_stage_colour(int stage)
{
	return stage >= 0 && stage < DBT_NET_STAGES ? stage_colours[stage] : "#999";
}

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

void report_bar(FILE *f, const char *caption, int n, const char *const *names, const double *us,
		const char *const *colours)
{
	double total = 0, x = 0;

	for (int i = 0; i < n; i++)
		total += isnan(us[i]) || us[i] < 0 ? 0 : us[i];
	fputs("<figure class=\"stages\"><figcaption>", f);
	report_esc(f, caption);
	fprintf(f, "</figcaption><svg class=\"stages\" width=\"%d\" height=\"%d\" role=\"img\">", BAR_W, BAR_H * 2);
	for (int i = 0; total > 0 && i < n; i++) {
		double v = isnan(us[i]) || us[i] < 0 ? 0 : us[i], pct = 100 * v / total, w = pct / 100 * BAR_W;

		fprintf(f, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", x, w, BAR_H,
			colours[i]);
		report_esc(f, names[i]);
		fprintf(f, ": %.1f µs mean (%.1f%%)</title></rect>", us[i], pct);
		/* a label where the part is wide enough for one */
		if (w >= 60) {
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">", x + 3, BAR_H + 14);
			report_esc(f, names[i]);
			fprintf(f, " %.0f%%</text>", pct);
		}
		x += w;
	}
	fputs("</svg></figure>\n", f);
}

static void bar(FILE *f, const struct net_port_stats *p)
{
	int order[DBT_NET_STAGE_POS], n = stages_in_order(p->role, order);
	const char *names[DBT_NET_STAGE_POS], *colours[DBT_NET_STAGE_POS];
	double us[DBT_NET_STAGE_POS];
	char caption[160];

	for (int i = 0; i < n; i++) {
		names[i] = net_stage_name(order[i]);
		colours[i] = report_stage_colour(order[i]);
		us[i] = p->stage_mean_us[order[i]];
	}
	snprintf(caption, sizeof(caption), "%u/%s: %.1f µs mean over %llu requests (%llu timed)", p->port,
		 net_role_name(p->role), p->total_mean_us, (unsigned long long)p->staged,
		 (unsigned long long)p->staged_timed);
	report_bar(f, caption, n, names, us, colours);
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
