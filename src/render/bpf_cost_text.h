/* dbtrace's own BPF run time in a few words, for top's header (screen and
 * batch) and the report: "bpf 4.4% of a CPU, 124 ns/event". Pure. */
#ifndef DBTRACE_RENDER_BPF_COST_TEXT_H
#define DBTRACE_RENDER_BPF_COST_TEXT_H

#include <stddef.h>
#include "model/bpf_cost.h"

/* The text for the windows of c, "bpf n/a" when none was measured;
 * written into buf, which is returned. */
const char *bpf_cost_text(const struct bpf_cost_row *all, char *buf, size_t len);

#endif
