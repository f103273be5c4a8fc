#!/usr/bin/env bats
# Accuracy of the softirq family's time shares against sources that are
# not dbtrace: the kernel's own softirq time per CPU (/proc/stat, in
# USER_HZ ticks) and libbpf-tools `softirqs` (its own BPF programs, time
# per vector over all CPUs), run over the same window on the same load.

load helpers/common
load helpers/accuracy

# Both run in the PREEMPT_RT guest too, where softirqs run in threads and
# can be preempted inside a run. Three runs there: CPU time -6.4, +3.7,
# -5.0% against /proc/stat; NET_RX +0.8, +3.1, +2.5% and the total -1.8,
# +0.2, -0.0% against softirqs. (Earlier misses there, 9.7 ticks against
# /proc/stat's 2 on a quiet CPU and the total 14% under softirqs, were
# before the quiet CPU's check left out the tick's own vectors and before
# the fixes to the sched family's loading in 6.1's verifier.)

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

# softirq_window SECONDS [softirqs]: a capture into $SCRATCH/run.json with
# a loopback request/response load of SECONDS - 2 on $LOAD_CPU inside it
# (its NET_RX runs there, some 30% of the CPU), /proc/stat and
# /proc/softirqs read as dbtrace's window opens (its message) and closes
# (it exits): in $SCRATCH/{stat,rx}.{before,after}. Alone, the capture
# lasts SECONDS. With "softirqs", libbpf-tools softirqs runs inside the
# capture, started once dbtrace's window is open and stopped (SIGINT:
# it prints its sums into $SCRATCH/softirqs) just before dbtrace is: the
# two windows then differ by softirqs' own start-up only, a small
# program's load. The other way round, softirqs around dbtrace, its
# window held dbtrace's start-up too, seconds of verifier under TCG with
# their timer, RCU and scheduler softirqs: once 196 ms of them against
# dbtrace's 68, the total 14% apart in the 6.12 guest.
softirq_window() {
	local secs="$1" limit="$1"
	[ "${2:-}" = softirqs ] && limit=120
	# SIGINT, which a background command of a script ignores unless
	# given back, ends the capture early as the user's stop
	start_bg "$SCRATCH/err" env --default-signal=INT "$DBTRACE" capture -d "$limit" -i 1 -o "$SCRATCH/run.json"
	wait_for_text "$SCRATCH/err" "capturing to" "$LIMIT"
	proc_stat_softirq >"$SCRATCH/stat.before"
	proc_net_rx >"$SCRATCH/rx.before"
	if [ "${2:-}" = softirqs ]; then
		# line-buffered, so "Tracing" shows before the load
		env --default-signal=INT stdbuf -oL softirqs -N 999 1 >"$SCRATCH/softirqs" 2>&1 &
		SIRQ_PID=$!
		wait_for_text "$SCRATCH/softirqs" "Tracing" "$LIMIT"
	fi
	sleep 0.3
	"$TOOLS/tcp_rr" -d "$((secs - 2))" -c "$LOAD_CPU" -S "$LOAD_CPU"
	if [ -n "${SIRQ_PID:-}" ]; then
		kill -INT "$SIRQ_PID"
		wait "$SIRQ_PID"; SIRQ_PID=
		kill -INT "$BG_PID"
		cat "$SCRATCH/softirqs"
	fi
	wait "$BG_PID"; BG_PID=
	proc_stat_softirq >"$SCRATCH/stat.after"
	proc_net_rx >"$SCRATCH/rx.after"
	"$VALIDATE" "$SCRATCH/run.json"
	attached "$SCRATCH/run.json" softirq
}

# delta NAME CPU: the growth of CPU's value between $SCRATCH/NAME.before
# and .after ("cpu value" lines)
delta() {
	join "$SCRATCH/$1.before" "$SCRATCH/$1.after" | awk -v c="$2" '$1 == c { print $3 - $2 }'
}

# NET_RX runs per CPU against /proc/softirqs (the kernel's count, exact in
# dbtrace even when the time is sampled); 2%: a quiet CPU's few runs
# between the message and the reads.
check_net_rx_runs() {
	local cpu got want
	for cpu in "${CPUS[@]}"; do
		want="$(delta rx "$cpu")"
		got="$(jq -r --argjson c "$cpu" '.cpus[] | select(.cpu == $c) | .softirq_entries.net_rx' "$SCRATCH/run.json")"
		if [ "${want:-0}" -ge 1000 ]; then
			check "CPU $cpu NET_RX runs vs /proc/softirqs" "$got" "$want" 2
		else
			echo "CPU $cpu NET_RX runs: dbtrace $got, /proc/softirqs $want (a quiet CPU: not compared)"
		fi
	done
}

