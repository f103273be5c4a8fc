#!/usr/bin/env bash
# `make bench`: throughput of each load alone and under dbtrace, interleaved
# round by round so drift on this noisy VM hits every configuration alike.
# Prints medians and overhead ratios measured in this one run. A benchmark,
# not a test: it never fails on numbers.
#
#   ROUNDS=3 SECS=5 bench/run.sh
#   LOADS="tcp_rr" bench/run.sh      only some of the loads
#   CONFIGS="baseline floor dbtrace" bench/run.sh   only some tracers
#                                    (baseline and floor are always needed)
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
SECS="${SECS:-5}"
DBTRACE=build/dbtrace
TOOLS=build/tests/tools
WORK="$(mktemp -d /tmp/dbtrace-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (dbtrace loads eBPF programs)" >&2; exit 1; }

# --- loads: each prints one throughput number (operations/s) -------------
# Pinned to CPU 1: unpinned cross-CPU wake-ups swing 10x between runs here.
load_tcp_rr() { "$TOOLS/tcp_rr" -d "$SECS" -c 1 -S 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
# both ends on one CPU: the highest context-switch rate this machine reaches
load_pipe() { "$TOOLS/pipe_pingpong" -d "$SECS" -a 1 -b 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
# the clock family's two costs: CPU-clock samples on a vDSO-bound loop,
# and the syscall-entry hook on a loop of real clock syscalls
load_clock_vdso() { "$TOOLS/clock_loop" -m vdso -s 0.4 -d "$SECS" -c 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
load_clock_sys() { "$TOOLS/clock_loop" -m syscall -d "$SECS" -c 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }

read -r -a LOADS <<<"${LOADS:-tcp_rr pipe clock_vdso clock_sys}"
declare -A LOAD_DESC=(
	[tcp_rr]="loopback TCP request/response, 64 B, pinned to CPU 1"
	[pipe]="pipe ping-pong between two threads on CPU 1, round trips/s"
	[clock_vdso]="clock_gettime/gettimeofday through the vDSO, 40% of CPU 1, calls/s"
	[clock_sys]="syscall(SYS_clock_gettime) loop on CPU 1, calls/s"
)

# --- configurations: run "$@" (the load) under some tracer ---------------
run_baseline() { "$@"; }

# dbtrace capture with every family, started before and stopped after the
# load; its own CPU% and RSS come from the capture's overhead section.
run_dbtrace() {
	local out="$WORK/cap.json" pid rate
	"$DBTRACE" capture -d "$((SECS + 60))" -i 1 "${DBTRACE_OPTS[@]}" -o "$out" 2>"$WORK/cap.err" &
	pid=$!
	for _ in $(seq 200); do grep -q capturing "$WORK/cap.err" && break; sleep 0.05; done
	rate="$("$@")"
	kill -INT "$pid"
	wait "$pid" || true
	jq -r '"\(.overhead.cpu_pct) \(.overhead.max_rss_kb)"' "$out" >>"$WORK/dbtrace.self"
	# every family asked for must be in the measured cost
	jq -r '.probes | to_entries[] | select(.value.enabled and .value.attach == null) | .key' "$out" >>"$WORK/dbtrace.missing"
	jq -r '[.probes | to_entries[] | "\(.key)=\(.value.attach)"] | join(" ")' "$out" >"$WORK/dbtrace.paths"
	echo "$rate"
}

# The floor: empty BPF programs on every tracepoint dbtrace attaches to,
# plus a CPU-clock sampler (bpf/floor.bpf.c, loaded by tests/tools/
# bpf_floor): what any tracer of these events pays before doing any work.
run_floor() {
	local pid rate
	"$TOOLS/bpf_floor" >"$WORK/floor.out" 2>>"$WORK/floor.err" &
	pid=$!
	for _ in $(seq 200); do grep -q attached "$WORK/floor.out" && break; sleep 0.05; done
	rate="$("$@")"
	kill -INT "$pid"
	wait "$pid" 2>/dev/null || true
	echo "$rate"
}

# libbpf-tools' runqlat (Debian package libbpf-tools): the anchor for the
# scheduler probes, printing once per second like dbtrace.
run_runqlat() {
	local pid rate
	runqlat 1 1000 >/dev/null 2>&1 &
	pid=$!
	sleep 1   # past its load and attach
	rate="$("$@")"
	kill -INT "$pid"
	wait "$pid" 2>/dev/null || true
	echo "$rate"
}

DBTRACE_OPTS=()

# dbtrace with the softirq and sched families only: what runqlat is the
# anchor for (issue 3 compares these two on the context-switch load).
run_dbtrace_ss() {
	local DBTRACE_OPTS=(--families softirq,sched)
	run_dbtrace "$@"
}

read -r -a CONFIGS <<<"${CONFIGS:-baseline floor dbtrace dbtrace_ss runqlat}"

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "dbtrace benchmark  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(uname -r)  $(nproc) CPUs  rounds=$ROUNDS  ${SECS}s per run"
for load in "${LOADS[@]}"; do
	echo
	echo "load: $load (${LOAD_DESC[$load]})"
	for ((r = 1; r <= ROUNDS; r++)); do
		# rotate the order each round so no configuration always runs first
		n=${#CONFIGS[@]}
		for ((k = 0; k < n; k++)); do
			cfg="${CONFIGS[$(((k + r) % n))]}"
			rate="$("run_$cfg" "load_$load")"
			echo "$rate" >>"$WORK/$load.$cfg"
			echo "$r $rate" >>"$WORK/$load.$cfg.rounds"
			printf '  round %d %-10s %10s ops/s\n' "$r" "$cfg" "$rate"
		done
	done
	base="$(median <"$WORK/$load.baseline")"
	printf '  %-10s %12s %10s %18s\n' config "median ops/s" overhead "overhead per round"
	for cfg in "${CONFIGS[@]}"; do
		med="$(median <"$WORK/$load.$cfg")"
		# per round: cost against that round's own baseline, then the median
		per_round="$(join "$WORK/$load.baseline.rounds" "$WORK/$load.$cfg.rounds" |
			awk '{ printf "%.2f\n", 100 * (1 - $3 / $2) }' | median)"
		printf '  %-10s %12.0f %9.1f%% %17.1f%%\n' "$cfg" "$med" \
			"$(awk -v b="$base" -v m="$med" 'BEGIN { print 100 * (1 - m / b) }')" "$per_round"
		echo "$per_round" >"$WORK/$load.$cfg.cost"
	done
	# dbtrace's cost against the floor's, each the median of its per-round costs
	awk -v d="$(cat "$WORK/$load.dbtrace.cost")" -v f="$(cat "$WORK/$load.floor.cost")" 'BEGIN {
		if (f > 0) printf "  dbtrace %.1f%% vs floor %.1f%%: %.2fx the floor (budget 1.5x)\n", d, f, d / f
		else printf "  dbtrace %.1f%% vs floor %.1f%%: the floor is within noise here\n", d, f }'
done

if [ -s "$WORK/floor.out" ]; then
	echo
	[ -s "$WORK/dbtrace.paths" ] && echo "dbtrace attached: $(cat "$WORK/dbtrace.paths")"
	echo "floor: $(sed -n 's/^floor: //p' "$WORK/floor.out" | tail -1)"
	sort -u "$WORK/floor.err" 2>/dev/null | sed 's/^/  /'
fi
if [ -s "$WORK/dbtrace.missing" ]; then
	echo "bench: warning: families that did not attach under dbtrace: $(sort -u "$WORK/dbtrace.missing" | paste -sd' ')"
fi

if [ -s "$WORK/dbtrace.self" ]; then
	echo
	awk '{ c += $1; if ($2 > r) r = $2; n++ } END {
		printf "dbtrace itself: mean CPU %.2f%% of one core, max RSS %.1f MiB (%d captures)\n", c / n, r / 1024, n }' \
		"$WORK/dbtrace.self"
fi
