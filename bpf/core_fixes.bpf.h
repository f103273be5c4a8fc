/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel fields dbtrace reads outside typed tracepoint arguments, the
 * differences between kernel releases around them, and the facts of the
 * architecture (syscall numbers, saved registers, kernel stack size), in
 * one place. Untyped reads go through CO-RE (BPF_CORE_READ), so a renamed
 * or moved field fails at load time with a relocation error instead of
 * reading garbage; a field a release renamed is read through a flavour
 * (struct x___suffix), each with the change that forced it.
 *
 * Kernel releases (x86-64) dbtrace runs on: 5.10 and newer. Which
 * helpers a path may use is decided in user space (src/core/
 * bpf_features.c) and handed to the programs as load-time switches the
 * verifier folds away, such as dbt_task_regs_helper below.
 */
#ifndef DBTRACE_CORE_FIXES_BPF_H
#define DBTRACE_CORE_FIXES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#if !defined(__TARGET_ARCH_x86)
#error "dbtrace's kernel side knows x86-64 only: this architecture's syscall numbers, saved registers and kernel stack size are not mapped (bpf/core_fixes.bpf.h)"
#endif

/* --- task_struct ------------------------------------------------------ */

/* task_struct.state became __state in 5.14 ("sched: Change
 * task_struct::state": renamed, and made unsigned int, so that every
 * access goes through READ_ONCE/WRITE_ONCE). */
struct task_struct___state_long {
	volatile long state;
} __attribute__((preserve_access_index));

/* The task's scheduler state (TASK_RUNNING 0, TASK_DEAD 0x80, ...),
 * whichever name this kernel gives it. typed: t is a BTF pointer
 * (tp_btf), read with a plain load. */
static __always_inline unsigned long dbt_task_state(struct task_struct *t, const bool typed)
{
	struct task_struct___state_long *o = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return typed ? t->__state : BPF_CORE_READ(t, __state);
	return typed ? o->state : BPF_CORE_READ(o, state);
}

/* --- x86-64: registers, system calls, kernel stack -------------------- */

/* The registers a perf_event program sees (bpf_user_pt_regs_t) are the
 * UAPI struct pt_regs of arch/x86/include/uapi/asm/ptrace.h: ptrace's
 * ABI, fixed, so no CO-RE. Not the kernel's struct pt_regs of vmlinux.h:
 * there cs became a union with FRED's fred_cs in 6.9, and a CO-RE read of
 * that u16 both fails to relocate on older kernels and turns into a
 * 2-byte load, which perf_event contexts refuse (8-byte loads only). */
struct dbt_user_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

static __always_inline int dbt_regs_user_mode(const void *regs)
{
	return (((const struct dbt_user_regs *)regs)->cs & 3) == 3;
}

static __always_inline __u64 dbt_regs_ip(const void *regs)
{
	return ((const struct dbt_user_regs *)regs)->ip;
}

/* Argument n (0-5) of a kprobed function, from its registers (x86-64
 * SysV: di, si, dx, cx, r8, r9), by a load at a constant offset
 * (maps.bpf.h's dbt_load_at). */
#define DBT_KPROBE_ARG0 __builtin_offsetof(struct dbt_user_regs, di)
#define DBT_KPROBE_ARG1 __builtin_offsetof(struct dbt_user_regs, si)
#define DBT_KPROBE_ARG2 __builtin_offsetof(struct dbt_user_regs, dx)
#define DBT_KPROBE_ARG3 __builtin_offsetof(struct dbt_user_regs, cx)
#define DBT_KPROBE_ARG4 __builtin_offsetof(struct dbt_user_regs, r8)
#define DBT_KPROBE_ARG5 __builtin_offsetof(struct dbt_user_regs, r9)
#define dbt_kprobe_arg(ctx, n) dbt_load_at(ctx, DBT_KPROBE_ARG##n)

/* x86_64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl) */
#define DBT_NR_read 0
#define DBT_NR_poll 7
#define DBT_NR_readv 19
#define DBT_NR_select 23
#define DBT_NR_nanosleep 35
#define DBT_NR_accept 43
#define DBT_NR_recvfrom 45
#define DBT_NR_recvmsg 47
#define DBT_NR_futex 202
#define DBT_NR_clock_nanosleep 230
#define DBT_NR_epoll_wait 232
#define DBT_NR_pselect6 270
#define DBT_NR_ppoll 271
#define DBT_NR_epoll_pwait 281
#define DBT_NR_accept4 288
#define DBT_NR_recvmmsg 299
#define DBT_NR_epoll_pwait2 441
#define DBT_NR_futex_waitv 449

