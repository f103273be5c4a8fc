/* A finding's evidence: pieces past FINDING_MAX_EVIDENCE are dropped and
 * leave the others whole; text is cut to its field; a finding merged into
 * a list replaces the one of the same id, pid and class, its interval
 * range widened. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/finding.h"

static void test_evidence_room(void **state)
{
	struct finding f = { .id = "bimodal_response" };
	char key[32];

	(void)state;
	for (int i = 0; i < FINDING_MAX_EVIDENCE + 3; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		finding_num(&f, key, i);
	}
	finding_text(&f, "late", "%s", "dropped too");
	assert_int_equal(f.n_ev, FINDING_MAX_EVIDENCE);
	assert_string_equal(f.ev[FINDING_MAX_EVIDENCE - 1].key, "k23");
	assert_true(f.ev[FINDING_MAX_EVIDENCE - 1].num == FINDING_MAX_EVIDENCE - 1);
	assert_false(f.ev[FINDING_MAX_EVIDENCE - 1].is_text);
}

static void test_evidence_text_cut(void **state)
{
	struct finding f = { .id = "x" };
	char long_text[400];

	(void)state;
	memset(long_text, 'a', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = 0;
	finding_text(&f, "a_key_longer_than_its_field_of_32_bytes", "%s", long_text);
	assert_int_equal(f.n_ev, 1);
	assert_true(f.ev[0].is_text);
	assert_int_equal(strlen(f.ev[0].key), sizeof(f.ev[0].key) - 1);
	assert_int_equal(strlen(f.ev[0].text), sizeof(f.ev[0].text) - 1);
}

static void test_merge(void **state)
{
	struct finding_list l = { 0 };
	struct finding a = { .id = "oversubscription", .pid = 7, .first_interval = 3, .last_interval = 3 };
	struct finding b = a, other = a;

	(void)state;
	finding_num(&a, "threads", 16);
	b.first_interval = b.last_interval = 5;
	finding_num(&b, "threads", 32);
	other.pid = 8;
	assert_int_equal(findings_merge(&l, &a), 0);
	assert_int_equal(findings_merge(&l, &other), 0);
	assert_int_equal(findings_merge(&l, &b), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.items[0].first_interval, 3);
	assert_int_equal(l.items[0].last_interval, 5);
	assert_true(l.items[0].ev[0].num == 32);
	assert_int_equal(l.items[1].pid, 8);
	findings_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evidence_room),
		cmocka_unit_test(test_evidence_text_cut),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
