#include "findings/tail_stage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What a stage's time is made of, where a slow group's time went. */
static const char *stage_meaning(int st)
{
	switch (st) {
	case DBT_NET_STAGE_RX: return "the receive path: softirq processing, a socket's backlog";
	case DBT_NET_STAGE_SOCKET_WAIT: return "waiting in the socket for the application to read it: "
					       "its threads busy, or woken late";
	case DBT_NET_STAGE_SERVER: return "the application's own time between reading the request and "
					  "sending the reply";
	case DBT_NET_STAGE_TX: return "leaving the host: the qdisc (a shaper, netem) and the driver's queue";
	case DBT_NET_STAGE_OUTSIDE: return "the network and the peer, outside this host";
	default: return "?";
	}
}

static void duration(double us, char *buf, size_t len)
{
	if (us >= 1000)
		snprintf(buf, len, "%.1f ms", us / 1000);
	else
		snprintf(buf, len, "%.0f us", us);
}

void tail_stage_describe(struct finding *f, const struct net_port_stats *p, char *buf, size_t len)
{
	char extra[24], part[24];
	int st = p->tail_stage;

	if (len)
		buf[0] = 0;
	if (!p->tail || st < 0 || !(p->tail_extra_us > 0) || isnan(p->tail_stage_pct))
		return;
	finding_text(f, "slow_stage", "%s", net_stage_name(st));
	finding_num(f, "slow_stage_pct", p->tail_stage_pct);
	finding_num(f, "slow_tail_pct", p->tail_pct);
	finding_num(f, "slow_tail_extra_us", p->tail_extra_us);
	duration(p->tail_extra_us, extra, sizeof(extra));
	duration(p->tail_extra_by_stage_us[st], part, sizeof(part));
	snprintf(buf, len, "By stage, the slowest %.0f%% took %s more than the rest, %s of it (%.0f%%) in the %s stage "
		 "(%s). ",
		 p->tail_pct, extra, part, p->tail_stage_pct, net_stage_name(st), stage_meaning(st));
}

void tail_stage_prepend(struct finding *f, const char *sentence)
{
	char hint[sizeof(f->hint)];

	if (!sentence[0])
		return;
	snprintf(hint, sizeof(hint), "%s%s", sentence, f->hint);
	memcpy(f->hint, hint, sizeof(f->hint));
}
