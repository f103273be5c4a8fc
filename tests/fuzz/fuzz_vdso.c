/* libFuzzer: the vDSO's ELF image as libelf reads it (from
 * /proc/PID/mem), then lookups over the symbols found. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/vdso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vdso_syms syms;
	void *img = malloc(size ? size : 1);

	if (!img)
		return 0;
	memcpy(img, data, size);
	if (!vdso_parse(img, size, &syms)) {
		if (syms.n < 0 || syms.n > VDSO_MAX_FUNCS)
			abort();
		for (int i = 0; i < syms.n; i++)
			vdso_lookup(&syms, syms.f[i].start);
		vdso_lookup(&syms, UINT64_MAX);
	}
	free(img);
	return 0;
}
