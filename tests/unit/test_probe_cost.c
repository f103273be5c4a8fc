/* What each hook costs: the syscall tracepoints are told apart from the
 * hooks only their own events pay for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>
#include "core/probe_report.h"

static void test_syscall_tracepoints_tax_every_syscall(void **state)
{
	assert_true(probe_hook_taxes_syscalls("tracepoint/syscalls/sys_enter_clock_gettime"));
	assert_true(probe_hook_taxes_syscalls("tp_btf/sys_enter"));
	assert_true(probe_hook_taxes_syscalls("raw_tp/sys_enter"));
	assert_non_null(strstr(probe_hook_cost("raw_tp/sys_enter"), "every system call"));
}

static void test_other_hooks_do_not(void **state)
{
	assert_false(probe_hook_taxes_syscalls("fentry/__x64_sys_clock_gettime"));
	assert_false(probe_hook_taxes_syscalls("tp_btf/sched_switch"));
	assert_false(probe_hook_taxes_syscalls("perf_event"));
	assert_string_equal(probe_hook_cost("fentry/__x64_sys_clock_gettime"),
			    "only calls of this system call");
	assert_string_equal(probe_hook_cost("raw_tp/sched_switch"), "every context switch");
	assert_string_equal(probe_hook_cost("tp_btf/net_dev_queue"), "every packet sent");
	assert_non_null(strstr(probe_hook_cost("perf_event"), "sample"));
	assert_string_equal(probe_hook_cost("tp_btf/something_new"), "each event");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscall_tracepoints_tax_every_syscall),
		cmocka_unit_test(test_other_hooks_do_not),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
