/* What dbtrace's own process (the loader) costs, for the capture's
 * overhead section and the exporter's own metrics. Its BPF programs' run
 * time is not in these: the kernel charges it to whoever was running. */
#ifndef DBTRACE_CORE_SELF_USAGE_H
#define DBTRACE_CORE_SELF_USAGE_H

/* User + system CPU seconds of this process so far. */
double self_cpu_seconds(void);

/* Resident set now, in bytes (0 when /proc/self/statm cannot be read). */
double self_rss_bytes(void);

/* The peak resident set so far, in KiB. */
long self_max_rss_kb(void);

#endif
