#include "findings/oversubscription.h"
#include "findings/class_rule.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void oversub_config_default(struct oversub_config *cfg)
{
	cfg->runq_p99_us = 1000;
	cfg->runnable_per_cpu = 1.0;
}

bool oversubscription_candidate(const struct sched_class_stats *c, const struct oversub_config *cfg)
{
	return c->threads > 1 && !isnan(c->runq_p99_us) && c->runq_p99_us > cfg->runq_p99_us;
}

static void describe(struct finding *f, const struct sched_group_stats *p,
		     const struct sched_class_stats *c, double dt_s)
{
	double excess = c->runnable_avg / c->allowed_cpus;

	snprintf(f->id, sizeof(f->id), "oversubscription");
	f->severity = excess >= 4 ? SEV_CRITICAL : SEV_WARNING;
	f->pid = p->pid;
	snprintf(f->class_name, sizeof(f->class_name), "%s", c->name);
	snprintf(f->title, sizeof(f->title),
		 "%s (pid %d) class %s: %.1f runnable threads on %d CPUs, run-queue p99 %.1f ms",
		 p->comm, p->pid, c->name, c->runnable_avg, c->allowed_cpus, c->runq_p99_us / 1000);
	finding_num(f, "threads", c->threads);
	finding_num(f, "runnable_avg", c->runnable_avg);
	finding_num(f, "allowed_cpus", c->allowed_cpus);
	finding_num(f, "oncpu_pct", c->oncpu_pct);
	finding_num(f, "csw_involuntary_per_s", c->invol_per_s);
	finding_num(f, "csw_voluntary_per_s", c->vol_per_s);
	finding_num(f, "runq_p50_us", c->runq_p50_us);
	finding_num(f, "runq_p99_us", c->runq_p99_us);
	finding_num(f, "runq_max_us", c->runq_max_us);
	finding_num(f, "interval_s", dt_s);
	snprintf(f->hint, sizeof(f->hint),
		 "%d threads of class %s compete for %d CPUs: each waits %.1f ms at p99 before it runs. "
		 "Shrink the pool towards %d runnable threads (e.g. fewer worker or network threads) "
		 "or let it use more CPUs (taskset/cpuset); --class NAME=GLOB regroups threads.",
		 c->threads, c->name, c->allowed_cpus, c->runq_p99_us / 1000, c->allowed_cpus);
}

static bool fires(const struct sched_group_stats *p, const struct sched_class_stats *c,
		  const void *config)
{
	const struct oversub_config *cfg = config;

	(void)p;
	/* a pool no larger than its CPUs cannot oversubscribe them:
	 * its waiting is someone else's load */
	if (!oversubscription_candidate(c, cfg) || c->allowed_cpus <= 0 || c->threads <= c->allowed_cpus)
		return false;
	return !(c->runnable_avg <= cfg->runnable_per_cpu * c->allowed_cpus);
}

int oversubscription_check(const struct sched_interval *iv, const struct oversub_config *cfg,
                           int interval_index, struct finding_list *out)
{
	static const struct class_rule rule = { fires, describe };

	return class_rule_check(&rule, cfg, iv, interval_index, out);
}
