#include "sysinfo/host.h"
#include "sysinfo/procfile.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void host_info_read(const char *root, struct host_info *info)
{
	struct utsname u;
	long n;

	memset(info, 0, sizeof(*info));
	if (!uname(&u)) {
		snprintf(info->hostname, sizeof(info->hostname), "%s", u.nodename);
		snprintf(info->kernel, sizeof(info->kernel), "%s", u.release);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	info->cpus = n > 0 ? (int)n : 0;
	procfile_line(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      info->clocksource, sizeof(info->clocksource));
	procfile_line(root, "/proc/cmdline", info->cmdline, sizeof(info->cmdline));
}
