/* Whether this process may load and attach eBPF tracing programs. */
#ifndef DBTRACE_CORE_PRIVILEGE_H
#define DBTRACE_CORE_PRIVILEGE_H

#include <stdbool.h>

/* Root, CAP_SYS_ADMIN, or CAP_BPF together with CAP_PERFMON (5.8+). */
bool privilege_can_trace(void);

#endif
