/* A fine histogram (dbtrace/hist.h) in a capture's sparse form, shared by
 * every histogram a capture holds (docs/capture-schema.md, fine_hist). */
#ifndef DBTRACE_CAPTURE_CAPTURE_HIST_H
#define DBTRACE_CAPTURE_CAPTURE_HIST_H

#include <stdint.h>
#include <linux/types.h>

struct json_object;

/* {"unit":"ns","count","timed","sample_weight","buckets":[[low_ns,count],...]},
 * non-empty buckets only. timed: the measurements really timed;
 * sample_weight: what one timed measurement counts for (1: unsampled). */
struct json_object *capture_hist_object(const __u64 *buckets, uint64_t timed, int sample_weight);

#endif
