#!/usr/bin/env bats
# clock family: vDSO share per process against a program that measures
# its own, real clock syscalls against a program that counts its own, and
# the gettimeofday_hotspot finding. Every load is pinned to CPU 1.

load helpers/common
bats_require_minimum_version 1.5.0

setup() { make_scratch; }
teardown() {
	[ -n "${BG_PID:-}" ] && kill "$BG_PID" 2>/dev/null
	[ -n "${LOAD_PID:-}" ] && kill "$LOAD_PID" 2>/dev/null
	remove_scratch
}

# capture_around SECONDS CMD...: a capture of SECONDS with CMD started
# inside it (after the first snapshot); CMD's stdout in $SCRATCH/load and
# its pid in $SCRATCH/load.pid. The capture is $SCRATCH/run.json, made
# with the extra options in CAPTURE_OPTS.
CAPTURE_OPTS=()
capture_around() {
	local secs="$1"
	shift
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d "$secs" -i 1 "${CAPTURE_OPTS[@]}" -o "$SCRATCH/run.json"
	wait_for_text "$SCRATCH/err" "capturing to"
	sleep 0.3   # the first snapshot follows the message
	"$@" >"$SCRATCH/load" &
	echo $! >"$SCRATCH/load.pid"
	wait $!
	wait "$BG_PID"
	BG_PID=
	cat "$SCRATCH/load"
}

# field NAME: NAME=value from the load's output line
field() { sed -n "s/.*\b$1=\([0-9.]*\).*/\1/p" "$SCRATCH/load"; }

clock_proc() {
	jq -c --argjson p "$(cat "$SCRATCH/load.pid")" '.clock.processes[] | select(.pid == $p)' \
		"$SCRATCH/run.json"
}

@test "probes lists the clock family with its attach path" {
	run "$DBTRACE" probes
	[ "$status" -eq 0 ]
	# perf_event sampling plus typed raw_syscalls:sys_enter on both kernels
	[[ "$output" =~ clock\ +perf_event\+tp_btf ]]
	run "$DBTRACE" probes -v
	[[ "$output" == *"clock: attached"*"via perf_event+tp_btf"* ]]
}

@test "vDSO share of a clock loop within 10 points of its own figure, function named, finding raised" {
	capture_around 5 "$TOOLS/clock_loop" -m vdso -f mixed -s 0.4 -d 3 -c 1
	local own got proc
	own="$(field vdso_share)"
	proc="$(clock_proc)"
	echo "program: $(cat "$SCRATCH/load")"
	echo "dbtrace: $proc"
	got="$(jq -r .vdso_pct <<<"$proc")"
	# the program really spent about 40% in the clock
	awk -v o="$own" 'BEGIN { exit !(o > 25 && o < 55) }'
	awk -v a="$got" -v b="$own" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 10) }'
	# 3 clock_gettime for 1 gettimeofday
	[ "$(jq -r .vdso_top_function <<<"$proc")" = clock_gettime ]
	jq -e '.vdso_samples.clock_gettime > .vdso_samples.gettimeofday and .vdso_samples.gettimeofday > 0' <<<"$proc"
	# one sample per 1/499 s of the CPU time it used
	within_pct "$(jq .samples <<<"$proc")" "$(awk -v c="$(field cpu)" 'BEGIN { print c * 499 }')" 10
	jq -e '.clock_syscalls_per_s < 10' <<<"$proc"
	jq -e --argjson p "$(cat "$SCRATCH/load.pid")" \
		'[.findings[] | select(.id == "gettimeofday_hotspot" and .pid == $p
		   and .evidence.vdso_top_function == "clock_gettime" and .evidence.vdso_pct > 10
		   and (.hint | length) > 0)] | length == 1' "$SCRATCH/run.json"
	"$VALIDATE" "$SCRATCH/run.json"
}

