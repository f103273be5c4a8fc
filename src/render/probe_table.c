#include "render/probe_table.h"

#include <errno.h>

int probe_table_print(FILE *f, const struct probe_report *reps, int n)
{
	fprintf(f, "%-10s %-22s %s\n", "FAMILY", "ATTACH", "REJECTED");
	for (int k = 0; k < n; k++) {
		const struct probe_report *r = &reps[k];

		fprintf(f, "%-10s %-22s", r->family,
			r->disabled ? "off" : r->attach[0] ? r->attach : "none");
		if (r->disabled)
			fprintf(f, " (left out with --families)");
		else if (!r->n_rejected)
			fprintf(f, " -");
		for (int i = 0; i < r->n_rejected; i++)
			fprintf(f, "%s %s: %s", i ? ";" : "", r->rejected[i].path, r->rejected[i].error);
		fprintf(f, "\n");
	}
	/* how a path adapted, at load, to what this kernel lacks */
	for (int k = 0, first = 1; k < n; k++)
		for (int i = 0; i < reps[k].n_notes; i++, first = 0)
			fprintf(f, "%s  %-8s %s\n", first ? "\n  FAMILY   ADAPTED (same measurement, another way)\n" : "",
				reps[k].family, reps[k].notes[i]);
	fprintf(f, "\n  %-8s %-46s %s\n", "FAMILY", "HOOK", "RUNS ON");
	for (int k = 0; k < n; k++)
		for (int i = 0; i < reps[k].n_hooks; i++)
			fprintf(f, "  %-8s %-46s %s\n", reps[k].family, reps[k].hooks[i],
				probe_hook_cost(reps[k].hooks[i]));
	return ferror(f) ? -EIO : 0;
}
void probe_status_line(const struct probe_report *reps, int n, char *buf, unsigned len)
{
	unsigned at = 0;

	buf[0] = 0;
	for (int i = 0; i < n && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s=%s", i ? " " : "", reps[i].family,
				 reps[i].attach[0] ? reps[i].attach : "FAILED");

		if (w < 0)
			break;
		at += (unsigned)w;
	}
}
