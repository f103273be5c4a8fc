#!/usr/bin/env bash
# Runs the test rings and prints one closing line "N passed, N failed".
#   tests/run.sh            unit + host bats + VM bats
#   tests/run.sh unit|bats|vm
# The bats rings load eBPF programs and need root.
set -uo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
passed=0
failed=0

count_cmocka() {
	local out="$1" p f
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
}

count_tap() {
	local log="$1" p f
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
	# a runner that died before its plan was met counts as a failure
	local plan
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -1)
	if [ -n "$plan" ] && [ $((p + f)) -lt "$plan" ]; then
		failed=$((failed + plan - p - f))
	elif [ -z "$plan" ]; then
		failed=$((failed + 1))
	fi
}

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	echo "tests/run.sh: the $1 tests load eBPF programs: run as root (sudo make test)" >&2
	failed=$((failed + 1))
	return 1
}

run_unit() {
	local t out
	echo "== unit tests (cmocka)"
	for t in build/tests/unit/test_*; do
		[ -x "$t" ] || continue
		out="$("$t" 2>&1)"
		echo "$out" | grep -E '^\[ *(PASSED|FAILED|ERROR|LINE) *\]|^\[==========\] [0-9]+ test' | sed "s|^|$(basename "$t"): |"
		count_cmocka "$out"
		# a crash prints no summary
		grep -q '^\[  PASSED  \]\|^\[  FAILED  \]' <<<"$out" || { echo "$t: crashed"; failed=$((failed + 1)); }
	done
}

run_bats() {
	need_root "bats" || return
	echo "== integration tests (bats, host kernel $(uname -r))"
	local log
	log="$(mktemp)"
	bats --tap tests/bats | tee "$log"
	count_tap "$log"
	rm -f "$log"
}

# The suites whose outcome depends on the kernel: every probe family's
# attach path and numbers. cli, check, serve, report and diff exercise
# user-space code that is the same binary on every kernel; under TCG
# (~30x slower) they would only cost CI time. The PREEMPT_RT guest, where
# softirqs run in threads, checks the softirq and sched families.
VM_SUITES_cloud="capture probes sched clock net top misbinding hardening"
VM_SUITES_rt="capture probes sched top"

run_vm() {
	need_root "VM" || return
	local kernel log suites files f
	for kernel in ${VM_KERNELS:-cloud rt}; do
		suites="VM_SUITES_$kernel"
		files=()
		for f in ${!suites}; do
			files+=("tests/bats/$f.bats")
		done
		echo "== integration tests (bats in a qemu VM, Debian $kernel kernel: ${!suites})"
		log="$(mktemp)"
		scripts/vmtest.sh --kernel "$kernel" "${files[@]}" | tee "$log"
		count_tap "$log"
		rm -f "$log"
	done
}

case "$mode" in
unit) run_unit ;;
bats) run_bats ;;
vm) run_vm ;;
all)
	run_unit
	run_bats
	[ -x scripts/vmtest.sh ] && [ "${SKIP_VM:-0}" != 1 ] && run_vm
	;;
*) echo "usage: tests/run.sh [unit|bats|vm|all]" >&2; exit 2 ;;
esac

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
