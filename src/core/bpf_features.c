#include "core/bpf_features.h"
#include "core/log.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	const char *since;
} features[FEAT_COUNT] = {
	[FEAT_KERNEL_BTF] = { "the kernel's own BTF (/sys/kernel/btf/vmlinux)", "5.5" },
	[FEAT_ATOMIC_FETCH] = { "atomic fetch and compare-and-exchange instructions", "5.12" },
	[FEAT_TASK_STORAGE_TRACING] = { "task storage in tracing programs", "5.13" },
	[FEAT_SK_STORAGE_TRACING] = { "socket storage in tracing programs", "5.11" },
	[FEAT_TASK_PT_REGS] = { "bpf_task_pt_regs", "5.15" },
	[FEAT_CURRENT_TASK_BTF] = { "bpf_get_current_task_btf", "5.11" },
};

const char *bpf_feature_name(enum bpf_feature f)
{
	return f < FEAT_COUNT ? features[f].name : "?";
}

const char *bpf_feature_since(enum bpf_feature f)
{
	return f < FEAT_COUNT ? features[f].since : "?";
}

void bpf_features_init(struct bpf_features *k, const char *btf_path)
{
	memset(k, 0, sizeof(*k));
	k->btf_path = btf_path;
}

void bpf_features_free(struct bpf_features *k)
{
	if (k->btf != k->kbtf)
		btf__free(k->btf);
	btf__free(k->kbtf);
	k->btf = k->kbtf = NULL;
	k->btf_tried = k->kbtf_tried = false;
}

/* The kernel's own BTF, where libbpf finds it for tp_btf and fentry. */
static struct btf *kernel_btf(struct bpf_features *k)
{
	if (!k->kbtf_tried) {
		k->kbtf_tried = true;
		k->kbtf = btf__load_vmlinux_btf();
	}
	return k->kbtf;
}

const struct btf *bpf_features_btf(struct bpf_features *k)
{
	if (!k->btf_tried) {
		k->btf_tried = true;
		k->btf = k->btf_path ? btf__parse(k->btf_path, NULL) : kernel_btf(k);
	}
	return k->btf;
}

/* --- the probes: each the least program or map that needs the feature -- */

#define INSN(c, d, s, o, i) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }
#define MOV_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static bool prog_loads(enum bpf_prog_type type, const struct bpf_insn *insns, size_t n,
		       const struct bpf_prog_load_opts *opts)
{
	int fd = bpf_prog_load(type, NULL, "GPL", insns, n, opts);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* fetch-and-add and compare-and-exchange on a stack slot */
static bool probe_atomic_fetch(void)
{
	const struct bpf_insn insns[] = {
		INSN(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -8, 0),
		MOV_IMM(BPF_REG_1, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_10, BPF_REG_1, -8, BPF_ADD | BPF_FETCH),
		MOV_IMM(BPF_REG_0, 0),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_10, BPF_REG_1, -8, BPF_CMPXCHG),
		MOV_IMM(BPF_REG_0, 0),
		EXIT,
	};

	return prog_loads(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns) / sizeof(insns[0]), NULL);
}

/* A local-storage map of type t (int key and value, described in BTF as
 * storage maps must be), or a negative errno. */
static int storage_map(enum bpf_map_type t, struct btf **btf)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	int id, err, fd;

	*btf = btf__new_empty();
	if (!*btf)
		return -errno;
	id = btf__add_int(*btf, "int", 4, BTF_INT_SIGNED);
	if (id < 0)
		return id;
	err = btf__load_into_kernel(*btf);
	if (err)
		return err;
	opts.btf_fd = (__u32)btf__fd(*btf);
	opts.btf_key_type_id = (__u32)id;
	opts.btf_value_type_id = (__u32)id;
	fd = bpf_map_create(t, "dbt_probe", 4, 4, 0, &opts);
	return fd < 0 ? -errno : fd;
}

/* A tp_btf program on tracepoint tp that passes its argument arg (a
 * typed task or socket pointer) to storage helper fn on a map of type
 * t: bpf_task_storage_get(map, task, NULL, 0) and its socket twin. */
static bool probe_tracing_storage(struct bpf_features *k, const char *tp, int arg,
				  enum bpf_map_type t, enum bpf_func_id fn)
{
	char name[64];
	struct btf *kb = kernel_btf(k), *mb = NULL;
	int id, map;
	bool ok = false;

