#!/usr/bin/env bats
# The command line: help, version, and one clear line plus the right exit
# code for every kind of bad input.

load helpers/common

setup() { make_scratch; }
teardown() { remove_scratch; }

# Asserts the run printed exactly one line on stderr (bats merges it into
# $output) and exited with $1.
one_line_exit() {
	[ "$status" -eq "$1" ] || { echo "status $status, output: $output"; return 1; }
	[ "${#lines[@]}" -eq 1 ] || { echo "expected one line, got: $output"; return 1; }
	[[ "$output" == dbtrace:* ]]
}

@test "--help prints usage with every subcommand and exits 0" {
	run "$DBTRACE" --help
	[ "$status" -eq 0 ]
	for word in top capture probes version --interval --duration --pid --output --verbose; do
		[[ "$output" == *"$word"* ]]
	done
}

@test "version names dbtrace and libbpf" {
	run "$DBTRACE" version
	[ "$status" -eq 0 ]
	[[ "$output" == "dbtrace "*"libbpf v"* ]]
}

@test "unknown option and unknown command exit 2 with one line" {
	run "$DBTRACE" top --no-such-option
	one_line_exit 2
	[[ "$output" == *"--no-such-option"* ]]
	run "$DBTRACE" fly
	one_line_exit 2
	run "$DBTRACE"
	one_line_exit 2
}

@test "bad durations exit 2 with one line: 0, negative, abc" {
	for d in 0 -5 abc 1x; do
		run "$DBTRACE" capture -d "$d" -o "$SCRATCH/x.json"
		one_line_exit 2
		[[ "$output" == *"bad duration '$d'"* ]]
	done
	[ ! -e "$SCRATCH/x.json" ]
}

@test "a PID that does not exist exits 2 with one line" {
	# find a free PID: above every live one, below pid_max
	local pid=$(( $(cat /proc/sys/kernel/pid_max) - 7 ))
	while [ -e "/proc/$pid" ]; do pid=$((pid - 1)); done
	run "$DBTRACE" capture -d 1 -p "$pid" -o "$SCRATCH/x.json"
	one_line_exit 2
	[[ "$output" == *"no process with PID $pid"* ]]
	run "$DBTRACE" top --batch -d 1 -p notapid
	one_line_exit 2
}

@test "an unwritable output path exits 2 with one line and writes nothing" {
	run "$DBTRACE" capture -d 1 -o /nonexistent-dir/run.json
	one_line_exit 2
	[[ "$output" == *"cannot write /nonexistent-dir/run.json"* ]]
	run "$DBTRACE" capture -d 1 -o "$SCRATCH"
	one_line_exit 2
	mkdir "$SCRATCH/ro" && chmod 0555 "$SCRATCH/ro"
	# root ignores directory modes: use a read-only bind mount instead
	mount --bind -o ro "$SCRATCH/ro" "$SCRATCH/ro" 2>/dev/null &&
		mount -o remount,bind,ro "$SCRATCH/ro" 2>/dev/null || skip "cannot make a read-only mount here"
	run "$DBTRACE" capture -d 1 -o "$SCRATCH/ro/run.json"
	umount "$SCRATCH/ro"
	one_line_exit 2
	[ -z "$(ls -A "$SCRATCH/ro")" ]
}

@test "without root it says so in one line and exits 1" {
	command -v setpriv >/dev/null || skip "setpriv missing"
	for cmd in probes "top --batch -d 1" "capture -d 1 -o /tmp/dbtrace-nonroot-$$.json"; do
		run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$DBTRACE" $cmd
		one_line_exit 1
		[[ "$output" == *"needs root (or CAP_BPF and CAP_PERFMON)"* ]]
	done
	[ ! -e "/tmp/dbtrace-nonroot-$$.json" ]
}

@test "top without a terminal asks for --batch" {
	run "$DBTRACE" top -d 1 </dev/null
	one_line_exit 2
	[[ "$output" == *"--batch"* ]]
}
