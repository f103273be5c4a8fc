/* The findings of a measuring session: every rule's configuration and
 * the state some rules keep across intervals (link_saturated's run of
 * seconds, misbinding's NIC layout and target cache), applied to each
 * interval and, for the clock family, to the whole run. The rules are
 * pure (src/findings/); what they need read from /proc, and kept a while,
 * is session/judge_reads.h's. */
#ifndef DBTRACE_SESSION_JUDGE_H
#define DBTRACE_SESSION_JUDGE_H

#include <stdbool.h>
#include "cli/options.h"
#include "findings/accept_queue_overflow.h"
#include "findings/bimodal_response.h"
#include "findings/finding.h"
#include "findings/gettimeofday_hotspot.h"
#include "findings/io_bound.h"
#include "findings/link_saturated.h"
#include "findings/lock_contention.h"
#include "findings/net_wait_dominant.h"
#include "findings/oversubscription.h"
#include "findings/packet_drops.h"
#include "findings/retransmit_timeouts.h"
#include "findings/softnet_backlog_drops.h"
#include "findings/tx_queueing.h"
#include "model/cpu_model.h"
#include "session/interval.h"
#include "session/judge_reads.h"
#include "session/misbinding.h"
#include "sysinfo/clock_env.h"

struct judge {
	struct oversub_config oversub;
	struct gtod_config gtod;
	struct clock_env clock_env;    /* read once: clocksource, log, cmdline, tuned */
	struct txq_config txq;
	struct linksat_config linksat;
	struct linksat_state linksat_runs;  /* seconds above the threshold, per device */
	struct bimodal_config bimodal;
	struct rto_config rto;         /* the loss family's rules */
	struct drops_config drops;
	struct acceptq_config acceptq;
	struct softnet_config softnet;
	struct lockc_config lockc;     /* the wall-time budget's rules */
	struct iobound_config iobound;
	struct netwait_config netwait;
	struct misbinding mis;         /* NIC layout read once, target CPUs cached */
	struct serves_cache serves;    /* net_wait_dominant's answers, kept a while */
	/* the tick's CPU reads (session/tick_join.h) over mis's cache */
	struct judge_cpus cpus_ctx;
	struct tick_cpus cpus;
	int pids[DBT_MAX_PIDS];        /* -p: the misbinding targets */
	int n_pids;
	/* record: the command's group, left out of the rules that judge a
	 * process or class as a server (session/judge.c says which) */
	int load_pid;
	struct sched_group_stats *no_load;  /* the rows judged without it */
	size_t no_load_cap;
	struct clock_group_stats *no_load_clock;
	size_t no_load_clock_cap;
	struct finding_list now;       /* the last tick's findings */
};

/* Thresholds from cfg; reads the host's NIC layout, and its clock
 * configuration when read_clock_env (the clock family is on). */
void judge_init(struct judge *j, const struct dbt_config *cfg, bool read_clock_env);
void judge_free(struct judge *j);

/* Judges one interval into j->now and merges j->now into run. Returns 0
 * or -ENOMEM. */
int judge_interval(struct judge *j, const struct interval *iv, struct finding_list *run);

/* The clock family over the whole run: a process that never reads enough
 * samples in one interval to be judged (a few % of a core at 1 s) still
 * is over a long capture. Its findings join run where run has none of
 * the same id, process and class. */
int judge_clock_run(struct judge *j, const struct clock_interval *whole,
		    const struct clock_fn_table *fns, struct finding_list *run);

#endif
