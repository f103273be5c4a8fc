#!/usr/bin/env bash
# Runs the test rings and closes with a summary: one line per ring (unit,
# host bats, each VM kernel), the reason of every skipped test, and last,
# alone on its line, the totals CI reads:
#   N passed, N failed, N skipped
#
#   tests/run.sh            unit + host bats + VM bats (SKIP_VM=1: no VM,
#                           in this mode and in `vm`)
#   tests/run.sh unit|bats|vm
#   VM_KERNELS="6.1 rt 5.10 6.12" (default) and VM_TIMEOUT=1200 (s per
#   ring) for vm; VM_PARALLEL=1 runs the rings side by side (see run_vm);
#   VM_BATS_OPTS more bats options for the VM rings, e.g.
#   --show-output-of-passing-tests (every accuracy figure beside its reference)
#
# A skip is a bats `# skip` or a cmocka SKIPPED, never a pass. The bats
# rings load eBPF programs and need root. A VM ring that cannot run here
# (no qemu, no Debian kernel image to fetch: scripts/vmtest.sh exits 3)
# counts its tests as skipped with the reason; a guest that hangs or
# crashes fails its ring (the console's tail is printed), it is not retried.
set -uo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
passed=0 failed=0 skipped=0
rings=()   # "name|passed|failed|skipped"
skips=()   # "ring: test: reason"
ring=''
r_pass=0 r_fail=0 r_skip=0

ring_begin() {
	ring="$1"
	r_pass=0 r_fail=0 r_skip=0
}

ring_end() {
	rings+=("$ring|$r_pass|$r_fail|$r_skip")
	passed=$((passed + r_pass))
	failed=$((failed + r_fail))
	skipped=$((skipped + r_skip))
	ring=''
}

# Failures are counted here only: N of them (default 1), each with what
# failed, said on its own line when the runner (not a test) finds it.
ring_fail() {   # N [what]
	r_fail=$((r_fail + $1))
	[ -z "${2:-}" ] || echo "== $ring: $2"
}

skip_reason() {   # test reason
	skips+=("$ring: $1: ${2:-(no reason given)}")
}

# One cmocka binary's output: its per-test lines on stdout (with whatever
# a test prints between its RUN and its verdict: a skipping test prints
# its reason there), the summary on stderr.
count_cmocka() {
	local name="$1" out="$2" err="$3" p f s
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' <<<"$err" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' <<<"$err" | tail -1)
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' <<<"$err" | tail -1)
	r_pass=$((r_pass + ${p:-0}))
	ring_fail "${f:-0}"
	r_skip=$((r_skip + ${s:-0}))
	local test reason
	while IFS=$'\t' read -r test reason; do
		skip_reason "$name: $test" "$reason"
	done < <(awk '
		/^\[ RUN      \] / { test = substr($0, 14); reason = ""; next }
		/^\[  SKIPPED \] / { print substr($0, 14) "\t" reason; next }
		/^\[/ { next }
		NF { sub(/^skip(ped)?:? */, ""); reason = $0 }' <<<"$out")
	# a crash prints no summary
	if ! grep -q '^\[  PASSED  \]\|^\[  FAILED  \]' <<<"$err"; then
		ring_fail 1 "$name: crashed"
	fi
}

# A bats TAP stream in file $1: "ok", "ok ... # skip REASON", "not ok".
# A runner that stopped before its plan was met fails the tests it never
# ran; no plan at all is one failure.
count_tap() {
	local log="$1" p f s plan line name
	p=$(grep -E '^ok ' "$log" | grep -vciE ' # skip( |$)')
	s=$(grep -E '^ok ' "$log" | grep -ciE ' # skip( |$)')
	f=$(grep -c '^not ok ' "$log")
	r_pass=$((r_pass + p))
	ring_fail "$f"
	r_skip=$((r_skip + s))
	while IFS= read -r line; do
		name=$(sed -E 's/^ok [0-9]+ //; s/ # [sS][kK][iI][pP]( .*)?$//; s/ in [0-9]+ms$//' <<<"$line")
		skip_reason "$name" "$(sed -nE 's/.* # [sS][kK][iI][pP] +(.*)$/\1/p' <<<"$line")"
	done < <(grep -E '^ok ' "$log" | grep -iE ' # skip( |$)')
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -1)
	if [ -n "$plan" ] && [ $((p + f + s)) -lt "$plan" ]; then
		ring_fail $((plan - p - f - s)) \
			"the runner stopped after $((p + f + s)) of $plan tests: $((plan - p - f - s)) more failed"
	elif [ -z "$plan" ]; then
		ring_fail 1 "no TAP plan: the runner never started"
	fi
}

