#include "render/bpf_cost_text.h"

#include <math.h>
#include <stdio.h>

const char *bpf_cost_text(const struct bpf_cost_row *all, char *buf, size_t len)
{
	if (!isfinite(all->cpu_pct))
		snprintf(buf, len, "bpf n/a");
	else if (!isfinite(all->ns_per_event))
		snprintf(buf, len, "bpf %.1f%% of a CPU", all->cpu_pct);
	else
		snprintf(buf, len, "bpf %.1f%% of a CPU, %.0f ns/event", all->cpu_pct, all->ns_per_event);
	return buf;
}
