/* Whether a thread class is a port's server: one of the processes its
 * threads belong to holds a socket bound locally to the port. A group
 * spans processes (PostgreSQL's postmaster and backends; a shell with a
 * server and a client of another name as its children), and its leader
 * may hold the port while a class of the group does not, or the other
 * way round: so the class's own processes are asked. */
#ifndef DBTRACE_SESSION_CLASS_PORT_H
#define DBTRACE_SESSION_CLASS_PORT_H

#include <stdint.h>
#include "model/class_map.h"
#include "model/sched_interval.h"

/* The processes asked, at most: the lowest pids of a class. */
#define CLASS_PORT_PIDS 32

/* Class c of group p, its processes from map (the tick's; NULL, or a
 * class the map does not hold: the group's leader alone), read under root
 * ("" for the live /proc). 1 yes, 0 no, negative when none of them could
 * be read. */
int class_serves_port(const char *root, const struct class_map *map,
		      const struct sched_group_stats *p, const struct sched_class_stats *c,
		      uint16_t port);

#endif
