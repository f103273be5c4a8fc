/* `dbtrace probes`: which attach path each family took on this kernel, why
 * each preferred one was rejected, and what each hook costs. */
#include "cmd/cmd.h"
#include "collect/collectors.h"
#include "core/log.h"
#include "render/probe_table.h"

#include <stdio.h>

int cmd_probes(const struct dbt_config *cfg)
{
	struct collectors col;
	struct collect_config cc = cmd_collect_config(cfg);
	int failed, rc;

	rc = cmd_prepare_bpf(cfg);
	if (rc)
		return rc;
	failed = collectors_open(&col, &cc);
	if (failed < 0) {
		char eb[96];

		log_err("cannot set up the probes: %s", log_errno_text(failed, eb, sizeof(eb)));
		return DBT_EXIT_RUNTIME;
	}
	probe_table_print(stdout, col.reports, FAM_COUNT);
	collectors_close(&col);
	return failed ? DBT_EXIT_PROBES : DBT_EXIT_OK;
}
