#include "core/bpf_batch.h"

#include <bpf/bpf.h>
#include <errno.h>

int bpf_hash_stream(int fd, void *keys, void *values, uint32_t chunk, bool and_delete,
		    uint32_t max_entries, int (*fn)(void *ctx, uint32_t n), void *ctx)
{
	uint32_t in = 0, out = 0;
	uint64_t seen = 0;
	bool first = true;

	for (;;) {
		uint32_t count = chunk;
		int err, rc;

		/* the batch token of a hash map is a bucket index (u32) */
		err = and_delete
			? bpf_map_lookup_and_delete_batch(fd, first ? NULL : &in, &out, keys, values,
							  &count, NULL)
			: bpf_map_lookup_batch(fd, first ? NULL : &in, &out, keys, values, &count, NULL);
		if (err && errno != ENOENT)
			return -errno;
		rc = count ? fn(ctx, count) : 0;
		if (rc)
			return rc;
		seen += count;
		if (err)   /* ENOENT: the map is exhausted */
			return 0;
		in = out;
		first = false;
		if (seen >= (uint64_t)max_entries * 2)
			return 0;
	}
}
