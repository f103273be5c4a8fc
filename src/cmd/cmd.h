/* Subcommands: each returns an exit code (enum dbt_exit). */
#ifndef DBTRACE_CMD_CMD_H
#define DBTRACE_CMD_CMD_H

#include "cli/options.h"
#include "collect/collectors.h"
#include "core/bpf_prepare.h"

/* Every subcommand, with its handler and help line. */
extern const struct dbt_command_table dbt_commands;

int cmd_version(const struct dbt_config *cfg);
int cmd_probes(const struct dbt_config *cfg);
int cmd_top(const struct dbt_config *cfg);
int cmd_capture(const struct dbt_config *cfg);
int cmd_check(const struct dbt_config *cfg);
int cmd_serve(const struct dbt_config *cfg);
int cmd_report(const struct dbt_config *cfg);
int cmd_diff(const struct dbt_config *cfg);
int cmd_record(const struct dbt_config *cfg);

/* report's work: the captures in[0..n_in) read, the first's HTML page
 * (with the others joined to it) written to out (complete or not at all;
 * all: every thread class a row). Returns an exit code after one line on
 * stderr ("wrote OUT" when it worked). */
int cmd_report_write(const char *const *in, int n_in, const char *out, int top_n, bool all);

/* What the collectors take of the command line. */
static inline struct collect_config cmd_collect_config(const struct dbt_config *cfg)
{
	struct collect_config cc = { .families = cfg->families, .sample_hz = cfg->sample_hz,
				     .count_clock_syscalls = cfg->count_clock_syscalls,
				     .btf_path = cfg->btf_path, .netns_inum = cfg->netns_inum,
				     .netns_path = cfg->netns_inum ? cfg->netns_path : NULL };

	for (int f = 0; f < FAM_COUNT; f++)
		cc.attach[f] = cfg->attach[f];
	return cc;
}

/* Opens the probe families (collectors_open) with cfg's choices. A family
 * that did not attach is said in one line ending "; <rest>" (rest NULL:
 * nothing said, as `probes` prints its table). Returns 0, or an exit
 * code after one line on stderr, col closed: a fatal error; an --attach
 * path the family does not have (usage); unless rest is NULL, a family
 * --attach forced that did not attach (the user asked for that path). */
int cmd_open_probes(const struct dbt_config *cfg, struct collectors *col, const char *rest);

/* bpf_prepare() for cfg's command, as an exit code. */
static inline int cmd_prepare_bpf(const struct dbt_config *cfg)
{
	return bpf_prepare(cfg->sub->name, cfg->btf_path) ? DBT_EXIT_RUNTIME : 0;
}

#endif
