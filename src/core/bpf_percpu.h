/* Reading per-CPU maps: one copy of the stride arithmetic. */
#ifndef DBTRACE_CORE_BPF_PERCPU_H
#define DBTRACE_CORE_BPF_PERCPU_H

#include <stddef.h>

/* Possible CPUs, as the kernel sizes per-CPU values (cached). */
int percpu_ncpus(void);

/* Looks up key in a per-CPU map and copies each CPU's value_size bytes to
 * out + cpu * value_size (a dense array of ncpus values; the kernel's
 * 8-byte-rounded stride is undone here). Returns 0 or -errno. */
int percpu_lookup(int map_fd, const void *key, void *out, size_t value_size);

#endif
