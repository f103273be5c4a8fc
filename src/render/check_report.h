/* Output of `dbtrace check`: what was read (the host's facts) and the
 * findings, as text for a person or as one JSON document (--json). */
#ifndef DBTRACE_RENDER_CHECK_REPORT_H
#define DBTRACE_RENDER_CHECK_REPORT_H

#include <stdio.h>
#include "findings/finding.h"
#include "findings/static_checks.h"

struct check_report {
	const char *root;                  /* "/" for the live system */
	const struct static_input *in;
	const struct finding_list *findings;
	double elapsed_ms;                 /* reading and judging; < 0: leave out */
};

/* Facts, then the findings worst first, then a one-line verdict.
 * Returns 0 or -EIO. */
int check_report_text(FILE *fp, const struct check_report *r);

/* One JSON object: {"schema": "dbtrace.check/1", "root", "host": {...},
 * "findings": [...], "summary": {...}}; findings have the capture's shape
 * (docs/capture-schema.md). Returns 0, -ENOMEM or -EIO. */
int check_report_json(FILE *fp, const struct check_report *r);

#endif
