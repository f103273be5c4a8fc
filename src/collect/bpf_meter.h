/* dbtrace's own BPF programs' run time, measured the way bpftop and
 * Rezolus do: from the kernel's run-time statistics of each program
 * (bpf_prog_info run_time_ns and run_cnt). Those cost every BPF program
 * run on the machine, not only dbtrace's, two clock reads while they are
 * on, so the meter switches them on for a tenth of each interval
 * (BPF_METER_DUTY): a window that opens just after a tick's snapshot and
 * closes on a timer, and the interval's cost is that window's run time
 * over its length. They are held on through a file descriptor
 * (BPF_ENABLE_STATS, Linux 5.8), which the kernel drops with the process:
 * off again however dbtrace ends, killed included. Another holder
 * (bpftop, kernel.bpf_stats_enabled=1) may keep them on meanwhile; a
 * window then also holds the runs during its own two reads of the
 * counters (read with the statistics off on either side, so that alone,
 * the windows add up to what the programs' counters hold). */
#ifndef DBTRACE_COLLECT_BPF_METER_H
#define DBTRACE_COLLECT_BPF_METER_H

#include <stdint.h>
#include "collect/collectors.h"
#include "model/bpf_cost.h"

/* The share of each interval the statistics are on. */
#define BPF_METER_DUTY 0.1

struct bpf_meter {
	int stats_fd;                  /* holds the statistics on during a window; -1 between */
	int timer_fd;                  /* ends a window; -1: the meter does not measure */
	uint64_t opened_ns;            /* CLOCK_MONOTONIC when the open window began; 0: none open */
	struct bpf_cost at_open;       /* the counters then */
	struct bpf_cost done;          /* windows closed and not yet taken */
	int error;                     /* why it does not measure: negative errno; 0 */
};

/* A meter that holds nothing (safe to close). */
void bpf_meter_init(struct bpf_meter *m);

/* Sets the meter up (its timer; the kernel must allow BPF_ENABLE_STATS:
 * it is tried once). Never fails the run: a meter that cannot measure
 * says why in bpf_meter_why() and takes nothing. */
void bpf_meter_open(struct bpf_meter *m);

/* Opens a window of len_s seconds (its timer fd becomes readable at the
 * end: call bpf_meter_end then). Returns 0 or a negative errno (the
 * statistics could not be switched on; the meter stops measuring). */
int bpf_meter_window(struct bpf_meter *m, const struct collectors *c, double len_s);

/* Closes the open window, if any, into what the next take returns. */
void bpf_meter_end(struct bpf_meter *m, const struct collectors *c);

/* The windows closed since the last take (zero when none was). */
void bpf_meter_take(struct bpf_meter *m, struct bpf_cost *out);

/* Why the meter does not measure, NULL when it does. */
const char *bpf_meter_why(const struct bpf_meter *m);

void bpf_meter_close(struct bpf_meter *m);

#endif
