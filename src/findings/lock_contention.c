#include "findings/lock_contention.h"
#include "findings/class_rule.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void lockc_config_default(struct lockc_config *cfg)
{
	cfg->futex_pct = 30;
	cfg->work_pct = 5;
	cfg->top_addr_pct = 50;
}

static void describe(struct finding *f, const struct sched_group_stats *p,
		     const struct sched_class_stats *c, double dt_s)
{
	const struct class_time *t = &c->time;

	snprintf(f->id, sizeof(f->id), "lock_contention");
	f->severity = t->pct[CT_FUTEX] >= 60 ? SEV_CRITICAL : SEV_WARNING;
	f->pid = p->pid;
	snprintf(f->class_name, sizeof(f->class_name), "%s", c->name);
	snprintf(f->title, sizeof(f->title),
		 "%s (pid %d) class %s: %.0f%% of its time blocked on futexes, %.0f%% of that on one word",
		 p->comm, p->pid, c->name, t->pct[CT_FUTEX], t->top_word_blocked_pct);
	finding_num(f, "threads", c->threads);
	finding_num(f, "futex_pct", t->pct[CT_FUTEX]);
	finding_num(f, "oncpu_pct", t->pct[CT_ONCPU]);
	finding_num(f, "runqueue_pct", t->pct[CT_RUNQ]);
	finding_text(f, "top_futex_address", "0x%llx", (unsigned long long)t->futex_addr[0]);
	finding_num(f, "top_futex_blocked_share_pct", t->top_word_blocked_pct);
	finding_num(f, "futex_wait_p50_us", t->futex_p50_us);
	finding_num(f, "futex_wait_p99_us", t->futex_p99_us);
	finding_num(f, "interval_s", dt_s);
	snprintf(f->hint, sizeof(f->hint),
		 "The %d threads of class %s queue on one lock (futex word 0x%llx): adding threads adds "
		 "waiters, not throughput. Find the lock (gdb or perf on that address, e.g. a global "
		 "mutex or a hot row/page latch), shorten what runs under it or split it; "
		 "`perf lock contention -b -p %d` names it.",
		 c->threads, c->name, (unsigned long long)t->futex_addr[0], p->pid);
}

static bool fires(const struct sched_group_stats *p, const struct sched_class_stats *c,
		  const void *config)
{
	const struct lockc_config *cfg = config;

	(void)p;
	const struct class_time *t = &c->time;

	/* one thread blocked on a condition variable is idle, not
	 * contended: it takes two to queue on a lock */
	if (!t->thread_ns || c->threads < 2 || !(t->pct[CT_FUTEX] > cfg->futex_pct))
		return false;
	return t->pct[CT_ONCPU] + t->pct[CT_RUNQ] >= cfg->work_pct &&
	       t->top_word_blocked_pct >= cfg->top_addr_pct;
}

int lock_contention_check(const struct sched_interval *iv, const struct lockc_config *cfg,
                          int interval_index, struct finding_list *out)
{
	static const struct class_rule rule = { fires, describe };

	return class_rule_check(&rule, cfg, iv, interval_index, out);
}
