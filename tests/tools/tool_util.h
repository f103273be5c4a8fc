/* What every load generator here needs, header-only so each tool still
 * builds from its one .c file: fail loudly, and pin to a CPU (unpinned
 * wake-ups across CPUs swing wildly on the 2-CPU test machines). */
#ifndef DBTRACE_TESTS_TOOL_UTIL_H
#define DBTRACE_TESTS_TOOL_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "TOOL: what: strerror(errno)" and exit 1. */
static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	exit(1);
}

/* Pins the calling thread to cpu; cpu < 0 leaves it free. */
static inline void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

#endif
