/* libFuzzer: --class NAME=GLOB and class naming. Input: the first line is
 * an override, the other lines are thread comms of one process. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/thread_class.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *line, *save, err[128];
	struct tclass_override ovr;
	struct tclass_classifier *c = NULL;
	struct tclass_thread threads[64];
	struct tclass_result res;
	size_t n = 0;
	int have_ovr;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	line = strtok_r(buf, "\n", &save);
	have_ovr = line && !tclass_parse_override(line, &ovr, err, sizeof(err));
	if (tclass_classifier_new(have_ovr ? &ovr : NULL, have_ovr ? 1 : 0, &c))
		c = NULL;
	while ((line = strtok_r(NULL, "\n", &save)) && n < 64) {
		line[strnlen(line, TCLASS_COMM_LEN - 1)] = 0;   /* a kernel comm */
		threads[n].tid = (uint32_t)n + 1;
		threads[n].comm = line;
		n++;
	}
	if (!tclass_assign(c, threads, n, &res))
		tclass_result_free(&res);
	tclass_classifier_free(c);
	free(buf);
	return 0;
}