# Keeps a ring's "# kernel-paths" and "# kernel-note" lines (its probes
# test's: each family's path and what it adapted) in
# build/kernel-paths.txt, in place of that ring's older ones: README's
# table of kernels is made from them (scripts/kernel-table.sh).
keep_kernel_paths() {   # tap_log
	local f=build/kernel-paths.txt r
	r=$(sed -n 's/^# kernel-paths \([^ ]*\) .*/\1/p' "$1" | head -n 1)
	[ -n "$r" ] || return 0
	{
		grep -v "^# kernel-\(paths\|note\) $r " "$f" 2>/dev/null
		grep "^# kernel-\(paths\|note\) $r " "$1"
	} >"$f.new"
	mv "$f.new" "$f"
}

# README's rows of the kernels whose rings ran agree with what they saw:
# one test of a ring of its own.
check_kernel_table() {
	grep -q '^# kernel-paths [^h]' build/kernel-paths.txt 2>/dev/null || return 0
	ring_begin "README's kernels"
	echo "== README's table of kernels against the rings (scripts/kernel-table.sh --check)"
	if scripts/kernel-table.sh --check README.md; then
		r_pass=$((r_pass + 1))
	else
		ring_fail 1
	fi
	ring_end
}

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	echo "tests/run.sh: the $1 tests load eBPF programs: run as root (sudo make test)" >&2
	ring_fail 1
	return 1
}

run_unit() {
	local t out err
	ring_begin unit
	echo "== unit tests (cmocka)"
	err="$(mktemp)"
	for t in build/tests/unit/test_*; do
		[ -x "$t" ] || continue
		out="$("$t" 2>"$err")"
		{ echo "$out"; cat "$err"; } |
			grep -E '^\[ *(PASSED|FAILED|ERROR|LINE) *\]|^\[  SKIPPED \] [0-9]+ test|^\[==========\] [0-9]+ test' |
			sed "s|^|$(basename "$t"): |"
		count_cmocka "$(basename "$t")" "$out" "$(cat "$err")"
	done
	rm -f "$err"
	ring_end
}

run_bats() {
	ring_begin "host bats ($(uname -r))"
	if need_root "bats"; then
		echo "== integration tests (bats, host kernel $(uname -r))"
		local log
		log="$(mktemp)"
		# --timing: each test's time on its line (here and in the VM
		# rings), to see where the suite's minutes go
		# a test that hangs fails after 3 minutes (the longest takes
		# about one) instead of holding the suite until CI's limit
		BATS_TEST_TIMEOUT="${BATS_TEST_TIMEOUT:-180}" bats --tap --timing tests/bats | tee "$log"
		count_tap "$log"
		keep_kernel_paths "$log"
		rm -f "$log"
	fi
	ring_end
}

# In the VMs, what depends on the kernel. 6.1 (Debian 12's cloud
# kernel, fentry and kprobes allowed): the tests tagged `vm`, each
# family's attach path and its accuracy against the kernel's own counts.
# 5.10 (Debian 11), 6.12 and rt (Debian 12's PREEMPT_RT): those tagged
# `kernel`, each family's path, every path's acceptance by the verifier
# and one accuracy test per family; on 5.10 also those tagged `kernel510`
# (the time budget on its fallbacks, --btf); on rt those tagged `rt`,
# what softirqs in threads and sleeping locks change (softirq time and
# its charge to threads, run-queue time, the budget). Everything else runs the same user-space code on
# every kernel, and under TCG (~30x slower, ~45 s per test) the whole
# suite would not fit CI's time.
vm_tags() {   # kernel: its bats tag filters, OR'ed
	case "$1" in
	rt) echo kernel rt ;;
	5.10) echo kernel kernel510 ;;
	6.12) echo kernel ;;
	*) echo vm ;;
	esac
}

