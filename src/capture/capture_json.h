/* The JSON helpers every file of the capture format shares, written once:
 * a number that was not measured is null, a count is clamped to what JSON
 * integers hold, and a member read back is NAN, 0 or NULL when a capture
 * lacks it (an older capture, a family that did not attach). */
#ifndef DBTRACE_CAPTURE_CAPTURE_JSON_H
#define DBTRACE_CAPTURE_CAPTURE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/* --- writing ----------------------------------------------------------- */

/* v, or null for NAN (no sample), never a made-up number. */
struct json_object *capture_num(double v);
struct json_object *capture_u64(uint64_t v);
/* s, or null for NULL or "". */
struct json_object *capture_text(const char *s);

/* --- reading ----------------------------------------------------------- */

/* o's member key; NULL when o is not an object or has no such member
 * (or it is null). */
struct json_object *capture_member(struct json_object *o, const char *key);
bool capture_is_number(struct json_object *v);
/* The number v is; NAN when it is not one. */
double capture_number(struct json_object *v);
/* o's member key as a number (NAN), an integer (dflt), a count (0 for
 * a negative or missing one), a string (NULL), copied into dst ("" for
 * none), an array or an object (NULL when it is something else). */
double capture_jnum(struct json_object *o, const char *key);
int64_t capture_jint(struct json_object *o, const char *key, int64_t dflt);
uint64_t capture_jcount(struct json_object *o, const char *key);
const char *capture_jstr(struct json_object *o, const char *key);
void capture_jcopy(char *dst, size_t len, struct json_object *o, const char *key);
struct json_object *capture_jarray(struct json_object *o, const char *key);
struct json_object *capture_jobject(struct json_object *o, const char *key);
/* Nanoseconds from seconds written as a number (0 for none). */
uint64_t capture_ns(double seconds);

#endif
