#include "render/probe_status.h"

#include <stdio.h>

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
