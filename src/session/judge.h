/* The findings of a measuring session: every rule's configuration and
 * the state some rules keep across intervals (link_saturated's run of
 * seconds, misbinding's NIC layout and target cache), applied to each
 * tick and, for the clock family, to the whole run. The rules are pure
 * (src/findings/); the I/O they need, read once at start or per target
 * (the NIC layout, a process's allowed CPUs), is done here. */
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
#include "session/misbinding.h"
#include "session/tick.h"
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
	/* net_wait_dominant's question (session/class_port.h), asked only
	 * of a class that passed its other tests, answered from /proc and
	 * kept JUDGE_SERVES_KEEP intervals, by group, class and port */
	struct judge_serves {
		int pid;
		char cls[TCLASS_NAME_MAX];
		uint16_t port;
		int answer;
		int read_at;
	} serves[16];
	int n_serves;
	int index;                     /* the tick being judged */
	int pids[DBT_MAX_PIDS];        /* -p: the misbinding targets */
	int n_pids;
	/* record: the command's group, left out of the rules that judge a
	 * process or class as a server (session/judge.c says which) */
	int load_pid;
	struct sched_proc_stats *no_load;   /* the rows judged without it */
	size_t no_load_cap;
	struct clock_proc_stats *no_load_clock;
	size_t no_load_clock_cap;
	struct finding_list now;       /* the last tick's findings */
};

/* Thresholds from cfg; reads the host's NIC layout, and its clock
 * configuration when read_clock_env (the clock family is on). */
void judge_init(struct judge *j, const struct dbt_config *cfg, bool read_clock_env);
void judge_free(struct judge *j);

/* Judges one tick (index: its 0-based number) into j->now and merges
 * j->now into run. Fills each judged process's allowed CPUs into t.
 * fns names the vDSO function slots. Returns 0 or -ENOMEM. */
int judge_tick(struct judge *j, struct tick *t, const struct cpu_row *rows, int ncpus,
	       const struct clock_fn_table *fns, int index, struct finding_list *run);

/* The clock family over the whole run: a process that never reads enough
 * samples in one interval to be judged (a few % of a core at 1 s) still
 * is over a long capture. Its findings join run where run has none of
 * the same id, process and class. */
int judge_clock_run(struct judge *j, const struct clock_interval *whole,
		    const struct clock_fn_table *fns, struct finding_list *run);

#endif
