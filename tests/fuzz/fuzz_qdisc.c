/* libFuzzer: rtnetlink RTM_NEWQDISC / RTM_NEWTCLASS dump replies, the raw
 * bytes recv() returned (check --root reads them from saved files), then
 * the text every qdisc found is shown as. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/qdisc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qdisc_table t = { 0 };
	char text[160];
	/* a copy of exactly size bytes: reads past it are caught */
	void *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (qdisc_parse_reply(buf, size, &t) >= 0)
		for (int i = 0; i < t.n; i++) {
			qdisc_format(&t.q[i], text, sizeof(text));
			qdisc_is_shaper(&t.q[i]);
		}
	qdisc_table_free(&t);
	free(buf);
	return 0;
}
