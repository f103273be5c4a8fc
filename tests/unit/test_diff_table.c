/* The diff's two outputs: the table names both captures, each section and
 * each row's direction, and says which capture lacks a section; the JSON
 * parses, keeps every row, writes unmeasured numbers as null and escapes
 * what the captures' strings carry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/diff_table.h"

#define CAPS FIXTURES "/captures/"

struct pair {
	struct capture a, b;
	struct capture_diff d;
};

static void load_pair(struct pair *p, const char *a, const char *b)
{
	char err[256];

	assert_int_equal(capture_read_file(a, &p->a, err, sizeof(err)), 0);
	assert_int_equal(capture_read_file(b, &p->b, err, sizeof(err)), 0);
	assert_int_equal(capture_diff_compute(&p->a, &p->b, NULL, &p->d), 0);
}

static void free_pair(struct pair *p)
{
	capture_diff_free(&p->d);
	capture_free(&p->a);
	capture_free(&p->b);
}

static char *render(struct pair *p, bool json)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(json ? diff_table_json(f, &p->a, &p->b, &p->d)
			      : diff_table_text(f, &p->a, &p->b, &p->d), 0);
	fclose(f);
	return text;
}

/* The line of the table that holds all the needles. */
static const char *line_with(const char *text, const char *a, const char *b)
{
	static char line[512];

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		if (strstr(line, a) && strstr(line, b))
			return line;
		p += n + (p[n] == '\n');
	}
	return NULL;
}

static void test_text(void **state)
{
	struct pair p;
	char *t;
	const char *l;

	load_pair(&p, CAPS "pool1.json", CAPS "pool8.json");
	t = render(&p, false);
	assert_non_null(strstr(t, "before: " CAPS "pool1.json  host vm"));
	assert_non_null(strstr(t, "after:  " CAPS "pool8.json  host vm"));
	for (int i = 0; i < CDIFF_SECTIONS; i++)
		assert_non_null(strstr(t, p.d.sec[i].title));
	/* a group's key is printed once, its first metric on the same line */
	l = line_with(t, "thread_pool/TNT_L0_1002", "threads");
	assert_non_null(l);
	assert_non_null(strstr(l, " 1 "));
	assert_non_null(strstr(l, " 8 "));
	assert_non_null(strstr(l, "+7 (+700%)"));
	assert_non_null(strstr(l, "up"));
	l = line_with(t, "oversubscription", "warning -> critical");
	assert_non_null(l);
	assert_non_null(strstr(l, "worse"));
	assert_non_null(strstr(t, "rows: "));
	free(t);
	free_pair(&p);

	/* a capture cut short says so beside its name; an old one says nothing */
	load_pair(&p, CAPS "pool1.json", CAPS "pool8.json");
	p.b.have_complete = true;
	p.b.complete = false;
	snprintf(p.b.stop_reason, sizeof(p.b.stop_reason), "SIGINT");
	t = render(&p, false);
	l = line_with(t, "after:  " CAPS "pool8.json", "(cut short by SIGINT)");
	assert_non_null(l);
	assert_null(strstr(t, "pool1.json (cut short"));
	assert_null(line_with(t, "before:", "cut short"));
	free(t);
	free_pair(&p);

	load_pair(&p, CAPS "rr.json", CAPS "rr-no-net-clock.json");
	t = render(&p, false);
	assert_non_null(strstr(t, "service ports (PORT/ROLE)\n  (not in the after capture)\n"));
	assert_non_null(strstr(t, "clock reads (process/class)\n  (not in the after capture)\n"));
	free(t);
	free_pair(&p);
}

static void test_json(void **state)
{
	struct pair p;
	json_object *o, *sec, *rows, *sum;
	char *t;
	int n = 0, counted = 0;

	load_pair(&p, CAPS "rr.json", CAPS "tbf.json");
	t = render(&p, true);
	o = json_tokener_parse(t);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "schema")), DIFF_SCHEMA);
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_object_get(o, "after"), "path")), CAPS "tbf.json");
	sec = json_object_object_get(o, "sections");
	for (int i = 0; i < CDIFF_SECTIONS; i++) {
		json_object *s = json_object_object_get(sec, p.d.sec[i].name);

		assert_non_null(s);
		rows = json_object_object_get(s, "rows");
		assert_int_equal(json_object_array_length(rows), p.d.sec[i].n);
		n += p.d.sec[i].n;
	}
	sum = json_object_object_get(o, "summary");
	for (int i = 0; i < CDIFF_DIRS; i++)
		counted += json_object_get_int(json_object_object_get(sum, cdiff_dir_name(i)));
	assert_int_equal(counted, n);
	/* a row only in after: before and change are null */
	rows = json_object_object_get(json_object_object_get(sec, "devices"), "rows");
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (strcmp(json_object_get_string(json_object_object_get(r, "key")), "dbtfxa@dbtfxA") ||
		    strcmp(json_object_get_string(json_object_object_get(r, "metric")), "txq_p99_us"))
			continue;
		assert_null(json_object_object_get(r, "before"));
		assert_null(json_object_object_get(r, "change"));
		assert_true(json_object_get_double(json_object_object_get(r, "after")) > 100000);
		assert_string_equal(json_object_get_string(json_object_object_get(r, "direction")), "new");
		counted = -1;
	}
	assert_int_equal(counted, -1);
	json_object_put(o);
	free(t);

	/* strings from a capture are escaped */
	snprintf(p.a.host.hostname, sizeof(p.a.host.hostname), "db\"1\\\n\x01");
	snprintf(p.d.sec[CDIFF_SOFTIRQ].rows[0].key, sizeof(p.d.sec[0].rows[0].key), "cpu\"0\t");
	t = render(&p, true);
	o = json_tokener_parse(t);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_object_get(o, "before"), "hostname")), "db\"1\\\n\x01");
	json_object_put(o);
	free(t);
	free_pair(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
