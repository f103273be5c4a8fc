#include "core/bpf_dump.h"

#include <bpf/bpf.h>
#include <errno.h>

int map_stream(int fd, void *keys, void *values, uint32_t chunk, bool and_delete,
	       uint32_t max, map_chunk_fn fn, void *ctx)
{
	uint32_t in = 0, out = 0, seen = 0;
	bool first = true;

	while (seen < max) {
		uint32_t count = chunk;
		int err, rc;

		/* the batch cursor of a hash map is a bucket: in/out hold it */
		err = and_delete
			? bpf_map_lookup_and_delete_batch(fd, first ? NULL : &in, &out, keys, values,
							  &count, NULL)
			: bpf_map_lookup_batch(fd, first ? NULL : &in, &out, keys, values, &count, NULL);
		if (err && errno != ENOENT)
			return -errno;
		rc = count ? fn(ctx, keys, values, count) : 0;
		if (rc)
			return rc;
		seen += count;
		if (err)   /* ENOENT: the map is exhausted */
			return 0;
		in = out;
		first = false;
	}
	return 0;
}
