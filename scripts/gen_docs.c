/* gen_docs FILE...: rewrites the generated blocks of each file in place
 * (render/figures_doc.h): the field tables of docs/capture-schema.md,
 * made from the sections' tables of figures. `make docs` runs it;
 * tests/unit/test_figures_doc.c fails when a committed file differs from
 * what this would write. */
#define _GNU_SOURCE
#include "figures/figures.h"
#include "render/figures_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, malloc'd; NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	*len = 0;
	for (;;) {
		char *more;
		size_t n;

		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			more = realloc(text, cap);
			if (!more) {
				free(text);
				fclose(f);
				return NULL;
			}
			text = more;
		}
		n = fread(text + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	return text;
}

static int rewrite(const char *path)
{
	char tmp[4096];
	char *text;
	size_t len;
	FILE *out;
	int err;

	text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "gen_docs: cannot read %s\n", path);
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out) {
		free(text);
		perror(tmp);
		return 1;
	}
	err = figures_doc_update(out, text, len, fig_sections, fig_n_sections);
	free(text);
	if (fclose(out) || err || rename(tmp, path)) {
		fprintf(stderr, "gen_docs: %s: %s\n", path, err ? "a figures marker names no section or is not closed"
								  : "cannot write");
		remove(tmp);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++)
		rc |= rewrite(argv[i]);
	return rc;
}
