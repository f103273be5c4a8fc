// SPDX-License-Identifier: GPL-2.0
/*
 * sched family: per-thread on-CPU time, voluntary and involuntary context
 * switches, run-queue delay (wakeup -> on CPU and preempted -> back on CPU)
 * and migrations, aggregated in LRU maps. tp_btf preferred, raw_tp
 * fallback, chosen by the attach plan.
 *
 * A switch is voluntary when the task left the CPU not runnable
 * (!preempt && prev_state != TASK_RUNNING): exactly the condition under
 * which __schedule() bumps nvcsw, so the counts match
 * /proc/PID/task/TID/status. The idle task (pid 0) is never a thread.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "dbtrace/sched.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_SCHED_MAX_THREADS);
	__type(key, __u32);
	__type(value, struct dbt_sched_thread);
} sched_threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_SCHED_MAX_THREADS);
	__type(key, __u32);
	__type(value, struct dbt_sched_ival);
} sched_ival SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_sched_cur);
} sched_cur SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_sched_stats);
} sched_stats SEC(".maps");

/* Zeroed template for new entries: too large for the BPF stack. */
const volatile struct dbt_sched_thread zero_thread = {};

static __always_inline struct dbt_sched_stats *stats(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&sched_stats, &zero);
}

static __always_inline struct dbt_sched_thread *thread_of(struct task_struct *t)
{
	__u32 tid = BPF_CORE_READ(t, pid);
	struct dbt_sched_thread *th;
	struct dbt_sched_stats *st;

	th = bpf_map_lookup_elem(&sched_threads, &tid);
	if (th)
		return th;
	st = stats();
	if (bpf_map_update_elem(&sched_threads, &tid, (const void *)&zero_thread, BPF_NOEXIST)) {
		/* another CPU may have inserted it first */
		th = bpf_map_lookup_elem(&sched_threads, &tid);
		if (!th && st)
			st->update_failed++;
		return th;
	}
	if (st)
		st->inserts++;
	th = bpf_map_lookup_elem(&sched_threads, &tid);
	if (th) {
		th->pid = BPF_CORE_READ(t, tgid);
		th->last_cpu = (__u32)-1;
		bpf_probe_read_kernel_str(th->comm, sizeof(th->comm), t->comm);
		/* the leader may never run while we watch: name the process now */
		BPF_CORE_READ_STR_INTO(&th->pcomm, t, group_leader, comm);
	}
	return th;
}

static __always_inline void mark_runnable(struct task_struct *t, __u64 now)
{
	struct dbt_sched_thread *th;

	if (!BPF_CORE_READ(t, pid))
		return;
	th = thread_of(t);
	/* a second wakeup of a queued task does not restart its wait */
	if (th && !th->enq_ns)
		th->enq_ns = now;
}

static __always_inline void ran_on(__u32 tid, __u32 cpu, __u64 wait_ns)
{
	struct dbt_sched_ival *iv, fresh = {};

	iv = bpf_map_lookup_elem(&sched_ival, &tid);
	if (!iv) {
		bpf_map_update_elem(&sched_ival, &tid, &fresh, BPF_NOEXIST);
		iv = bpf_map_lookup_elem(&sched_ival, &tid);
		if (!iv)
			return;
	}
	if (cpu < DBT_SCHED_CPU_WORDS * 64) {
		__u64 word = cpu / 64;

		/* 6.1's verifier loses the bound across a register spill: mask
		 * the index in the register the access uses */
		asm volatile("%0 &= %1" : "+r"(word) : "i"(DBT_SCHED_CPU_WORDS - 1));
		iv->cpus[word] |= 1ull << (cpu % 64);
	} else {
		iv->cpus_beyond = 1;
	}
	if (wait_ns) {
		iv->runq_hist[dbt_log2_slot(wait_ns / 1000)]++;
		if (wait_ns > iv->runq_max_ns)
			iv->runq_max_ns = wait_ns;
	}
}

