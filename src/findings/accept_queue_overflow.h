/* accept_queue_overflow: a listening port's accept queue was full and
 * the kernel dropped connection attempts (a SYN, or the ACK that
 * completes the handshake). A dropped SYN costs the client a 1 s SYN
 * retransmit; a full queue means the server accepts more slowly than
 * clients connect, or its listen() backlog is too small for a burst
 * (a connection pool opening at once). */
#ifndef DBTRACE_FINDINGS_ACCEPT_QUEUE_OVERFLOW_H
#define DBTRACE_FINDINGS_ACCEPT_QUEUE_OVERFLOW_H

#include <stdint.h>
#include "findings/finding.h"
#include "model/loss_model.h"

struct acceptq_config {
	uint64_t min_overflows;        /* default 1 in the window */
};

void acceptq_config_default(struct acceptq_config *cfg);

/* One finding per listening port (and namespace) whose sockets' drop
 * counters rose in the window. Returns 0 or -ENOMEM. */
int accept_queue_overflow_check(const struct loss_interval *li, const struct acceptq_config *cfg,
				int interval_index, struct finding_list *out);

#endif
