/* The probe families, in the order --families names them and every
 * capture lists them. One skeleton each (bpf/<name>.bpf.c,
 * src/collect/<name>.c), so one refused probe cannot stop the others. */
#ifndef DBTRACE_CORE_FAMILY_H
#define DBTRACE_CORE_FAMILY_H

enum dbt_family {
	FAM_SOFTIRQ,
	FAM_SCHED,
	FAM_CLOCK,
	FAM_NET,
	FAM_LOSS,
	FAM_COUNT,
};

/* "softirq", "sched", "clock", "net", "loss": bit i of a family mask is names[i] */
extern const char *const dbt_family_names[FAM_COUNT];

#endif
