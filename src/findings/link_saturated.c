#include "findings/link_saturated.h"
#include "core/vec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void linksat_config_default(struct linksat_config *cfg)
{
	cfg->util_pct = 90;
	cfg->min_s = 3;
}

void linksat_state_free(struct linksat_state *st)
{
	free(st->dev);
	memset(st, 0, sizeof(*st));
}

static struct linksat_dev *state_of(struct linksat_state *st, const struct net_dev_stats *d)
{
	for (int i = 0; i < st->n; i++)
		if (st->dev[i].netns == d->netns && !strcmp(st->dev[i].name, d->name))
			return &st->dev[i];
	if (VEC_RESERVE(st->dev, st->cap, (size_t)st->n + 1))
		return NULL;
	memset(&st->dev[st->n], 0, sizeof(st->dev[0]));
	st->dev[st->n].netns = d->netns;
	snprintf(st->dev[st->n].name, sizeof(st->dev[0].name), "%s", d->name);
	return &st->dev[st->n++];
}

static void describe(struct finding *f, const struct net_dev_stats *d, double above_s, double dt_s)
{
	bool tx = !(d->rx_mbps > d->tx_mbps);
	double mbps = tx ? d->tx_mbps : d->rx_mbps;

	snprintf(f->id, sizeof(f->id), "link_saturated");
	f->severity = d->util_pct >= 98 ? SEV_CRITICAL : SEV_WARNING;
	net_dev_subject(d, f->class_name, sizeof(f->class_name));
	snprintf(f->title, sizeof(f->title), "%.40s: %s %.0f of %.0f Mbit/s (%.0f%% of the link) for %.0f s",
		 f->class_name, tx ? "sends" : "receives", mbps, d->speed_mbps, d->util_pct, above_s);
	finding_text(f, "device", "%s", d->name);
	if (d->foreign)
		finding_text(f, "netns", "%s", d->netns_name);
	finding_text(f, "direction", "%s", tx ? "tx" : "rx");
	finding_num(f, "speed_mbps", d->speed_mbps);
	finding_num(f, "util_pct", d->util_pct);
	finding_num(f, "tx_mbps", d->tx_mbps);
	finding_num(f, "rx_mbps", d->rx_mbps);
	finding_num(f, "tx_pps", d->tx_pps);
	finding_num(f, "rx_pps", d->rx_pps);
	finding_num(f, "above_s", above_s);
	if (d->qdisc_text[0])
		finding_text(f, "qdisc", "%s", d->qdisc_text);
	finding_num(f, "interval_s", dt_s);
	snprintf(f->hint, sizeof(f->hint),
		 "%s is at its link's limit (%.0f MB/s of a %.0f Mbit/s port; in the field a gigabit "
		 "port ran flat at 117 MB/s): more client threads only queue. Spread the traffic over "
		 "more links (bonding, more ports), move to a faster port, or cut the bytes (smaller "
		 "result sets, compression, replication on another link).",
		 d->name, mbps / 8, d->speed_mbps);
}

int link_saturated_check(const struct net_interval *iv, const struct linksat_config *cfg,
			 struct linksat_state *st, int interval_index, struct finding_list *out)
{
	for (int i = 0; i < st->n; i++)
		st->dev[i].seen = false;
	for (int i = 0; i < iv->n_devs; i++) {
		const struct net_dev_stats *d = &iv->devs[i];
		struct linksat_dev *s;
		struct finding f;
		int err;

		if (isnan(d->util_pct))
			continue;
		s = state_of(st, d);
		if (!s)
			return -ENOMEM;
		s->seen = true;
		if (d->util_pct <= cfg->util_pct) {
			s->above_s = 0;
			continue;
		}
		if (s->above_s == 0)
			s->since = interval_index;
		s->above_s += iv->dt_s;
		/* a few ms of slack: intervals run a hair short of their length */
		if (s->above_s + 0.005 < cfg->min_s)
			continue;
		memset(&f, 0, sizeof(f));
		describe(&f, d, s->above_s, iv->dt_s);
		f.first_interval = s->since;
		f.last_interval = interval_index;
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	for (int i = 0; i < st->n; i++)
		if (!st->dev[i].seen)
			st->dev[i].above_s = 0;
	return 0;
}
