/* Opening the probe families for a subcommand that runs them: the one
 * place that says which family did not attach, and that holds --attach
 * to what it asked. */
#include "cmd/cmd.h"
#include "core/log.h"

#include <errno.h>
#include <string.h>

/* The reason a forced family gave, for its one line: its own path's
 * rejection (the others say "not tried"). */
static const char *forced_reason(const struct probe_report *r)
{
	for (int i = 0; i < r->n_rejected; i++)
		if (!strcmp(r->rejected[i].path, r->forced))
			return r->rejected[i].error;
	return "did not attach";
}

int cmd_open_probes(const struct dbt_config *cfg, struct collectors *col, const char *rest)
{
	struct collect_config cc = cmd_collect_config(cfg);
	char eb[96];
	int failed = collectors_open(col, &cc);

	if (failed < 0) {
		log_err("cannot set up the probes: %s", log_errno_text(failed, eb, sizeof(eb)));
		return DBT_EXIT_RUNTIME;
	}
	for (int f = 0; f < FAM_COUNT; f++) {
		const struct probe_report *r = &col->reports[f];

		if (col->on[f] || r->disabled)
			continue;
		/* a path the family does not have is a typo: bad usage, not
		 * a kernel's refusal */
		if (*r->forced && r->error == -EINVAL) {
			log_err("bad --attach %s=%s: %s", r->family, r->forced, forced_reason(r));
			collectors_close(col);
			return DBT_EXIT_USAGE;
		}
		/* the user asked for this path: running without the family
		 * would answer another question than the one asked */
		if (*r->forced && rest) {
			log_err("%s: --attach %s did not attach: %s", r->family, r->forced, forced_reason(r));
			collectors_close(col);
			return DBT_EXIT_RUNTIME;
		}
		if (rest)
			log_err("%s probes did not attach (see dbtrace probes); %s", r->family, rest);
	}
	return 0;
}
