/* Streaming a hash map out of the kernel in batches, without copying the
 * whole map: one chunk of keys and values at a time goes to a callback. */
#ifndef DBTRACE_CORE_BPF_BATCH_H
#define DBTRACE_CORE_BPF_BATCH_H

#include <stdbool.h>
#include <stdint.h>

/* keys/values: buffers for `chunk` entries. fn gets how many are in them;
 * a nonzero return stops the walk and is returned. With and_delete the
 * entries read are removed in the same call (per-interval maps). Stops
 * after max_entries * 2 entries so a map that keeps changing cannot keep
 * it looping. Returns 0 or -errno. */
int bpf_hash_stream(int fd, void *keys, void *values, uint32_t chunk, bool and_delete,
		    uint32_t max_entries, int (*fn)(void *ctx, uint32_t n), void *ctx);

#endif
