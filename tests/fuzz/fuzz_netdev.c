/* libFuzzer: /proc/net/dev (read every interval, from every network
 * namespace the net family sees, containers' included) and the sysfs
 * speed file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/netdev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct netdev_counters devs[8];
	int n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	n = netdev_parse_proc(text, devs, 8);
	/* what came back is usable: names terminated */
	for (int i = 0; i < n; i++)
		if (strnlen(devs[i].name, sizeof(devs[i].name)) == sizeof(devs[i].name))
			abort();
	netdev_parse_speed(text);
	free(text);
	return 0;
}
