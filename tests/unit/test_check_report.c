/* `dbtrace check` output: the text report (facts, findings worst first,
 * verdict) and the JSON document. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/check_report.h"

struct fixture {
	struct static_input in;
	struct dbt_nic nic;
	struct dbt_nic_layout layout;
	struct finding_list found;
	struct misbind_target t;
	long mbps;
};

static void build(struct fixture *fx)
{
	struct finding f;

	memset(fx, 0, sizeof(*fx));
	fx->in.clock.have_cs = true;
	strcpy(fx->in.clock.cs.current, "hpet");
	fx->in.have_online = true;
	dbt_cpuset_parse_list(&fx->in.online, "0-3");
	strcpy(fx->nic.dev, "eth0");
	fx->nic.n_irqs = 0;
	fx->layout.n = 1;
	fx->layout.nics = &fx->nic;
	fx->in.nics = &fx->layout;
	fx->mbps = 25000;
	fx->in.link_mbps = &fx->mbps;
	fx->t.pid = 4242;
	strcpy(fx->t.comm, "observer");
	dbt_cpuset_parse_list(&fx->t.cpus, "0-1");
	fx->in.targets = &fx->t;
	fx->in.n_targets = 1;
	/* an info first, then a warning: the report puts the warning first */
	memset(&f, 0, sizeof(f));
	strcpy(f.id, "idle_poll");
	f.severity = SEV_INFO;
	strcpy(f.title, "idle=poll");
	finding_text(&f, "idle", "poll");
	f.first_interval = f.last_interval = -1;
	findings_merge(&fx->found, &f);
	memset(&f, 0, sizeof(f));
	strcpy(f.id, "clocksource_no_vdso");
	f.severity = SEV_WARNING;
	strcpy(f.title, "clocksource hpet");
	finding_num(&f, "tsc_unstable_messages", 1);
	strcpy(f.hint, "echo tsc > ...");
	f.first_interval = f.last_interval = -1;
	findings_merge(&fx->found, &f);
}

static char *render(struct fixture *fx, bool json)
{
	struct check_report r = { .root = "/srv/copy", .in = &fx->in, .findings = &fx->found,
				  .elapsed_ms = -1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(json ? check_report_json(fp, &r) : check_report_text(fp, &r), 0);
	fclose(fp);
	return buf;
}

static void text_report(void **state)
{
	struct fixture fx;
	char *out, *warn, *info;

	build(&fx);
	out = render(&fx, false);
	assert_non_null(strstr(out, "dbtrace check: static audit of /srv/copy\n"));
	assert_non_null(strstr(out, "  clocksource    hpet (vDSO no; available: unknown)\n"));
	assert_non_null(strstr(out, "  process        observer (pid 4242) may run on CPUs 0-1\n"));
	assert_non_null(strstr(out, "  eth0           25000 Mbit/s, qdisc unknown\n"));
	warn = strstr(out, "WARNING  clocksource_no_vdso: clocksource hpet\n");
	info = strstr(out, "INFO     idle_poll: idle=poll\n");
	assert_non_null(warn);
	assert_non_null(info);
	assert_true(warn < info);
	assert_non_null(strstr(out, "         tsc_unstable_messages: 1\n"));
	assert_non_null(strstr(out, "         hint: echo tsc > ...\n"));
	assert_non_null(strstr(out, "2 findings, worst: warning\n"));
	assert_null(strstr(out, "audit took"));
	free(out);

	findings_clear(&fx.found);
	out = render(&fx, false);
	assert_non_null(strstr(out, "\nno findings\n"));
	free(out);
	findings_free(&fx.found);
}

static void json_report(void **state)
{
	struct fixture fx;
	json_object *doc, *v, *a;
	char *out;

	build(&fx);
	out = render(&fx, true);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "schema", &v));
	assert_string_equal(json_object_get_string(v), "dbtrace.check/1");
	assert_true(json_object_object_get_ex(doc, "findings", &a));
	assert_int_equal(json_object_array_length(a), 2);
	v = json_object_array_get_idx(a, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "id")),
			    "clocksource_no_vdso");
	assert_string_equal(json_object_get_string(json_object_object_get(v, "severity")), "warning");
	assert_int_equal(json_object_get_int(json_object_object_get(v, "first_interval")), -1);
	assert_int_equal(json_object_get_int(json_object_object_get(
		json_object_object_get(v, "evidence"), "tsc_unstable_messages")), 1);
	assert_true(json_object_object_get_ex(doc, "summary", &v));
	assert_int_equal(json_object_get_int(json_object_object_get(v, "warning")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(v, "info")), 1);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "worst")), "warning");
	assert_false(json_object_object_get_ex(v, "elapsed_ms", NULL));
	assert_true(json_object_object_get_ex(doc, "host", &v));
	a = json_object_object_get(v, "network");
	assert_int_equal(json_object_array_length(a), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(
		json_object_array_get_idx(a, 0), "speed_mbit")), 25000);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "online_cpus")), "0-3");
	json_object_put(doc);
	free(out);
	findings_free(&fx.found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_report),
		cmocka_unit_test(json_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
