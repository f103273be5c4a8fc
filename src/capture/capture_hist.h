/* A fine histogram (dbtrace/hist.h) in a capture's sparse form, written
 * and read back, shared by every histogram a capture holds
 * (docs/capture-schema.md, fine_hist). */
#ifndef DBTRACE_CAPTURE_CAPTURE_HIST_H
#define DBTRACE_CAPTURE_CAPTURE_HIST_H

#include <stdint.h>
#include <linux/types.h>

struct json_object;

/* {"unit":"ns","count","timed","sample_weight","buckets":[[low_ns,count],...]},
 * non-empty buckets only. timed: the measurements really timed;
 * sample_weight: what one timed measurement counts for (1: unsampled). */
struct json_object *capture_hist_object(const __u64 *buckets, uint64_t timed, int sample_weight);

/* Reads one back into b (DBT_HIST_BUCKETS, added to) and *timed (may be
 * NULL), from either form: schema /2's sparse fine buckets, or /1's log2
 * µs slots (an array, spread over the fine buckets by
 * hist_from_log2_us(); timed unknown: 0). Nothing for NULL. */
void capture_hist_read(struct json_object *v, __u64 *b, uint64_t *timed);

#endif
