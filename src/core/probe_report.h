/* The probe record: which attach path a probe family took and what was
 * refused on the way. The attach plan fills it, `dbtrace probes` prints
 * it, a capture stores it and reads it back, the exporter labels
 * dbtrace_probe_info with it: one type, so a family name or an attach
 * path is never cut to different lengths on the way. Pure: data only. */
#ifndef DBTRACE_CORE_PROBE_REPORT_H
#define DBTRACE_CORE_PROBE_REPORT_H

#include <stdbool.h>

#define PROBE_FAMILY_MAX 16            /* "softirq", "sched", "clock", "net" */
#define PROBE_PATH_MAX 24              /* "tp_btf", "perf_event+tp_btf", ... */
#define PROBE_ERROR_MAX 160
#define PROBE_MAX_REJECTED 6
#define PROBE_HOOK_MAX 64              /* "tracepoint/syscalls/sys_enter_clock_nanosleep" */
#define PROBE_MAX_HOOKS 16
#define PROBE_MAX_NOTES 4

struct probe_rejection {
	char path[PROBE_PATH_MAX];
	char error[PROBE_ERROR_MAX];   /* "load: Operation not permitted" */
};

struct probe_report {
	char family[PROBE_FAMILY_MAX];
	bool disabled;                 /* left out with --families: not tried */
	/* --attach: the one path to try, "" for the plan's order. Set before
	 * the plan runs; the plan keeps it, and records every other path as
	 * not tried. */
	char forced[PROBE_PATH_MAX];
	int error;                     /* why no path attached (negative errno), 0 when one did;
					* -EINVAL: forced names no path of the family */
	char attach[PROBE_PATH_MAX];   /* the winning path, "" when none */
	int n_programs;                /* programs attached */
	int n_rejected;
	struct probe_rejection rejected[PROBE_MAX_REJECTED];
	/* what the winning path hooks, as libbpf section names without the
	 * leading '?': "tp_btf/sched_switch", "perf_event", ... */
	char hooks[PROBE_MAX_HOOKS][PROBE_HOOK_MAX];
	int n_hooks;
	/* how the winning path adapted to what the kernel lacks, at load
	 * time: "socket state in a hash: needs socket storage in tracing
	 * programs (5.11)" */
	char notes[PROBE_MAX_NOTES][PROBE_ERROR_MAX];
	int n_notes;
};

/* Adds a note to rep (printf-style); beyond PROBE_MAX_NOTES it is dropped. */
void probe_note(struct probe_report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What a hook costs and whom: "every context switch", or, for the
 * syscall tracepoints, the warning that every system call of every task
 * then takes the traced slow path. Never NULL. */
const char *probe_hook_cost(const char *hook);

/* True for a hook that taxes every system call of every task. */
bool probe_hook_taxes_syscalls(const char *hook);

#endif