	if (!kb)
		return false;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(kb, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return false;
	map = storage_map(t, &mb);
	if (map >= 0) {
		LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP,
			    .attach_btf_id = (__u32)id);
		const struct bpf_insn insns[] = {
			INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_1, (short)(arg * 8), 0),
			INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map),
			INSN(0, 0, 0, 0, 0),
			MOV_IMM(BPF_REG_3, 0),
			MOV_IMM(BPF_REG_4, 0),
			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, fn),
			MOV_IMM(BPF_REG_0, 0),
			EXIT,
		};

		ok = prog_loads(BPF_PROG_TYPE_TRACING, insns, sizeof(insns) / sizeof(insns[0]), &opts);
		close(map);
	}
	btf__free(mb);
	return ok;
}

static bool probe(struct bpf_features *k, enum bpf_feature f)
{
	switch (f) {
	case FEAT_KERNEL_BTF:
		return kernel_btf(k) != NULL;
	case FEAT_ATOMIC_FETCH:
		return probe_atomic_fetch();
	case FEAT_TASK_STORAGE_TRACING:
		/* sched_switch(preempt, prev, next): prev */
		return probe_tracing_storage(k, "sched_switch", 1, BPF_MAP_TYPE_TASK_STORAGE,
					     BPF_FUNC_task_storage_get);
	case FEAT_SK_STORAGE_TRACING:
		/* tcp_retransmit_skb(sk, skb): sk */
		return probe_tracing_storage(k, "tcp_retransmit_skb", 0, BPF_MAP_TYPE_SK_STORAGE,
					     BPF_FUNC_sk_storage_get);
	case FEAT_TASK_PT_REGS:
		return libbpf_probe_bpf_helper(BPF_PROG_TYPE_PERF_EVENT, BPF_FUNC_task_pt_regs, NULL) > 0;
	case FEAT_CURRENT_TASK_BTF:
		return libbpf_probe_bpf_helper(BPF_PROG_TYPE_PERF_EVENT, BPF_FUNC_get_current_task_btf, NULL) > 0;
	case FEAT_COUNT:
		break;
	}
	return false;
}

bool bpf_feature_have(struct bpf_features *k, enum bpf_feature f)
{
	if (f >= FEAT_COUNT)
		return false;
	if (!(k->probed & FEAT(f))) {
		k->probed |= FEAT(f);
		if (probe(k, f))
			k->have |= FEAT(f);
		log_debug("kernel feature %s (%s): %s", features[f].name, features[f].since,
			  k->have & FEAT(f) ? "yes" : "no");
	}
	return k->have & FEAT(f);
}

bool bpf_feature_or_note(struct bpf_features *k, enum bpf_feature f, struct probe_report *rep,
			 const char *instead)
{
	if (!k || bpf_feature_have(k, f))
		return true;
	probe_note(rep, "%s: no %s (%s)", instead, features[f].name, features[f].since);
	return false;
}

bool bpf_features_task_regs_helper(struct bpf_features *k, struct probe_report *rep)
{
	const char *instead = "saved registers found on the task's stack";

	return bpf_feature_or_note(k, FEAT_TASK_PT_REGS, rep, instead) &&
	       bpf_feature_or_note(k, FEAT_CURRENT_TASK_BTF, rep, instead);
}

int bpf_features_missing(struct bpf_features *k, unsigned int needs, char *buf, size_t len)
{
	size_t at = 0;
	int n = 0;

	if (len)
		buf[0] = 0;
	for (int f = 0; f < FEAT_COUNT; f++) {
		if (!(needs & FEAT(f)) || bpf_feature_have(k, (enum bpf_feature)f))
			continue;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s (%s)", n ? ", " : "needs ",
					       features[f].name, features[f].since);
		n++;
	}
	return n;
}

int bpf_features_func_params(struct bpf_features *k, const char *name)
{
	const struct btf *b = bpf_features_btf(k);
	const struct btf_type *t;
	int id;

	if (!b)
		return -ENODATA;
	id = btf__find_by_name_kind(b, name, BTF_KIND_FUNC);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(b, btf__type_by_id(b, (__u32)id)->type);
	if (!t || !btf_is_func_proto(t))
		return -ENOENT;
	return btf_vlen(t);
}
