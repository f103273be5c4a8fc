/* The docs' generated field tables: each marked block of a file becomes
 * its section's table; a marker of no section, or one not closed, is an
 * error; and the committed docs are what the tables make (run `make
 * docs` after changing a table of figures). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "figures/figures.h"
#include "render/figures_doc.h"

struct row {
	double a;
	double b[2];
};

static const char *key_name(int k)
{
	return k ? "y" : "x";
}

static const struct fig_keys two = { 2, key_name, "<k>", false };

static const struct figure small_figs[] = {
	{ .name = "a", .unit = "%", .type = FIG_NUM, .offset = offsetof(struct row, a), .doc = "the a" },
	{ .name = "b", .type = FIG_NUM, .offset = offsetof(struct row, b), .keys = &two, .doc = "per k" },
	{ .name = "v", .type = FIG_NUM, .view_only = true, .doc = "not in the capture" },
};
static const struct fig_table small = FIG_TABLE("small", small_figs);
static const struct fig_table *const sections[] = { &small };

/* text through figures_doc_update into a string (caller frees). */
static int update(const char *text, char **out)
{
	size_t len;
	FILE *f = open_memstream(out, &len);
	int err;

	assert_non_null(f);
	err = figures_doc_update(f, text, strlen(text), sections, 1);
	fclose(f);
	return err;
}

static void test_block_replaced(void **state)
{
	char *out;

	(void)state;
	assert_int_equal(update("head\n<!-- figures: small -->\nold rows\n<!-- /figures -->\ntail\n", &out), 0);
	assert_string_equal(out, "head\n<!-- figures: small -->\n"
				 "| field | unit | meaning |\n| --- | --- | --- |\n"
				 "| `a` | % | the a |\n"
				 "| `b.<k>` | number | per k |\n"
				 "<!-- /figures -->\ntail\n");
	free(out);
}

static void test_bad_markers(void **state)
{
	char *out;

	(void)state;
	assert_int_equal(update("<!-- figures: nothing -->\n<!-- /figures -->\n", &out), -EINVAL);
	free(out);
	assert_int_equal(update("<!-- figures: small -->\nnever closed\n", &out), -EINVAL);
	free(out);
	assert_int_equal(update("no marker at all\n", &out), 0);
	assert_string_equal(out, "no marker at all\n");
	free(out);
}

/* The committed docs are what `make docs` writes. */
static void test_committed_docs_are_current(void **state)
{
	static const char *const docs[] = { "capture-schema.md", "diff.md", "metrics.md" };

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char path[4096], *text = NULL, *made = NULL;
		size_t len = 0, made_len = 0;
		FILE *f, *m;

		snprintf(path, sizeof(path), "%s/../../docs/%s", FIXTURES, docs[i]);
		f = fopen(path, "r");
		assert_non_null(f);
		m = open_memstream(&text, &len);
		for (int c; (c = fgetc(f)) != EOF;)
			fputc(c, m);
		fclose(f);
		fclose(m);
		m = open_memstream(&made, &made_len);
		assert_int_equal(figures_doc_update(m, text, len, fig_sections, fig_n_sections), 0);
		fclose(m);
		if (made_len != len || memcmp(made, text, len))
			fail_msg("docs/%s differs from the tables of figures: run `make docs`", docs[i]);
		free(text);
		free(made);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_replaced),
		cmocka_unit_test(test_bad_markers),
		cmocka_unit_test(test_committed_docs_are_current),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
