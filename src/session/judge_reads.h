/* What the judge and the tick's join read from /proc, each answer kept
 * a while: a class is asked again interval after interval, and a read of
 * every thread of a busy database each second would cost more than the
 * rest of the user side. The rules (src/findings/) and the judge that
 * calls them (session/judge.h) stay free of I/O and caches. */
#ifndef DBTRACE_SESSION_JUDGE_READS_H
#define DBTRACE_SESSION_JUDGE_READS_H

#include <stdint.h>
#include "findings/oversubscription.h"
#include "model/class_map.h"
#include "model/sched_interval.h"
#include "model/thread_class.h"
#include "session/misbinding.h"
#include "session/tick_join.h"

/* net_wait_dominant's question, whether a class serves a port
 * (session/class_port.h), asked only of a class that passed its other
 * tests: answers kept JUDGE_SERVES_KEEP intervals, by group, class and
 * port. */
#define JUDGE_SERVES_KEEP 10
#define JUDGE_SERVES_CACHE 16

struct serves_cache {
	struct serves_answer {
		int pid;
		char cls[TCLASS_NAME_MAX];
		uint16_t port;
		int answer;
		int read_at;
	} e[JUDGE_SERVES_CACHE];
	int n;
};

/* The question asked in the interval index, of the classes of map. */
struct serves_question {
	struct serves_cache *cache;
	const struct class_map *classes;
	int index;
};

/* netwait_serves_fn over /proc; arg: a struct serves_question. */
int judge_reads_serves(const struct sched_group_stats *p, const struct sched_class_stats *c, uint16_t port,
		       void *arg);

/* The tick's CPU reads (session/tick_join.h): a group's from the
 * misbinding targets' cache (re-read every few intervals), a class's own
 * threads only for a class oversubscription could name. */
struct judge_cpus {
	struct misbinding *mis;
	const struct oversub_config *oversub;
};

/* cpus as a tick_cpus over ctx (which must outlive it). */
void judge_reads_cpus(struct judge_cpus *ctx, struct tick_cpus *cpus);

#endif
