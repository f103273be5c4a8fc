#!/usr/bin/env bats
# `dbtrace check`: the static audit. On fixture trees it prints exactly the
# expected findings; on this machine it runs in under a second, loads no
# eBPF, and its exit status follows the worst severity.

load helpers/common
bats_require_minimum_version 1.5.0

FIX="$REPO/tests/fixtures"

setup() { make_scratch; }
teardown() { remove_scratch; }

@test "clean tree: no findings, exit 0" {
	run --separate-stderr "$DBTRACE" check --root "$FIX/clean" -p 4242 --json
	echo "$output"
	[ "$status" -eq 0 ]
	jq -e '.schema == "dbtrace.check/1" and (.findings | length) == 0 and .summary.worst == null' <<<"$output"
	jq -e '.host.processes == [{"pid": 4242, "comm": "observer", "cpus": "0-3", "threads": 3,
	       "threads_bound_differently": 0}]' <<<"$output"
	jq -e '.host.network[0].qdisc == "pfifo_fast" and .host.network[0].speed_mbit == 10000' <<<"$output"
	run --separate-stderr "$DBTRACE" check --root "$FIX/clean"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nno findings\n'* ]]
}

@test "hpet + skew_tick + netem + IRQs on the process's CPUs: exactly those four warnings, exit 1" {
	run --separate-stderr "$DBTRACE" check --root "$FIX/hpet-skewtick-netem" -p 4242 --json
	echo "$output"
	[ "$status" -eq 1 ]
	jq -e '[.findings[].id] | sort == ["clocksource_no_vdso", "irq_affinity_overlap", "qdisc_netem", "skew_tick"]' <<<"$output"
	jq -e '[.findings[].severity] | unique == ["warning"]' <<<"$output"
	jq -e '.findings[] | select(.id == "clocksource_no_vdso") | .evidence.clocksource == "hpet"' <<<"$output"
	jq -e '.findings[] | select(.id == "skew_tick") | .evidence.skew_tick == 1 and .evidence.tuned_profile == "network-latency"' <<<"$output"
	jq -e '.findings[] | select(.id == "qdisc_netem") | .evidence.device == "eth0" and .evidence.delay_ms == 1' <<<"$output"
	jq -e '.findings[] | select(.id == "irq_affinity_overlap") |
	       .pid == 4242 and .evidence.process_cpus == "0-1" and .evidence.n_irqs == 5 and
	       .evidence.irqbalance == "running (pid 1187)" and (.hint | contains("smp_affinity_list")) and
	       .first_interval == -1 and .last_interval == -1' <<<"$output"
	jq -e '.summary.warning == 4 and .summary.worst == "warning"' <<<"$output"
}

@test "text output: facts, the findings with evidence and hint, a verdict" {
	run --separate-stderr "$DBTRACE" check --root "$FIX/hpet-skewtick-netem"
	echo "$output"
	[ "$status" -eq 1 ]
	# without -p the busiest process of the tree is the target
	[[ "$output" == *"process        observer (pid 4242) may run on CPUs 0-1 (3 threads, 1 bound differently from the main one)"* ]]
	[[ "$output" == *"eth0           10000 Mbit/s, qdisc netem delay 1ms"* ]]
	[ "$(grep -c '^WARNING ' <<<"$output")" -eq 4 ]
	grep -q '^WARNING  qdisc_netem: eth0 has a netem root qdisc: netem delay 1ms$' <<<"$output"
	grep -q '^         hint: ' <<<"$output"
	[[ "$output" == *"4 findings, worst: warning"* ]]
}

@test "on this machine: under a second, valid JSON, no eBPF, exit 0 or 1" {
	local t0 t1 ms
	t0=$(date +%s%N)
	run --separate-stderr "$DBTRACE" check --json
	t1=$(date +%s%N)
	ms=$(( (t1 - t0) / 1000000 ))
	echo "$output"
	echo "check took $ms ms"
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	[ "$ms" -lt 1000 ]
	jq -e '.schema == "dbtrace.check/1" and (.host.network | length) >= 1' <<<"$output"
	# exit status follows the worst severity
	if jq -e '.summary.worst == "warning" or .summary.worst == "critical"' <<<"$output" >/dev/null; then
		[ "$status" -eq 1 ]
	else
		[ "$status" -eq 0 ]
	fi
	# a static audit: not one bpf(2) call
	run strace -f -qq -e trace=bpf -o "$SCRATCH/strace" "$DBTRACE" check
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	refute grep -q 'bpf(' "$SCRATCH/strace"
}

@test "bad input: one line on stderr, exit 2" {
	run --separate-stderr "$DBTRACE" check --root "$SCRATCH/nowhere"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbtrace: --root $SCRATCH/nowhere: not a directory" ]
	run --separate-stderr "$DBTRACE" check --root=
	[ "$status" -eq 2 ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	# PID 1 is not in the copied tree
	run --separate-stderr "$DBTRACE" check --root "$FIX/clean" -p 1
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbtrace: no process with PID 1" ]
	run --separate-stderr "$DBTRACE" top --json
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbtrace: --json is an option of check"* ]]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	run --separate-stderr "$DBTRACE" check --frobnicate
	[ "$status" -eq 2 ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
}

@test "hostile tree: FIFOs do not hang check, links out of the tree are not followed, oversized files are cut with a note" {
	local tree="$SCRATCH/tree"
	cp -a "$FIX/clean" "$tree"
	# FIFOs where check reads: opened the old way, each blocks forever
	rm "$tree/proc/cmdline" "$tree/proc/interrupts"
	mkfifo "$tree/proc/cmdline" "$tree/proc/interrupts"
	# a link out of the tree: its target must not show up anywhere
	echo "SECRET-PROFILE" >"$SCRATCH/secret"
	rm "$tree/etc/tuned/active_profile"
	ln -s "$SCRATCH/secret" "$tree/etc/tuned/active_profile"
	ln -s ../../../secret "$tree/dmesg"
	# past the 4 KiB dbtrace reads of a THP setting
	mkdir -p "$tree/sys/kernel/mm/transparent_hugepage"
	{ printf 'always [madvise] never'; head -c 8192 /dev/zero | tr '\0' ' '; echo; } \
		>"$tree/sys/kernel/mm/transparent_hugepage/enabled"
	run --separate-stderr timeout 10 "$DBTRACE" check --root "$tree" -p 4242
	echo "status $status"
	echo "$output"
	echo "$stderr"
	[ "$status" -ne 124 ]
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	[[ "$output" == *"no findings"* || "$output" == *"worst:"* ]]
	grep -qx "dbtrace: note: $tree/proc/cmdline is a FIFO, not a regular file: not read" <<<"$stderr"
	grep -qx "dbtrace: note: $tree/proc/interrupts is a FIFO, not a regular file: not read" <<<"$stderr"
	grep -qx "dbtrace: note: $tree/etc/tuned/active_profile leads out of the tree (a symbolic link or \"..\"): not followed" <<<"$stderr"
	grep -qx "dbtrace: note: $tree/dmesg leads out of the tree (a symbolic link or \"..\"): not followed" <<<"$stderr"
	grep -qx "dbtrace: note: $tree/sys/kernel/mm/transparent_hugepage/enabled is larger than 4096 bytes: only its first 4096 bytes were read" <<<"$stderr"
	refute grep -q SECRET <<<"$output$stderr"
	# the head that was read still counts
	[[ "$output" == *"THP            enabled=madvise"* ]]
	run --separate-stderr timeout 10 "$DBTRACE" check --root "$tree" -p 4242 --json
	jq -e '.host' <<<"$output" >/dev/null
	refute grep -q SECRET <<<"$output"
}