static __always_inline void on_switch(bool preempt, struct task_struct *prev,
				      struct task_struct *next, unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	struct dbt_sched_thread *th;
	struct dbt_sched_cur *cur;
	__u32 next_tid = BPF_CORE_READ(next, pid);

	if (BPF_CORE_READ(prev, pid)) {
		th = thread_of(prev);
		if (th) {
			if (th->since_ns && now > th->since_ns)
				th->oncpu_ns += now - th->since_ns;
			th->since_ns = 0;
			/* names change after the first sight (exec, then
			 * pthread_setname_np): the name it ran under, refreshed
			 * as it leaves the CPU, keeps every thread's class right */
			bpf_probe_read_kernel_str(th->comm, sizeof(th->comm), prev->comm);
			if (!preempt && prev_state) {
				th->vol++;
			} else {
				/* still runnable: its run-queue wait starts now */
				th->invol++;
				th->enq_ns = now;
			}
		}
	}

	cur = bpf_map_lookup_elem(&sched_cur, &zero);
	if (cur) {
		cur->tid = next_tid;
		cur->since_ns = now;
	}
	if (!next_tid)
		return;
	th = thread_of(next);
	if (!th)
		return;
	{
		__u64 wait = 0;

		if (th->enq_ns && now > th->enq_ns) {
			wait = now - th->enq_ns;
			th->runq_ns += wait;
		}
		th->enq_ns = 0;
		th->since_ns = now;
		if (th->last_cpu != cpu && th->last_cpu != (__u32)-1)
			th->migrations++;
		th->last_cpu = cpu;
		/* a recycled tid: the old thread's entry starts over */
		if (th->exited) {
			th->exited = 0;
			th->pid = BPF_CORE_READ(next, tgid);
			BPF_CORE_READ_STR_INTO(&th->pcomm, next, group_leader, comm);
		}

		ran_on(next_tid, cpu, wait);
	}
}

static __always_inline void on_exit(struct task_struct *t)
{
	__u32 tid = BPF_CORE_READ(t, pid);
	struct dbt_sched_thread *th = bpf_map_lookup_elem(&sched_threads, &tid);

	/* user space deletes it one interval later, after the last switch-out */
	if (th)
		th->exited = 1;
}

/* tp_btf: typed arguments. sched_switch has carried prev_state since 5.18;
 * both kernels dbtrace is tested on (6.1, 6.18) have it. */
SEC("?tp_btf/sched_switch")
int BPF_PROG(sched_switch_btf, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	on_switch(preempt, prev, next, prev_state);
	return 0;
}

SEC("?tp_btf/sched_wakeup")
int BPF_PROG(sched_wakeup_btf, struct task_struct *p)
{
	mark_runnable(p, bpf_ktime_get_ns());
	return 0;
}

SEC("?tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wknew_btf, struct task_struct *p)
{
	mark_runnable(p, bpf_ktime_get_ns());
	return 0;
}

SEC("?tp_btf/sched_process_exit")
int BPF_PROG(sched_exit_btf, struct task_struct *p)
{
	on_exit(p);
	return 0;
}

/* raw_tp: the same argument array, read without BTF typing. */
SEC("?raw_tp/sched_switch")
int BPF_PROG(sched_switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	on_switch(preempt, prev, next, prev_state);
	return 0;
}

SEC("?raw_tp/sched_wakeup")
int BPF_PROG(sched_wakeup_raw, struct task_struct *p)
{
	mark_runnable(p, bpf_ktime_get_ns());
	return 0;
}

SEC("?raw_tp/sched_wakeup_new")
int BPF_PROG(sched_wknew_raw, struct task_struct *p)
{
	mark_runnable(p, bpf_ktime_get_ns());
	return 0;
}

SEC("?raw_tp/sched_process_exit")
int BPF_PROG(sched_exit_raw, struct task_struct *p)
{
	on_exit(p);
	return 0;
}
