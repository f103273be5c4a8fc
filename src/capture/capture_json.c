#include "capture/capture_json.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

struct json_object *capture_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

struct json_object *capture_u64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

struct json_object *capture_text(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

struct json_object *capture_member(struct json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

bool capture_is_number(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int));
}

double capture_number(struct json_object *v)
{
	return capture_is_number(v) ? json_object_get_double(v) : NAN;
}

double capture_jnum(struct json_object *o, const char *key)
{
	return capture_number(capture_member(o, key));
}

int64_t capture_jint(struct json_object *o, const char *key, int64_t dflt)
{
	json_object *v = capture_member(o, key);

	return capture_is_number(v) ? json_object_get_int64(v) : dflt;
}

uint64_t capture_jcount(struct json_object *o, const char *key)
{
	int64_t v = capture_jint(o, key, 0);

	return v > 0 ? (uint64_t)v : 0;
}

const char *capture_jstr(struct json_object *o, const char *key)
{
	json_object *v = capture_member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

void capture_jcopy(char *dst, size_t len, struct json_object *o, const char *key)
{
	const char *s = capture_jstr(o, key);

	snprintf(dst, len, "%s", s ? s : "");
}

struct json_object *capture_jarray(struct json_object *o, const char *key)
{
	json_object *v = capture_member(o, key);

	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

struct json_object *capture_jobject(struct json_object *o, const char *key)
{
	json_object *v = capture_member(o, key);

	return v && json_object_is_type(v, json_type_object) ? v : NULL;
}

uint64_t capture_ns(double seconds)
{
	return isfinite(seconds) && seconds > 0 ? (uint64_t)(seconds * 1e9 + 0.5) : 0;
}
