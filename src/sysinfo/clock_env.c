#include "sysinfo/clock_env.h"
#include "sysinfo/procfile.h"

#include <stdlib.h>
#include <string.h>

/* A saved kernel log: the ring buffer is 128 KiB to a few MiB
 * (log_buf_len); what is past this is not the boot messages the TSC
 * verdicts are in. */
#define KLOG_FILE_MAX (16u << 20)

void clock_env_read(const char *root, struct clock_env *env)
{
	bool live = procfile_live(root);
	char *text;
	size_t len;

	memset(env, 0, sizeof(*env));
	env->have_cs = !dbt_clocksource_read(root, &env->cs);
	if (live)
		env->have_log = !dbt_clocksource_scan_klog(&env->log);
	else if (!procfile_slurp(root, "dmesg", KLOG_FILE_MAX, &text, &len)) {
		/* through procfile, as every file of a tree: never out of it */
		dbt_clocksource_scan_log_buf(text, len, &env->log);
		env->have_log = true;
		free(text);
	}
	env->have_cmdline = !dbt_cmdline_read(root, &env->cmdline);
	if (dbt_tuned_read(root, &env->tuned))
		memset(&env->tuned, 0, sizeof(env->tuned));
}
