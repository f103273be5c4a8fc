/* libFuzzer: every /proc and /sys text parser on the same input, since
 * each must survive whatever a kernel (or a broken dump) prints. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_title.h"
#include "sysinfo/clocksource.h"
#include "sysinfo/cmdline.h"
#include "sysinfo/cpuset.h"
#include "sysinfo/interrupts.h"
#include "sysinfo/kernel_hz.h"
#include "sysinfo/listeners.h"
#include "sysinfo/netstat.h"
#include "sysinfo/proc_identity.h"
#include "sysinfo/proc_status.h"
#include "sysinfo/procstat.h"
#include "sysinfo/softnet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct procstat_cpu cpus[64];
	struct dbt_interrupts it;
	struct dbt_cmdline cl;
	struct dbt_clocksource_log log;
	static struct dbt_cpuset set;
	struct softnet_cpu sn[64];
	struct tcp_netstat ns;
	struct listener_table lis = { 0 };
	char path[256], title[64];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	procstat_parse(text, cpus, 64);
	if (!dbt_interrupts_parse(text, size, &it))
		dbt_interrupts_free(&it);
	dbt_cmdline_parse(text, size, &cl);
	dbt_clocksource_scan_log_buf(text, size, &log);
	dbt_cpuset_parse_list_n(&set, text, size);
	dbt_cpuset_parse_mask_n(&set, text, size);
	proc_status_cpus_allowed(text, &set);
	softnet_parse(text, sn, 64);
	netstat_parse(text, text, &ns);
	kernel_hz_parse(text, size);
	dbt_proc_cgroup_parse(text, size, path, sizeof(path));
	/* a cmdline holds NULs and need not end in one */
	proc_title_class((const char *)data, size, title, sizeof(title));
	/* the raw bytes as a netlink reply */
	listeners_parse_reply(data, size, &lis);
	listener_table_free(&lis);
	free(text);
	return 0;
}
