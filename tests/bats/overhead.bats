#!/usr/bin/env bats
# The capture's overhead.bpf: dbtrace's own BPF programs' run time, from the
# kernel's run-time statistics, which dbtrace holds on for a tenth of each
# interval and drops however it ends.

load helpers/common
bats_require_minimum_version 1.5.0

setup() { make_scratch; }
teardown() { teardown_scratch; }

# The empty programs of bpf_floor (no CPU-clock sampler): their counters
# grow only while the kernel's run-time statistics are on, whoever holds
# them (the sysctl shows only its own setting, not a holder's fd). Its
# sched_switch program is read alone: one program's counter takes bpftool
# a fraction of the time of all of them, which in a TCG guest under load
# is most of a second and would blur the instant of the read.
start_witness() {
	"$TOOLS/bpf_floor" -F 0 >"$SCRATCH/floor" 2>&1 &
	WITNESS=$!
	PIDS+=("$WITNESS")
	wait_for_text "$SCRATCH/floor" "attached"
	WITNESS_PROG="$(bpftool prog show -j | jq -r --argjson ids "[$(prog_ids "$WITNESS")]" \
		'.[] | select(.name == "flr_switch" and (.id as $i | any($ids[]; . == $i))) | .id')"
	[ -n "$WITNESS_PROG" ]
}

# The ids of the programs PID holds, comma-separated.
prog_ids() { cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -un | paste -sd, -; }

# The witness's sched_switch runs counted so far.
witness_runs() { bpftool prog show id "$WITNESS_PROG" -j | jq '.run_cnt // 0'; }

# Another holder (bpftop, kernel.bpf_stats_enabled=1) keeps the statistics
# on all the time: the programs' counters then also grow outside dbtrace's
# windows.
need_stats_off() {
	local a
	a="$(witness_runs)"
	sleep 0.3
	[ "$(witness_runs)" = "$a" ] || skip "another tool holds BPF run-time statistics on"
}

# Sums run_time_ns and run_cnt of the programs PID holds, as bpftool reads them.
bpftool_runs() {   # PID
	local ids
	ids="$(prog_ids "$1")"
	[ -n "$ids" ] || return 1
	bpftool prog show -j | jq -r --argjson ids "[$ids]" \
		'[.[] | select(.id as $i | any($ids[]; . == $i))] | "\(map(.run_time_ns // 0) | add) \(map(.run_cnt // 0) | add) \(length)"'
}

# On 5.10 too: the oldest kernel dbtrace runs on (BPF_ENABLE_STATS is 5.8).
# bats test_tags=kernel510
@test "overhead.bpf: the run time and runs bpftool reads for dbtrace's programs, a tenth of the time, off between windows" {
	local out="$SCRATCH/run.json" ns cnt nprog a b i off=0 load
	start_witness
	need_stats_off
	# a window of 0.2 s after each tick
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 60 -i 2 -o "$out"
	wait_for_text "$SCRATCH/err" "capturing to"
	"$TOOLS/tcp_rr" -d 4 -c "$LOAD_CPU" -S "$LOAD_CPU" >/dev/null &
	load=$!
	PIDS+=("$load")
	# while the load runs, the statistics are off between the windows:
	# two reads of the witness 0.2 s apart agree (1.8 s of every 2 are
	# off). The pause between pairs is drawn at random: a fixed one
	# paced the pairs to the 2 s interval in a slow guest (every pair of
	# one 5.10 run met a window).
	for ((i = 0; i < 12 && !off; i++)); do
		a="$(witness_runs)"
		sleep 0.2
		b="$(witness_runs)"
		[ "$a" != "$b" ] || off=1
		sleep "0.$((RANDOM % 9 + 1))"
	done
	echo "pairs of reads until one fell between windows: $i"
	[ "$off" = 1 ]
	# once the load is over, what the programs ran is what bpftool reads;
	# a window after the read adds an idle machine's few events
	wait "$load"
	read -r ns cnt nprog < <(bpftool_runs "$BG_PID")
	echo "bpftool: $nprog programs, run_time_ns $ns, run_cnt $cnt"
	kill -INT "$BG_PID"
	wait "$BG_PID"
	BG_PID=
	jq '.overhead.bpf' "$out"
	[ "$cnt" -ge 10000 ]
	jq -e '.overhead.bpf.error == null and .overhead.bpf.cpu_pct > 0' "$out"
	within_pct "$(jq '.overhead.bpf.run_s * 1e9' "$out")" "$ns" 10
	within_pct "$(jq '.overhead.bpf.runs' "$out")" "$cnt" 10
	# a tenth of each interval at most: a window of 0.2 s in each. Shorter
	# where it opened late (a slow guest's tick took most of the interval:
	# the next tick closes it) or the signal cut it; none missing.
	jq -e '(.intervals | length) as $n | .overhead.bpf.measured_s < 0.21 * $n
		and all(.intervals[]; .overhead.bpf_cpu_pct != null)' "$out"
	# the families add up to the total, and the share is run time over the windows
	jq -e '.overhead.bpf as $b | ([$b.families[].runs] | add) == $b.runs
		and (([$b.families[].run_s] | add) - $b.run_s | fabs) < 1e-6
		and ($b.run_s / $b.measured_s * 100 - $b.cpu_pct | fabs) < 0.01 * $b.cpu_pct
		and ($b.run_s * 1e9 / $b.runs - $b.ns_per_event | fabs) < 0.01 * $b.ns_per_event' "$out"
	jq -e '.intervals[0].overhead.bpf_cpu_pct > 0' "$out"

	# the report and diff show it, per family
	"$DBTRACE" report "$out" -o "$SCRATCH/run.html" 2>/dev/null
	grep -q 'id="overhead-table"' "$SCRATCH/run.html"
	grep -q '<tr><td>net</td>' "$SCRATCH/run.html"
	run "$DBTRACE" diff --json "$out" "$out"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.sections.overhead.in_after and
		([.sections.overhead.rows[] | select(.key == "all" and .metric == "bpf_cpu_pct")] | length == 1)'
}

@test "top's header says what dbtrace's programs cost, each interval" {
	run --separate-stderr "$DBTRACE" top --batch -d 2 -i 1
	[ "$status" -eq 0 ]
	echo "$output" | grep '^dbtrace top - '
	[ "$(echo "$output" | grep -cE '^dbtrace top - .*  bpf [0-9.]+% of a CPU')" -eq 2 ]
}

@test "the statistics are off again when dbtrace is killed inside a window" {
	local i a b on=0
	start_witness
	need_stats_off
	# -i 5: half-second windows, long enough to be seen and killed in
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 30 -i 5 -o "$SCRATCH/run.json"
	wait_for_text "$SCRATCH/err" "capturing to"
	a="$(witness_runs)"
	for ((i = 0; i < 200; i++)); do
		sleep 0.02
		b="$(witness_runs)"
		[ "$b" = "$a" ] || { on=1; break; }
	done
	[ "$on" = 1 ]
	kill -KILL "$BG_PID"
	wait "$BG_PID" || true
	BG_PID=
	a="$(witness_runs)"
	sleep 0.5
	[ "$(witness_runs)" = "$a" ]
	[ ! -e "$SCRATCH/run.json" ]
}
