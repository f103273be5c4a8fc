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
 * cs and ip (x86) / pstate and pc (arm64) of the sampled registers:
 *   user_mode() and the user IP, from the UAPI register layout a
 *   perf_event program gets (see struct dbt_user_regs below).
 */
#if defined(__TARGET_ARCH_x86)

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

/* struct user_pt_regs of arch/arm64/include/uapi/asm/ptrace.h */
struct dbt_user_regs {
	__u64 regs[31];
	__u64 sp, pc, pstate;
};

static __always_inline int dbt_regs_user_mode(const void *regs)
{
	/* PSR_MODE_MASK 0xf, PSR_MODE_EL0t 0 */
	return (((const struct dbt_user_regs *)regs)->pstate & 0xf) == 0;
}

static __always_inline __u64 dbt_regs_ip(const void *regs)
{
	return ((const struct dbt_user_regs *)regs)->pc;
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
