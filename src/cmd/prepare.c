#include "cmd/cmd.h"
#include "core/bpf_plan.h"
#include "core/log.h"
#include "core/privilege.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* quiet while the attach plan probes; -v shows it all, -vv debug too */
	if (log_verbosity() <= 0 || (level == LIBBPF_DEBUG && log_verbosity() < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int cmd_prepare_bpf(const struct dbt_config *cfg)
{
	libbpf_set_print(libbpf_print);
	if (!privilege_can_trace()) {
		log_err("%s needs root (or CAP_BPF and CAP_PERFMON) to load eBPF programs",
			dbt_command_name(cfg->command));
		return DBT_EXIT_RUNTIME;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		log_err("this kernel exposes no BTF (/sys/kernel/btf/vmlinux): "
			"dbtrace needs CONFIG_DEBUG_INFO_BTF=y");
		return DBT_EXIT_RUNTIME;
	}
	return 0;
}

void cmd_probe_status(const struct probe_report *reps, int n, char *buf, unsigned len)
{
	unsigned at = 0;

	buf[0] = 0;
	for (int i = 0; i < n && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s=%s", i ? " " : "", reps[i].family,
				 reps[i].attach[0] ? reps[i].attach : "FAILED");

		if (w < 0)
			break;
		at += (unsigned)w;
	}
}
