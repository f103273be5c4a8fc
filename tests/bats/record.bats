#!/usr/bin/env bats
# `dbtrace record -- COMMAND`: the window is the command's lifetime, held
# to the command's own clock (tests/tools/timed_run prints CLOCK_MONOTONIC
# as its main() begins and just before it exits, the clock of the
# capture's started_at_monotonic_s); its exit status is dbtrace's; its
# processes are the load, which the findings do not judge; a stop signal
# goes to it and leaves a complete capture marked as cut short.

load helpers/common
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	cd "$SCRATCH"
}
teardown() { teardown_scratch; }

# field NAME FILE: the value of NAME=... in a timed_run output
field() { sed -n "s/.*\\b$1=\\([0-9.]*\\).*/\\1/p" "$2" | head -1; }

# window_matches CAPTURE RUN_OUTPUT: the capture's window holds the
# command's run, and is longer by at most 50 ms: exec and dynamic loading
# before its main(), its exit after, the first snapshot's tail before it.
window_matches() {
	local t0 dur start end
	t0="$(jq -r .started_at_monotonic_s "$1")"
	dur="$(jq -r .duration_s "$1")"
	start="$(field start "$2")"
	end="$(field end "$2")"
	awk -v t0="$t0" -v d="$dur" -v s="$start" -v e="$end" 'BEGIN {
		printf "window %.4f s from %.6f; the command ran %.4f s from %.6f: it began %.1f ms after the window opened, ended %.1f ms before it closed, the window %.1f ms longer\n",
			d, t0, e - s, s, (s - t0) * 1000, (t0 + d - e) * 1000, (d - (e - s)) * 1000
		exit !(s >= t0 && e <= t0 + d && d - (e - s) <= 0.050)
	}'
}

# 2.4 s: its exit falls between two ticks. One that falls while dbtrace
# works through a tick (15-30 ms here, from its snapshot to its sink) is
# seen once that tick is done: the window is then longer by that much.
@test "the window is the command's run within 50 ms, busy or asleep; exit 0; its processes are the load" {
	local mode pid
	for mode in -b ""; do
		run "$DBTRACE" record -o "$SCRATCH/r.json" -- "$TOOLS/timed_run" -d 2.4 $mode
		echo "$output"
		[ "$status" -eq 0 ]
		printf '%s\n' "${lines[@]}" | grep -E '^(start|end)=' >"$SCRATCH/run"
		window_matches "$SCRATCH/r.json" "$SCRATCH/run"
		"$VALIDATE" "$SCRATCH/r.json"
		jq -e '.complete == true and .stop_reason == "command"' "$SCRATCH/r.json"
		# one interval per second, then the last one, cut at the exit
		jq -e '(.intervals | length) == 3 and (.intervals[-1].dt - 0.4 | fabs) < 0.05' "$SCRATCH/r.json"
		pid="$(field pid "$SCRATCH/run")"
		jq -e --argjson p "$pid" '[.groups[] | select(.load)] == [.groups[] | select(.pid == $p)]
			and ([.groups[] | select(.load)] | length) == 1
			and (.groups[] | select(.pid == $p) | .formed_by == "command")
			and ([.processes[] | select(.load) | .pid] == [$p])' "$SCRATCH/r.json"
		[[ "$output" == *"timed_run ran 2.4"*" s (exit 0)"* ]]
	done
	# busy, the load was the busiest class, marked as such
	jq -e --argjson p "$pid" '.processes[] | select(.pid == $p) | .comm == "timed_run"' "$SCRATCH/r.json"
}

@test "exit codes pass through: 3, killed by SIGKILL 137, by SIGTERM 143; each run a complete capture" {
	run -3 "$DBTRACE" record -o "$SCRATCH/x.json" -- "$TOOLS/timed_run" -d 0.3 -x 3
	[[ "$output" == *"(exit 3)"* ]]
	jq -e '.complete and .stop_reason == "command"' "$SCRATCH/x.json"
	run -137 "$DBTRACE" record -o "$SCRATCH/k.json" -- "$TOOLS/timed_run" -d 0.3 -k 9
	[[ "$output" == *"(killed by SIGKILL)"* ]]
	jq -e '.complete and .stop_reason == "command"' "$SCRATCH/k.json"
	run -143 "$DBTRACE" record -o "$SCRATCH/t.json" -- sh -c 'kill -TERM $$'
	[[ "$output" == *"(killed by SIGTERM)"* ]]
	"$VALIDATE" "$SCRATCH/t.json"
	# arguments reach the command as given, spaces and dashes included
	run -0 "$DBTRACE" record -o "$SCRATCH/a.json" -- sh -c 'test "$1" = "a b" && test "$2" = -d' sh "a b" -d
}

@test "a command not found: one line, exit 127, no capture file; not executable: 126" {
	run -127 "$DBTRACE" record -- no-such-program-dbtrace --x
	echo "$output"
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "dbtrace: no-such-program-dbtrace: command not found" ]
	run -127 "$DBTRACE" record -o "$SCRATCH/n.json" -- ./missing
	[ "$output" = "dbtrace: ./missing: No such file or directory" ]
	touch "$SCRATCH/plain"
	run -126 "$DBTRACE" record -o "$SCRATCH/n.json" -- "$SCRATCH/plain"
	[ "$output" = "dbtrace: $SCRATCH/plain: Permission denied" ]
	# nothing written, not even under the default name
	[ -z "$(ls -A "$SCRATCH" | grep -v '^plain$')" ]
	# and without "--" it says how
	run -2 "$DBTRACE" record sleep 1
	[ "$output" = "dbtrace: record runs the program given after --: dbtrace record [OPTIONS] -- PROGRAM [ARGS...] (not 'sleep')" ]
}

