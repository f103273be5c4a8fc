/* tracefs, which the plain `tracepoint` program type (and event
 * listings) need and a fresh machine here has not mounted. */
#ifndef DBTRACE_CORE_TRACEFS_H
#define DBTRACE_CORE_TRACEFS_H

/* Mounts tracefs on /sys/kernel/tracing unless it is there already.
 * Returns 0 or -errno (the caller's attach then fails and says why). */
int tracefs_ensure(void);

#endif
