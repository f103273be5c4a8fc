/* libFuzzer: /proc/PID/stat (a comm may hold spaces and parentheses) and
 * /proc/PID/status (Cpus_allowed_list), read for every process check and
 * the misbinding rules look at. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/proc_scan.h"
#include "sysinfo/proc_status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct dbt_proc_cpu pc;
	struct dbt_cpuset set;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	/* not NUL-terminated as given: the parser takes a length */
	if (!dbt_proc_stat_parse((const char *)data, size, &pc) &&
	    strnlen(pc.comm, sizeof(pc.comm)) == sizeof(pc.comm))
		abort();
	proc_status_cpus_allowed(text, &set);
	free(text);
	return 0;
}
