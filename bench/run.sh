#!/usr/bin/env bash
# `make bench`: throughput of each load alone, under dbtrace and under the
# anchors (other tracers of the same events), interleaved round by round so
# drift on this noisy VM hits every configuration alike. Prints one table of
# medians and overheads against each round's own baseline, then dbtrace's
# own costs and the budgets of ARCHITECTURE.md with a verdict. A benchmark,
# not a test: it never fails on numbers.
#
#   bench/run.sh [--write FILE]      FILE: also write the report into FILE
#                                    below its generated-part marker
#   ROUNDS=3 SECS=5                  rounds, seconds per load run
#   BUDGET_ROUNDS=24                 rounds of the floor budget: baseline,
#                                    floor and dbtrace in turn on one long
#                                    tcp_rr (0: skip it)
#   LOADS="tcp_rr veth"              only some of the loads
#   DB_ROUNDS=5                      rounds of the database loads (sysbench
#                                    on MariaDB, pgbench on PostgreSQL,
#                                    throwaway servers): 5 at least for
#                                    their 90% intervals
#   DB_CONFIGS="baseline floor dbtrace runqlat cpudist"
#                                    the configurations (of CONFIGS) the
#                                    database loads run under ("all": every
#                                    one)
#   CONFIGS="baseline floor softirqs"  only some tracers (baseline and floor
#                                    are always added: costs are against them)
#   EXTRAS=0                         skip the time to first output and the
#                                    BPF run time per event
#   SKELETON=PATH                    the skeleton build (make skeleton; default
#                                    build/skeleton/dbtrace): dbtrace whose
#                                    programs find their records and measure
#                                    nothing (bpf/skeleton.bpf.h)
#   BEFORE=PATH                      also the BPF run time per event of another
#                                    dbtrace binary in the same run (e.g. one
#                                    built from the commit before a change), in
#                                    a table of its own
set -euo pipefail
cd "$(dirname "$0")/.."
# one decimal point for $EPOCHREALTIME, awk and printf whatever the locale
export LC_ALL=C

usage() { echo "usage: bench/run.sh [--write FILE]   (env: ROUNDS SECS BUDGET_ROUNDS LOADS CONFIGS EXTRAS DB_ROUNDS DB_CONFIGS)" >&2; exit "${1:-2}"; }

WRITE=
while [ $# -gt 0 ]; do
	case "$1" in
	--write) [ $# -ge 2 ] || usage; WRITE="$2"; shift 2 ;;
	-h | --help) usage 0 ;;
	*) usage ;;
	esac
done

ROUNDS="${ROUNDS:-3}"
SECS="${SECS:-5}"
EXTRAS="${EXTRAS:-1}"
# The floor budget (dbtrace within 1.5x the cost of empty programs) is set
# on the loopback request/response load, and it is a ratio of two small
# costs that each swing by about 5 points from one load run to the next on
# this VM: it gets a phase of its own (run_budget) with many rounds, and a
# bootstrap interval.
BUDGET_ROUNDS="${BUDGET_ROUNDS:-24}"
# what the sched family needs to reach its steady state after attaching:
# it moves threads into task storage at its first read, after one interval
BUDGET_SETTLE=1.5
# The database loads' costs come with a 90% bootstrap interval over their
# rounds, which needs 5 of them; 5 tracers x 5 rounds x 4 loads is about
# 10 minutes at SECS=5.
DB_ROUNDS="${DB_ROUNDS:-5}"
# the floor and the anchors the issue names; the other configurations
# would add 2 minutes each
DB_CONFIGS="${DB_CONFIGS:-baseline floor dbtrace runqlat cpudist}"
# whole seconds: the capture's -d is SECS + 60 in shell arithmetic
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ && "$SECS" =~ ^[1-9][0-9]*$ && "$BUDGET_ROUNDS" =~ ^[0-9]+$ && "$DB_ROUNDS" =~ ^[1-9][0-9]*$ ]] ||
	{ echo "bench: ROUNDS, SECS, BUDGET_ROUNDS and DB_ROUNDS are whole numbers (all but BUDGET_ROUNDS > 0)" >&2; usage; }
DBTRACE=build/dbtrace
SKELETON="${SKELETON:-build/skeleton/dbtrace}"
TOOLS=build/tests/tools
# a tracer with no "attached" line of its own gets this long to attach
SETTLE=1
# the veth load's two network namespaces, named after this run
NS_TX="dbtrace-bench-tx-$$"
NS_RX="dbtrace-bench-rx-$$"
NS_MADE=
BPF_STATS_PREV=

