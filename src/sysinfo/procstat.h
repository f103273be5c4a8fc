/* /proc/stat per-CPU time counters (USER_HZ ticks). */
#ifndef DBTRACE_SYSINFO_PROCSTAT_H
#define DBTRACE_SYSINFO_PROCSTAT_H

#include <stdbool.h>
#include <stdint.h>

enum procstat_field {
	PS_USER, PS_NICE, PS_SYSTEM, PS_IDLE, PS_IOWAIT, PS_IRQ, PS_SOFTIRQ,
	PS_STEAL, PS_GUEST, PS_GUEST_NICE, PS_FIELDS,
};

struct procstat_cpu {
	bool online;                 /* the kernel listed this CPU */
	uint64_t ticks[PS_FIELDS];   /* fields an old kernel lacks stay 0 */
};

/* Reads ROOT/proc/stat into cpus[0..max_cpus), indexed by CPU number;
 * CPUs absent from the file (offline) get online = false. Returns the
 * highest CPU number seen + 1, or a negative errno. */
int procstat_read(const char *root, struct procstat_cpu *cpus, int max_cpus);

/* Same, from an already opened text (the tests' fixtures). */
int procstat_parse(const char *text, struct procstat_cpu *cpus, int max_cpus);

#endif