@test "a gettimeofday loop is named gettimeofday" {
	capture_around 4 "$TOOLS/clock_loop" -m vdso -f gettimeofday -s 0.3 -d 2 -c 1
	local proc own
	proc="$(clock_proc)"
	own="$(field vdso_share)"
	echo "program: $(cat "$SCRATCH/load")"
	echo "dbtrace: $proc"
	[ "$(jq -r .vdso_top_function <<<"$proc")" = gettimeofday ]
	awk -v a="$(jq -r .vdso_pct <<<"$proc")" -v b="$own" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 10) }'
}

@test "real clock syscalls: dbtrace's count and rate agree with the program's within 10%" {
	# the whole loop inside the capture: the counts must match
	capture_around 4 "$TOOLS/clock_loop" -m syscall -d 2 -c 1
	local calls got proc
	calls="$(field calls)"
	proc="$(clock_proc)"
	echo "program: $(cat "$SCRATCH/load")"
	echo "dbtrace: $proc"
	got="$(jq -r .clock_syscalls.clock_gettime <<<"$proc")"
	within_pct "$got" "$calls" 10
	# in the kernel inside clock_gettime most of the time, never in the vDSO
	jq -e '.clock_sys_pct > 50 and .vdso_pct < 1' <<<"$proc"
	jq -e --argjson p "$(cat "$SCRATCH/load.pid")" \
		'[.findings[] | select(.id == "gettimeofday_hotspot" and .pid == $p
		   and .evidence.clock_syscalls_per_s > 10000)] | length == 1' "$SCRATCH/run.json"

	# the capture inside the loop: the rates must match
	"$TOOLS/clock_loop" -m syscall -d 5 -c 1 >"$SCRATCH/load" &
	LOAD_PID=$!
	sleep 1
	"$DBTRACE" capture -d 3 -o "$SCRATCH/rate.json" 2>/dev/null
	wait "$LOAD_PID"
	local rate
	rate="$(jq -r --argjson p "$LOAD_PID" '.clock.processes[] | select(.pid == $p) | .clock_syscalls_per_s' \
		"$SCRATCH/rate.json")"
	LOAD_PID=
	echo "program: $(cat "$SCRATCH/load"); dbtrace: $rate/s"
	within_pct "$rate" "$(field rate)" 10
}

@test "a process that reads the clock rarely raises nothing" {
	capture_around 4 "$TOOLS/clock_loop" -m rare -d 3 -c 1
	local pid proc
	pid="$(cat "$SCRATCH/load.pid")"
	proc="$(clock_proc)"
	echo "dbtrace: $proc"
	# it ran and was seen (~499 samples per CPU second), almost never in the vDSO
	within_pct "$(jq .samples <<<"$proc")" "$(awk -v c="$(field cpu)" 'BEGIN { print c * 499 }')" 15
	jq -e '.vdso_pct < 1 and .clock_syscalls_per_s < 10' <<<"$proc"
	jq -e --argjson p "$pid" '[.findings[] | select(.pid == $p)] | length == 0' "$SCRATCH/run.json"
}

@test "--sample-hz sets the sampling rate" {
	local fast slow
	capture_around 3 "$TOOLS/clock_loop" -m rare -d 2 -c 1
	jq -e '.clock.sample_hz == 499' "$SCRATCH/run.json"
	fast="$(clock_proc | jq .samples)"
	within_pct "$fast" "$(awk -v c="$(field cpu)" 'BEGIN { print c * 499 }')" 15
	CAPTURE_OPTS=(--sample-hz 97)
	capture_around 3 "$TOOLS/clock_loop" -m rare -d 2 -c 1
	jq -e '.clock.sample_hz == 97' "$SCRATCH/run.json"
	slow="$(clock_proc | jq .samples)"
	echo "$fast samples at 499 Hz, $slow at 97 Hz for about 2 s of CPU each"
	within_pct "$slow" "$(awk -v c="$(field cpu)" 'BEGIN { print c * 97 }')" 15
}
