/* The findings of a capture (docs/capture-schema.md, findings[]), written
 * and read back here as a pair; `check --json` writes its findings the
 * same way. */
#ifndef DBTRACE_CAPTURE_CAPTURE_FINDINGS_H
#define DBTRACE_CAPTURE_CAPTURE_FINDINGS_H

#include "findings/finding.h"

struct json_object;

/* One finding as every JSON output writes it (the capture, `check
 * --json`): id, severity, title, pid, class, evidence, hint, intervals. */
struct json_object *capture_json_finding(const struct finding *f);
/* The "findings" array of l (NULL: empty). */
struct json_object *capture_findings_array(const struct finding_list *l);
/* It back, merged into l. 0 or -ENOMEM. */
int capture_findings_read(struct json_object *a, struct finding_list *l);

#endif
