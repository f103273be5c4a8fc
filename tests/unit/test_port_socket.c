/* sysinfo/port_socket: which sockets of a /proc/net/tcp table sit on a
 * local port, and whether a process holds one (the server side). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>

#include "sysinfo/port_socket.h"

#define ROOT "tests/fixtures/port_owner"

static void test_table_port_inodes(void **state)
{
	const char *t =
		"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
		"   0: 00000000:1538 00000000:0000 0A 00000000:00000000 00:00000000 00000000   108        0 1001 1 0 100 0 0 10 0\n"
		"   1: 0100007F:C350 0100007F:1538 01 00000000:00000000 00:00000000 00000000  1000        0 2001 1 0 20 4 1 10 -1\n"
		"   2: 0100007F:1538 0100007F:D431 06 00000000:00000000 03:00000A2B 00000000     0        0 0 3 0\n";
	uint32_t in[4];

	(void)state;
	/* the listener only: the client's remote port and a TIME_WAIT
	 * socket (inode 0, no owner) do not count */
	assert_int_equal(tcp_table_port_inodes(t, 5432, in, 4), 1);
	assert_int_equal(in[0], 1001);
	assert_int_equal(tcp_table_port_inodes(t, 50000, in, 4), 1);
	assert_int_equal(in[0], 2001);
	assert_int_equal(tcp_table_port_inodes(t, 22, in, 4), 0);
	assert_int_equal(tcp_table_port_inodes("no table here\n", 5432, in, 4), -EINVAL);
}

static void test_socket_link_inode(void **state)
{
	uint32_t inode = 0;

	(void)state;
	assert_int_equal(socket_link_inode("socket:[1002]", &inode), 0);
	assert_int_equal(inode, 1002);
	assert_int_equal(socket_link_inode("pipe:[1002]", &inode), -EINVAL);
	assert_int_equal(socket_link_inode("socket:[12", &inode), -EINVAL);
	assert_int_equal(socket_link_inode("/dev/null", &inode), -EINVAL);
}

static void test_proc_serves_port(void **state)
{
	(void)state;
	/* the server holds the listener and an accepted socket on 5432 */
	assert_int_equal(proc_serves_port(ROOT, 4242, 5432), 1);
	/* its client holds a socket to 5432, bound to 50000 */
	assert_int_equal(proc_serves_port(ROOT, 4343, 5432), 0);
	assert_int_equal(proc_serves_port(ROOT, 4343, 50000), 1);
	/* a process that is gone */
	assert_true(proc_serves_port(ROOT, 99999, 5432) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_port_inodes),
		cmocka_unit_test(test_socket_link_inode),
		cmocka_unit_test(test_proc_serves_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
