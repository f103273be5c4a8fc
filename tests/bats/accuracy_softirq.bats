#!/usr/bin/env bats
# Accuracy of the softirq family's time shares against sources that are
# not dbtrace: the kernel's own softirq time per CPU (/proc/stat, in
# USER_HZ ticks) and libbpf-tools `softirqs` (its own BPF programs, time
# per vector over all CPUs), run over the same window on the same load.

load helpers/common
load helpers/accuracy

setup() {
	make_scratch
	MISSES=0
}

teardown() {
	[ -n "${SIRQ_PID:-}" ] && kill "$SIRQ_PID" 2>/dev/null
	teardown_scratch
}

# Prints "cpu softirq_ticks" per CPU from /proc/stat (the 7th value).
proc_stat_softirq() {
	awk '/^cpu[0-9]+ / { print substr($1, 4), $8 }' /proc/stat
}

# softirqs' total for one vector (nanoseconds with -N), 0 when absent.
softirqs_ns() {   # file vector
	awk -v v="$2" '$1 == v { n = $2 } END { print n + 0 }' "$1"
}

# bats test_tags=vm
@test "softirq time: per-CPU totals within 10% of /proc/stat, NET_RX and all vectors within 10% of libbpf-tools softirqs" {
	command -v softirqs >/dev/null || skip "libbpf-tools' softirqs is not installed (scripts/setup.sh --test)"
	local out="$SCRATCH/run.json" hz secs=6 before after rx_before rx_after
	hz="$(getconf CLK_TCK)"
	# softirqs first (it prints one summary after its interval), then
	# dbtrace; the load runs inside both windows, which differ only by
	# the start-up of each tool on an otherwise quiet machine
	# line-buffered: "Tracing" must reach the file before the load starts
	stdbuf -oL softirqs -N "$((secs + 3))" 1 >"$SCRATCH/softirqs" 2>&1 &
	SIRQ_PID=$!
	wait_for_text "$SCRATCH/softirqs" "Tracing" 10
	before="$(proc_stat_softirq)"
	rx_before="$(proc_net_rx)"
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d "$secs" -i 1 -o "$out"
	wait_for_text "$SCRATCH/err" "capturing to" "${LIMIT:-10}"
	sleep 0.3
	# loopback request/response on one CPU: its NET_RX runs there, some
	# 30% of the CPU, hundreds of ticks over the run
	"$TOOLS/tcp_rr" -d "$((secs - 2))" -c "$LOAD_CPU" -S "$LOAD_CPU"
	wait "$BG_PID"; BG_PID=
	after="$(proc_stat_softirq)"
	rx_after="$(proc_net_rx)"
	wait "$SIRQ_PID"; SIRQ_PID=
	"$VALIDATE" "$out"
	cat "$SCRATCH/softirqs"
	local dur cpu ticks got want
	dur="$(jq .duration_s "$out")"
	# per CPU: dbtrace's share x the window against the kernel's ticks.
	# A tick is 1/USER_HZ s: a CPU with under 50 ticks (0.5 s) is below
	# what 10% can resolve and is held to 5 ticks instead.
	for cpu in "${CPUS[@]}"; do
		ticks="$(join <(echo "$before") <(echo "$after") | awk -v c="$cpu" '$1 == c { print $3 - $2 }')"
		got="$(jq -r --argjson c "$cpu" --argjson d "$dur" --argjson hz "$hz" \
			'.cpus[] | select(.cpu == $c) | .softirq_pct.total * $d / 100 * $hz' "$out")"
		if [ "${ticks:-0}" -ge 50 ]; then
			check "CPU $cpu softirq time (ticks of 1/$hz s) vs /proc/stat" "$got" "$ticks" 10
		else
			echo "CPU $cpu softirq time: dbtrace $got ticks, /proc/stat $ticks ticks (allowed 5 ticks)"
			awk -v a="$got" -v b="$ticks" 'BEGIN { d = a - b; exit !(d <= 5 && d >= -5) }' || MISSES=$((MISSES + 1))
		fi
	done
	# per CPU, NET_RX runs against /proc/softirqs (the kernel's count,
	# exact in dbtrace even when the time is sampled); 2%: the two
	# windows differ by dbtrace's start-up and a quiet CPU's few runs
	for cpu in "${CPUS[@]}"; do
		want="$(join <(echo "$rx_before") <(echo "$rx_after") | awk -v c="$cpu" '$1 == c { print $3 - $2 }')"
		got="$(jq -r --argjson c "$cpu" '.cpus[] | select(.cpu == $c) | .softirq_entries.net_rx' "$out")"
		if [ "${want:-0}" -ge 1000 ]; then
			check "CPU $cpu NET_RX runs vs /proc/softirqs" "$got" "$want" 2
		else
			echo "CPU $cpu NET_RX runs: dbtrace $got, /proc/softirqs $want (a quiet CPU: not compared)"
		fi
	done
	# over all CPUs, per vector: dbtrace's shares x the window against
	# softirqs' nanoseconds
	local vec sum
	for vec in net_rx total; do
		got="$(jq -r --arg v "$vec" --argjson d "$dur" '[.cpus[].softirq_pct[$v]] | add * $d / 100 * 1e9' "$out")"
		if [ "$vec" = total ]; then
			want="$(awk '$2 ~ /^[0-9]+$/ && $1 != "SOFTIRQ" { n += $2 } END { print n + 0 }' "$SCRATCH/softirqs")"
		else
			want="$(softirqs_ns "$SCRATCH/softirqs" "$vec")"
		fi
		check "$vec time over all CPUs (ns) vs softirqs" "$got" "$want" 10
	done
	no_misses
}
