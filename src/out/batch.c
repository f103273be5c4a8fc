#include "out/batch.h"
#include "out/cpu_table.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

int batch_print(FILE *out, const struct interval_view *iv, char sort_key)
{
	char line[512], stamp[16];
	time_t now = time(NULL);
	struct tm tm;
	int *order, n;

	order = malloc(sizeof(*order) * (size_t)iv->ncpus);
	if (!order)
		return -ENOMEM;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(out, "dbtrace top - %s  t=%.1fs  interval %.2fs  lost events %llu\n", stamp,
		iv->t_s, iv->dt_s, (unsigned long long)iv->lost_events);
	cpu_table_header(line, sizeof(line), sort_key);
	fprintf(out, "%s\n", line);
	cpu_table_row(line, sizeof(line), iv->total, iv->dt_s);
	fprintf(out, "%s\n", line);
	n = cpu_table_sort(iv->rows, iv->ncpus, sort_key, order);
	for (int i = 0; i < n; i++) {
		cpu_table_row(line, sizeof(line), &iv->rows[order[i]], iv->dt_s);
		fprintf(out, "%s\n", line);
	}
	fputc('\n', out);
	free(order);
	fflush(out);
	return ferror(out) ? -EIO : 0;
}