[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (dbtrace loads eBPF programs)" >&2; exit 1; }
WORK="$(mktemp -d /tmp/dbtrace-bench.XXXXXX)"
: >"$WORK/bg.pids"
: >"$WORK/first.s"

# The throwaway database servers (scripts/mariadb_throwaway.sh,
# scripts/pg_throwaway.sh): $WORK/NAME.start holds what `start` printed,
# "DIR PORT PID ...", and each script stops only the server in its DIR
# and removes DIR. A start runs in a session of its own, so a Ctrl-C
# does not cut it half-way (pg_throwaway.sh would leave its server); the
# bench waits for it with `wait`, which a trapped signal interrupts at
# once, and the EXIT trap waits for the start to finish, then stops the
# server.
declare -A DB_SCRIPT=([mariadb]=scripts/mariadb_throwaway.sh [pg]=scripts/pg_throwaway.sh)
DB_STARTING=
db_stop() {   # NAME
	local dir
	[ -s "$WORK/$1.start" ] || return 0
	read -r dir _ <"$WORK/$1.start" || true
	: >"$WORK/$1.start"
	[ -z "$dir" ] || "${DB_SCRIPT[$1]}" stop "$dir" >/dev/null 2>&1 || true
}

# Whatever way the run ends: stop the processes it started (by PID, from
# bg.pids) and the database servers, put kernel.bpf_stats_enabled back,
# remove the namespaces.
cleanup() {
	local pid
	# a second Ctrl-C must not leave a server behind
	trap '' INT TERM
	while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done <"$WORK/bg.pids"
	[ -z "$DB_STARTING" ] || wait "$DB_STARTING" 2>/dev/null || true
	db_stop mariadb
	db_stop pg
	[ -z "$BPF_STATS_PREV" ] || sysctl -qw kernel.bpf_stats_enabled="$BPF_STATS_PREV" || true
	if [ -n "$NS_MADE" ]; then
		ip netns delete "$NS_TX" 2>/dev/null || true
		ip netns delete "$NS_RX" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
# Ctrl-C or kill: leave through exit so the EXIT trap runs
trap 'exit 130' INT
trap 'exit 143' TERM

# --- processes the bench starts -----------------------------------------
# Loads and configurations run inside $(...) subshells, so the PIDs live in
# a file the EXIT trap can read, not in a variable.
bg_start() {   # OUT ERR CMD... ; sets BG_PID
	local out="$1" err="$2"
	shift 2
	"$@" >"$out" 2>"$err" &
	BG_PID=$!
	echo "$BG_PID" >>"$WORK/bg.pids"
}

# running and not a zombie (kill -0 succeeds on a zombie)
alive() {
	local state
	state="$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# SIGINT as a user stops a tracer (they print or flush on it); TERM, then
# KILL, if it is still there after 15 s. SIG: a first signal other than INT,
# for a tool with no SIGINT handler (a script's background jobs ignore it).
bg_stop() {   # PID [SIG]
	local pid="$1" sig
	for sig in "${2:-INT}" TERM KILL; do
		kill -"$sig" "$pid" 2>/dev/null || break
		for _ in $(seq 150); do alive "$pid" || break 2; sleep 0.1; done
	done
	wait "$pid" 2>/dev/null || true
	sed -i "/^$pid\$/d" "$WORK/bg.pids"
}

# Waits until PID prints PATTERN in one of FILES (a tracer saying it is
# attached), for 30 s: bpftrace compiles its script first. An empty
# PATTERN (a tracer that prints nothing when ready) waits SETTLE s.
wait_ready() {   # PID PATTERN FILES...
	local pid="$1" pattern="$2"
	shift 2
	if [ -z "$pattern" ]; then
		sleep "$SETTLE"
		alive "$pid"
		return
	fi
	for _ in $(seq 600); do
		alive "$pid" || return 1
		grep -qs -- "$pattern" "$@" && return 0
		sleep 0.05
	done
	return 1
}

# The last message a failed tool printed, for the n/a reason. bpftrace's
# RLIMIT_MEMLOCK complaint is left out: it prints it even when all is well.
last_words() {
	local w
	w="$(cat "$@" 2>/dev/null | grep -v '^[[:space:]]*$' | grep -v RLIMIT_MEMLOCK | tail -n 1 | cut -c1-100)" || true
	echo "${w:-exited without a message}"
}

# --- loads: each prints one throughput number -----------------------------
# Pinned to CPU 1: unpinned cross-CPU wake-ups swing 10x between runs here.
load_tcp_rr() { "$TOOLS/tcp_rr" -d "$SECS" -c 1 -S 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
# both ends on one CPU: the highest context-switch rate this machine reaches
load_pipe() { "$TOOLS/pipe_pingpong" -d "$SECS" -a 1 -b 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
# the clock family's two costs: CPU-clock samples on a vDSO-bound loop,
# and the syscall-entry hook on a loop of real clock syscalls
load_clock_vdso() { "$TOOLS/clock_loop" -m vdso -s 0.4 -d "$SECS" -c 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
load_clock_sys() { "$TOOLS/clock_loop" -m syscall -d "$SECS" -c 1 | sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }

# A real device path (veth xmit, NET_RX backlog, TCP), unlike loopback's
# shortcut: a one-way stream between two processes in two namespaces. Both
# ends on CPU 1 like the other loads; veth delivers on the sending CPU.
VETH_RX_ADDR=10.201.0.2
load_veth() {
	local out="$WORK/veth.rx" pid port
	bg_start "$out" "$WORK/veth.rx.err" \
		ip netns exec "$NS_RX" "$TOOLS/tcp_stream" -l -a "$VETH_RX_ADDR" -p 0 -c 1
	pid="$BG_PID"   # ip netns exec execs tcp_stream: the same PID
	wait_ready "$pid" '^listening' "$out" || { bg_stop "$pid" TERM; return 1; }
	port="$(sed -n 's/^listening.* port=\([0-9]*\).*/\1/p' "$out")"
	ip netns exec "$NS_TX" "$TOOLS/tcp_stream" -a "$VETH_RX_ADDR" -p "$port" -c 1 -d "$SECS" >/dev/null
	# the receiver prints its total once the sender has closed
	for _ in $(seq 100); do alive "$pid" || break; sleep 0.05; done
	bg_stop "$pid" TERM
	sed -n 's/^received bytes=\([0-9]*\) seconds=\([0-9.]*\).*/\1 \2/p' "$out" |
		awk '$2 > 0 { printf "%.0f\n", $1 / $2 / 1e6 }'
}

# The namespaces and the veth pair between them, created inside the
# namespaces so no address or device ever shows in the host's.
setup_netns() {
	ip netns add "$NS_TX" && NS_MADE=1 && ip netns add "$NS_RX" &&
		ip -n "$NS_TX" link add veth-tx type veth peer name veth-rx netns "$NS_RX" &&
		ip -n "$NS_TX" addr add 10.201.0.1/24 dev veth-tx &&
		ip -n "$NS_RX" addr add "$VETH_RX_ADDR/24" dev veth-rx &&
		ip -n "$NS_TX" link set veth-tx up &&
		ip -n "$NS_RX" link set veth-rx up
}

# --- real databases ------------------------------------------------------
# sysbench against MariaDB, pgbench against PostgreSQL 15, each server a
# throwaway the bench starts before the first of its loads and removes
# after the last (and the EXIT trap, however the run ends). Clients talk
# TCP to 127.0.0.1, not the unix socket: the net family traces TCP.
# Server and clients all on CPU 1, like the other loads: in 5 interleaved
# 3 s runs of each load, pinned against unpinned, the pinned runs spread
# 6-17% (highest to lowest rate) and the unpinned 11-72% (oltp_point_select
# 39k-68k tx/s): twice the rate, swinging with where the wake-ups land.
# 8 clients (8 threads), as a small application's connection pool: in 6
# interleaved 5 s runs with 2, 4 and 8, the spread was 17-26% with 8,
# 21-31% with 2 and 22-38% with 4 (a noisy hour of this VM).
DB_CLIENTS=8
DB_CPU=1
PG_BIN=/usr/lib/postgresql/15/bin
# sysbench's tables: 4 x 10000 rows, prepared in about a second
SB_TABLES=4
SB_TABLE_SIZE=10000
MY_PORT=
PG_PORT=
declare -A DB_NA=()
declare -A DB_NAME=([mariadb]=MariaDB [pg]="PostgreSQL 15")

# which server a load needs ("" for the other loads)
db_of() { case "$1" in sysbench_*) echo mariadb ;; pgbench_*) echo pg ;; esac; }

# Starts server NAME, pins it to DB_CPU (every thread; PostgreSQL's
# backends fork from the postmaster and inherit it), and readies the
# data; on failure the reason goes to DB_NA for each of its loads.
db_start() {   # NAME
	local name="$1" dir port pid why='' load p try
	echo "bench: starting a throwaway ${DB_NAME[$name]}" >&2
	# three tries: a port found free can be taken before the server binds it
	for try in 1 2 3; do
		why=''
		SYSBENCH_TABLES="$SB_TABLES" SYSBENCH_TABLE_SIZE="$SB_TABLE_SIZE" \
			setsid -w "${DB_SCRIPT[$name]}" start >"$WORK/$name.start" 2>"$WORK/$name.start.err" &
		DB_STARTING=$!
		if wait "$DB_STARTING"; then DB_STARTING=; break; fi
		DB_STARTING=
		why="$(last_words "$WORK/$name.start.err" | sed 's/^[a-z]*_throwaway: //')"
		# something is missing: no use trying again
		! grep -qs 'not installed\|run as root\|no mysql user' "$WORK/$name.start.err" || break
		[ "$try" = 3 ] || echo "${DB_NAME[$name]}: start $try failed ($why), tried again" >>"$WORK/notes"
	done
	[ -z "$why" ] || why="${DB_NAME[$name]} did not start: $why"
	if [ -z "$why" ]; then
		read -r dir port pid _ <"$WORK/$name.start"
		for p in "$pid" $([ "$name" != pg ] || pgrep -P "$pid"); do
			taskset -a -p -c "$DB_CPU" "$p" >/dev/null 2>>"$WORK/$name.start.err" || true
		done
		if [ "$name" = mariadb ]; then
			MY_PORT="$port"
		else
			PG_PORT="$port"
			# pgbench's tables at scale = clients (pg_throwaway.sh makes
			# scale 1): the TPC-B-like updates then do not mostly queue
			# on one branch row (pgbench(1))
			"$PG_BIN/pgbench" -i -q -s "$DB_CLIENTS" -h 127.0.0.1 -p "$port" -U postgres postgres \
				>"$WORK/pg.init" 2>&1 || why="pgbench -i failed: $(last_words "$WORK/pg.init")"
		fi
	fi
	[ -z "$why" ] || for load in "${LOADS[@]}"; do [ "$(db_of "$load")" != "$name" ] || DB_NA[$load]="$why"; done
}

# Each prints transactions/s over SECS (sysbench's "transactions: N (R
# per sec.)", pgbench's "tps = R"), as a whole number.
sysbench_run() {   # TEST
	taskset -c "$DB_CPU" sysbench "$1" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$MY_PORT" \
		--mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest \
		--tables="$SB_TABLES" --table-size="$SB_TABLE_SIZE" --threads="$DB_CLIENTS" --time="$SECS" run 2>>"$WORK/sysbench.err" |
		sed -n 's/.*transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' | awk '{ printf "%.0f\n", $1 }'
}
pgbench_run() {   # PGBENCH-OPTIONS...
	taskset -c "$DB_CPU" "$PG_BIN/pgbench" -h 127.0.0.1 -p "$PG_PORT" -U postgres \
		-c "$DB_CLIENTS" -j "$DB_CLIENTS" -T "$SECS" "$@" postgres 2>>"$WORK/pgbench.err" |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p' | awk '{ printf "%.0f\n", $1 }'
}
load_sysbench_ro() { sysbench_run oltp_read_only; }
load_sysbench_ps() { sysbench_run oltp_point_select; }
load_pgbench_s() { pgbench_run -S; }
load_pgbench_tpcb() { pgbench_run; }

declare -A LOAD_DESC=(
	[tcp_rr]="loopback TCP request/response, 64 B, both ends on CPU 1"
	[pipe]="pipe ping-pong between two threads on CPU 1, round trips/s"
	[clock_vdso]="clock_gettime/gettimeofday through the vDSO, 40% of CPU 1, calls/s"
	[clock_sys]="syscall(SYS_clock_gettime) loop on CPU 1, calls/s"
	[veth]="one-way TCP stream, 64 KiB writes, over a veth pair between two netns, CPU 1"
	[sysbench_ro]="sysbench oltp_read_only, MariaDB, $DB_CLIENTS threads over TCP to 127.0.0.1, all on CPU $DB_CPU, transactions/s"
	[sysbench_ps]="sysbench oltp_point_select, MariaDB, $DB_CLIENTS threads over TCP to 127.0.0.1, all on CPU $DB_CPU, transactions/s"
	[pgbench_s]="pgbench -S (select-only), PostgreSQL 15, $DB_CLIENTS clients over TCP to 127.0.0.1, all on CPU $DB_CPU, transactions/s"
	[pgbench_tpcb]="pgbench TPC-B-like, PostgreSQL 15, scale $DB_CLIENTS, $DB_CLIENTS clients over TCP to 127.0.0.1, all on CPU $DB_CPU, transactions/s"
)
declare -A LOAD_UNIT=([veth]=MB/s [sysbench_ro]=tx/s [sysbench_ps]=tx/s [pgbench_s]=tx/s [pgbench_tpcb]=tx/s)

# --- configurations: run "$@" (the load) under some tracer ---------------
# Each prints the load's rate, or "n/a" with the reason in $WORK/CFG.na:
# a tracer that is missing or fails must not stop the other measurements.
na() { echo "$2" >"$WORK/$1.na"; echo n/a; }

need() {   # CFG BINARY
	command -v "$2" >/dev/null && return 0
	na "$1" "$2 not installed (make bench installs it: scripts/setup.sh --bench)"
	return 1
}

# Starts the tracer (the words before --), waits until it is attached
# (READY: a pattern it prints then), runs the load (the words after --),
# stops the tracer with SIGINT as a user would.
under_tool() {   # CFG READY TRACER... -- LOAD...
	local cfg="$1" ready="$2" tool=() pid rate
	shift 2
	while [ "$1" != -- ]; do tool+=("$1"); shift; done
	shift
	bg_start "$WORK/$cfg.out" "$WORK/$cfg.err" "${tool[@]}"
	pid="$BG_PID"
	if ! wait_ready "$pid" "$ready" "$WORK/$cfg.out" "$WORK/$cfg.err"; then
		if alive "$pid"; then na "$cfg" "not attached after 30 s"
		else na "$cfg" "failed to start: $(last_words "$WORK/$cfg.err" "$WORK/$cfg.out")"; fi
		bg_stop "$pid"
		return 0
	fi
	rate="$("$@")" || true
	# a tracer that died during the load did not pay the whole run's cost
	if ! alive "$pid"; then
		na "$cfg" "exited during the load: $(last_words "$WORK/$cfg.err" "$WORK/$cfg.out")"
		bg_stop "$pid"
		return 0
	fi
	bg_stop "$pid"
	echo "$rate"
}

run_baseline() { "$@"; }

# The floor: empty BPF programs on every tracepoint dbtrace attaches to,
# plus a CPU-clock sampler (bpf/floor.bpf.c, loaded by tests/tools/
# bpf_floor): what any tracer of these events pays before doing any work.
run_floor() { under_tool floor attached "$TOOLS/bpf_floor" -- "$@"; }

# Empty programs on the clock syscalls' tracepoints alone: not dbtrace's
# default (it attaches no syscall hook where fentry is refused), but what
# --clock-syscalls=count costs there: any syscall tracepoint puts every
# task on the traced slow path of every system call.
run_syscall_tp() { under_tool syscall_tp attached "$TOOLS/bpf_floor" -s -- "$@"; }

# dbtrace capture with every family, started before and stopped after the
# load; its own CPU% and RSS come from the capture's overhead section.
DBTRACE_OPTS=()
run_dbtrace() { dbtrace_capture dbtrace "$@"; }

# dbtrace with the softirq and sched families only: what runqlat is the
# anchor for (issue 3 compares these two on the context-switch load).
run_dbtrace_ss() {
	# shellcheck disable=SC2054 # one option whose value is a comma list
	local DBTRACE_OPTS=(--families softirq,sched)
	dbtrace_capture dbtrace_ss "$@"
}

# The time view (issue 16): top --batch showing each class's wall-time
# budget, on the same two families; the budget is measured by the sched
# family's switch program, so this is dbtrace_ss's probes plus the view.
run_dbtrace_time() {
	under_tool dbtrace_time '^dbtrace top' "$DBTRACE" top --batch --view time -i 1 --families softirq,sched -- "$@"
}

# The loss family alone (retransmit and kfree_skb tracepoints: rare
# events, so next to nothing on a clean load), and every family but it:
# beside "dbtrace", its cost in context.
run_dbtrace_loss() {
	local DBTRACE_OPTS=(--families loss)
	dbtrace_capture dbtrace_loss "$@"
}
run_dbtrace_noloss() {
	# shellcheck disable=SC2054 # one option whose value is a comma list
	local DBTRACE_OPTS=(--families softirq,sched,clock,net)
	dbtrace_capture dbtrace_noloss "$@"
}

# The skeleton (bpf/skeleton.bpf.h): dbtrace's records kept, nothing
# measured. Between the floor and dbtrace: what any tracer that keeps a
# record per thread and per socket on these hooks pays before it measures.
# Its captures are not dbtrace's: they add nothing to the loader's figures.
run_skeleton() {
	[ -x "$SKELETON" ] || { na skeleton "$SKELETON not built (make skeleton)"; return 0; }
	under_tool skeleton capturing "$SKELETON" capture -d "$((SECS + 60))" -i 1 -o "$WORK/skeleton.json" -- "$@"
}

dbtrace_capture() {   # CFG LOAD...
	local cfg="$1" cap="$WORK/$1.json"
	shift
	rm -f "$cap"
	under_tool "$cfg" capturing "$DBTRACE" capture -d "$((SECS + 60))" -i 1 "${DBTRACE_OPTS[@]}" -o "$cap" -- "$@"
	if [ -s "$cap" ]; then capture_facts "$cfg" "$cap"; fi
}

# What a capture says about dbtrace itself and its attach paths.
capture_facts() {   # CFG CAPTURE
	jq -r '"\(.overhead.cpu_pct) \(.overhead.max_rss_kb)"' "$2" >>"$WORK/dbtrace.self"
	# every family asked for must be in the measured cost
	jq -r --arg c "$1" '.probes | to_entries[] | select(.value.enabled and .value.attach == null) | "\($c):\(.key)"' "$2" >>"$WORK/dbtrace.missing"
	jq -r '[.probes | to_entries[] | "\(.key)=\(.value.attach)"] | join(" ")' "$2" >"$WORK/$1.paths"
}

# The anchors: other tracers of the same events, each printing once per
# second like dbtrace at -i 1. libbpf-tools (Debian's libbpf-tools) print
# "Hit Ctrl-C" once attached; stdbuf, because they print through stdio to
# a file here. runqlat: the scheduler probes' anchor; softirqs: the softirq
# probes'; cpudist: on-CPU time from sched_switch.
run_runqlat() { need runqlat runqlat || return 0; under_tool runqlat 'Hit Ctrl-C' stdbuf -oL runqlat 1 -- "$@"; }
run_softirqs() { need softirqs softirqs || return 0; under_tool softirqs 'Hit Ctrl-C' stdbuf -oL softirqs 1 -- "$@"; }
run_cpudist() { need cpudist cpudist || return 0; under_tool cpudist 'Hit Ctrl-C' stdbuf -oL cpudist 1 -- "$@"; }

# perf sampling every CPU at 999 Hz into a file, as people profile a
# database under load; the data is thrown away. It says nothing when ready.
run_perf() {
	need perf perf || return 0
	under_tool perf '' perf record -a -F 999 -q -o "$WORK/perf.data" -- "$@"
	rm -f "$WORK/perf.data"
}

# bench/runqlat.bt: runqlat as a bpftrace one-pager, printing every second;
# it prints "ready" from BEGIN, which runs once all probes are attached.
run_bpftrace() { need bpftrace bpftrace || return 0; under_tool bpftrace '^ready' bpftrace -B none bench/runqlat.bt -- "$@"; }

declare -A CONFIG_DESC=(
	[baseline]="the load alone"
	[floor]="empty BPF programs on the events dbtrace measures + a CPU-clock sampler (tests/tools/bpf_floor); no syscall hook"
	[syscall_tp]="empty BPF programs on the clock syscalls' tracepoints alone (bpf_floor -s): what --clock-syscalls=count adds where fentry is refused"
	[dbtrace]="dbtrace capture -i 1, all families"
	[skeleton]="dbtrace built with DBT_SKELETON=1 (make skeleton): its records found, nothing measured"
	[dbtrace_ss]="dbtrace capture -i 1 --families softirq,sched"
	[dbtrace_time]="dbtrace top --batch --view time -i 1 --families softirq,sched"
	[dbtrace_loss]="dbtrace capture -i 1 --families loss (retransmits, drops, listeners)"
	[dbtrace_noloss]="dbtrace capture -i 1, every family but loss"
	[runqlat]="libbpf-tools runqlat 1"
	[softirqs]="libbpf-tools softirqs 1"
	[cpudist]="libbpf-tools cpudist 1"
	[perf]="perf record -a -F 999 -q to a file"
	[bpftrace]="bpftrace bench/runqlat.bt (wakeup stamp, switch histogram, print every 1 s)"
)
ANCHORS=(runqlat cpudist bpftrace)

# --- the rounds ---------------------------------------------------------
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# One run of LOAD under CFG: its rate goes to $WORK/LOAD.CFG (one per
# round, "ROUND RATE"), or the reason it has none to $WORK/LOAD.CFG.na.
run_one() {   # ROUND LOAD CFG
	local r="$1" load="$2" cfg="$3" rate
	# a tracer that failed once is not started again in every round
	if [ -e "$WORK/$cfg.na" ]; then
		rate=n/a
	else
		rate="$("run_$cfg" "load_$load")" || true
	fi
	if [[ "$rate" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
		echo "$r $rate" >>"$WORK/$load.$cfg"
	elif [ "$rate" != n/a ]; then
		echo "the load printed no rate" >"$WORK/$load.$cfg.na"
	fi
	printf '  %-10s round %d  %-10s %12s %s\n' "$load" "$r" "$cfg" "$rate" "${LOAD_UNIT[$load]:-ops/s}" >&2
}

# The configurations LOAD runs under: CONFIGS, less those not in
# DB_CONFIGS for a database load.
load_configs() {   # LOAD
	if [ -z "$(db_of "$1")" ] || [ "$DB_CONFIGS" = all ]; then
		printf '%s\n' "${CONFIGS[@]}"
	else
		printf '%s\n' "${CONFIGS[@]}" | grep -xF -f <(echo baseline floor "$DB_CONFIGS" | tr -s ' ' '\n')
	fi
}

# how many rounds LOAD runs
load_rounds() { if [ -n "$(db_of "$1")" ]; then echo "$DB_ROUNDS"; else echo "$ROUNDS"; fi; }

run_load() {   # LOAD
	local load="$1" r k n cfgs rounds
	if [ -n "${DB_NA[$load]:-}" ]; then
		printf '  %-10s n/a: %s\n' "$load" "${DB_NA[$load]}" >&2
		return 0
	fi
	mapfile -t cfgs < <(load_configs "$load")
	n=${#cfgs[@]}
	rounds="$(load_rounds "$load")"
	# A database's first run after its tables were made is the slowest
	# (caches, statistics, a server's own start-up work): one run
	# unmeasured first.
	if [ -n "$(db_of "$load")" ]; then
		printf '  %-10s warm-up    %12s %s\n' "$load" "$("load_$load" || true)" "${LOAD_UNIT[$load]}" >&2
	fi
	for ((r = 1; r <= rounds; r++)); do
		# rotate the order each round so no configuration always runs first
		for ((k = 0; k < n; k++)); do
			run_one "$r" "$load" "${cfgs[$(((k + r) % n))]}"
		done
	done
}

# --- the floor budget: tracers in turn on one long tcp_rr ------------------
# One load process for every round: what differs between processes (the
# per-run spread above) drops out, and a round starts no load. The rates
# come from tcp_rr's own progress lines ("at=T transactions=N", -P).

# The load's rate over SECS, BUDGET_SETTLE s from now (the tracer, if any,
# has just attached), from the progress lines in FILE.
segment_rate() {   # FILE
	local a b
	sleep "$BUDGET_SETTLE"
	a="$(tail -n 1 "$1")"
	sleep "$SECS"
	b="$(tail -n 1 "$1")"
	awk -v a="$a" -v b="$b" 'BEGIN {
		if (split(a, x, /[= ]/) != 4 || split(b, y, /[= ]/) != 4 || x[1] != "at" || y[2] <= x[2]) exit
		printf "%.0f\n", (y[4] - x[4]) / (y[2] - x[2]) }'
}

# Rates go to $WORK/budget.CFG ("ROUND RATE"), as run_one's do, so cost()
# and ratio_interval() read them as the load "budget". The skeleton takes
# a turn too when CONFIGS has it.
budget_configs() {
	printf '%s\n' baseline floor dbtrace
	[[ " ${CONFIGS[*]} " != *" skeleton "* ]] || echo skeleton
}

run_budget() {
	local prog="$WORK/budget.progress" pid r k n cfg rate cfgs
	mapfile -t cfgs < <(budget_configs)
	n=${#cfgs[@]}
	# long enough for every round; stopped as soon as they are done
	bg_start "$prog" "$WORK/budget.err" "$TOOLS/tcp_rr" -d "$((BUDGET_ROUNDS * n * (SECS + 8) + 30))" -c 1 -S 1 -P 0.25
	pid="$BG_PID"
	for _ in $(seq 100); do grep -qs '^at=' "$prog" && break; sleep 0.1; done
	for ((r = 1; r <= BUDGET_ROUNDS; r++)); do
		for ((k = 0; k < n; k++)); do
			cfg="${cfgs[$(((k + r) % n))]}"
			alive "$pid" || { echo "floor budget: the load ended in round $r: $(last_words "$WORK/budget.err")" >>"$WORK/notes"; break 2; }
			[ ! -e "$WORK/$cfg.na" ] || continue
			rate="$("run_$cfg" segment_rate "$prog")" || true
			[[ ! "$rate" =~ ^[0-9]+$ ]] || echo "$r $rate" >>"$WORK/budget.$cfg"
			printf '  %-10s round %d  %-10s %12s ops/s\n' budget "$r" "$cfg" "$rate" >&2
		done
	done
	bg_stop "$pid"
}

# Per round: CFG's cost against that round's own baseline, in %.
round_costs() {   # LOAD CFG
	[ -s "$WORK/$1.$2" ] && [ -s "$WORK/$1.baseline" ] || return 0
	awk 'NR == FNR { b[$1] = $2; next } ($1 in b) && b[$1] > 0 { printf "%.1f\n", 100 * (1 - $2 / b[$1]) }' \
		"$WORK/$1.baseline" "$WORK/$1.$2"
}

# The cost of CFG on LOAD: the median of its per-round costs ("" if none).
cost() { round_costs "$1" "$2" | median; }

# --- the report ---------------------------------------------------------
# the first "model name" of /proc/cpuinfo (x86 has one per CPU, arm64 none)
cpu_model() {
	local m
	m="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "${m:-unknown CPU}"
}

print_header() {
	local load cfg
	echo "dbtrace benchmark  $(date -u +%Y-%m-%dT%H:%M:%SZ)  kernel $(uname -r)"
	echo "CPU: $(cpu_model) x $(nproc)  rounds=$ROUNDS$(has_db_loads && echo "  db_rounds=$DB_ROUNDS")  ${SECS}s per run  dbtrace $(git describe --always --dirty 2>/dev/null || echo '?')"
	echo
	echo "loads:"
	for load in "${LOADS[@]}"; do printf '  %-12s %s\n' "$load" "${LOAD_DESC[$load]}"; done
	echo "configs:"
	# those that ran on some load
	for load in "${LOADS[@]}"; do load_configs "$load"; done | awk '!seen[$0]++' | while read -r cfg; do
		printf '  %-12s %s\n' "$cfg" "${CONFIG_DESC[$cfg]}"
	done
	if has_other_loads && has_db_loads && [ "$DB_CONFIGS" != all ]; then
		echo "  (the database loads: $(load_configs sysbench_ro | paste -sd' '))"
	fi
}

# whether LOADS has a database load
has_db_loads() {
	local load
	for load in "${LOADS[@]}"; do [ -z "$(db_of "$load")" ] || return 0; done
	return 1
}

# The table: one row per load and configuration; overhead is the median of
# the per-round overheads, each against the same round's baseline.
print_table() {
	local load cfg med c first why
	has_other_loads || return 0
	echo
	printf '%-10s  %-10s %12s %-6s %9s  %s\n' load config median unit overhead "per round %"
	for load in "${LOADS[@]}"; do
		[ -z "$(db_of "$load")" ] || continue
		first="$load"
		for cfg in "${CONFIGS[@]}"; do
			med="$(awk '{ print $2 }' "$WORK/$load.$cfg" 2>/dev/null | median)" || true
			if [ -z "$med" ]; then
				why="$(cat "$WORK/$load.$cfg.na" "$WORK/$cfg.na" 2>/dev/null | head -n 1)" || true
				printf '%-10s  %-10s %12s %-6s %9s  (%s)\n' "$first" "$cfg" n/a "" "" "${why:-no run}"
			elif [ "$cfg" = baseline ]; then
				printf '%-10s  %-10s %12.0f %-6s %9s\n' "$first" "$cfg" "$med" "${LOAD_UNIT[$load]:-ops/s}" -
			else
				c="$(cost "$load" "$cfg")"
				printf '%-10s  %-10s %12.0f %-6s %9s  %s\n' "$first" "$cfg" "$med" "${LOAD_UNIT[$load]:-ops/s}" \
					"${c:+$(printf '%.1f%%' "$c")}" "$(round_costs "$load" "$cfg" | paste -sd' ')"
			fi
			first=
		done
	done
}

# whether LOADS has a load that is not a database's
has_other_loads() {
	local load
	for load in "${LOADS[@]}"; do [ -n "$(db_of "$load")" ] || return 0; done
	return 1
}

# The database loads' table: as the one above (the median of the costs
# against each round's own baseline), with the 90% interval of that median.
print_db_table() {
	local load cfg med c ci first why
	has_db_loads || return 0
	echo
	echo "databases: $DB_ROUNDS rounds of ${SECS}s; cost: the median of the per-round costs, with its"
	echo "90% bootstrap interval (the rounds resampled 2000 times)"
	printf '%-12s  %-10s %10s %-5s %7s  %-15s  %s\n' load config median unit cost "90% interval" "per round %"
	for load in "${LOADS[@]}"; do
		[ -n "$(db_of "$load")" ] || continue
		if [ -n "${DB_NA[$load]:-}" ]; then
			printf '%-12s  n/a (%s)\n' "$load" "${DB_NA[$load]}"
			continue
		fi
		first="$load"
		while read -r cfg; do
			med="$(awk '{ print $2 }' "$WORK/$load.$cfg" 2>/dev/null | median)" || true
			if [ -z "$med" ]; then
				why="$(cat "$WORK/$load.$cfg.na" "$WORK/$cfg.na" 2>/dev/null | head -n 1)" || true
				printf '%-12s  %-10s %10s %-5s %7s  %-15s  (%s)\n' "$first" "$cfg" n/a "" "" "" "${why:-no run}"
			elif [ "$cfg" = baseline ]; then
				printf '%-12s  %-10s %10.0f %-5s %7s\n' "$first" "$cfg" "$med" "${LOAD_UNIT[$load]}" -
			else
				c="$(cost "$load" "$cfg")"
				ci="$(cost_interval "$load" "$cfg")"
				printf '%-12s  %-10s %10.0f %-5s %7s  %-15s  %s\n' "$first" "$cfg" "$med" "${LOAD_UNIT[$load]}" \
					"${c:+$(printf '%.1f%%' "$c")}" "${ci:+[${ci/ /, }]}" "$(round_costs "$load" "$cfg" | paste -sd' ')"
			fi
			first=
		done < <(load_configs "$load")
	done
}

print_attach_facts() {
	echo
	[ ! -s "$WORK/notes" ] || cat "$WORK/notes"
	[ ! -s "$WORK/dbtrace.paths" ] || echo "dbtrace attached: $(cat "$WORK/dbtrace.paths")"
	[ ! -s "$WORK/floor.out" ] || echo "floor: $(sed -n 's/^floor: //p' "$WORK/floor.out" | tail -n 1)"
	[ ! -s "$WORK/floor.err" ] || sort -u "$WORK/floor.err" | sed 's/^/  floor: /'
	[ ! -s "$WORK/dbtrace.missing" ] ||
		echo "warning: families that did not attach under dbtrace: $(sort -u "$WORK/dbtrace.missing" | paste -sd' ')"
}

# --- dbtrace's own costs -------------------------------------------------
# CPU% of one core and max RSS over every capture of this run (all at -i 1).
self_cpu() { [ ! -s "$WORK/dbtrace.self" ] || awk '{ c += $1; n++ } END { printf "%.2f\n", c / n }' "$WORK/dbtrace.self"; }
self_rss_mib() { [ ! -s "$WORK/dbtrace.self" ] || awk '$2 > r { r = $2 } END { printf "%.1f\n", r / 1024 }' "$WORK/dbtrace.self"; }

# Seconds from starting `dbtrace top -i 1` to its first table on screen:
# the interactive view, run on a pseudo-terminal by script(1), is what a
# user starts, and its column header ("%usr") is drawn with the first
# numbers. (`--batch` prints one table per whole interval, like top -b.)
first_output_secs() {
	local fifo="$WORK/top.fifo" t0 chunk pid fd
	rm -f "$fifo"
	mkfifo "$fifo"
	t0="$EPOCHREALTIME"
	TERM=xterm bg_start "$fifo" "$WORK/top.err" script -qfc "$DBTRACE top -i 1 -d 2" /dev/null
	pid="$BG_PID"
	exec {fd}<"$fifo"
	while read -r -t 10 -d '%' -u "$fd" chunk; do
		read -r -t 10 -N 3 -u "$fd" chunk || break
		if [ "$chunk" = usr ]; then
			awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }' >>"$WORK/first.s"
			break
		fi
	done
	cat <&"$fd" >/dev/null   # let it finish its 2 s undisturbed
	exec {fd}<&-
	bg_stop "$pid"
}

# kernel.bpf_stats_enabled costs every BPF program on the machine two clock
# reads per run: on only around the two measurements, then back as it was.
bpf_stats_on() {
	BPF_STATS_PREV="$(sysctl -n kernel.bpf_stats_enabled)"
	sysctl -qw kernel.bpf_stats_enabled=1
}
bpf_stats_restore() {
	[ -z "$BPF_STATS_PREV" ] || sysctl -qw kernel.bpf_stats_enabled="$BPF_STATS_PREV"
	BPF_STATS_PREV=
}

# "ID NAME RUN_CNT RUN_TIME_NS ATTACH" for each BPF program PID holds.
# bpftool's "pids" needs BPF task iterators, which this kernel refuses like
# fentry, so the programs are also found by the prog_id of PID's open fds.
prog_stats() {   # PID
	local ids
	ids="$(cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -un | paste -sd, -)" || true
	bpftool link show -j >"$WORK/links.json" 2>/dev/null || echo '[]' >"$WORK/links.json"
	{ bpftool prog show -j 2>/dev/null || echo '[]'; } | jq -r --argjson ids "[$ids]" --argjson pid "$1" --slurpfile links "$WORK/links.json" '
		($links[0] | map({ key: (.prog_id | tostring), value: (.tp_name // .type) }) | from_entries) as $at
		| .[] | select((.id as $i | any($ids[]; . == $i)) or any(.pids[]?; .pid == $pid))
		| "\(.id) \(.name) \(.run_cnt // 0) \(.run_time_ns // 0) \($at[.id | tostring] // "-")"'
}

# Runs a BPF loader under one tcp_rr run with bpf_stats on; writes
# "NAME ATTACH EVENTS RUN_NS" per program for that run to $WORK/LABEL.bpf,
# or the reason it could not to $WORK/LABEL.bpf.na.
bpf_cost() {   # LABEL READY CMD...
	local label="$1" ready="$2" pid
	shift 2
	bg_start "$WORK/$label.bpf.out" "$WORK/$label.bpf.err" "$@"
	pid="$BG_PID"
	if ! wait_ready "$pid" "$ready" "$WORK/$label.bpf.out" "$WORK/$label.bpf.err"; then
		last_words "$WORK/$label.bpf.err" "$WORK/$label.bpf.out" >"$WORK/$label.bpf.na"
		bg_stop "$pid"
		return 0
	fi
	prog_stats "$pid" >"$WORK/$label.prog0" || true
	load_tcp_rr >/dev/null || true
	prog_stats "$pid" >"$WORK/$label.prog1" || true
	bg_stop "$pid"
	awk 'NR == FNR { c[$1] = $3; t[$1] = $4; next } { print $2, $5, $3 - c[$1], $4 - t[$1] }' \
		"$WORK/$label.prog0" "$WORK/$label.prog1" | sort >"$WORK/$label.bpf"
}

measure_bpf_costs() {
	command -v bpftool >/dev/null || { echo "bpftool not installed" | tee "$WORK/dbtrace.bpf.na" >"$WORK/floor.bpf.na"; return 0; }
	bpf_stats_on
	bpf_cost dbtrace capturing "$DBTRACE" capture -d "$((SECS + 60))" -i 1 -o "$WORK/stats.json"
	if [ -x "$SKELETON" ]; then
		bpf_cost skeleton capturing "$SKELETON" capture -d "$((SECS + 60))" -i 1 -o "$WORK/skeleton-stats.json"
	else
		echo "$SKELETON not built (make skeleton)" >"$WORK/skeleton.bpf.na"
	fi
	[ -z "${BEFORE:-}" ] || bpf_cost before capturing "$BEFORE" capture -d "$((SECS + 60))" -i 1 -o "$WORK/before.json"
	bpf_cost floor attached "$TOOLS/bpf_floor"
	bpf_stats_restore
	if [ -s "$WORK/stats.json" ]; then
		jq -r '"\(.overhead.cpu_pct) \(.overhead.max_rss_kb)"' "$WORK/stats.json" >>"$WORK/dbtrace.self" || true
	fi
}

# One table per loader; dbtrace's rows also show the empty floor program on
# the same tracepoint, so each program's cost over the empty one is visible.
# The total is the share of one core all its programs took during the run.
print_bpf_table() {   # LABEL
	local label="$1" floor="$WORK/floor.bpf"
	[ -s "$floor" ] || floor=/dev/null
	if [ ! -s "$WORK/$label.bpf" ]; then
		echo "  $label: n/a ($(cat "$WORK/$label.bpf.na" 2>/dev/null || echo 'no programs found'))"
		return 0
	fi
	awk -v label="$label" -v secs="$SECS" -v floor="$floor" '
		# the floor: its program per attach point, when it has only one there
		BEGIN { while ((getline l < floor) > 0) { split(l, f, " "); n[f[2]]++; if (f[3] > 0) { fl[f[2]] = f[1]; fns[f[2]] = f[4] / f[3] } } }
		FNR == 1 { printf "  %-16s %-20s %12s %9s   %s\n", label, "attached to", "events", "ns/event", (label == "floor" ? "" : "empty ns/event") }
		{
			ns = ($3 > 0 ? sprintf("%.0f", $4 / $3) : "-")
			empty = (label != "floor" && ($2 in fl) && n[$2] == 1) ? sprintf("%.0f (%s)", fns[$2], fl[$2]) : ""
			printf "  %-16s %-20s %12d %9s   %s\n", $1, $2, $3, ns, empty
			ev += $3; t += $4
		}
		END { printf "  %-16s %-20s %12d %9s   %.2f%% of one core\n", "all programs", "", ev, (ev > 0 ? sprintf("%.0f", t / ev) : "-"), t / (secs * 1e7) }
	' "$WORK/$label.bpf"
}

print_self() {
	local first
	echo
	echo "dbtrace itself (every capture of this run at -i 1):"
	if [ -s "$WORK/dbtrace.self" ]; then
		echo "  the loader (dbtrace's user-space process, from the capture's overhead section): CPU $(self_cpu)%"
		echo "  of one core (mean), max RSS $(self_rss_mib) MiB (captures: $(wc -l <"$WORK/dbtrace.self")); its BPF programs'"
		echo "  run time is apart: 'all programs' below, as a share of one core on tcp_rr"
	else
		echo "  n/a (no capture ran)"
	fi
	[ "$EXTRAS" != 0 ] || return 0
	first="$(median <"$WORK/first.s")"
	echo "  first table of top -i 1: ${first:-n/a} s after start (median of $(wc -l <"$WORK/first.s") starts)"
	echo
	echo "BPF run time per event (kernel.bpf_stats_enabled=1, one ${SECS}s tcp_rr run each; every"
	echo "number includes the two clock reads bpf_stats adds, as the empty programs show):"
	print_bpf_table dbtrace
	echo
	echo "  the skeleton (dbtrace's records found, nothing measured: make skeleton):"
	print_bpf_table skeleton
	if [ -n "${BEFORE:-}" ]; then
		echo
		echo "  the same for BEFORE=$BEFORE:"
		print_bpf_table before
	fi
	echo
	print_bpf_table floor
}

# --- targets (ARCHITECTURE.md's budgets) ---------------------------------
# One line per target (and load): what, the numbers, the verdict word.
target() { printf '  %-26s %-62s %s\n' "$1" "$2" "$3"; }
verdict() { if [ "$1" = 1 ]; then echo met; else echo "NOT met"; fi; }

# Overhead below every anchor on LOAD. NOT met as soon as one anchor costs
# no more than dbtrace; n/a when dbtrace or an anchor has no number.
anchor_target() {   # LOAD
	local d a c worse=0 missing=() line
	d="$(cost "$1" dbtrace)"
	[ -n "$d" ] || { target "  $1" "dbtrace n/a" n/a; return; }
	line="dbtrace $d%"
	for a in "${ANCHORS[@]}"; do
		c="$(cost "$1" "$a")"
		if [ -z "$c" ]; then missing+=("$a"); line+="  $a n/a"; continue; fi
		line+="  $a $c%"
		if awk -v d="$d" -v c="$c" 'BEGIN { exit !(d >= c) }'; then worse=1; fi
	done
	if [ "$worse" = 1 ]; then target "  $1" "$line" "NOT met"
	elif [ ${#missing[@]} -gt 0 ]; then target "  $1" "$line" "n/a (no ${missing[*]})"
	else target "  $1" "$line" met; fi
}

# awk's median of A[1..N], sorting A in place: mawk has no sort, and an
# insertion sort is fine for a few dozen rounds (and 2000 resamplings)
AWK_MED='
	function med(a, n,   i, j, x) {
		for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}'

# How sure the ratio of dbtrace's (or CFG's) cost to the floor's is:
# resampling the rounds (each round's baseline, floor and CFG runs kept
# together) 2000 times, the 5th and 95th percentiles of the ratio of the
# medians. Prints "LOW-HIGH", or nothing with fewer than 5 complete
# rounds. mawk has no sort: insertion sorts, fine for a few dozen rounds.
ratio_interval() {   # LOAD [CFG]
	local cfg="${2:-dbtrace}"
	[ -s "$WORK/$1.baseline" ] && [ -s "$WORK/$1.floor" ] && [ -s "$WORK/$1.$cfg" ] || return 0
	awk "$AWK_MED"'
		FILENAME == ARGV[1] { b[$1] = $2; next }
		FILENAME == ARGV[2] { f[$1] = $2; next }
		{ d[$1] = $2 }
		END {
			for (r in d) if ((r in f) && (r in b) && b[r] > 0) {
				n++; fc[n] = 1 - f[r] / b[r]; dc[n] = 1 - d[r] / b[r]
			}
			if (n < 5) exit
			srand(1)
			for (k = 1; k <= 2000; k++) {
				for (i = 1; i <= n; i++) { j = int(rand() * n) + 1; xs[i] = fc[j]; ys[i] = dc[j] }
				mf = med(xs, n); md = med(ys, n)
				if (md < 0) md = 0
				ratio[k] = mf > 0 ? md / mf : 99
			}
			med(ratio, 2000)
			printf "%.2f-%.2f", ratio[100], ratio[1900]
		}' "$WORK/$1.baseline" "$WORK/$1.floor" "$WORK/$1.$cfg"
}

# The same for the cost of CFG on LOAD (the median of its per-round costs,
# each against its round's own baseline): "LOW HIGH" in %, the 5th and
# 95th percentiles of the median over 2000 resamplings of the rounds, or
# nothing with fewer than 5 rounds.
cost_interval() {   # LOAD CFG
	round_costs "$1" "$2" | awk "$AWK_MED"'
		{ c[++n] = $1 }
		END {
			if (n < 5) exit
			srand(1)
			for (k = 1; k <= 2000; k++) {
				for (i = 1; i <= n; i++) xs[i] = c[int(rand() * n) + 1]
				m[k] = med(xs, n)
			}
			med(m, 2000)
			printf "%.1f %.1f", m[100], m[1900]
		}'
}

# dbtrace's cost at most LIMIT times the floor's; a cost below zero
# (noise) counts as zero, so a floor within noise asks dbtrace to be within
# it too. With SKEL set, the skeleton's ratio follows, for what it is
# worth beside the limit: what keeping the records costs alone.
floor_target() {   # LOAD LABEL LIMIT [SKEL]
	local d f s ci sci rounds label="$2" limit="$3"
	d="$(cost "$1" dbtrace)"
	f="$(cost "$1" floor)"
	if [ -z "$d" ] || [ -z "$f" ]; then target "  $label" "dbtrace ${d:-n/a}${d:+%}  floor ${f:-n/a}${f:+%}" n/a; return; fi
	ci="$(ratio_interval "$1")"
	rounds="$(round_costs "$1" dbtrace | wc -l)"
	if [ -n "${4:-}" ]; then
		s="$(cost "$1" skeleton)"
		sci="$(ratio_interval "$1" skeleton)"
	fi
	target "  $label" "$(awk -v d="$d" -v f="$f" -v ci="$ci" -v n="$rounds" -v skel="${4:-}" -v s="${s:-}" -v sci="${sci:-}" 'BEGIN {
		d0 = (d > 0 ? d : 0); f0 = (f > 0 ? f : 0); s0 = (s > 0 ? s : 0)
		printf "dbtrace %.1f%%  floor %.1f%%  %s", d, f, (f0 > 0 ? sprintf("%.2fx the floor", d0 / f0) : "floor within noise")
		if (ci != "") printf " (90%%: %s, %d rounds)", ci, n
		if (skel == "") exit
		if (s == "") printf "; skeleton n/a"
		else printf "; skeleton %s", (f0 > 0 ? sprintf("%.2fx", s0 / f0) : sprintf("%.1f%%", s))
		if (sci != "") printf " (90%%: %s)", sci }')" \
		"$(floor_verdict "$d" "$f" "$ci" "$rounds" "$label" "$limit")"
}

# The budget (tcp_rr, one process) is met only when the upper end of the
# 90% interval is within LIMIT, over at least 24 rounds: the point estimate
# alone swings across 1.5 from run to run here. The per-load rows, 3
# rounds each, are judged on their point estimate and say so.
floor_verdict() {   # DBTRACE FLOOR INTERVAL ROUNDS LABEL LIMIT
	local d="$1" f="$2" ci="$3" n="$4" limit="$6"
	if [ "$5" = "tcp_rr, one process" ]; then
		[ -n "$ci" ] && [ "$n" -ge 24 ] || { echo "n/a (needs 24 rounds and an interval)"; return; }
		verdict "$(awk -v hi="${ci#*-}" -v l="$limit" 'BEGIN { print (hi <= l) }')"
		return
	fi
	verdict "$(awk -v d="$d" -v f="$f" -v l="$limit" 'BEGIN { print ((d > 0 ? d : 0) <= l * (f > 0 ? f : 0)) }')"
}

# LABEL's run time per event on TRACEPOINT (its BPF table), whole ns, or -.
event_ns() {   # LABEL TRACEPOINT
	local ns=
	[ ! -s "$WORK/$1.bpf" ] || ns="$(awk -v tp="$2" '$2 == tp && $3 > 0 { printf "%.0f", $4 / $3; exit }' "$WORK/$1.bpf")"
	echo "${ns:--}"
}

# Issue 29: a program's run time per event over the floor's empty program
# on the same tracepoint (the BPF tables), dbtrace's within LIMIT ns; the
# skeleton's beside it: what finding the records costs there alone.
event_target() {   # TRACEPOINT LIMIT
	local e d s
	e="$(event_ns floor "$1")"
	d="$(event_ns dbtrace "$1")"
	s="$(event_ns skeleton "$1")"
	if [ "$e" = - ] || [ "$d" = - ]; then target "  $1" "n/a (no program of the floor's or dbtrace's on it)" n/a; return; fi
	target "  $1" "dbtrace $((d - e)) ns over the empty $e ns; skeleton $([ "$s" = - ] && echo n/a || echo "$((s - e)) ns")" \
		"$(verdict "$([ $((d - e)) -le "$2" ] && echo 1 || echo 0)")"
}

# A database load (issue: "below runqlat and cpudist on each"): met when
# the upper end of dbtrace's 90% interval is below each anchor's median
# cost, so a dbtrace that is only cheaper by noise is not met; NOT met
# otherwise; n/a without an interval (fewer than 5 rounds) or an anchor.
db_target() {   # LOAD
	local d ci hi a c worse=0 missing=() line
	if [ -n "${DB_NA[$1]:-}" ]; then target "  $1" "n/a: ${DB_NA[$1]}" n/a; return; fi
	d="$(cost "$1" dbtrace)"
	[ -n "$d" ] || { target "  $1" "dbtrace n/a" n/a; return; }
	ci="$(cost_interval "$1" dbtrace)"
	line="dbtrace $(printf '%.1f' "$d")%${ci:+ [${ci/ /, }]}"
	hi="${ci#* }"
	for a in runqlat cpudist; do
		c="$(cost "$1" "$a")"
		if [ -z "$c" ]; then missing+=("$a"); line+="  $a n/a"; continue; fi
		line+="  $a $(printf '%.1f' "$c")%"
		if [ -n "$ci" ] && awk -v h="$hi" -v c="$c" 'BEGIN { exit !(h >= c) }'; then worse=1; fi
	done
	if [ "$worse" = 1 ]; then target "  $1" "$line" "NOT met"
	elif [ -z "$ci" ]; then target "  $1" "$line" "n/a (needs 5 rounds for an interval)"
	elif [ ${#missing[@]} -gt 0 ]; then target "  $1" "$line" "n/a (no ${missing[*]})"
	else target "  $1" "$line" met; fi
}

# A budget VALUE < LIMIT, printed as VALUE followed by SUFFIX.
below_target() {   # WHAT VALUE LIMIT SUFFIX
	if [ -z "$2" ]; then target "$1" n/a n/a; return; fi
	target "$1" "$2$4" "$(verdict "$(awk -v v="$2" -v l="$3" 'BEGIN { print (v < l) }')")"
}

print_targets() {
	local load tp
	echo
	echo "targets (ARCHITECTURE.md; reported, never an exit status):"
	if has_other_loads; then
		echo "  overhead below runqlat, cpudist and bpftrace on every load:"
		for load in "${LOADS[@]}"; do [ -n "$(db_of "$load")" ] || anchor_target "$load"; done
	fi
	if has_db_loads; then
		echo "  the databases, overhead below runqlat and cpudist (upper end of dbtrace's 90% interval"
		echo "  over $DB_ROUNDS rounds below each one's median):"
		for load in "${LOADS[@]}"; do [ -z "$(db_of "$load")" ] || db_target "$load"; done
	fi
	echo "  dbtrace within 1.5x the floor's cost (the budget: tcp_rr, one process, upper end of"
	echo "  the 90% interval over >= 24 rounds; the per-load rows: point estimate over $ROUNDS rounds$(has_db_loads && echo ", $DB_ROUNDS on the databases")):"
	[ "$BUDGET_ROUNDS" = 0 ] || floor_target budget "tcp_rr, one process" 1.5
	for load in "${LOADS[@]}"; do floor_target "$load" "$load" 1.5; done
	echo "  issue 29: dbtrace within 1.25x the floor's cost, judged the same way; beside it the"
	echo "  skeleton's ratio (dbtrace's records found, nothing measured: the least a build keeping them costs):"
	[ "$BUDGET_ROUNDS" = 0 ] || floor_target budget "tcp_rr, one process" 1.25 skeleton
	for load in "${LOADS[@]}"; do floor_target "$load" "$load" 1.25 skeleton; done
	if [ "$EXTRAS" != 0 ]; then
		echo "  issue 29: run time per event over the empty program, tcp_rr (sched_switch +40 ns,"
		echo "  the socket programs +20, softirq +15):"
		event_target sched_switch 40
		for tp in tcp_sendmsg_locked sock_recv_length sk_data_ready; do event_target "$tp" 20; done
		for tp in softirq_raise softirq_entry softirq_exit; do event_target "$tp" 15; done
	fi
	echo "  the time view (sched's wall-time budget) below runqlat (issue 16):"
	for load in pipe tcp_rr; do
		[[ " ${LOADS[*]} " == *" $load "* ]] || continue
		below_target "  $load" "$(cost "$load" dbtrace_time)" "$(cost "$load" runqlat)" "% vs runqlat $(cost "$load" runqlat)%"
	done
	if [[ " ${LOADS[*]} " == *" clock_sys "* ]]; then
		below_target "clock_sys < 5% by default" "$(cost clock_sys dbtrace)" 5 "% of the syscall loop's calls/s"
	fi
	below_target "loader < 1% of a core" "$(self_cpu)" 1 "% of one core at -i 1"
	below_target "max RSS < 30 MiB" "$(self_rss_mib)" 30 " MiB"
	if [ "$EXTRAS" != 0 ]; then
		below_target "first table < 1 s" "$(median <"$WORK/first.s")" 1 " s after start"
	fi
}

# The floor budget's phase: medians and per-round costs, as in the table.
print_budget() {
	local cfg c
	[ "$BUDGET_ROUNDS" != 0 ] && [ -s "$WORK/budget.baseline" ] || return 0
	echo
	echo "floor budget: tcp_rr in one process, $BUDGET_ROUNDS rounds of ${SECS}s, $(budget_configs | awk '{ a[NR] = $0 } END { for (i = 1; i <= NR; i++) printf "%s%s", a[i], (i == NR ? "" : i == NR - 1 ? " and " : ", ") }') in turn"
	for cfg in $(budget_configs); do
		[ -s "$WORK/budget.$cfg" ] || { printf '  %-10s n/a\n' "$cfg"; continue; }
		c="$(cost budget "$cfg")"
		printf '  %-10s %12.0f ops/s %9s  %s\n' "$cfg" "$(awk '{ print $2 }' "$WORK/budget.$cfg" | median)" \
			"$([ "$cfg" = baseline ] && echo - || printf '%.1f%%' "$c")" \
			"$([ "$cfg" = baseline ] || round_costs budget "$cfg" | paste -sd' ')"
	done
}

report() {
	print_header
	print_table
	print_db_table
	print_budget
	print_attach_facts
	print_self
	print_targets
}

# --- --write: the report into a Markdown file ----------------------------
# Everything above the marker is the hand-written text and stays; what is
# below it is replaced by this run's report.
MARKER='<!-- bench/run.sh --write replaces everything below this line -->'
write_doc() {   # FILE REPORT
	local tmp="$1.tmp.$$"
	{
		if [ -f "$1" ] && grep -qxF -- "$MARKER" "$1"; then
			awk -v m="$MARKER" '{ print } $0 == m { exit }' "$1"
		else
			[ ! -f "$1" ] || { cat "$1"; echo; }
			echo "$MARKER"
		fi
		echo
		echo "## Latest run"
		echo
		echo "\`bench/run.sh --write\` on $(date -u +%Y-%m-%d): Linux $(uname -r), $(cpu_model) x $(nproc)."
		echo
		echo '```'
		cat "$2"
		echo '```'
	} >"$tmp"
	mv "$tmp" "$1"
}

# --- main ---------------------------------------------------------------
read -r -a LOADS <<<"${LOADS:-tcp_rr pipe clock_vdso clock_sys veth sysbench_ro sysbench_ps pgbench_s pgbench_tpcb}"
read -r -a CONFIGS <<<"${CONFIGS:-baseline floor dbtrace skeleton dbtrace_ss dbtrace_time dbtrace_loss dbtrace_noloss syscall_tp runqlat softirqs cpudist perf bpftrace}"
# every cost is against the baseline, and dbtrace's against the floor too:
# both always run, and come first in the table
read -r -a CONFIGS <<<"baseline floor $(printf '%s\n' "${CONFIGS[@]}" | grep -vxE 'baseline|floor' | paste -sd' ')"
for load in "${LOADS[@]}"; do [ -n "${LOAD_DESC[$load]:-}" ] || { echo "bench: unknown load $load" >&2; usage; }; done
for cfg in "${CONFIGS[@]}"; do [ -n "${CONFIG_DESC[$cfg]:-}" ] || { echo "bench: unknown config $cfg" >&2; usage; }; done
[ "$DB_CONFIGS" = all ] || for cfg in $DB_CONFIGS; do
	[ -n "${CONFIG_DESC[$cfg]:-}" ] || { echo "bench: unknown config $cfg in DB_CONFIGS" >&2; usage; }
done

# bpftrace's tracepoints (and the floor's plain ones) need tracefs, not
# mounted on a fresh machine; dbtrace mounts it too when it needs it.
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true

if [[ " ${LOADS[*]} " == *" veth "* ]] && ! setup_netns 2>"$WORK/netns.err"; then
	echo "veth load left out: cannot make its namespaces: $(last_words "$WORK/netns.err")" | tee -a "$WORK/notes" >&2
	read -r -a LOADS <<<"$(printf '%s\n' "${LOADS[@]}" | grep -vx veth | paste -sd' ')"
fi

n_db=0
for load in "${LOADS[@]}"; do [ -z "$(db_of "$load")" ] || n_db=$((n_db + 1)); done
plan=()
[ "$n_db" = "${#LOADS[@]}" ] || plan+=("$((${#LOADS[@]} - n_db)) loads x ${#CONFIGS[@]} configs x $ROUNDS rounds")
[ "$n_db" = 0 ] || plan+=("$n_db database loads x $(load_configs sysbench_ro | wc -l) configs x $DB_ROUNDS rounds")
echo "bench: $(printf '%s, ' "${plan[@]}")${SECS}s a run, then the floor budget: $BUDGET_ROUNDS rounds" >&2
for ((i = 0; i < ${#LOADS[@]}; i++)); do
	load="${LOADS[$i]}"
	db="$(db_of "$load")"
	# a database's server: started before the first of its loads, stopped
	# after the last, so it idles through no other load's runs
	[ -z "$db" ] || [ -s "$WORK/$db.start" ] || [ -n "${DB_NA[$load]:-}" ] || db_start "$db"
	run_load "$load"
	later=0
	for l in "${LOADS[@]:i+1}"; do [ "$(db_of "$l")" != "$db" ] || later=1; done
	[ -z "$db" ] || [ "$later" = 1 ] || db_stop "$db"
done
if [ "$BUDGET_ROUNDS" != 0 ]; then
	if [[ " ${CONFIGS[*]} " == *" dbtrace "* ]]; then run_budget
	else echo "floor budget left out: CONFIGS has no dbtrace" >>"$WORK/notes"; fi
fi
if [ "$EXTRAS" != 0 ]; then
	echo "bench: time to first output, BPF run time per event" >&2
	for _ in 1 2 3; do first_output_secs; done
	measure_bpf_costs
fi

report | tee "$WORK/report.txt"
if [ -n "$WRITE" ]; then
	write_doc "$WRITE" "$WORK/report.txt"
	echo "bench: report written to $WRITE" >&2
fi
