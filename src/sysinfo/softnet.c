#include "sysinfo/softnet.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 16 hex words of 9 bytes per line: 64 KiB holds thousands of CPUs. */
#define SOFTNET_MAX (1u << 20)
#define SOFTNET_FIELDS 16

/* Splits one line into hex words; returns how many (at most max). */
static int hex_words(const char *p, const char *end, uint32_t *v, int max)
{
	int n = 0;

	while (n < max) {
		char word[16];
		size_t len = 0;
		char *stop;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		while (p < end && *p != ' ' && *p != '\t' && len < sizeof(word) - 1)
			word[len++] = *p++;
		if (!len)
			break;
		word[len] = 0;
		errno = 0;
		v[n] = (uint32_t)strtoul(word, &stop, 16);
		if (errno || *stop)
			return -EINVAL;
		n++;
	}
	return n;
}

int softnet_parse(const char *text, struct softnet_cpu *out, int max)
{
	const char *p = text;
	int n = 0;

	while (p && *p && n < max) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		uint32_t v[SOFTNET_FIELDS];
		int k = hex_words(p, end, v, SOFTNET_FIELDS);

		if (k < 0 || (k > 0 && k < 11))
			return -EINVAL;
		if (k > 0) {
			struct softnet_cpu *c = &out[n];

			memset(c, 0, sizeof(*c));
			c->processed = v[0];
			c->dropped = v[1];
			c->time_squeeze = v[2];
			c->received_rps = v[9];
			c->flow_limit = v[10];
			c->cpu_listed = k >= 13;
			c->cpu = c->cpu_listed ? (int)v[12] : n;
			n++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

int softnet_read(const char *root, struct softnet_cpu *out, int max)
{
	char *text;
	int n;

	n = procfile_slurp(root, "/proc/net/softnet_stat", SOFTNET_MAX, &text, NULL);
	if (n)
		return n;
	n = softnet_parse(text, out, max);
	free(text);
	return n;
}
