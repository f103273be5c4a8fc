#!/usr/bin/env bats
# Faults around a running dbtrace: targets that vanish, a second instance,
# unreadable /proc files. The run degrades, it does not fail.

load helpers/common

setup() { make_scratch; }
teardown() {
	[ -n "${BG_PID:-}" ] && kill "$BG_PID" 2>/dev/null
	[ -n "${BG2:-}" ] && kill "$BG2" 2>/dev/null
	remove_scratch
}

@test "a target PID that exits mid-capture: the capture completes" {
	sleep 1.5 &
	local victim=$!
	run "$DBTRACE" capture -d 3 -p "$victim" -o "$SCRATCH/run.json"
	[ "$status" -eq 0 ]
	"$VALIDATE" "$SCRATCH/run.json"
	jq -e '(.intervals | length) == 3' "$SCRATCH/run.json"
}

@test "two dbtrace instances at once both work and leave nothing behind" {
	"$DBTRACE" capture -d 4 -o "$SCRATCH/a.json" 2>"$SCRATCH/a.err" &
	BG_PID=$!
	"$DBTRACE" capture -d 4 -o "$SCRATCH/b.json" 2>"$SCRATCH/b.err" &
	BG2=$!
	# the load inside both windows: each opens at its "capturing to",
	# after its first snapshot, up to half a second after start under load
	# (a load started at once put 11% of its packets in one capture only)
	wait_for_text "$SCRATCH/a.err" "capturing to" "${LIMIT:-10}"
	wait_for_text "$SCRATCH/b.err" "capturing to" "${LIMIT:-10}"
	"$TOOLS/tcp_rr" -d 2 -c "$LOAD_CPU" -S "$LOAD_CPU" >/dev/null
	wait "$BG_PID"; BG_PID=
	wait "$BG2"; BG2=
	"$VALIDATE" "$SCRATCH/a.json"
	"$VALIDATE" "$SCRATCH/b.json"
	# both saw the same loopback traffic on the load's CPU
	local a b
	a="$(jq --argjson c "$LOAD_CPU" '.cpus[] | select(.cpu == $c) | .softirq_entries.net_rx' "$SCRATCH/a.json")"
	b="$(jq --argjson c "$LOAD_CPU" '.cpus[] | select(.cpu == $c) | .softirq_entries.net_rx' "$SCRATCH/b.json")"
	echo "NET_RX entries on CPU $LOAD_CPU: $a and $b"
	[ "$a" -gt 1000 ] && within_pct "$a" "$b" 10
	[ "$(loaded_dbtrace_progs)" -eq 0 ]
}

@test "an unreadable /proc/stat costs the usr/sys columns, not the run" {
	command -v unshare >/dev/null || skip "unshare missing"
	: >"$SCRATCH/empty"
	# a private mount namespace: only this dbtrace sees the empty file
	run unshare -m --propagation private sh -c \
		"mount --bind '$SCRATCH/empty' /proc/stat && '$DBTRACE' capture -d 2 -o '$SCRATCH/run.json'"
	[ "$status" -eq 0 ]
	"$VALIDATE" "$SCRATCH/run.json"
	jq -e '.cpus | length > 0' "$SCRATCH/run.json"
	jq -e '[.cpus[].usr_pct] | all(. == null)' "$SCRATCH/run.json"
	jq -e '[.cpus[].softirq_pct.total] | all(. != null)' "$SCRATCH/run.json"
	run unshare -m --propagation private sh -c \
		"mount --bind '$SCRATCH/empty' /proc/stat && '$DBTRACE' top --batch -d 1"
	[ "$status" -eq 0 ]
	[[ "$output" == *"CPU "* ]]
}

@test "a missing clocksource file leaves the field empty, not the run" {
	local cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
	[ -e "$cs" ] || skip "no clocksource file"
	: >"$SCRATCH/empty"
	run unshare -m --propagation private sh -c \
		"mount --bind '$SCRATCH/empty' '$cs' && '$DBTRACE' capture -d 1 -o '$SCRATCH/run.json'"
	[ "$status" -eq 0 ]
	jq -e '.host.clocksource == ""' "$SCRATCH/run.json"
}