# A kernel's command line beyond vmtest.sh's. rt: tsc=reliable. Under TCG
# the guest finds its two vCPUs' TSCs unsynchronized at boot and falls
# back to per-CPU runqueue clocks and hpet, which no real PREEMPT_RT
# server has; dbtrace then times blocks by the monotonic clock (the 6.1
# and 5.10 rings test that), and the budget's run-queue and on-CPU
# totals, in those per-CPU clocks, left residuals of 4.2% (lockers) and
# 43% (recv) in two runs. With a stable TSC there the ring tests what
# PREEMPT_RT changes, its tests passing.
vm_append() {   # kernel
	case "$1" in
	rt) echo tsc=reliable ;;
	esac
}

# bats options selecting a kernel's tests
vm_filter() {   # kernel
	local t
	for t in $(vm_tags "$1"); do printf -- '--filter-tags %s ' "$t"; done
}

# Counts a VM ring that does not run as skipped: as many tests as it holds.
skip_vm_ring() {   # kernel reason
	local n what
	# shellcheck disable=SC2046 # one word per option
	n=$(bats --count $(vm_filter "$1") tests/bats 2>/dev/null)
	if [[ $n =~ ^[0-9]+$ ]]; then
		what="all $n tests tagged $(vm_tags "$1" | sed 's/ / or /g')"
	else
		n=1 what="the ring (bats cannot count its tests)"
	fi
	echo "== VM ring ($1 kernel) skipped: $2"
	r_skip=$((r_skip + n))
	skip_reason "$what" "$2"
}

# One VM ring's run, its output to stdout: scripts/vmtest.sh's exit code
# follows on the last line, "##rc N".
vm_ring_run() {   # kernel
	local rc
	# A suite takes 150-300 s; a guest that never reports (a 6.1
	# guest under TCG was seen once in a soft lockup with dbtrace in
	# the kernel) fails the ring: vmtest.sh prints its console's tail.
	# postgres.bats: the server's files (with their libraries) in the
	# guest, when the host has them (scripts/setup.sh --test)
	# shellcheck disable=SC2046 # one word per option
	VMTEST_APPEND="${VMTEST_APPEND-} $(vm_append "$1")" \
	VMTEST_PACKAGES="${VMTEST_PACKAGES-} $(dpkg-query -W -f='${Package} ' postgresql-15 libpq5 tzdata 2>/dev/null)" \
	scripts/vmtest.sh --kernel "$1" --timeout "${VM_TIMEOUT:-1200}" tests/bats -- $(vm_filter "$1") ${VM_BATS_OPTS-} 2>&1
	rc=$?
	echo "##rc $rc"
}

# Counts one ring from its finished log.
vm_ring_count() {   # kernel log
	local kernel="$1" log="$2" rc reason
	rc=$(sed -n 's/^##rc //p' "$log" | tail -1)
	case "$rc" in
	3)
		reason=$(sed -n 's/^vmtest: cannot run here: //p' "$log" | tail -1)
		skip_vm_ring "$kernel" "${reason:-scripts/vmtest.sh cannot run here}"
		;;
	*)
		count_tap "$log"
		if [ "$rc" = 2 ] || [ -z "$rc" ]; then
			# the tests it never ran count as failed (count_tap);
			# at least one failure either way
			echo "== vm $kernel: the guest never reported (hung, crashed or failed to boot): the ring fails;" \
				"console tail above, whole console in build/vm/console-$kernel.log"
			[ "$r_fail" -gt 0 ] || ring_fail 1
		elif [ "$rc" != 0 ] && [ "$r_fail" -eq 0 ]; then
			ring_fail 1 "scripts/vmtest.sh exited $rc with no failing test"
		fi
		;;
	esac
}

