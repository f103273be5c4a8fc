/* clock family collector: finds the vDSO's functions, loads
 * bpf/clock.bpf.c through the attach plan (a perf_event sampler on every
 * CPU plus a syscall-entry counter), and turns its maps into clock
 * snapshots. */
#ifndef DBTRACE_COLLECT_CLOCK_H
#define DBTRACE_COLLECT_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "core/bpf_plan.h"
#include "model/clock_model.h"

#define CLOCK_DEFAULT_HZ 499       /* not 500: no lockstep with 100/250/1000 Hz ticks */
#define CLOCK_CHUNK 1024           /* map entries read per batch */

struct clock_collector {
	const struct plan_family *family;  /* sampled, or counting (--clock-syscalls=count) */
	struct plan_handle h;
	const char *syscall_method;    /* clock_syscall_method() of the path taken */
	unsigned int sample_hz;
	struct clock_fn_table fns;     /* slot names; text_len 0: no vDSO found */
	int threads_fd, stats_fd;
	int ncpus;
	uint32_t *keys;                /* CLOCK_CHUNK */
	struct dbt_clock_thread *values;
	struct dbt_clock_stats *stats; /* ncpus */
};

/* sample_hz 0 means CLOCK_DEFAULT_HZ. count_syscalls: try the syscall
 * tracepoints after fentry (every system call then pays), instead of the
 * sampler alone. */
int clock_collector_open(struct clock_collector *c, unsigned int sample_hz, bool count_syscalls,
			 struct probe_report *rep, struct bpf_features *kernel);

/* How clock syscalls are measured on attach path `attach`: "fentry"
 * (counted, only clock syscalls pay), "tracepoint" or "raw_syscalls"
 * (counted, every syscall pays), "sampled" (a share of CPU samples, no
 * counts). */
const char *clock_syscall_method(const char *attach);
/* Fills snap (emptied first) and sorts it by tid. */
int clock_collector_read(struct clock_collector *c, struct clock_snapshot *snap);
uint64_t clock_collector_lost(const struct clock_collector *c);
void clock_collector_close(struct clock_collector *c);

#endif
