#include "core/bpf_percpu.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int percpu_ncpus(void)
{
	static int n;

	if (!n)
		n = libbpf_num_possible_cpus();
	return n;
}

int percpu_lookup(int map_fd, const void *key, void *out, size_t value_size)
{
	int ncpus = percpu_ncpus();
	size_t stride = (value_size + 7) & ~(size_t)7;
	char *raw;
	int err = 0;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	if (stride == value_size)  /* already dense: read in place */
		return bpf_map_lookup_elem(map_fd, key, out) ? -errno : 0;
	raw = malloc(stride * (size_t)ncpus);
	if (!raw)
		return -ENOMEM;
	if (bpf_map_lookup_elem(map_fd, key, raw))
		err = -errno;
	else
		for (int c = 0; c < ncpus; c++)
			memcpy((char *)out + (size_t)c * value_size, raw + (size_t)c * stride, value_size);
	free(raw);
	return err;
}
