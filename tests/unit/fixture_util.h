/* Shared by the parser tests: the fixture trees hold verbatim copies of
 * ../shared/fixtures, and they must stay byte-identical. */
#ifndef DBTRACE_TESTS_FIXTURE_UTIL_H
#define DBTRACE_TESTS_FIXTURE_UTIL_H

#include <stdio.h>

static inline int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb;

	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);

		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

#endif