# The rings run one after the other, each log live. VM_PARALLEL=1 runs
# them side by side, each guest's qemu pinned to a CPU of its own (qemu
# runs a guest's vCPUs in one thread, thread=single in scripts/vmtest.sh),
# their logs in turn as each ends: on this 2-CPU VM that took 16 minutes
# instead of 26, but each guest ran about a fifth slower than alone, and
# in two of three such runs timing-bound accuracy tests missed their
# tolerance (4, and 2 before it was stopped; the run-queue percentiles
# against runqlat's buckets both times), which one after the other pass.
# Good for a quick look on a machine with CPUs to spare; CI runs them one
# after the other.
run_vm() {
	local kernel tag i
	local -a kernels pids=() logs=() cpus=()
	read -r -a kernels <<<"${VM_KERNELS:-6.1 rt 5.10 6.12}"
	# no ring to run: each says why (the reason given, or not root)
	if [ -n "${1:-}" ] || [ "$(id -u)" -ne 0 ]; then
		for kernel in "${kernels[@]}"; do
			ring_begin "vm $kernel"
			if [ -n "${1:-}" ]; then skip_vm_ring "$kernel" "$1"; else need_root "VM"; fi
			ring_end
		done
		return
	fi
	for kernel in "${kernels[@]}"; do
		logs+=("$(mktemp)")
	done
	if [ "${VM_PARALLEL:-0}" = 1 ] && [ "${#kernels[@]}" -gt 1 ] && [ "$(nproc)" -ge "${#kernels[@]}" ]; then
		echo "== integration tests in qemu VMs: the ${kernels[*]} rings side by side, a host CPU each" \
			"(VM_PARALLEL=1); each ring's log follows when it ends"
		read -r -a cpus <<<"$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')"
		for i in "${!kernels[@]}"; do
			VMTEST_HOST_CPUS="${VMTEST_HOST_CPUS:-${cpus[$i]}}" vm_ring_run "${kernels[$i]}" >"${logs[$i]}" &
			pids+=($!)
		done
	fi
	for i in "${!kernels[@]}"; do
		kernel="${kernels[$i]}"
		tag=$(vm_tags "$kernel" | sed 's/ / or /g')
		ring_begin "vm $kernel"
		echo "== integration tests (bats in a qemu VM, Debian's $kernel kernel, tests tagged $tag)"
		if [ "${#pids[@]}" -gt 0 ]; then
			wait "${pids[$i]}"
			cat "${logs[$i]}"
		else
			vm_ring_run "$kernel" | tee "${logs[$i]}"
		fi
		vm_ring_count "$kernel" "${logs[$i]}"
		keep_kernel_paths "${logs[$i]}"
		rm -f "${logs[$i]}"
		ring_end
	done
}

summary() {
	local r name p f s
	# a ring begun and never ended (the runner itself failed inside it)
	# fails, rather than vanishing from the totals
	if [ -n "$ring" ]; then
		ring_fail 1 "the runner stopped inside this ring: it fails"
		ring_end
	fi
	echo "== summary"
	for r in "${rings[@]}"; do
		IFS='|' read -r name p f s <<<"$r"
		printf '%-28s %s passed, %s failed, %s skipped\n' "$name:" "$p" "$f" "$s"
	done
	if [ ${#skips[@]} -gt 0 ]; then
		echo "skipped:"
		printf '  %s\n' "${skips[@]}"
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
}

# The VM rings, or why none runs.
run_vm_rings() {
	if [ "${SKIP_VM:-0}" = 1 ]; then
		run_vm "SKIP_VM=1 was set"
	elif [ ! -x scripts/vmtest.sh ]; then
		run_vm "scripts/vmtest.sh is missing"
	else
		run_vm
		check_kernel_table
	fi
}

case "$mode" in
unit) run_unit ;;
bats) run_bats ;;
vm) run_vm_rings ;;
all)
	run_unit
	run_bats
	run_vm_rings
	;;
*) echo "usage: tests/run.sh [unit|bats|vm|all]" >&2; exit 2 ;;
esac

summary
[ "$failed" -eq 0 ]