# dbtrace alone: a second tracer on the same tracepoints puts its own
# programs' run time inside each softirq run but outside dbtrace's timed
# part (and dbtrace's outside its), time /proc/stat counts: with runs of
# 2-3 us here, 10% and more.
# Not in the 5.10, 6.12 and rt rings: none of Debian's kernels has
# IRQ_TIME_ACCOUNTING, so /proc/stat samples softirq time by what each
# tick interrupted, and in the emulated guests (TSC marked unstable at
# boot, timer interrupts taken between translated blocks) that sampling
# is off by itself: three runs in the 5.10 guest read /proc/stat +19%,
# +17% and +7% above dbtrace, a fourth 31% below, while dbtrace stayed
# within 2% of libbpf-tools softirqs over the same windows (-1.7, -0.8,
# +0.7%). Those rings hold the time to softirqs, the next test.
# bats test_tags=vm
@test "softirq time: per-CPU totals within 10% of /proc/stat, NET_RX runs equal to /proc/softirqs" {
	local hz cpu ticks got want
	hz="$(getconf CLK_TCK 2>/dev/null || echo 100)"   # USER_HZ; the VM guest has no getconf
	softirq_window 12
	local dur
	dur="$(jq .duration_s "$SCRATCH/run.json")"
	# per CPU: dbtrace's share x the window against the kernel's ticks.
	# A kernel without IRQ_TIME_ACCOUNTING (this host's) counts softirq
	# time by what each tick interrupted: 10 s at 30% of HZ=250 is ~750
	# such samples, +-3% (1 sigma), so 10% is over 3 sigma (and on an idle NOHZ CPU
	# no tick runs to count: a quiet CPU is not a fair comparison). A
	# CPU with under 50 USER_HZ ticks (0.5 s) is held to 5 ticks instead,
	# without the vectors the tick raises itself (TIMER, RCU, SCHED): they
	# run as that tick's interrupt returns, after it sampled and mostly
	# done before the next, so tick sampling never sees them. On a host
	# they take a few us a tick; in the qemu TCG guest ~90 us, and a quiet
	# CPU's total read 26 ticks against /proc/stat's 2 (the other test
	# holds them, all CPUs together, to libbpf-tools softirqs).
	for cpu in "${CPUS[@]}"; do
		ticks="$(delta stat "$cpu")"
		got="$(jq -r --argjson c "$cpu" --argjson d "$dur" --argjson hz "$hz" \
			'.cpus[] | select(.cpu == $c) | .softirq_pct.total * $d / 100 * $hz * 10 | round / 10' "$SCRATCH/run.json")"
		if [ "${ticks:-0}" -ge 50 ]; then
			check "CPU $cpu softirq time (ticks of 1/$hz s) vs /proc/stat" "$got" "$ticks" 10
		else
			echo "CPU $cpu softirq time: dbtrace $got ticks in all, by vector (%): $(jq -c --argjson c "$cpu" \
				'.cpus[] | select(.cpu == $c) | .softirq_pct' "$SCRATCH/run.json")"
			got="$(jq -r --argjson c "$cpu" --argjson d "$dur" --argjson hz "$hz" \
				'.cpus[] | select(.cpu == $c) | .softirq_pct | (.total - .timer - .rcu - .sched) * $d / 100 * $hz * 10 | round / 10' \
				"$SCRATCH/run.json")"
			echo "CPU $cpu softirq time but the tick's own vectors: dbtrace $got ticks, /proc/stat $ticks ticks (allowed 5 ticks)"
			awk -v a="$got" -v b="$ticks" 'BEGIN { d = a - b; exit !(d <= 5 && d >= -5) }' || MISSES=$((MISSES + 1))
		fi
	done
	check_net_rx_runs
	no_misses
}

# Both tracers over the same load, softirqs' window inside dbtrace's (see
# softirq_window): dbtrace's is longer by softirqs' start-up, on a
# machine otherwise quiet, a few ms of timer and RCU softirq.
# In the 6.1 guest every softirq_pct once came out null: 6.1's verifier
# refused the raise-to-run wait's fine-histogram update and the softirq
# family did not load (fixed by the clamp in bpf/hist.bpf.h).
# The softirq family's accuracy test of every VM ring, NET_RX runs against
# /proc/softirqs too.
# bats test_tags=vm,rt,kernel
@test "softirq time: NET_RX and all vectors within 10% of libbpf-tools softirqs over the same window, NET_RX runs equal to /proc/softirqs" {
	command -v softirqs >/dev/null || skip "libbpf-tools' softirqs is not installed (scripts/setup.sh --test)"
	softirq_window 8 softirqs
	local dur vec got want
	dur="$(jq .duration_s "$SCRATCH/run.json")"
	for vec in net_rx total; do
		got="$(jq -r --arg v "$vec" --argjson d "$dur" '[.cpus[].softirq_pct[$v]] | add * $d / 100 * 1e9 | round' "$SCRATCH/run.json")"
		if [ "$vec" = total ]; then
			want="$(awk '$1 != "SOFTIRQ" && $2 ~ /^[0-9.e+]+$/ { n += $2 } END { printf "%d", n }' "$SCRATCH/softirqs")"
		else
			want="$(awk -v v="$vec" '$1 == v { n = $2 } END { printf "%d", n }' "$SCRATCH/softirqs")"
		fi
		check "$vec time over all CPUs (ns) vs softirqs" "$got" "$want" 10
	done
	echo "dbtrace by vector, all CPUs (ns): $(jq -c --argjson d "$dur" '[.cpus[].softirq_pct | to_entries[]]
		| group_by(.key) | map({(.[0].key): (map(.value) | add * $d / 100 * 1e9 | round)}) | add' "$SCRATCH/run.json")"
	check_net_rx_runs
	no_misses
}
