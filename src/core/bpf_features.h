/* What the running kernel lets BPF programs use beyond a program type at
 * a place: the helpers, map types and instructions an attach path needs.
 * Each is probed once, by loading the smallest program or map that uses
 * it (a symbol or version check would lie: vendors backport), and is
 * named with the kernel release that brought it, so a path the kernel
 * cannot run says what it lacks ("needs task storage in tracing programs
 * (5.13)") instead of a bare EINVAL from the verifier. */
#ifndef DBTRACE_CORE_BPF_FEATURES_H
#define DBTRACE_CORE_BPF_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include "core/probe_report.h"

enum bpf_feature {
	/* the kernel's own BTF, which tp_btf, fentry/fexit and iterator
	 * programs attach by (5.5: CONFIG_DEBUG_INFO_BTF; --btf FILE serves
	 * CO-RE only, not these) */
	FEAT_KERNEL_BTF,
	/* atomic fetch-and-add and compare-and-exchange instructions (5.12,
	 * "bpf: Add BPF_FETCH field / create atomic_fetch_add instruction",
	 * with its cmpxchg sibling); older verifiers refuse them even in dead code
	 * ("BPF_STX uses reserved fields") */
	FEAT_ATOMIC_FETCH,
	/* bpf_task_storage_get() from tracing programs (5.13, "bpf: enable
	 * task local storage for tracing programs") */
	FEAT_TASK_STORAGE_TRACING,
	/* bpf_sk_storage_get() from tracing programs (5.11, "bpf: Allow
	 * using bpf_sk_storage in FENTRY/FEXIT/RAW_TP") */
	FEAT_SK_STORAGE_TRACING,
	/* bpf_task_pt_regs(): a task's saved user registers (5.15, "bpf:
	 * Add bpf_task_pt_regs() helper") */
	FEAT_TASK_PT_REGS,
	/* bpf_get_current_task_btf(): the current task as a typed pointer
	 * (5.11, "bpf: Implement get_current_task_btf and RET_PTR_TO_BTF_ID") */
	FEAT_CURRENT_TASK_BTF,
	FEAT_COUNT
};

#define FEAT(f) (1u << (f))

struct btf;

/* What was probed and found, bit per feature, and the BTF the answers
 * come from. Owned by whoever runs the plans (struct collectors): no
 * global state. */
struct bpf_features {
	const char *btf_path;          /* --btf FILE: what CO-RE relocates against; NULL: the kernel's */
	unsigned int probed, have;
	bool kbtf_tried, btf_tried;
	struct btf *kbtf;              /* the kernel's own BTF, NULL when it has none */
	struct btf *btf;               /* btf_path's, else kbtf (not owned twice) */
};

void bpf_features_init(struct bpf_features *k, const char *btf_path);
/* Frees the BTF k parsed (the kernel's: some 20 MB in memory), keeping
 * what was probed; a later question parses it again. */
void bpf_features_free(struct bpf_features *k);

/* Whether the kernel allows f, probed on first ask. */
bool bpf_feature_have(struct bpf_features *k, enum bpf_feature f);

/* "task storage in tracing programs" and "5.13" for f. */
const char *bpf_feature_name(enum bpf_feature f);
const char *bpf_feature_since(enum bpf_feature f);

/* Whether the kernel allows f; where it does not, says in rep what the
 * path does instead ("socket state in a hash" -> "socket state in a
 * hash: no socket storage in tracing programs (5.11)"). k NULL: yes. */
bool bpf_feature_or_note(struct bpf_features *k, enum bpf_feature f, struct probe_report *rep,
			 const char *instead);

/* The value of bpf/core_fixes.bpf.h's dbt_task_regs_helper: a task's
 * saved registers from bpf_task_pt_regs(), else (noted in rep) from the
 * top of its kernel stack. */
bool bpf_features_task_regs_helper(struct bpf_features *k, struct probe_report *rep);

/* The features of needs (FEAT() bits) the kernel lacks, as "needs A
 * (5.13), B (5.15)" in buf; returns how many it lacks (0: buf empty). */
int bpf_features_missing(struct bpf_features *k, unsigned int needs, char *buf, size_t len);

/* The BTF programs are relocated against (--btf's, else the kernel's),
 * loaded on first ask and kept with k; NULL when there is none. */
const struct btf *bpf_features_btf(struct bpf_features *k);

/* The number of parameters of kernel function name in the BTF programs
 * are relocated against (--btf's, else the kernel's), or a negative
 * errno: -ENOENT when it has no such function, -ENODATA without BTF.
 * Prototypes change between releases (tcp_recvmsg lost its nonblock
 * argument in 5.19) and fentry/fexit and kprobes must read the one
 * this kernel has. */
int bpf_features_func_params(struct bpf_features *k, const char *name);

#endif
