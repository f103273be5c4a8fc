/* gettimeofday_hotspot: a process or thread class that spends a large
 * share of its CPU reading the clock, in the vDSO or through real clock
 * system calls, with a hint from the host's clock configuration (field
 * case: 44% in __kernel_gettimeofday under sysbench, from skew_tick=1 set
 * by the tuned profile network-latency). */
#ifndef DBTRACE_FINDINGS_GETTIMEOFDAY_HOTSPOT_H
#define DBTRACE_FINDINGS_GETTIMEOFDAY_HOTSPOT_H

#include <stddef.h>
#include <stdint.h>
#include "findings/finding.h"
#include "model/clock_model.h"
#include "sysinfo/clock_env.h"

struct gtod_config {
	double vdso_pct;               /* default 10: % of a process's CPU samples */
	double syscalls_per_s;         /* default 10000 clock-read syscalls/s */
	/* fewer samples than this say nothing about a share (50 samples at
	 * 499 Hz is 0.1 s of CPU; a 10% share then has a ±4 point spread) */
	uint64_t min_samples;
};

void gtod_config_default(struct gtod_config *cfg);

/* What was found, for the hint. */
enum gtod_kind {
	GTOD_VDSO = 1,                 /* time inside the vDSO */
	GTOD_SYSCALLS = 2,             /* real clock system calls */
};

/* Assembles the hint for a hotspot of the given kinds (GTOD_* ORed) from
 * the environment, e.g. "clocksource is hpet: every clock read is a
 * syscall" or "skew_tick=1 on the kernel command line (tuned profile
 * network-latency)". Always writes a NUL-terminated text (cut to len).
 * Returns its length. Pure. */
size_t gtod_hint(const struct clock_env *env, int kinds, char *buf, size_t len);

/* Judges every process of a window, and every class of a process that is
 * not itself a hotspot (so one problem gives one finding). Merges what it
 * finds into out, tagged with interval_index (-1: the whole capture).
 * fns names the vDSO functions (may be NULL). Returns 0 or -ENOMEM. */
int gettimeofday_hotspot_check(const struct clock_interval *iv, const struct clock_fn_table *fns,
			       const struct clock_env *env, const struct gtod_config *cfg,
			       int interval_index, struct finding_list *out);

#endif
