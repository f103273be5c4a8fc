#include "core/bpf_prepare.h"
#include "core/log.h"
#include "core/privilege.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* quiet while the attach plan probes; -v shows it all, -vv debug too */
	if (log_verbosity() <= 0 || (level == LIBBPF_DEBUG && log_verbosity() < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int bpf_prepare(const char *command, const char *btf_path)
{
	libbpf_set_print(libbpf_print);
	if (!privilege_can_trace()) {
		log_err("%s needs root (or CAP_BPF and CAP_PERFMON) to load eBPF programs", command);
		return -EPERM;
	}
	/* CO-RE relocates against a BTF of the running kernel: its own,
	 * or a file made for it (btfhub's, or pahole -J on its vmlinux) */
	if (btf_path) {
		if (access(btf_path, R_OK)) {
			int err = errno;

			log_err("cannot read --btf %s: %s", btf_path, strerror(err));
			return -err;
		}
		return 0;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		log_err("this kernel exposes no BTF (/sys/kernel/btf/vmlinux): give dbtrace one made "
			"for it with --btf FILE (e.g. from btfhub)");
		return -ENOENT;
	}
	return 0;
}
