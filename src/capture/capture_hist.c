#include "capture/capture_hist.h"
#include "dbtrace/hist.h"

#include <json-c/json.h>

static struct json_object *u64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

struct json_object *capture_hist_object(const __u64 *b, uint64_t timed, int sample_weight)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint64_t count = 0;

	for (uint32_t i = 0; i < DBT_HIST_BUCKETS; i++) {
		struct json_object *pair;

		if (!b[i])
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, u64(dbt_hist_low(i)));
		json_object_array_add(pair, u64(b[i]));
		json_object_array_add(a, pair);
		count += b[i];
	}
	json_object_object_add(o, "unit", json_object_new_string("ns"));
	json_object_object_add(o, "count", u64(count));
	json_object_object_add(o, "timed", u64(timed));
	json_object_object_add(o, "sample_weight", json_object_new_int(sample_weight));
	json_object_object_add(o, "buckets", a);
	return o;
}
