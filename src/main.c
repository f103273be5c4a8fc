/* dbtrace: subcommands as a dispatch table, one file per command. */
#include "cli/options.h"
#include "cmd/cmd.h"
#include "core/log.h"
#include "sysinfo/procfile.h"

#include <stdio.h>

static const struct {
	enum dbt_command cmd;
	int (*run)(const struct dbt_config *cfg);
} dispatch[] = {
	{ DBT_CMD_VERSION, cmd_version },
	{ DBT_CMD_PROBES, cmd_probes },
	{ DBT_CMD_TOP, cmd_top },
	{ DBT_CMD_CAPTURE, cmd_capture },
	{ DBT_CMD_CHECK, cmd_check },
	{ DBT_CMD_SERVE, cmd_serve },
	{ DBT_CMD_REPORT, cmd_report },
	{ DBT_CMD_DIFF, cmd_diff },
};

int main(int argc, char **argv)
{
	struct dbt_config cfg;
	char err[256];

	if (dbt_parse_args(argc, argv, &cfg, err, sizeof(err))) {
		log_err("%s", err);
		return DBT_EXIT_USAGE;
	}
	if (cfg.command == DBT_CMD_HELP) {
		fputs(dbt_usage(), stdout);
		return DBT_EXIT_OK;
	}
	log_set_verbosity(cfg.verbose);
	for (int i = 0; i < cfg.n_pids; i++) {
		/* check --root judges a copied tree: its processes, not ours */
		if (!procfile_pid_exists(cfg.root, cfg.pids[i])) {
			log_err("no process with PID %d", (int)cfg.pids[i]);
			return DBT_EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < sizeof(dispatch) / sizeof(dispatch[0]); i++)
		if (dispatch[i].cmd == cfg.command)
			return dispatch[i].run(&cfg);
	log_err("command not handled");
	return DBT_EXIT_USAGE;
}
