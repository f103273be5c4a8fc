/* dbtrace: parse the command line against the subcommand table
 * (src/cmd/commands.c) and run the chosen entry. */
#include "cli/options.h"
#include "cmd/cmd.h"
#include "core/log.h"
#include "sysinfo/cgroup_path.h"
#include "sysinfo/netns.h"
#include "sysinfo/procfile.h"

#include <errno.h>

int main(int argc, char **argv)
{
	struct dbt_config cfg;
	char err[256];

	if (dbt_parse_args(argc, argv, &dbt_commands, &cfg, err, sizeof(err))) {
		log_err("%s", err);
		return DBT_EXIT_USAGE;
	}
	log_set_verbosity(cfg.verbose);
	for (int i = 0; i < cfg.n_pids; i++) {
		/* check --root judges a copied tree: its processes, not ours */
		if (!procfile_pid_exists(cfg.root, cfg.pids[i])) {
			log_err("no process with PID %d", (int)cfg.pids[i]);
			return DBT_EXIT_USAGE;
		}
	}
	for (int i = 0; i < cfg.n_cgroups; i++) {
		if (dbt_cgroup_resolve(cfg.root, cfg.cgroups[i], cfg.cgroup_paths[i],
				       sizeof(cfg.cgroup_paths[i]))) {
			log_err("no cgroup '%s' under /sys/fs/cgroup (a path there or a systemd unit name)",
				cfg.cgroups[i]);
			return DBT_EXIT_USAGE;
		}
	}
	if (cfg.netns) {
		int err = netns_resolve(cfg.netns, cfg.netns_path, sizeof(cfg.netns_path), &cfg.netns_inum);

		if (err) {
			log_err("--netns '%s': %s (%s)", cfg.netns,
				err == -EINVAL ? "not a network namespace" : "no such network namespace",
				cfg.netns_path);
			return DBT_EXIT_USAGE;
		}
	}
	return cfg.sub->run(&cfg);
}
