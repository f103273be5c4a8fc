/* session/class_port: a class is a port's server when one of its own
 * processes holds the port, on the fixture /proc of test_port_socket
 * (4242 serves 5432; 4343 is its client, bound to 50000). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "session/class_port.h"

#define ROOT "tests/fixtures/port_owner"

/* One group led by 4343 (a shell's two children, say): the client's
 * threads in class "client", the server's in "server". */
static void build(struct class_map *map)
{
	const struct class_map_proc procs[] = {
		{ 4242, 4343, NULL },
		{ 4343, 4343, NULL },
	};
	struct class_map_input in = { 0 };

	assert_int_equal(class_map_input_add(&in, 4343, 4343, "client", "client"), 0);
	assert_int_equal(class_map_input_add(&in, 4242, 4242, "server", "server"), 0);
	assert_int_equal(class_map_input_add(&in, 4242, 4244, "server", "server"), 0);
	assert_int_equal(class_map_build_grouped(map, &in, NULL, procs, 2), 0);
	class_map_input_free(&in);
}

static struct sched_class_stats class_of(const struct class_map *map, uint32_t pid, uint32_t tid)
{
	struct sched_class_stats c;

	memset(&c, 0, sizeof(c));
	c.map_class = (int)class_map_find(map, pid, tid)->cls;
	strcpy(c.name, map->classes[c.map_class].name);
	return c;
}

static void test_the_class_own_processes(void **state)
{
	struct class_map map;
	struct sched_group_stats p = { .pid = 4343 };
	struct sched_class_stats server, client;

	(void)state;
	build(&map);
	server = class_of(&map, 4242, 4244);
	client = class_of(&map, 4343, 4343);
	assert_string_equal(server.name, "server");
	/* the server's class holds 5432 though its group's leader does not */
	assert_int_equal(class_serves_port(ROOT, &map, &p, &server, 5432), 1);
	/* the client's class, in the same group, does not */
	assert_int_equal(class_serves_port(ROOT, &map, &p, &client, 5432), 0);
	assert_int_equal(class_serves_port(ROOT, &map, &p, &client, 50000), 1);
	/* without the map: the leader (the client) answers for the group */
	assert_int_equal(class_serves_port(ROOT, NULL, &p, &server, 5432), 0);
	server.map_class = -1;
	assert_int_equal(class_serves_port(ROOT, &map, &p, &server, 5432), 0);
	/* nobody readable: unknown */
	p.pid = 99999;
	assert_true(class_serves_port(ROOT, NULL, &p, &server, 5432) < 0);
	class_map_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_class_own_processes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
