/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DBTRACE_SYSINFO_CLOCKSOURCE_H
#define DBTRACE_SYSINFO_CLOCKSOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* The kernel's CS_NAME_LEN is 32 including the NUL. */
#define DBT_CLOCKSOURCE_NAME_MAX 32
#define DBT_CLOCKSOURCE_AVAIL_MAX 16

struct dbt_clocksource {
	char current[DBT_CLOCKSOURCE_NAME_MAX];	  /* "" when unreadable */
	char available[DBT_CLOCKSOURCE_AVAIL_MAX][DBT_CLOCKSOURCE_NAME_MAX];
	unsigned int n_available;
	bool has_available;	/* available_clocksource was readable */
};

/*
 * Reads ROOT/sys/devices/system/clocksource/clocksource0/current_clocksource
 * (required: -ENOENT etc. when missing) and available_clocksource
 * (optional). Names longer than the kernel allows are truncated.
 */
int dbt_clocksource_read(const char *root, struct dbt_clocksource *cs);

struct dbt_clocksource_log;
bool dbt_clocksource_is_available(const struct dbt_clocksource *cs,
				  const char *name);

enum dbt_vdso {
	DBT_VDSO_UNKNOWN = 0,	/* a clocksource we have no verdict for */
	DBT_VDSO_YES,		/* clock_gettime/gettimeofday stay in user space */
	DBT_VDSO_NO,		/* every call is a real system call */
	DBT_VDSO_UNRELIABLE,	/* depends on hypervisor flags we cannot see */
};

/*
 * Whether the vDSO can read this clocksource without entering the kernel.
 * *why (may be NULL) gets a static one-line reason for findings' evidence.
 */
enum dbt_vdso dbt_clocksource_vdso(const char *name, const char **why);
const char *dbt_vdso_str(enum dbt_vdso v);

/*
 * Whether the scheduler's per-CPU clocks (rq->clock, sched_clock_cpu())
 * may disagree between CPUs, so that an interval begun on one CPU and
 * ended on another cannot be timed by them. The kernel falls back from
 * the TSC-based sched_clock to per-CPU clocks, each kept within a tick of
 * the global time (clear_sched_clock_stable), when it marks the TSC
 * unstable, and it then leaves the TSC as clocksource too (for hpet,
 * acpi_pm, jiffies): an emulated guest whose TSCs are unsynchronized
 * does, at boot. A paravirtual clocksource (kvm-clock, xen, Hyper-V's)
 * comes with the hypervisor's own sched_clock, stable whatever the TSC.
 * log (the kernel log's clocksource lines) may be NULL; it decides only
 * where the clocksource says nothing.
 */
bool dbt_sched_clock_per_cpu(const struct dbt_clocksource *cs,
			     const struct dbt_clocksource_log *log);

#define DBT_KLOG_LINE_MAX 256

struct dbt_clocksource_log {
	/*
	 * Clocksources marked unstable: "Marking TSC unstable due to ...",
	 * "Marking clocksource 'tsc' as unstable ..." (4.x+) and
	 * "Clocksource tsc unstable (delta = ...)" (3.x). The watchdog's line
	 * and tsc's "... due to clocksource watchdog" echo of it count once.
	 */
	unsigned int n_unstable;
	/* First such line, verbatim (timestamp included), truncated. */
	char first_unstable[DBT_KLOG_LINE_MAX];
	/* Target of the last "Switched to clocksource X" ("Switching to"
	 * on 3.x). */
	char last_switch[DBT_CLOCKSOURCE_NAME_MAX];
	unsigned int n_switches;
	unsigned long n_lines;
};

/*
 * Scans a kernel log text (dmesg output, with or without "[ t]" stamps).
 * Lines longer than the internal limit are still matched on their first
 * 4 KiB. The file is streamed; size is unbounded.
 */
int dbt_clocksource_scan_log(const char *path,
			     struct dbt_clocksource_log *log);
/* The same on a memory buffer (tests, fuzzing). */
void dbt_clocksource_scan_log_buf(const char *buf, size_t len,
				  struct dbt_clocksource_log *log);
/*
 * The same on the running kernel's log buffer (syslog(2) READ_ALL, what
 * dmesg shows). Needs CAP_SYSLOG or kernel.dmesg_restrict=0; -EPERM etc.
 * otherwise. Boot lines may have rotated out on a long-running host.
 */
int dbt_clocksource_scan_klog(struct dbt_clocksource_log *log);

#endif /* DBTRACE_SYSINFO_CLOCKSOURCE_H */