#define DBT_ENOSYS 38

/* THREAD_SIZE on x86_64 without KASAN (PAGE_SIZE << 2; Debian's kernels
 * have no KASAN, which doubles it). */
#define DBT_THREAD_SIZE 16384

/* Set by user space: bpf_task_pt_regs() (5.15) and
 * bpf_get_current_task_btf() (5.11) are there. Else the registers are
 * found where task_pt_regs() finds them, at the top of the task's kernel
 * stack: below TOP_OF_KERNEL_STACK_PADDING, which is 0 on x86_64 before
 * FRED (6.9), so on every kernel without the helper. */
const volatile bool dbt_task_regs_helper = false;

/* The user registers the kernel entry of t, the current task, saved
 * (sched_switch's prev is still current: the tracepoint comes before
 * the switch). typed: t is a BTF pointer; an untyped one is not, and the
 * helper is handed the current task's instead. */
static __always_inline struct pt_regs *dbt_current_regs(struct task_struct *t, const bool typed)
{
	void *stack;

	if (dbt_task_regs_helper)
		return (struct pt_regs *)bpf_task_pt_regs(typed ? t : bpf_get_current_task_btf());
	stack = typed ? t->stack : BPF_CORE_READ(t, stack);
	return stack ? (struct pt_regs *)((char *)stack + DBT_THREAD_SIZE) - 1 : NULL;
}

/* The system call regs (from dbt_current_regs) was saved for: *nr and
 * its first argument *arg0; false when not a system call. orig_ax holds
 * the number, but also an exception's error code (a page fault's); the
 * entry code pushes -ENOSYS into ax for a system call, and an exception
 * leaves the user's rax there. The helper's pointer is typed: plain
 * loads. */
static __always_inline bool dbt_regs_syscall(struct pt_regs *regs, long *nr, __u64 *arg0)
{
	long orig_ax, ax;

	if (!regs)
		return false;
	if (dbt_task_regs_helper) {
		orig_ax = regs->orig_ax;
		ax = regs->ax;
		*arg0 = regs->di;
	} else {
		orig_ax = BPF_CORE_READ(regs, orig_ax);
		ax = BPF_CORE_READ(regs, ax);
		*arg0 = BPF_CORE_READ(regs, di);
	}
	*nr = orig_ax;
	return ax == -DBT_ENOSYS && orig_ax >= 0;
}

/* The system call number regs was saved for, or -1: orig_ax alone (the
 * sampler's question, "in a clock syscall?", is answered by the number
 * matching; an exception's code is never one of them). */
static __always_inline long dbt_regs_syscall_nr(struct pt_regs *regs)
{
	return regs ? (long)BPF_CORE_READ(regs, orig_ax) : -1;
}

/* --- clock family ------------------------------------------------------
 *
 * mm_struct.context.vdso: start of the task's vDSO text mapping, the
 *   "[vdso]" line of /proc/PID/maps (arch/x86/include/asm/mmu.h, since
 *   2.6.x). NULL when the vDSO is off (vdso=0) or not mapped yet.
 * mm_struct.context.vdso_image->size (since 3.16, "x86, vdso: Reimplement
 *   vdso.so preparation in build-time C"): which image the task has. A
 *   32-bit task maps another image than the 64-bit one user space parsed;
 *   its samples count as vDSO time without a function name.
 */
static __always_inline __u64 dbt_mm_vdso_base(const struct mm_struct *mm)
{
	return (__u64)BPF_CORE_READ(mm, context.vdso);
}

/* Size of the task's vDSO text image; 0 when the kernel does not say. */
static __always_inline __u64 dbt_mm_vdso_size(const struct mm_struct *mm)
{
	const struct vdso_image *img;

	if (!bpf_core_field_exists(mm->context.vdso_image))
		return 0;
	img = BPF_CORE_READ(mm, context.vdso_image);
	return img ? BPF_CORE_READ(img, size) : 0;
}

#endif /* DBTRACE_CORE_FIXES_BPF_H */
