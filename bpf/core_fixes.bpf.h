/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel fields dbtrace reads outside typed tracepoint arguments, and the
 * architecture or version differences around them, in one place. Every
 * read goes through CO-RE (BPF_CORE_READ), so a renamed or moved field
 * fails at load time with a relocation error instead of reading garbage.
 */
#ifndef DBTRACE_CORE_FIXES_BPF_H
#define DBTRACE_CORE_FIXES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>

/*
 * clock family.
 *
 * mm_struct.context.vdso: start of the task's vDSO text mapping, the
 *   "[vdso]" line of /proc/PID/maps. x86 (arch/x86/include/asm/mmu.h,
 *   since 2.6.x) and arm64 (arch/arm64/include/asm/mmu.h) both name it so.
 *   NULL when the vDSO is off (vdso=0) or not mapped yet.
 * mm_struct.context.vdso_image->size (x86 only, since 3.16,
 *   "x86, vdso: Reimplement vdso.so preparation in build-time C"): which
 *   image the task has. A 32-bit task maps another image than the
 *   64-bit one user space parsed; its samples count as vDSO time
 *   without a function name.
 * pt_regs.orig_ax (x86) / pt_regs.syscallno (arm64) at task_pt_regs():
 *   the system call the task is in while it runs in the kernel. The x86
 *   entry code stores -1 there for interrupts and exceptions
 *   (idtentry_body: "movq $-1, ORIG_RAX(%rsp)"), so a sample in an
 *   interrupt handler is never taken for a clock syscall.
 * pt_regs.cs (x86) / pt_regs.pstate (arm64) of the sampled registers:
 *   user_mode(). perf_event contexts only allow full 8-byte loads, so cs
 *   is read as the u64 slot that holds it (the slot became a union with
 *   FRED's fred_cs in 6.9; the low bits are the same).
 */
#if defined(__TARGET_ARCH_x86)

static __always_inline int dbt_regs_user_mode(const struct pt_regs *regs)
{
	return (*(const volatile __u64 *)&regs->cs & 3) == 3;
}

static __always_inline long dbt_regs_syscall_nr(const struct pt_regs *regs)
{
	return (long)BPF_CORE_READ(regs, orig_ax);
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

#elif defined(__TARGET_ARCH_arm64)

static __always_inline int dbt_regs_user_mode(const struct pt_regs *regs)
{
	/* PSR_MODE_MASK 0xf, PSR_MODE_EL0t 0 */
	return (*(const volatile __u64 *)&regs->pstate & 0xf) == 0;
}

static __always_inline long dbt_regs_syscall_nr(const struct pt_regs *regs)
{
	return (long)BPF_CORE_READ(regs, syscallno);
}

static __always_inline __u64 dbt_mm_vdso_size(const struct mm_struct *mm)
{
	return 0;
}

#else
#error "clock family: user_mode() and the syscall number are not mapped for this architecture"
#endif

static __always_inline __u64 dbt_mm_vdso_base(const struct mm_struct *mm)
{
	return (__u64)BPF_CORE_READ(mm, context.vdso);
}

#endif /* DBTRACE_CORE_FIXES_BPF_H */
