/* The kernel's tick rate (CONFIG_HZ), the unit of the jiffies TCP keeps
 * its retransmission timeout in (icsk_rto). Not in /proc or /sys: read
 * from the kernel's build configuration, ROOT/boot/config-RELEASE (what
 * distributions install) or ROOT/proc/config.gz (CONFIG_IKCONFIG_PROC).
 * USER_HZ (sysconf(_SC_CLK_TCK), always 100) is a different number. */
#ifndef DBTRACE_SYSINFO_KERNEL_HZ_H
#define DBTRACE_SYSINFO_KERNEL_HZ_H

#include <stddef.h>

/* The value of CONFIG_HZ in the text of a kernel config; -ENOENT when
 * absent or not a positive number. */
long kernel_hz_parse(const char *text, size_t len);

/* release: the kernel's uname release ("6.1.0-27-cloud-amd64"). Returns
 * HZ, or -ENOENT when no config says it. */
long kernel_hz_read(const char *root, const char *release);

#endif
