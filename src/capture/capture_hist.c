#include "capture/capture_hist.h"
#include "capture/capture_json.h"
#include "dbtrace/hist.h"
#include "model/hist.h"

#include <json-c/json.h>

struct json_object *capture_hist_object(const __u64 *b, uint64_t timed, int sample_weight)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint64_t count = 0;

	for (uint32_t i = 0; i < DBT_HIST_BUCKETS; i++) {
		struct json_object *pair;

		if (!b[i])
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, capture_u64(dbt_hist_low(i)));
		json_object_array_add(pair, capture_u64(b[i]));
		json_object_array_add(a, pair);
		count += b[i];
	}
	json_object_object_add(o, "unit", json_object_new_string("ns"));
	json_object_object_add(o, "count", capture_u64(count));
	json_object_object_add(o, "timed", capture_u64(timed));
	json_object_object_add(o, "sample_weight", json_object_new_int(sample_weight));
	json_object_object_add(o, "buckets", a);
	return o;
}

void capture_hist_read(struct json_object *v, __u64 *b, uint64_t *timed)
{
	struct json_object *a;
	__u64 old[64] = { 0 };
	size_t n;

	if (timed)
		*timed = 0;
	if (v && json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		for (size_t i = 0; i < n && i < 64; i++) {
			int64_t c = json_object_get_int64(json_object_array_get_idx(v, i));

			old[i] = c > 0 ? (__u64)c : 0;
		}
		hist_from_log2_us(old, (int)(n < 64 ? n : 64), b);
		return;
	}
	if (timed)
		*timed = capture_jcount(v, "timed");
	a = capture_jarray(v, "buckets");
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *pair = json_object_array_get_idx(a, i);
		int64_t lo, c;

		if (!pair || !json_object_is_type(pair, json_type_array) || json_object_array_length(pair) < 2)
			continue;
		lo = json_object_get_int64(json_object_array_get_idx(pair, 0));
		c = json_object_get_int64(json_object_array_get_idx(pair, 1));
		if (lo >= 0 && c > 0)
			b[dbt_hist_bucket((uint64_t)lo)] += (__u64)c;
	}
}
