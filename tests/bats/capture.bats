#!/usr/bin/env bats
# `dbtrace capture`: a schema-valid document whose numbers agree with what
# the kernel itself counts, and no partial file on any failure.

load helpers/common
bats_require_minimum_version 1.5.0

setup() { make_scratch; }
teardown() { teardown_scratch; }

# In the VM rings accuracy_softirq.bats checks the same counts harder.
@test "capture under loopback traffic: valid JSON, NET_RX share > 0, entries match /proc/softirqs within 5%" {
	local out="$SCRATCH/run.json" before after
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 6 -i 1 -o "$out"
	wait_for_text "$SCRATCH/err" "capturing to"
	before="$(proc_net_rx)"
	# pinned: the NET_RX softirqs of loopback run on the sender's CPU
	"$TOOLS/tcp_rr" -d 3 -c "$LOAD_CPU" -S "$LOAD_CPU" >"$SCRATCH/load"
	after="$(proc_net_rx)"
	wait "$BG_PID"
	BG_PID=

	run "$VALIDATE" "$out"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	jq -e '.schema == "dbtrace.capture/2" and (.intervals | length) == 6' "$out"
	jq -e '[.cpus[].softirq_pct.net_rx] | max > 0' "$out"
	jq -e --arg p "$(expected_path softirq)" '.probes.softirq.attach == $p' "$out"

	# on LOAD_CPU, where the load is pinned: dbtrace's NET_RX entries against
	# the kernel's own count over a window inside dbtrace's (so dbtrace may
	# only see a little more). Other CPUs carry whatever else the host does
	# in the part of dbtrace's window outside the load's.
	local cpu want got
	while read -r cpu want; do
		got="$(jq ".cpus[] | select(.cpu == $cpu) | .softirq_entries.net_rx" "$out")"
		echo "cpu $cpu: /proc/softirqs $want, dbtrace $got"
	done < <(join <(echo "$before") <(echo "$after") | awk '{ print $1, $3 - $2 }')
	want="$(join <(echo "$before") <(echo "$after") | awk -v c="$LOAD_CPU" '$1 == c { print $3 - $2 }')"
	got="$(jq --argjson c "$LOAD_CPU" '.cpus[] | select(.cpu == $c) | .softirq_entries.net_rx' "$out")"
	[ "$want" -ge 1000 ]
	within_pct "$got" "$want" 5
}

@test "capture -o - writes the document to stdout" {
	run --separate-stderr "$DBTRACE" capture -d 1 -o -
	[ "$status" -eq 0 ]
	echo "$output" >"$SCRATCH/stdout.json"
	"$VALIDATE" "$SCRATCH/stdout.json"
}

@test "intervals tile the capture and the summary equals their sum" {
	local out="$SCRATCH/run.json"
	"$TOOLS/tcp_rr" -d 4 -c "$OTHER_CPU" -S "$OTHER_CPU" >/dev/null &
	local load=$!
	"$DBTRACE" capture -d 3 -i 0.5 -o "$out" 2>/dev/null
	wait "$load"
	jq -e '(.intervals | length) == 6' "$out"
	jq -e '(.duration_s - 3 | fabs) < 0.1' "$out"
	# per CPU, NET_RX entries of the summary = the sum over intervals
	# (the capture is read once: as an argument it can outgrow ARG_MAX)
	jq -e '. as $root | [.cpus[] | .cpu as $c | .softirq_entries.net_rx ==
	        ([$root.intervals[].cpus[] | select(.cpu == $c) | .softirq_entries.net_rx] | add)] | all' "$out"
	# runs the kernel skipped (another BPF program on the CPU): none on
	# this load but a stray few, never a share of its ~10^5 events
	jq -e '.overhead.max_rss_kb > 0 and .overhead.max_rss_kb < 65536
	       and .overhead.lost_events < 1000' "$out"
}

# SIGTERM, SIGINT or SIGHUP at a random moment: a complete file or none, and the
# probes are gone, at once. (SIGINT given back to the background command:
# a script's background commands ignore it, and one that came before
# dbtrace took it over was lost and the capture ran its 30 s.)
@test "a signal in the middle of a capture leaves a complete file or none" {
	local i sig out t0 sigs=(TERM INT HUP)
	for i in 1 2 3 4 5 6; do
		out="$SCRATCH/sig$i.json"
		sig="${sigs[$((i % 3))]}"
		env --default-signal=INT "$DBTRACE" capture -d 30 -o "$out" 2>/dev/null &
		BG_PID=$!
		sleep "0.$((RANDOM % 9 + 1))$i"
		t0=$SECONDS
		kill -s "$sig" "$BG_PID"
		wait "$BG_PID" || true
		BG_PID=
		echo "SIG$sig: stopped in $((SECONDS - t0)) s"
		[ $((SECONDS - t0)) -lt 10 ]
		if [ -e "$out" ]; then
			"$VALIDATE" "$out"
		fi
		# no temporary file beside it either
		[ "$(ls -A "$SCRATCH" | grep -vc '^sig[0-9]\.json$')" -eq 0 ]
	done
	[ "$(loaded_dbtrace_progs)" -eq 0 ]
}

