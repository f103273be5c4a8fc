#include "core/tracefs.h"

#include <errno.h>
#include <sys/mount.h>
#include <unistd.h>

int tracefs_ensure(void)
{
	if (!access("/sys/kernel/tracing/events", F_OK))
		return 0;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) && errno != EBUSY)
		return -errno;
	return 0;
}
