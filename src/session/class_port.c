#include "session/class_port.h"
#include "sysinfo/port_socket.h"

int class_serves_port(const char *root, const struct class_map *map,
		      const struct sched_group_stats *p, const struct sched_class_stats *c,
		      uint16_t port)
{
	uint32_t pids[CLASS_PORT_PIDS];
	size_t n = 0;
	int answer = -1;

	if (map && c->map_class >= 0 && (size_t)c->map_class < map->n_classes)
		n = class_map_class_pids(map, (uint32_t)c->map_class, pids, CLASS_PORT_PIDS);
	if (!n)
		pids[n++] = (uint32_t)p->pid;
	for (size_t i = 0; i < n && answer != 1; i++) {
		int r = proc_serves_port(root, (int)pids[i], port);

		if (r >= 0)
			answer = r;
	}
	return answer;
}
