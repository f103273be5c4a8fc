/* bimodal_response: a port's response times fall in two separated
 * groups, the signature of a rate limiter (requests over its budget wait
 * for the next slot) or of a retransmit path. Field case: a hypervisor
 * capped a VM at 120k packets/s; the server's response time stayed at
 * 0.1 ms while the client's rose to 8 ms in two modes. */
#ifndef DBTRACE_FINDINGS_BIMODAL_RESPONSE_H
#define DBTRACE_FINDINGS_BIMODAL_RESPONSE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "findings/finding.h"
#include "model/net_model.h"

/* The octaves (powers of two in ns) of the fine buckets (dbtrace/hist.h):
 * octave 0 holds [0, 32) ns, octave k >= 1 [2^(k+4), 2^(k+5)) ns. */
#define BIMODAL_OCTAVES (DBT_HIST_BUCKETS / DBT_HIST_SUB)
int bimodal_octave(int bucket);

struct bimodal_config {
	uint64_t min_samples;          /* default 100 requests in the window */
	int min_gap_slots;             /* default 3 octaves: modes at least 8x apart */
	double valley_ratio;           /* default 0.25: the dip between the modes is at
	                                  most this share of the smaller mode's peak */
	double min_mode_share;         /* default 0.03: each mode holds >= 3% of samples */
	double min_mode_timed;         /* default 2: each mode holds that many timed requests'
	                                  worth (of a sampled histogram's mean weight) */
};

void bimodal_config_default(struct bimodal_config *cfg);

struct bimodal_result {
	int low_slot, high_slot;       /* each mode's peak octave */
	int valley_slot;               /* the emptiest octave between them; the split */
	double low_share, high_share;  /* of all samples, 0..1 */
	double low_p50_us, high_p50_us;  /* median inside each mode */
	double split_us;               /* the valley octave's upper edge: a request
	                                  this long or longer is in the slow group */
};

/* Finds two separated modes in a fine histogram of n buckets (dbtrace/hist.h),
 * folded into octaves: two local peaks at least min_gap_slots octaves
 * apart with a valley between them no higher than valley_ratio of the
 * smaller peak, each side of the valley holding at least min_mode_share
 * of the samples. Of several such pairs the most balanced (largest
 * smaller side) wins. Each mode's centre (low_p50_us, high_p50_us) is the
 * median of the fine buckets on its side of the valley. Pure. */
bool bimodal_detect(const __u64 *h, int n, const struct bimodal_config *cfg,
		    struct bimodal_result *r);
/* As bimodal_detect() for a sampled histogram whose samples weigh weight
 * on average (its weighted total over the samples really timed; 1: every
 * one timed): under load one request in 16 is timed and counts 16, and a
 * mode of one timed request, one outlier drawn, is no mode. */
bool bimodal_detect_sampled(const __u64 *h, int n, double weight, const struct bimodal_config *cfg,
			    struct bimodal_result *r);
/* The mean weight of a sampled histogram's samples: its weighted total
 * over the samples timed; 1 when every one was timed or timed is unknown
 * (0: a capture from before sampling was recorded). */
double bimodal_weight(const __u64 *h, int n, uint64_t timed);

/* Judges the response-time histogram of every port of the window. */
int bimodal_response_check(const struct net_interval *iv, const struct bimodal_config *cfg,
			   int interval_index, struct finding_list *out);

#endif
