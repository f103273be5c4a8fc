#include "render/report_hosts.h"
#include "model/net_join.h"
#include "render/report_stages.h"
#include "render/report_table.h"

#include <math.h>
#include <stdio.h>

/* The colour of each part: the stages' own, the network apart. */
static const char *part_colour(int part)
{
	switch (part) {
	case NJ_CLIENT_TX: case NJ_SERVER_TX: return report_stage_colour(DBT_NET_STAGE_TX);
	case NJ_NETWORK: return report_stage_colour(DBT_NET_STAGE_OUTSIDE);
	case NJ_SERVER_RX: case NJ_CLIENT_RX: return report_stage_colour(DBT_NET_STAGE_RX);
	case NJ_SERVER_SOCKET_WAIT: return report_stage_colour(DBT_NET_STAGE_SOCKET_WAIT);
	default: return report_stage_colour(DBT_NET_STAGE_SERVER);
	}
}

/* "db1", "db1 netns blue": how a capture's host is named here. */
static void host_name(const struct capture *c, char *buf, size_t len)
{
	snprintf(buf, len, "%.200s%s%.200s", c->host.hostname[0] ? c->host.hostname : "?",
		 c->host.netns[0] ? " netns " : "", c->host.netns);
}

static void cell_us(FILE *f, double v)
{
	if (isnan(v))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td data-v=\"%.3f\">%.1f</td>", v, v);
}

void report_hosts_section(FILE *f, const struct capture *const *caps, int n)
{
	const struct net_interval *nets[DBT_JOIN_HOSTS] = { NULL };
	struct net_joined j[NET_JOIN_MAX];
	char name[480], caption[800];
	int nj, hosts = n < DBT_JOIN_HOSTS ? n : DBT_JOIN_HOSTS;

	for (int i = 0; i < hosts; i++)
		nets[i] = caps[i]->have_net ? &caps[i]->net : NULL;
	nj = net_join_paths(nets, hosts, j, NET_JOIN_MAX);
	if (hosts < 2 && !nj)
		return;
	fputs("<section id=\"hosts\"><h2>Hosts joined</h2>\n<table id=\"host-table\"><thead><tr><th>capture</th>"
	      "<th>host</th><th>started</th></tr></thead><tbody>\n", f);
	for (int i = 0; i < hosts; i++) {
		host_name(caps[i], name, sizeof(name));
		fprintf(f, "<tr><td>%d</td><td>", i + 1);
		report_esc(f, name);
		fputs("</td><td>", f);
		report_esc(f, caps[i]->started_at);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (!nj) {
		fputs("<p>No service port was seen as a client in one capture and as a server in another.</p>\n"
		      "</section>\n", f);
		return;
	}
	fputs("<p>A port seen as a client on one host and as a server on another: the client's <b>outside</b> "
	      "stage (its request leaving to the reply arriving) holds the server host's whole time on host, and "
	      "the rest is the <b>network</b> between them, both directions together. Means over each side's "
	      "staged requests (capture-schema.md, <code>stages</code>).</p>\n"
	      "<table id=\"join-table\"><thead><tr><th>port</th><th>client</th><th>server</th>", f);
	for (int p = 0; p < NJ_PARTS; p++) {
		fputs("<th>", f);
		report_esc(f, net_join_part_name(p));
		fputs(" µs</th>", f);
	}
	fputs("<th>client total µs</th><th>server on host µs</th><th>network %</th></tr></thead><tbody>\n", f);
	for (int i = 0; i < nj; i++) {
		fprintf(f, "<tr data-port=\"%u\"><td>%u</td><td>", j[i].port, j[i].port);
		host_name(caps[j[i].client_host], name, sizeof(name));
		report_esc(f, name);
		fputs("</td><td>", f);
		host_name(caps[j[i].server_host], name, sizeof(name));
		report_esc(f, name);
		fputs("</td>", f);
		for (int p = 0; p < NJ_PARTS; p++)
			cell_us(f, j[i].part_us[p]);
		cell_us(f, j[i].client_total_us);
		cell_us(f, j[i].server_host_us);
		cell_us(f, j[i].network_pct);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n<div class=\"stage-bars\">\n", f);
	for (int i = 0; i < nj; i++) {
		const char *names[NJ_PARTS], *colours[NJ_PARTS];

		for (int p = 0; p < NJ_PARTS; p++) {
			names[p] = net_join_part_name(p);
			colours[p] = part_colour(p);
		}
		host_name(caps[j[i].client_host], name, sizeof(name));
		snprintf(caption, sizeof(caption), "port %u, from %s: %.1f µs mean, %.1f µs between the hosts", j[i].port,
			 name, j[i].client_total_us, j[i].part_us[NJ_NETWORK]);
		report_bar(f, caption, NJ_PARTS, names, j[i].part_us, colours);
	}
	fputs("</div>\n</section>\n", f);
}
