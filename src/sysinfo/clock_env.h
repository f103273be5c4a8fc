/* What a host's configuration says about the cost of reading the clock:
 * the clocksource (vDSO-capable or not), what the kernel log says about
 * the TSC, the kernel command line (skew_tick, nohz, nohz_full, isolcpus,
 * idle=) and the active tuned profile. Read from a root directory so the
 * tests use fixture trees. */
#ifndef DBTRACE_SYSINFO_CLOCK_ENV_H
#define DBTRACE_SYSINFO_CLOCK_ENV_H

#include <stdbool.h>
#include "sysinfo/clocksource.h"
#include "sysinfo/cmdline.h"
#include "sysinfo/tuned.h"

struct clock_env {
	bool have_cs;
	struct dbt_clocksource cs;
	bool have_log;                 /* a kernel log was readable */
	struct dbt_clocksource_log log;
	bool have_cmdline;
	struct dbt_cmdline cmdline;
	struct dbt_tuned tuned;        /* file_present false: no tuned */
};

/* Reads everything it can; a missing piece leaves its have_ flag false.
 * The kernel log is ROOT/dmesg for a fixture root, the running kernel's
 * log buffer for the live system (root NULL, "" or "/"). Never fails. */
void clock_env_read(const char *root, struct clock_env *env);

#endif
