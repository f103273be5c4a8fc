/* Subcommands: each returns an exit code (enum dbt_exit). */
#ifndef DBTRACE_CMD_CMD_H
#define DBTRACE_CMD_CMD_H

#include "cli/options.h"

struct probe_report;

int cmd_version(const struct dbt_config *cfg);
int cmd_probes(const struct dbt_config *cfg);
int cmd_top(const struct dbt_config *cfg);
int cmd_capture(const struct dbt_config *cfg);
int cmd_check(const struct dbt_config *cfg);
int cmd_serve(const struct dbt_config *cfg);
int cmd_report(const struct dbt_config *cfg);
int cmd_diff(const struct dbt_config *cfg);

/* Checks shared by every command that loads probes: privileges, BTF,
 * libbpf's logging. Returns 0 or an exit code. */
int cmd_prepare_bpf(const struct dbt_config *cfg);

/* One line "softirq=tp_btf ..." for status lines. */
void cmd_probe_status(const struct probe_report *reps, int n, char *buf, unsigned len);

#endif
