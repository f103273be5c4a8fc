/* libFuzzer: the capture reader behind report and diff. A malformed or
 * hostile capture must give one error line and a negative errno, never a
 * crash; one that reads must then survive the report and the diff. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/capture_diff.h"
#include "capture/capture_read.h"
#include "render/diff_table.h"
#include "render/report_html.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct capture cap;
	struct capture_diff d;
	struct report_opts o = { .top_n = 10, .generator = "fuzz" };
	char err[256];
	FILE *sink;
	int rc;

	rc = capture_read_buf((const char *)data, size, "fuzz.json", &cap, err, sizeof(err));
	if (rc) {
		/* one line that names the file */
		if (rc > 0 || !err[0] || strchr(err, '\n') || strncmp(err, "fuzz.json", 9))
			abort();
		return 0;
	}
	sink = fopen("/dev/null", "w");
	if (sink) {
		report_html_write(sink, &cap, &o);
		if (!capture_diff_compute(&cap, &cap, NULL, &d)) {
			diff_table_text(sink, &cap, &cap, &d);
			diff_table_json(sink, &cap, &cap, &d);
			capture_diff_free(&d);
		}
		fclose(sink);
	}
	capture_free(&cap);
	return 0;
}
