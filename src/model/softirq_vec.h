/* Names of the softirq vectors (enum in include/dbtrace/softirq.h): the
 * kernel's upper-case ones ("NET_RX", as in /proc/softirqs) for people,
 * lower-case keys ("net_rx") for the capture and the metrics. */
#ifndef DBTRACE_MODEL_SOFTIRQ_VEC_H
#define DBTRACE_MODEL_SOFTIRQ_VEC_H

#include "dbtrace/softirq.h"

/* "?" for a number outside the enum */
const char *softirq_vec_key(int vec);
const char *softirq_vec_name(int vec);

#endif
