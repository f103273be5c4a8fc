#include "sysinfo/procstat.h"
#include "sysinfo/procfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int procstat_parse(const char *text, struct procstat_cpu *cpus, int max_cpus)
{
	const char *line = text;
	int highest = -1;

	memset(cpus, 0, sizeof(*cpus) * (size_t)max_cpus);
	while (line && *line) {
		const char *next = strchr(line, '\n');
		const char *p = line;
		char *end;
		long cpu;

		/* "cpu " is the all-CPU sum; only "cpuN" lines are per CPU */
		if (!strncmp(p, "cpu", 3) && isdigit((unsigned char)p[3])) {
			cpu = strtol(p + 3, &end, 10);
			if (cpu >= 0 && cpu < max_cpus && (*end == ' ' || *end == '\t')) {
				struct procstat_cpu *c = &cpus[cpu];

				p = end;
				for (int f = 0; f < PS_FIELDS; f++) {
					while (*p == ' ' || *p == '\t')
						p++;
					if (!isdigit((unsigned char)*p))
						break;
					c->ticks[f] = strtoull(p, &end, 10);
					p = end;
				}
				c->online = true;
				if (cpu > highest)
					highest = (int)cpu;
			}
		}
		line = next ? next + 1 : NULL;
	}
	return highest < 0 ? -ENODATA : highest + 1;
}

int procstat_read(const char *root, struct procstat_cpu *cpus, int max_cpus)
{
	char *text;
	int err;

	err = procfile_slurp(root, "/proc/stat", 1 << 22, &text, NULL);
	if (err)
		return err;
	err = procstat_parse(text, cpus, max_cpus);
	free(text);
	return err;
}