@test "a capture that runs out of space fails clearly and leaves no file" {
	mkdir "$SCRATCH/small"
	mount -t tmpfs -o size=8k tmpfs "$SCRATCH/small" || skip "cannot mount tmpfs"
	dd if=/dev/zero of="$SCRATCH/small/filler" bs=1k count=6 2>/dev/null
	run "$DBTRACE" capture -d 2 -o "$SCRATCH/small/run.json"
	local listing
	listing="$(ls -A "$SCRATCH/small")"
	umount "$SCRATCH/small"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"No space left on device"*"no file written"* ]]
	[ "$listing" = filler ]
}

# bats test_tags=vm,rt
@test "softirq time is charged to the thread it interrupted, and adds up" {
	local out="$SCRATCH/run.json"
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 3 -o "$out"
	wait_for_text "$SCRATCH/err" "capturing to"
	"$TOOLS/tcp_rr" -d 4 -c "$LOAD_CPU" -S "$LOAD_CPU" >/dev/null
	wait "$BG_PID"; BG_PID=
	"$VALIDATE" "$out"
	# loopback NET_RX runs on LOAD_CPU inside tcp_rr's own syscalls: nearly
	# all of it must be charged to tcp_rr's threads
	local charged net
	charged="$(jq '[.processes[] | select(.comm == "tcp_rr") | .oncpu_pct * .net_softirq_lost_pct / 100] | add' "$out")"
	net="$(jq --argjson c "$LOAD_CPU" '.cpus[] | select(.cpu == $c) | .softirq_pct.net_rx + .softirq_pct.net_tx' "$out")"
	echo "tcp_rr charged NET softirq: $charged % of a core; CPU $LOAD_CPU NET_RX+NET_TX: $net %"
	awk -v c="$charged" -v n="$net" 'BEGIN { exit !(n > 1 && c >= 0.8 * n && c <= 1.05 * n) }'
	jq -e '.processes[] | select(.comm == "tcp_rr") | .classes[0].softirq_lost_pct >= .classes[0].net_softirq_lost_pct' "$out"
}

# A shell without job control starts background commands with SIGINT
# ignored (POSIX); env --default-signal gives capture the disposition it
# has when started from a terminal, where Ctrl-C sends SIGINT.
@test "a capture cut short by SIGINT says so; one that ran its duration, or that Ctrl-C ended without -d, is complete" {
	local cut="$SCRATCH/cut.json" full="$SCRATCH/full.json" open="$SCRATCH/open.json" t_int
	env --default-signal=INT "$DBTRACE" capture -d 30 -i 0.5 -o "$cut" 2>"$SCRATCH/err" &
	BG_PID=$!
	wait_for_text "$SCRATCH/err" "capturing to"
	sleep 1.6
	kill -s INT "$BG_PID"
	wait "$BG_PID"
	BG_PID=
	cat "$SCRATCH/err"
	"$VALIDATE" "$cut"
	jq -e '.complete == false and .stop_reason == "SIGINT"' "$cut"
	jq -e '.duration_s < 5 and (.intervals | length) >= 2' "$cut"
	grep -q "cut short by SIGINT" "$SCRATCH/err"

	"$DBTRACE" capture -d 1 -i 0.5 -o "$full" 2>/dev/null
	"$VALIDATE" "$full"
	jq -e '.complete == true and .stop_reason == "duration"' "$full"

	# the window closes at Ctrl-C, not at the last tick: with -i 2 and
	# the signal 1.2 s in, one interval ending at the signal (at the
	# tick, the capture held none)
	env --default-signal=INT "$DBTRACE" capture -i 2 -o "$open" 2>"$SCRATCH/err" &
	BG_PID=$!
	wait_for_text "$SCRATCH/err" "capturing to"
	sleep 1.2
	read -r t_int < <(python3 -c 'import time; print(time.monotonic())')
	kill -s INT "$BG_PID"
	wait "$BG_PID"
	BG_PID=
	"$VALIDATE" "$open"
	jq -e '.complete == true and .stop_reason == "user"' "$open"
	jq -c '{duration_s, started_at_monotonic_s, t: [.intervals[].t]}' "$open"
	echo "SIGINT at $t_int (monotonic)"
	jq -e --argjson s "$t_int" '(.intervals | length) == 1 and (.intervals[0].t == .duration_s)
		and (.started_at_monotonic_s + .duration_s - $s | fabs) < 0.25' "$open"
}

@test "started_at has milliseconds and started_at_monotonic_s is the same instant on CLOCK_MONOTONIC" {
	local out="$SCRATCH/run.json" t0 t1
	read -r t0 < <(python3 -c 'import time; print(time.monotonic())')
	"$DBTRACE" capture -d 1 -i 0.5 -o "$out" 2>/dev/null
	read -r t1 < <(python3 -c 'import time; print(time.monotonic())')
	"$VALIDATE" "$out"
	jq -e '.started_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$")' "$out"
	# taken during the run, on this host's monotonic clock
	jq -e --argjson a "$t0" --argjson b "$t1" '.started_at_monotonic_s > $a and .started_at_monotonic_s < $b' "$out"
	# the two clocks name one instant: wall - monotonic is now what it was then
	python3 - "$out" <<'PY'
import datetime, json, sys, time
c = json.load(open(sys.argv[1]))
wall = datetime.datetime.strptime(c["started_at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
    tzinfo=datetime.timezone.utc).timestamp()
then = wall - c["started_at_monotonic_s"]
now = time.time() - time.monotonic()
print("wall - monotonic: capture %.3f, now %.3f" % (then, now))
# started_at carries whole milliseconds: at most 1 ms below, plus slack
assert abs(then - now) < 0.02, abs(then - now)
PY
}
