#include "core/privilege.h"

#include <linux/capability.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_cap(const struct __user_cap_data_struct d[2], int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

bool privilege_can_trace(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (geteuid() == 0)
		return true;
	/* no libcap: the raw syscall is all this needs */
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return has_cap(data, CAP_SYS_ADMIN) ||
	       (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON));
}
