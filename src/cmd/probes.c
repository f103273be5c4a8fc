/* `dbtrace probes`: which attach path each family took on this kernel and
 * why each preferred one was rejected. */
#include "cmd/cmd.h"
#include "collect/collectors.h"
#include "core/log.h"

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
	printf("%-10s %-22s %s\n", "FAMILY", "ATTACH", "REJECTED");
	for (int f = 0; f < FAM_COUNT; f++) {
		const struct probe_report *r = &col.reports[f];

		printf("%-10s %-22s", r->family,
		       r->disabled ? "off" : r->attach[0] ? r->attach : "none");
		if (r->disabled)
			printf(" (left out with --families)");
		else if (!r->n_rejected)
			printf(" -");
		for (int i = 0; i < r->n_rejected; i++)
			printf("%s %s: %s", i ? ";" : "", r->rejected[i].path, r->rejected[i].error);
		printf("\n");
	}
	collectors_close(&col);
	return failed ? DBT_EXIT_PROBES : DBT_EXIT_OK;
}
