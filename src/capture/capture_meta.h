/* What a capture says of where it was taken (docs/capture-schema.md,
 * host and probes): written and read back here as a pair. */
#ifndef DBTRACE_CAPTURE_CAPTURE_META_H
#define DBTRACE_CAPTURE_CAPTURE_META_H

#include "core/probe_report.h"
#include "sysinfo/host.h"

struct json_object;

struct json_object *capture_meta_host(const struct host_info *h);
/* "probes": per family, the attach path, whether enabled, what was
 * refused. */
struct json_object *capture_meta_probes(const struct probe_report *p, int n);

void capture_meta_read_host(struct json_object *o, struct host_info *h);
/* Each family's attach path ("" when it did not attach) into p, at most
 * max; returns how many. Whether enabled and what was refused are not
 * read back. */
int capture_meta_read_probes(struct json_object *o, struct probe_report *p, int max);

#endif
