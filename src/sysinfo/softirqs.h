/* /proc/softirqs: per-CPU handler run counts per vector, the kernel's own
 * count of what the softirq_entry tracepoint sees. */
#ifndef DBTRACE_SYSINFO_SOFTIRQS_H
#define DBTRACE_SYSINFO_SOFTIRQS_H

#include <stddef.h>
#include <stdint.h>
#include "dbtrace/softirq.h"

struct softirqs_table {
	int ncpus;                          /* columns in the header */
	unsigned present;                   /* bit v: vector v had a row */
	uint64_t *count[DBT_SOFTIRQ_VECS];  /* count[v][cpu], ncpus each */
};

/* Parses the text; rows may be missing (grepped dumps). The header line
 * "CPU0 CPU1 ..." is required: without it the columns are unknown. */
int softirqs_parse(const char *text, struct softirqs_table *t);
int softirqs_read(const char *root, struct softirqs_table *t);
void softirqs_free(struct softirqs_table *t);

/* "NET_RX" -> DBT_SOFTIRQ_NET_RX; -1 when unknown. */
int softirq_vec_from_name(const char *name, size_t len);

/* Lower-case names as used in the capture ("net_rx") and the kernel's
 * upper-case ones ("NET_RX"). */
const char *softirq_vec_key(int vec);
const char *softirq_vec_name(int vec);

#endif
