/* The attach plan: each probe family lists its variants (attach paths) in
 * order of preference; the first one whose programs really load and attach
 * wins, and every rejected one is recorded with the errno of the real try.
 * (Feature checks by symbol lookup lie: a kernel without kprobes still
 * lists the symbols.) */
#ifndef DBTRACE_CORE_BPF_PLAN_H
#define DBTRACE_CORE_BPF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/bpf_features.h"
#include "core/probe_report.h"

struct bpf_object;
struct bpf_link;

#define PLAN_MAX_LINKS 32

struct plan_variant {
	const char *path;              /* "tp_btf", "raw_tp", "fentry", "tracepoint", ... */
	const char *suffix;            /* its programs' names end with this */
	/* FEAT() bits of what its programs use beyond their program types:
	 * a kernel that lacks one is not asked to load them, and the
	 * refusal names what is missing */
	unsigned int needs;
};

struct plan_handle;

/* A family: its variants and the glue to its bpftool skeleton (open,
 * load and destroy come from core/bpf_plan_skel.h). */
struct plan_family {
	const char *name;
	const struct plan_variant *variants;
	int n_variants;
	int (*open)(const char *btf_path, void **skel, struct bpf_object **obj);
	int (*load)(void *skel);
	void (*destroy)(void *skel);
	/* optional: adjust the opened skeleton (h->skel) for this variant
	 * before it loads, e.g. shrink a map only another variant uses,
	 * share a map with another family's object, or set a load-time
	 * switch for what h->kernel lacks (said in rep with probe_note) */
	int (*prepare)(struct plan_handle *h, const struct plan_variant *v, struct probe_report *rep);
	/* optional: fill the loaded maps before any program runs (free
	 * lists the programs take from) */
	int (*loaded)(struct plan_handle *h);
	/* optional: attach the variant's programs where bpf_program__attach()
	 * cannot (perf_event programs need one perf event per CPU); store the
	 * links in h->links. NULL: each switched-on program is attached alone. */
	int (*attach)(struct plan_handle *h, const struct plan_variant *v,
		      char *stage, size_t stagelen);
};

struct plan_handle {
	void *ctx;                     /* the caller's, for its callbacks; kept by plan_run/plan_close */
	struct bpf_features *kernel;   /* what the kernel allows, and --btf; kept like ctx */
	void *skel;
	struct bpf_object *obj;
	struct bpf_link *links[PLAN_MAX_LINKS];
	int n_links;
};

/* Tries the variants in order, or only the one rep->forced names (set by
 * the caller: --attach). Returns 0 with h holding the loaded and attached
 * skeleton, or a negative errno when no variant worked (-EINVAL: forced
 * names none of the family's); rep is filled either way, rep->error with
 * that errno. */
int plan_run(const struct plan_family *fam, struct plan_handle *h, struct probe_report *rep);

/* Detaches and unloads; safe on a handle that never attached. */
void plan_close(const struct plan_family *fam, struct plan_handle *h);

/* Runs the kernel skipped because another BPF program was already running
 * on that CPU (bpf_prog_info.recursion_misses): events lost to us. */
uint64_t plan_lost_events(const struct plan_handle *h);

/* The run time (ns) and runs of h's programs so far, as the kernel
 * counts them while its run-time statistics are on (BPF_ENABLE_STATS or
 * kernel.bpf_stats_enabled); 0 before that. */
void plan_run_time(const struct plan_handle *h, uint64_t *run_ns, uint64_t *runs);

#endif
