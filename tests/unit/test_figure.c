/* A figure's value read out of its row (kept, keyed, made, unknown), and
 * the places of a table's figures in the views, sorted by place with
 * table order for ties. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include "figures/figure.h"

struct row {
	double num;
	int n;
	uint64_t count, ns;
	double per[3];
};

static const char *key_name(int k)
{
	static const char *const names[] = { "x", "y", "z" };

	return names[k];
}

static const struct fig_keys three = { 3, key_name, "<k>", false };

static bool n_positive(const void *row, int key, const void *ctx)
{
	(void)key;
	(void)ctx;
	return ((const struct row *)row)->n > 0;
}

static double twice(const void *row, int key)
{
	(void)key;
	return 2 * ((const struct row *)row)->num;
}

static const struct fig_key_view per_views[3] = {
	[0] = { { 'x', "X", 4, 0, 30 }, { NULL, 0 } },
	[2] = { { 'z', "Z", 4, 0, 5 }, { "z", 10 } },
};

static const struct figure figs[] = {
	{ .name = "num", .type = FIG_NUM, .offset = offsetof(struct row, num),
	  .top = { 'a', "A", 4, 0, 20 }, .report = { "a", 20 }, .diff = { FIG_LOWER, 1, 0.1 } },
	{ .name = "n", .type = FIG_INT, .offset = offsetof(struct row, n),
	  .top = { 'n', "N", 4, 0, 20 }, .diff = { FIG_NEUTRAL, 0, 0, 0, NULL, -1 } },
	{ .name = "count", .type = FIG_COUNT, .offset = offsetof(struct row, count), .known = n_positive,
	  .report = { "count", 5 } },
	{ .name = "ns", .type = FIG_NS, .offset = offsetof(struct row, ns) },
	{ .name = "per", .type = FIG_NUM, .offset = offsetof(struct row, per), .keys = &three,
	  .key_views = per_views },
	{ .name = "twice", .type = FIG_NUM, .view_only = true, .get = twice, .top = { 0, "2A", 4, 0, 1 } },
};
static const struct fig_table table = FIG_TABLE("t", figs);

static void test_values(void **state)
{
	struct row r = { 1.5, 3, 7, 2500000000ull, { 10, 20, 30 } };

	(void)state;
	assert_float_equal(figure_value(&figs[0], &r, 0), 1.5, 0);
	assert_float_equal(figure_value(&figs[1], &r, 0), 3, 0);
	assert_float_equal(figure_value(&figs[2], &r, 0), 7, 0);
	assert_float_equal(figure_value(&figs[3], &r, 0), 2.5, 1e-12);
	assert_float_equal(figure_value(&figs[4], &r, 2), 30, 0);
	assert_float_equal(figure_value(&figs[5], &r, 0), 3, 0);
	r.n = 0;   /* count is not known then */
	assert_true(isnan(figure_value(&figs[2], &r, 0)));
	assert_false(figure_known(&figs[2], &r, 0, NULL));
	assert_ptr_equal(figure_find(&table, "ns"), &figs[3]);
	assert_null(figure_find(&table, "none"));
	assert_int_equal(figure_n_values(&figs[4]), 3);
	assert_string_equal(figure_key_name(&figs[4], 1), "y");
	assert_null(figure_key_name(&figs[0], 0));
}

static void test_places(void **state)
{
	struct fig_ref r[8];

	(void)state;
	/* top: 2A (1), per.z (5), num and n tied at 20 in table order, per.x (30) */
	assert_int_equal(figure_top_cols(&table, r, 8), 5);
	assert_string_equal(r[0].top->title, "2A");
	assert_string_equal(r[1].top->title, "Z");
	assert_int_equal(r[1].key, 2);
	assert_string_equal(r[2].top->title, "A");
	assert_string_equal(r[3].top->title, "N");
	assert_string_equal(r[4].top->title, "X");
	/* the report: count (5), per.z (10), num (20) */
	assert_int_equal(figure_report_cols(&table, r, 8), 3);
	assert_string_equal(r[0].report->title, "count");
	assert_string_equal(r[1].report->title, "z");
	assert_string_equal(r[2].report->title, "a");
	/* diff: n first by its place, then num */
	assert_int_equal(figure_diff_rows(&table, r, 8), 2);
	assert_ptr_equal(r[0].f, &figs[1]);
	assert_ptr_equal(r[1].f, &figs[0]);
	/* room for fewer: the count of all, the first kept */
	assert_int_equal(figure_top_cols(&table, r, 2), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_places),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
