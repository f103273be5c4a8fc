#include "core/self_usage.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double self_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double self_rss_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long size = 0, resident = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

long self_max_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}
