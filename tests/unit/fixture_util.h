/* Shared by the parser tests: the fixture trees hold verbatim copies of
 * ../shared/fixtures, and they must stay byte-identical. Include after
 * <cmocka.h>. */
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

static inline void verbatim_copies_n(const char *const pairs[][2], size_t n)
{
	FILE *probe = fopen(SHARED_FIXTURES "/README.md", "r");

	if (!probe)
		skip();
	fclose(probe);
	for (size_t i = 0; i < n; i++)
		assert_true(same_file(pairs[i][0], pairs[i][1]));
}

/* Asserts that each pair {fixture copy, original} of the array is
 * byte-identical; skips the test where ../shared/fixtures is not there. */
#define assert_verbatim_copies(pairs) \
	verbatim_copies_n(pairs, sizeof(pairs) / sizeof((pairs)[0]))

#endif
