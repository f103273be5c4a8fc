/* The one table of subcommands: name, handler and help line. The parser
 * finds commands here, --help lists them from here, main() runs them. */
#include "cmd/cmd.h"

#include <stdio.h>

static int cmd_help(const struct dbt_config *cfg)
{
	return dbt_usage(&dbt_commands, stdout) ? DBT_EXIT_RUNTIME : DBT_EXIT_OK;
}

static const struct dbt_subcommand items[] = {
	{ "top", DBT_CMD_TOP, cmd_top, "", "live per-CPU softirq/irq/user/system table (q quits)" },
	{ "capture", DBT_CMD_CAPTURE, cmd_capture, "", "record a timed JSON capture (-d SECONDS -o FILE)" },
	{ "record", DBT_CMD_RECORD, cmd_record, "-- PROGRAM", "run PROGRAM [ARGS...], capture exactly its run (-o FILE)" },
	{ "check", DBT_CMD_CHECK, cmd_check, "", "static audit of the host's settings, no eBPF (exit 1: a warning)" },
	{ "serve", DBT_CMD_SERVE, cmd_serve, "", "Prometheus exporter: /metrics on --listen" },
	{ "report", DBT_CMD_REPORT, cmd_report, "CAPTURE [CAPTURE...]", "one self-contained HTML page of a capture "
	  "(-o FILE.html); other hosts' captures after it are joined port by port" },
	{ "diff", DBT_CMD_DIFF, cmd_diff, "BEFORE AFTER", "two captures side by side, change and direction" },
	{ "probes", DBT_CMD_PROBES, cmd_probes, "", "list each probe family's attach path on this kernel" },
	{ "version", DBT_CMD_VERSION, cmd_version, "", "print the version" },
	{ "help", DBT_CMD_HELP, cmd_help, "", "show this help" },
};

const struct dbt_command_table dbt_commands = { items, sizeof(items) / sizeof(items[0]) };