@test "SIGINT to dbtrace stops the command, and leaves a complete capture marked as cut short" {
	local pid st=0
	start_bg "$SCRATCH/err" "$DBTRACE" record -o "$SCRATCH/c.json" -- "$TOOLS/timed_run" -d 60
	wait_for_text "$SCRATCH/err" "recording"
	pid="$(sed -n 's/.*(pid \([0-9]*\)).*/\1/p' "$SCRATCH/err")"
	sleep 1.5
	kill -INT "$BG_PID"
	wait "$BG_PID" || st=$?
	BG_PID=
	cat "$SCRATCH/err"
	echo "dbtrace exit $st"
	[ "$st" -eq 130 ]   # the command died of the SIGINT handed to it
	! kill -0 "$pid" 2>/dev/null
	grep -q "(killed by SIGINT)" "$SCRATCH/err"
	"$VALIDATE" "$SCRATCH/c.json"
	jq -e '.complete == false and .stop_reason == "SIGINT" and .duration_s > 1.3 and .duration_s < 3' "$SCRATCH/c.json"
}

@test "-d at most: the window ends at -d and the command's whole process group is stopped" {
	local sleeper
	# the command starts a background sleeper of its own: the group goes
	run -143 "$DBTRACE" record -d 1.5 -i 1 -o "$SCRATCH/d.json" -- sh -c 'sleep 60 & echo "sleeper=$!"; exec "$0" -d 60' "$TOOLS/timed_run"
	echo "$output"
	sleeper="$(printf '%s\n' "${lines[@]}" | sed -n 's/^sleeper=//p')"
	[ -n "$sleeper" ]
	! kill -0 "$sleeper" 2>/dev/null
	[[ "$output" == *"(stopped at -d: killed by SIGTERM)"* ]]
	jq -e '.complete and .stop_reason == "duration"' "$SCRATCH/d.json"
	jq -e '(.duration_s - 1.5 | fabs) < 0.05 and (.intervals | map(.t)) as $t | ($t | length) == 2 and ($t[-1] - 1.5 | fabs) < 0.05' "$SCRATCH/d.json"
}

@test "findings never name the load: an oversubscribed benchmark under capture is named, under record it is not" {
	# six busy workers bound to one CPU: 5 runnable threads waiting,
	# run-queue p99 far above 1 ms
	CAPTURE_OPTS=()
	capture_around "$SCRATCH/cap.json" 4 "$TOOLS/thread_pool" -n 6 -c "$LOAD_CPU" -d 2.5
	jq -c '[.findings[] | {id, pid, class}]' "$SCRATCH/cap.json"
	local cpid
	cpid="$(cat "$SCRATCH/cap.json.pid")"
	# the same load named in a plain capture (the test can fail)
	jq -e --argjson p "$cpid" '[.findings[] | select(.id == "oversubscription" and .pid == $p)] | length == 1' "$SCRATCH/cap.json"

	run -0 "$DBTRACE" record -o "$SCRATCH/rec.json" -- "$TOOLS/thread_pool" -n 6 -c "$LOAD_CPU" -d 2.5
	echo "$output"
	local rpid
	rpid="$(jq '.processes[] | select(.load) | .pid' "$SCRATCH/rec.json")"
	jq -c '[.findings[] | {id, pid, class}]' "$SCRATCH/rec.json"
	# it ran busy and waited (so a rule could have fired), and none names it
	jq -e --argjson p "$rpid" '.processes[] | select(.pid == $p) | .classes[] | select(.name == "TNT_L0_1002") | .runq_p99_us > 1000' "$SCRATCH/rec.json"
	jq -e --argjson p "$rpid" '[.findings[] | select(.pid == $p)] | length == 0' "$SCRATCH/rec.json"
	[[ "$output" == *"TNT_L0_1002"*"(load)"* ]]
}

@test "the summary on stderr, the default file name and --report" {
	run -0 "$DBTRACE" record --report "$SCRATCH/r.html" -- "$TOOLS/tcp_rr" -d 1 -c "$LOAD_CPU" -S "$LOAD_CPU"
	echo "$output"
	local f
	f="$(ls "$SCRATCH" | grep -E '^dbtrace-[0-9]{8}-[0-9]{6}\.json$')"
	[ -n "$f" ]
	"$VALIDATE" "$SCRATCH/$f"
	[[ "$output" == *"dbtrace: wrote $f: "* ]]
	[[ "$output" == *"dbtrace: wrote $SCRATCH/r.html"* ]]
	grep -q '<html' "$SCRATCH/r.html"
	# the lines a person reads: how long and how it ended, findings, the
	# busiest classes, the load's port with its request rate and p50/p99
	[[ "$output" == *"tcp_rr ran 1.0"*" s (exit 0)"* ]]
	[[ "$output" == *"findings"* ]]
	[[ "$output" == *"busiest classes:"* ]]
	local port
	port="$(printf '%s\n' "${lines[@]}" | sed -n 's/.* port=\([0-9]*\).*/\1/p' | head -1)"
	[ -n "$port" ]
	printf '%s\n' "${lines[@]}" | grep -E "^ +$port server +[0-9]+ +[0-9]+ +[0-9]+$"
}
