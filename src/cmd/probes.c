/* `dbtrace probes`: which attach path each family took on this kernel, why
 * each preferred one was rejected, and what each hook costs. */
#include "cmd/cmd.h"
#include "collect/collectors.h"
#include "render/probe_table.h"

#include <stdio.h>

int cmd_probes(const struct dbt_config *cfg)
{
	struct collectors col;
	int failed = 0, rc;

	rc = cmd_prepare_bpf(cfg);
	if (rc)
		return rc;
	rc = cmd_open_probes(cfg, &col, NULL);
	if (rc)
		return rc;
	for (int f = 0; f < FAM_COUNT; f++)
		failed += !col.on[f] && !col.reports[f].disabled;
	probe_table_print(stdout, col.reports, FAM_COUNT);
	collectors_close(&col);
	return failed ? DBT_EXIT_PROBES : DBT_EXIT_OK;
}
