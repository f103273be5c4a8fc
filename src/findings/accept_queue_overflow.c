#include "findings/accept_queue_overflow.h"

#include <stdio.h>
#include <string.h>

void acceptq_config_default(struct acceptq_config *cfg)
{
	cfg->min_overflows = 1;
}

static const struct loss_ns_stats *ns_of(const struct loss_interval *li, uint32_t netns)
{
	for (int i = 0; i < li->n_ns; i++)
		if (li->ns[i].netns == netns)
			return &li->ns[i];
	return NULL;
}

int accept_queue_overflow_check(const struct loss_interval *li, const struct acceptq_config *cfg,
				int interval_index, struct finding_list *out)
{
	for (int i = 0; i < li->n_listeners; i++) {
		const struct loss_listener_stats *l = &li->listeners[i];
		const struct loss_ns_stats *ns = ns_of(li, l->netns);
		char somax[32] = "unknown";
		struct finding f;
		int err;

		if (!l->have_drops || l->overflows < cfg->min_overflows)
			continue;
		if (l->somaxconn >= 0)
			snprintf(somax, sizeof(somax), "%ld", l->somaxconn);
		memset(&f, 0, sizeof(f));
		snprintf(f.id, sizeof(f.id), "accept_queue_overflow");
		f.severity = SEV_WARNING;
		if (l->foreign)
			snprintf(f.class_name, sizeof(f.class_name), "%u/server@%s", l->port, l->netns_name);
		else
			snprintf(f.class_name, sizeof(f.class_name), "%u/server", l->port);
		snprintf(f.title, sizeof(f.title),
			 "port %u%s%s: %llu connection attempts dropped on a full accept queue (backlog %u, "
			 "somaxconn %s)",
			 l->port, l->foreign ? "@" : "", l->foreign ? l->netns_name : "",
			 (unsigned long long)l->overflows, l->max_backlog, somax);
		finding_num(&f, "port", l->port);
		if (l->foreign)
			finding_text(&f, "netns", "%s", l->netns_name);
		finding_num(&f, "overflows", (double)l->overflows);
		finding_num(&f, "overflows_per_s", l->overflows_per_s);
		finding_num(&f, "accept_queue", l->queue);
		finding_num(&f, "backlog", l->max_backlog);
		finding_num(&f, "sockets", l->sockets);
		if (l->somaxconn >= 0)
			finding_num(&f, "somaxconn", (double)l->somaxconn);
		if (ns && ns->have) {
			finding_num(&f, "listen_overflows", (double)ns->listen_overflows);
			finding_num(&f, "listen_drops", (double)ns->listen_drops);
		}
		finding_num(&f, "interval_s", li->dt_s);
		snprintf(f.hint, sizeof(f.hint),
			 "The queue of connections waiting for accept() holds the listen() backlog (+1), "
			 "capped at net.core.somaxconn (%s here; per namespace); past it the kernel drops "
			 "the SYN or the handshake's last ACK and the client retries after 1 s. Raise the "
			 "server's backlog (MySQL back_log, nginx listen backlog=, ...) and somaxconn "
			 "together, and check the server accepts fast enough (a thread pool that is full, "
			 "an accept loop that blocks). `ss -lnt` shows Recv-Q/Send-Q.",
			 somax);
		f.first_interval = f.last_interval = interval_index;
		err = findings_merge(out, &f);
		if (err)
			return err;
	}
	return 0;
}
