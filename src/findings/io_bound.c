#include "findings/io_bound.h"
#include "findings/class_rule.h"

#include <stdio.h>
#include <string.h>

void iobound_config_default(struct iobound_config *cfg)
{
	cfg->disk_pct = 30;
}

static void describe(struct finding *f, const struct sched_group_stats *p,
		     const struct sched_class_stats *c, double dt_s)
{
	const struct class_time *t = &c->time;

	snprintf(f->id, sizeof(f->id), "io_bound");
	f->severity = t->pct[CT_DISK] >= 60 ? SEV_CRITICAL : SEV_WARNING;
	f->pid = p->pid;
	snprintf(f->class_name, sizeof(f->class_name), "%s", c->name);
	snprintf(f->title, sizeof(f->title), "%s (pid %d) class %s: %.0f%% of its time waiting for disk I/O",
		 p->comm, p->pid, c->name, t->pct[CT_DISK]);
	finding_num(f, "threads", c->threads);
	finding_num(f, "disk_pct", t->pct[CT_DISK]);
	finding_num(f, "oncpu_pct", t->pct[CT_ONCPU]);
	finding_num(f, "runqueue_pct", t->pct[CT_RUNQ]);
	finding_num(f, "disk_seconds", (double)t->ns[CT_DISK] / 1e9);
	finding_num(f, "interval_s", dt_s);
	snprintf(f->hint, sizeof(f->hint),
		 "Class %s waits on the storage more than it runs: look at the device's latency and queue "
		 "(iostat -x, biolatency), the fsync/commit policy (group commit, "
		 "innodb_flush_log_at_trx_commit, synchronous_commit) and whether the working set "
		 "fits the buffer pool.",
		 c->name);
}

static bool fires(const struct sched_group_stats *p, const struct sched_class_stats *c,
		  const void *config)
{
	const struct iobound_config *cfg = config;

	(void)p;
	return c->time.thread_ns && c->time.pct[CT_DISK] > cfg->disk_pct;
}

int io_bound_check(const struct sched_interval *iv, const struct iobound_config *cfg,
                   int interval_index, struct finding_list *out)
{
	static const struct class_rule rule = { fires, describe };

	return class_rule_check(&rule, cfg, iv, interval_index, out);
}
