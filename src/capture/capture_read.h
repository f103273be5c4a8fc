/* Reads a capture (docs/capture-schema.md) back into the model's own
 * structs, for `report` and `diff`. Sections a capture lacks (a family
 * that did not attach, a capture older than a section) are marked absent,
 * never an error; a null number is NAN. The intervals' time series is
 * read one interval at a time and kept compact (per-CPU softirq shares),
 * so an hour-long capture of hundreds of MB reads in bounded memory.
 * capture_read.c walks the document; each section's mapping is in its
 * own file beside its writer (capture_cpus.c, capture_sched.c,
 * capture_time.c, capture_clock.c, capture_net.c, capture_loss.c,
 * capture_findings.c, capture_meta.c), which with capture_json.c are the
 * only files of the tree that include the JSON library (and the check
 * report's). */
#ifndef DBTRACE_CAPTURE_CAPTURE_READ_H
#define DBTRACE_CAPTURE_CAPTURE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "capture/capture_overhead.h"
#include "core/probe_report.h"
#include "findings/finding.h"
#include "model/clock_model.h"
#include "model/cpu_model.h"
#include "model/loss_model.h"
#include "model/net_model.h"
#include "model/sched_summary.h"
#include "sysinfo/host.h"

#define CAPTURE_MAX_FAMILIES 8

/* One CPU in one interval: what the heatmap needs. NAN: not measured. */
struct capture_interval_cpu {
	int cpu;
	float softirq_pct[DBT_SOFTIRQ_VECS];
	float softirq_total_pct;
};

/* One thread class's wall-time budget in one interval: what the
 * report's bars over time need. */
struct capture_interval_class {
	int pid;
	char name[TCLASS_NAME_MAX];
	float pct[CT_STATES];          /* NAN: not measured */
	float thread_s;                /* its thread-seconds, what its shares are of */
};

/* One interval of a capture as read back: of struct interval, only what
 * the report draws over time, kept compact. */
struct capture_interval {
	double t, dt;
	double bpf_cpu_pct;            /* dbtrace's programs, % of a CPU; NAN: not measured */
	struct capture_interval_cpu *cpus;
	int n_cpus;
	struct capture_interval_class *classes;   /* those with a "time" */
	int n_classes;
};

struct capture {
	char path[256];                /* as given, for messages and titles */
	char version[32];
	char started_at[40];
	double started_at_monotonic_s; /* NAN: a capture older than the field */
	/* have_complete false: a capture older than the fields */
	bool have_complete, complete;
	char stop_reason[24];
	double duration_s, interval_s;
	struct host_info host;
	/* family and attach ("" when the family did not attach) are read
	 * back; whether it was enabled and what was rejected are not */
	struct probe_report probes[CAPTURE_MAX_FAMILIES];
	int n_probes;
	/* overhead */
	double cpu_pct;
	long max_rss_kb;
	uint64_t lost_events, thread_evictions;
	struct capture_bpf bpf;        /* overhead.bpf; bpf.have false in older captures */
	/* whole capture, valid CPUs only; wait_hist and raises are not kept */
	struct cpu_row *cpus;
	int n_cpus;
	struct capture_interval *intervals;
	int n_intervals;
	/* sched family: processes with their classes (cpus_allowed filled,
	 * the class's CPU mask from cpus_ran_on); absent: have_sched false */
	bool have_sched;
	struct sched_summary sched;
	int processes_omitted;
	/* clock family; fns names the vDSO functions the capture mentions */
	bool have_clock;
	struct clock_interval clock;
	struct clock_fn_table clock_fns;
	unsigned int clock_hz;
	int clock_processes_omitted;
	/* net family; histograms only from captures that carry them */
	bool have_net;
	bool have_net_hist;
	struct net_interval net;       /* port_loss/dev_loss when the loss family wrote them */
	int devices_omitted, ports_omitted;
	/* loss family: drops, listeners, netstat of the net section and the
	 * summary CPUs' softnet; absent: have_loss false */
	bool have_loss;
	struct loss_interval loss;
	struct finding_list findings;
};

/* Reads path. Returns 0, or a negative errno with one line in err:
 * -ENOENT and other open errors, -EINVAL when the file is not a dbtrace
 * capture (not JSON, another schema, a required member missing). */
int capture_read_file(const char *path, struct capture *cap, char *err, size_t errlen);
/* The same over a buffer (tests); name is used in messages. */
int capture_read_buf(const char *buf, size_t len, const char *name, struct capture *cap,
		     char *err, size_t errlen);
void capture_free(struct capture *cap);

/* The attach path of a family, NULL when the capture does not list it,
 * "" when it did not attach. */
const char *capture_probe_attach(const struct capture *cap, const char *family);

#endif
