#include "sysinfo/clock_env.h"
#include "sysinfo/procfile.h"

#include <string.h>

void clock_env_read(const char *root, struct clock_env *env)
{
	bool live = !root || !*root || !strcmp(root, "/");
	char path[4096];

	memset(env, 0, sizeof(*env));
	env->have_cs = !dbt_clocksource_read(root, &env->cs);
	if (live)
		env->have_log = !dbt_clocksource_scan_klog(&env->log);
	else if (!procfile_path(path, sizeof(path), root, "/dmesg"))
		env->have_log = !dbt_clocksource_scan_log(path, &env->log);
	env->have_cmdline = !dbt_cmdline_read(root, &env->cmdline);
	if (dbt_tuned_read(root, &env->tuned))
		memset(&env->tuned, 0, sizeof(env->tuned));
}
