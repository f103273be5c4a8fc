/* Every section's table of figures holds together: member names unique
 * within each object, top's sort keys and every view's places unique
 * within a table, each kept figure with a type and a doc, each key of a
 * keyed figure named. A figure added wrongly fails here, not on screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include "figures/figures.h"

static void check_object(const struct fig_table *t, const char *section)
{
	for (int i = 0; i < t->n; i++) {
		const struct figure *f = &t->figs[i];

		if (!f->doc || !f->doc[0])
			fail_msg("%s: %s has no doc", section, f->name);
		for (int k = i + 1; k < t->n; k++)
			if (!strcmp(f->name, t->figs[k].name))
				fail_msg("%s: %s twice", section, f->name);
		for (int k = 0; f->keys && k < f->keys->n; k++)
			assert_non_null(f->keys->name(k));
		if (f->type == FIG_OBJECT) {
			assert_non_null(f->sub);
			if (!f->sub->section)
				check_object(f->sub, section);
		}
		if (f->type == FIG_TEXT)
			assert_non_null(t->text);
		if (f->view_only && !f->get && f->type != FIG_TEXT && !f->offset)
			fail_msg("%s: %s shows nothing", section, f->name);
	}
}

static void check_places(const struct fig_table *t)
{
	struct fig_ref r[64];
	int n = figure_top_cols(t, r, 64);

	assert_true(n <= 64);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++) {
			if (r[i].top->key && r[i].top->key == r[k].top->key)
				fail_msg("%s: sort key '%c' twice", t->section, r[i].top->key);
			if (r[i].top->at == r[k].top->at)
				fail_msg("%s: top place %d twice", t->section, r[i].top->at);
		}
	n = figure_report_cols(t, r, 64);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			if (r[i].report->at == r[k].report->at)
				fail_msg("%s: report place %d twice", t->section, r[i].report->at);
}

static void test_tables_hold_together(void **state)
{
	(void)state;
	assert_true(fig_n_sections > 0);
	for (int i = 0; i < fig_n_sections; i++) {
		assert_non_null(fig_sections[i]->section);
		check_object(fig_sections[i], fig_sections[i]->section);
		check_places(fig_sections[i]);
		for (int k = i + 1; k < fig_n_sections; k++)
			assert_string_not_equal(fig_sections[i]->section, fig_sections[k]->section);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_hold_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
