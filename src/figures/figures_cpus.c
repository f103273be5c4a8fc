/* The CPUs section: each CPU (and the mean of all, in top) over an
 * interval or the whole capture: where its time went by /proc/stat, and
 * the softirq family's time, runs, raises and waits per vector. Rows:
 * struct cpu_row. */
#include "figures/figures.h"
#include "dbtrace/hist.h"
#include "model/cpu_model.h"
#include "model/softirq_vec.h"

#include <stddef.h>

#define CPU(field) offsetof(struct cpu_row, field)

static const struct cpu_row *row(const void *r)
{
	return r;
}

/* the softirq family attached at both ends: its numbers mean something */
static bool has_sirq(const void *r, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return row(r)->have_sirq;
}

/* a vector's waits: a histogram only where one was timed */
static bool has_wait(const void *r, int key, const void *ctx)
{
	(void)ctx;
	return row(r)->wait_timed[key] != 0;
}

static const char *vec_name(int v)
{
	return softirq_vec_key(v);
}

static const struct fig_keys vectors = { DBT_SOFTIRQ_VECS, vec_name, "<vector>", false };
static const struct fig_keys vectors_inline = { DBT_SOFTIRQ_VECS, vec_name, "<vector>", true };

/* top's columns of the vectors a database host watches */
static const struct fig_key_view vector_views[DBT_SOFTIRQ_VECS] = {
	[DBT_SOFTIRQ_NET_RX] = { .top = { 'n', "NET_RX", 7, 1, 50 } },
	[DBT_SOFTIRQ_NET_TX] = { .top = { 't', "NET_TX", 7, 1, 60 } },
	[DBT_SOFTIRQ_TIMER] = { .top = { 'T', "TIMER", 6, 1, 70 } },
	[DBT_SOFTIRQ_SCHED] = { .top = { 'h', "SCHED", 6, 1, 80 } },
	[DBT_SOFTIRQ_RCU] = { .top = { 'r', "RCU", 6, 1, 90 } },
};

/* A softirq share's move of half a point is noise; a vector (or hard
 * irqs) that took no visible share on either side has no row. */
#define SIRQ_DIFF(metric_, at_, shown_) { FIG_LOWER, 0.5, 0.10, shown_, metric_, at_ }

static const struct figure softirq_figs[] = {
	{ .name = "softirq_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(softirq_pct), .keys = &vectors_inline,
	  .known = has_sirq, .key_views = vector_views,
	  .doc = "share of wall time in each vector `hi`, `timer`, `net_tx`, `net_rx`, `block`, `irq_poll`, "
		 "`tasklet`, `sched`, `hrtimer`, `rcu`; hard irqs that interrupted a softirq are excluded. Past "
		 "8 handler runs and raises in one jiffy on a CPU (2 per ms at HZ=250), one run in sixteen, drawn "
		 "at random, is timed and counts sixteen times: the share is then an unbiased estimate from "
		 "thousands of runs a second, while `softirq_entries` and `softirq_raises` stay exact",
	  .diff = SIRQ_DIFF("%s_pct", 20, 0.5) },
	{ .name = "total", .unit = "%", .type = FIG_NUM, .offset = CPU(softirq_total_pct), .known = has_sirq,
	  .doc = "all vectors together",
	  .diff = SIRQ_DIFF("total_pct", 10, 0), .top = { 'S', "%si", 6, 1, 40 }, .report = { "softirq %", 80 } },
};
static const struct fig_table softirq_table = FIG_TABLE(NULL, softirq_figs);

static const struct figure cpu_figs[] = {
	{ .name = "usr_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(usr_pct),
	  .doc = "user share from /proc/stat deltas (user includes nice)",
	  .top = { 'u', "%usr", 6, 1, 20 }, .report = { "usr %", 20 } },
	{ .name = "sys_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(sys_pct), .doc = "system share, likewise",
	  .top = { 's', "%sys", 6, 1, 30 }, .report = { "sys %", 30 } },
	{ .name = "iowait_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(iowait_pct), .doc = "I/O wait share",
	  .report = { "iowait %", 40 } },
	{ .name = "idle_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(idle_pct), .doc = "idle share",
	  .top = { 'i', "%idle", 6, 1, 110 }, .report = { "idle %", 50 } },
	{ .name = "steal_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(steal_pct),
	  .doc = "share a hypervisor gave to others", .top = { 'l', "%steal", 6, 1, 120 }, .report = { "steal %", 60 } },
	{ .name = "softirq_pct", .type = FIG_OBJECT, .sub = &softirq_table,
	  .doc = "share of wall time in softirq handlers, by vector and in `total`" },
	{ .name = "hardirq_pct", .unit = "%", .type = FIG_NUM, .offset = CPU(hardirq_pct),
	  .doc = "share of wall time in hard irq handlers",
	  .diff = SIRQ_DIFF("hardirq_pct", 30, 0.5), .top = { 'H', "%hirq", 6, 1, 100 },
	  .report = { "hardirq %", 70 } },
	{ .name = "softirq_raises", .type = FIG_COUNT, .offset = CPU(raises), .keys = &vectors, .known = has_sirq,
	  .doc = "raises per vector in the window" },
	{ .name = "softirq_entries", .type = FIG_COUNT, .offset = CPU(entries), .keys = &vectors, .known = has_sirq,
	  .doc = "handler runs per vector (what /proc/softirqs counts)" },
	{ .name = "softirq_wait_p99_us", .unit = "µs", .type = FIG_NUM, .offset = CPU(wait_p99_us), .keys = &vectors,
	  .doc = "p99 of the wait from the first raise of a pending vector to its handler run, per vector; "
		 "`null` when the vector never ran" },
	{ .name = "softirq_wait_hist", .type = FIG_HIST, .offset = CPU(wait_hist), .keys = &vectors,
	  .timed_offset = CPU(wait_timed), .sample_weight = DBT_BUSY_KEEP, .known = has_wait,
	  .doc = "per vector, the waits behind `softirq_wait_p99_us` as a fine histogram (see \"Fine "
		 "histograms\" below: weighted counts, `timed` the waits really timed, `sample_weight`); `null` "
		 "when none was timed. Absent in captures before this field was added" },
	/* the views' own */
	{ .name = "wait_all_p99_us", .unit = "µs", .type = FIG_NUM, .view_only = true, .offset = CPU(wait_all_p99_us),
	  .doc = "p99 of the raise-to-run wait over every vector's waits together",
	  .top = { 'w', "wait99us", 9, 0, 140 } },
};

const struct fig_table fig_cpus = FIG_TABLE("cpus", cpu_figs);
