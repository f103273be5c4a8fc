/* libFuzzer: the command line. Input: arguments separated by NUL bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[34] = { "dbtrace" };
	struct dbt_config cfg;
	char err[256];
	int argc = 1;
	size_t at = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	while (at <= size && argc < 33) {
		argv[argc++] = buf + at;
		at += strlen(buf + at) + 1;
	}
	argv[argc] = NULL;
	dbt_parse_args(argc, argv, &cfg, err, sizeof(err));
	free(buf);
	return 0;
}
