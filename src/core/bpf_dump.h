/* Reading a whole BPF hash map (per-thread counters) with batch lookups,
 * a chunk at a time, so user space holds one chunk, not a copy of a map
 * of 64k threads. One copy of that loop for every family. */
#ifndef DBTRACE_CORE_BPF_DUMP_H
#define DBTRACE_CORE_BPF_DUMP_H

#include <stdbool.h>
#include <stdint.h>

/* Called with the n entries of one chunk in keys[] and values[] (dense
 * arrays of the map's key and value size). Non-zero stops the stream and
 * is returned. */
typedef int (*map_chunk_fn)(void *ctx, const void *keys, const void *values, uint32_t n);

/* Streams every entry of the hash map fd through fn in chunks of at most
 * chunk entries (keys and values must hold that many), deleting what it
 * read when and_delete. Entries added or removed while it runs may be
 * seen or not, never twice within one call; it stops after max entries so
 * a map that keeps changing cannot keep it looping. Returns 0, fn's
 * non-zero value, or -errno. */
int map_stream(int fd, void *keys, void *values, uint32_t chunk, bool and_delete,
	       uint32_t max, map_chunk_fn fn, void *ctx);

#endif
