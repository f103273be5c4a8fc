/* The overhead section's BPF part: what dbtrace's own programs cost,
 * each family's and all of them together, over the windows in which the
 * kernel's run-time statistics were on (collect/bpf_meter.h). Rows:
 * struct bpf_cost_row. */
#include "figures/figures.h"
#include "model/bpf_cost.h"

#include <stddef.h>

#define BC(field) offsetof(struct bpf_cost_row, field)

static const struct figure bpf_figs[] = {
	{ .name = "cpu_pct", .unit = "%", .type = FIG_NUM, .offset = BC(cpu_pct),
	  .doc = "the programs' run time per second of the measured windows, % of one CPU: time the kernel "
		 "spends in them on behalf of whatever task the event interrupted, charged to that task, so in no "
		 "figure of dbtrace's own process. The kernel's `run_time_ns` of each program (what `bpftool prog` "
		 "and bpftop show) over the windows' wall time",
	  .diff = { FIG_LOWER, 0.2, 0.10, 0, "bpf_cpu_pct" }, .report = { "CPU %", 10 } },
	{ .name = "ns_per_event", .unit = "ns", .type = FIG_NUM, .offset = BC(ns_per_event),
	  .doc = "run time per program run (`run_time_ns` / `run_cnt`): the mean cost of one event, which "
		 "includes about one clock read of the statistics' own (the time between their two reads); `null` "
		 "without runs",
	  .diff = { FIG_LOWER, 10, 0.10, 0, "bpf_ns_per_event" }, .report = { "ns/event", 20 } },
	{ .name = "events_per_s", .unit = "/s", .type = FIG_NUM, .offset = BC(events_per_s),
	  .doc = "program runs per second of the windows",
	  .diff = { FIG_NEUTRAL, 100, 0.10, 0, "bpf_events_per_s" }, .report = { "events/s", 30 } },
	{ .name = "run_s", .unit = "s", .type = FIG_NS, .offset = BC(run_ns),
	  .doc = "the programs' run time inside the windows, seconds" },
	{ .name = "runs", .type = FIG_COUNT, .offset = BC(runs), .doc = "program runs inside the windows" },
};
const struct fig_table fig_bpf = FIG_TABLE("bpf", bpf_figs);
