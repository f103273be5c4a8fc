/* libFuzzer: the command line. Input: arguments separated by NUL bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"

static const struct dbt_subcommand items[] = {
	{ "top", DBT_CMD_TOP, NULL, "", "" },       { "capture", DBT_CMD_CAPTURE, NULL, "", "" },
	{ "check", DBT_CMD_CHECK, NULL, "", "" },   { "serve", DBT_CMD_SERVE, NULL, "", "" },
	{ "report", DBT_CMD_REPORT, NULL, "", "" }, { "diff", DBT_CMD_DIFF, NULL, "", "" },
	{ "probes", DBT_CMD_PROBES, NULL, "", "" }, { "version", DBT_CMD_VERSION, NULL, "", "" },
	{ "help", DBT_CMD_HELP, NULL, "", "" },
};
static const struct dbt_command_table cmds = { items, sizeof(items) / sizeof(items[0]) };

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
	dbt_parse_args(argc, argv, &cmds, &cfg, err, sizeof(err));
	free(buf);
	return 0;
}
