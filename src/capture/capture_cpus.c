#include "capture/capture_cpus.h"
#include "capture/capture_figures.h"
#include "capture/capture_json.h"
#include "capture/capture_read.h"
#include "model/softirq_vec.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

json_object *capture_cpus_array(const struct cpu_row *rows, int n)
{
	json_object *a = json_object_new_array();

	for (int c = 0; c < n; c++) {
		json_object *o;

		if (!rows[c].valid)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "cpu", json_object_new_int(rows[c].cpu));
		capture_figs_write(o, &fig_cpus, &rows[c], NULL);
		json_object_array_add(a, o);
	}
	return a;
}

void capture_cpus_read_row(json_object *o, struct cpu_row *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = (int)capture_jint(o, "cpu", -1);
	r->valid = true;
	capture_figs_read(o, &fig_cpus, r, NULL);
	r->have_sirq = isfinite(r->softirq_total_pct);
}

int capture_cpus_read_interval(json_object *a, struct capture_interval *iv)
{
	size_t n = a ? json_object_array_length(a) : 0;

	iv->cpus = calloc(n ? n : 1, sizeof(*iv->cpus));
	if (!iv->cpus)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i), *pct = capture_member(c, "softirq_pct");
		struct capture_interval_cpu *ic = &iv->cpus[iv->n_cpus++];

		ic->cpu = (int)capture_jint(c, "cpu", -1);
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			ic->softirq_pct[v] = (float)capture_jnum(pct, softirq_vec_key(v));
		ic->softirq_total_pct = (float)capture_jnum(pct, "total");
	}
	return 0;
}
