#!/usr/bin/env bats
# A real database: a throwaway PostgreSQL 15 cluster (scripts/pg_throwaway.sh:
# initdb in a mktemp -d directory, a private port, never the system's
# cluster) under pgbench, checked against pgbench's own report and the
# backends' /proc/PID/stat.

load helpers/common

PGT="$REPO/scripts/pg_throwaway.sh"
PGBENCH=/usr/lib/postgresql/15/bin/pgbench

setup_file() {
	[ -x /usr/lib/postgresql/15/bin/initdb ] && [ -x "$PGBENCH" ] || return 0
	read -r PG_DIR PG_PORT PG_PID PG_USER < <("$PGT" start)
	export PG_DIR PG_PORT PG_PID PG_USER
}

teardown_file() {
	[ -n "${PG_DIR:-}" ] && "$PGT" stop "$PG_DIR"
	return 0
}

setup() {
	[ -n "${PG_DIR:-}" ] || skip "PostgreSQL 15 and pgbench not installed (scripts/setup.sh --test)"
	# for commands put in the background: setpriv execs them, so $! is
	# their pid, where as_pg_user's would be its subshell's
	AS_PG=(setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups --)
	make_scratch
}

teardown() {
	# a pgbench left stopped takes its SIGTERM once continued
	[ -n "${PGB:-}" ] && { kill "$PGB"; kill -CONT "$PGB"; } 2>/dev/null
	if [ -n "${CG:-}" ]; then
		# the cluster back where it was, the test's cgroup removed
		local p
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do echo "$p" >"$CG_ORIG/cgroup.procs"; done
		rmdir "$CG"
	fi
	teardown_scratch
}

# As the server's OS user, in the foreground: setpriv (runuser needs PAM,
# which the VM guest lacks). In the background, "${AS_PG[@]}" (setup).
as_pg_user() {
	setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups -- "$@"
}

# pgbench as the postgres user over TCP to the throwaway server; its
# report in $SCRATCH/pgbench.out.
pgbench_run() {
	as_pg_user "$PGBENCH" -h 127.0.0.1 -p "$PG_PORT" -U postgres --protocol=simple -n "$@" postgres \
		>"$SCRATCH/pgbench.out" 2>&1
}

pgb() {   # the number after TEXT in pgbench's report
	awk -v t="$1" 'index($0, t) == 1 { sub(t, ""); print $1 + 0; exit }' "$SCRATCH/pgbench.out"
}

backend() {   # FIELD of the summary's postgres: backend class
	class_field "$SCRATCH/run.json" "$PG_PID" "postgres: backend" ".$1"
}

# The pids of the server's client backends.
backend_pids() {
	local p
	for p in $(pgrep -P "$PG_PID"); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q '127\.0\.0\.1(' && echo "$p"
	done
	return 0
}

# Waits (5 s at most) until the server has exactly $1 client backends,
# the last test's gone; sets pids.
wait_backends() {
	for _ in $(seq 50); do
		pids=($(backend_pids))
		[ "${#pids[@]}" -eq "$1" ] && return 0
		sleep 0.1
	done
	echo "the server has ${#pids[@]} client backends, not $1" >&2
	return 1
}

stat_ticks() {   # utime + stime of the pids given, summed (clock ticks)
	local p
	for p in "$@"; do awk '{ print $14 + $15 }' "/proc/$p/stat"; done | awk '{ t += $1 } END { print t + 0 }'
}

# pgbench's whole run sits inside the capture, so every statement it sent
# is one the server answered in the window.
requests_vs_pgbench() {   # pgbench options...; STMTS statements per transaction
	local tx sent got p50 lat
	CAPTURE_OPTS=(--families net,sched --port "$PG_PORT")
	capture_around "$SCRATCH/run.json" 8 pgbench_run "$@"
	tx="$(pgb 'number of transactions actually processed:')"
	lat="$(pgb 'latency average =')"
	sent=$((tx * STMTS))
	got="$(port_field "$PG_PORT" server requests)"
	p50="$(port_field "$PG_PORT" server response_p50_us)"
	echo "pgbench $*: $tx transactions, $sent statements, latency average $lat ms;" \
		"dbtrace: $got requests, server response p50 $p50 us"
	# enough that 5% (30 at 600) is more than the connections' own
	# startup messages (about 20 for 8 clients); the TCG guest sends
	# 1000-1300 in 4 s, the host a hundred times that
	[ "$sent" -gt 600 ]
	within_pct "$got" "$sent" 5
	awk -v a="$p50" -v b="$lat" 'BEGIN { exit !(a > 0 && a < b * 1000) }'
	"$VALIDATE" "$SCRATCH/run.json"
}

# bats test_tags=vm
@test "postgres select-only: the server's request count is pgbench's statements, p50 below its latency" {
	STMTS=1 requests_vs_pgbench -S -c 8 -j 2 -T 4
}

# TPC-B-like: BEGIN, three UPDATEs, a SELECT, an INSERT and END, each one
# simple-protocol Query message. Host only: the VM ring runs the
# select-only count, and its time is short (the whole file takes three
# minutes under TCG).
@test "postgres TPC-B-like: seven statements a transaction, counted as requests" {
	STMTS=7 requests_vs_pgbench -c 8 -j 2 -T 4
}

# The backends' load runs inside the capture, between two reads of their
# /proc/PID/stat taken while pgbench is stopped (SIGSTOP: the backends
# wait, idle, for their clients): the class's on-CPU time is their utime +
# stime growth, however late the capture starts or ends (the VM is slow).
# Host only: the grouping is read from /proc, the same on every kernel,
# and the sched family's counters it sums are held on each ring by
# sched.bats (50 s of the 6.1 ring's time under TCG, for no path of its
# own there).
@test "postgres: the backends are one class of the postmaster's group, on-CPU = their /proc/PID/stat" {
	local pids hz t0 t1 cpu_s proc_s threads sum oncpu runq sirq net
	wait_backends 0
	"${AS_PG[@]}" "$PGBENCH" -h 127.0.0.1 -p "$PG_PORT" -U postgres --protocol=simple -n -S -c 8 -j 2 -T 300 \
		postgres >"$SCRATCH/pgbench.out" 2>&1 &
	PGB=$!
	wait_backends 8
	kill -STOP "$PGB"
	hz="$(getconf CLK_TCK 2>/dev/null || echo 100)"   # the VM guest has no getconf; USER_HZ is 100
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 9 -i 1 --families sched -o "$SCRATCH/run.json"
	wait_for_text "$SCRATCH/err" "capturing to" 30
	sleep 0.5   # the first snapshot follows the message
	t0="$(stat_ticks "${pids[@]}")"
	kill -CONT "$PGB"
	sleep 5
	kill -STOP "$PGB"
	sleep 0.2   # the last replies
	t1="$(stat_ticks "${pids[@]}")"
	wait "$BG_PID"
	BG_PID=
	kill "$PGB"
	kill -CONT "$PGB"
	wait "$PGB" || true
	PGB=
	threads="$(backend threads)"
	# the intervals' on-CPU seconds: their class's share of a core times dt
	cpu_s="$(jq -r --argjson p "$PG_PID" '[.intervals[] | .dt as $dt | .processes[] |
		select(.pid == $p) | .classes[] | select(.name == "postgres: backend") |
		.oncpu_pct / 100 * $dt] | add' "$SCRATCH/run.json")"
	proc_s="$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { print (b - a) / hz }')"
	echo "backends: ${pids[*]}; class threads $threads; on-CPU dbtrace $cpu_s s, /proc $proc_s s"
	[ "$threads" -eq 8 ]
	awk -v p="$proc_s" 'BEGIN { exit !(p > 0.5) }'
	within_pct "$cpu_s" "$proc_s" 5
	# the backends' wall-time budget over the run: the states sum to
	# 100 ± 1%, and a backend runs (on a CPU, or waiting for one: eight
	# backends and pgbench share this machine's CPUs, two in the VM) or
	# waits for its client's next statement (net): locks, disk, sleeps
	# and other syscalls stay small for a select-only load whose data is
	# cached. pgbench stopped for part of the capture, so net is large.
	sum="$(backend time.sum_pct)"
	oncpu="$(backend time.share_pct.oncpu)"
	runq="$(backend time.share_pct.runqueue)"
	sirq="$(backend time.share_pct.softirq)"
	net="$(backend time.share_pct.net)"
	echo "backends' budget: sum $sum%, oncpu $oncpu%, runqueue $runq%, softirq $sirq%, net $net%"
	within_abs "$sum" 100 1
	awk -v a="$oncpu" -v q="$runq" -v s="$sirq" -v b="$net" 'BEGIN { exit !(a + q + s + b > 85 && b > 20) }'
	# the group: formed by parent, the postmaster and every backend in it
	jq -e --argjson p "$PG_PID" '.groups[] | select(.pid == $p) | .formed_by == "parent"' "$SCRATCH/run.json"
	for p in "${pids[@]}"; do
		jq -e --argjson p "$PG_PID" --argjson b "$p" \
			'.groups[] | select(.pid == $p) | .pids | index($b) != null' "$SCRATCH/run.json" >/dev/null
	done
	"$VALIDATE" "$SCRATCH/run.json"
}

# A cgroup of its own for the cluster (as systemd gives a service): --cgroup
# with the unit-like name selects it and nothing else; --group-by cgroup
# makes it one group, pgbench (outside it) not in the capture.
# Host only: choosing processes by cgroup is user space's reading of
# /proc and /sys, the same on every kernel; the VM ring keeps the tests
# whose numbers come from its own attach paths.
@test "postgres in a cgroup: --cgroup NAME selects it, --group-by cgroup makes it one group" {
	local cgroot name p pids
	if [ -e /sys/fs/cgroup/cgroup.controllers ]; then
		cgroot=/sys/fs/cgroup
	elif [ -e /sys/fs/cgroup/unified/cgroup.controllers ]; then
		cgroot=/sys/fs/cgroup/unified
	else
		skip "no cgroup v2 hierarchy mounted"
	fi
	name="dbtrace-pg-$$.service"
	CG_ORIG="$cgroot$(sed -n 's/^0:://p' "/proc/$PG_PID/cgroup")"
	wait_backends 0
	mkdir "$cgroot/$name"
	CG="$cgroot/$name"
	for p in "$PG_PID" $(pgrep -P "$PG_PID"); do echo "$p" >"$CG/cgroup.procs"; done
	# as after pids wrapped (a CI run forks tens of thousands): the next
	# pid the lowest a wrap gives (300 reserved), so the backends' pids
	# fall below the postmaster's
	echo 300 >/proc/sys/kernel/ns_last_pid
	"${AS_PG[@]}" "$PGBENCH" -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -S -c 4 -j 1 -T 300 \
		postgres >"$SCRATCH/pgbench.out" 2>&1 &
	PGB=$!
	wait_backends 4
	echo "postmaster $PG_PID, backends ${pids[*]}"
	# (a postmaster started just after a wrap is below them all: no matter)
	[ "$PG_PID" -lt 1000 ] || [ "$(printf '%s\n' "${pids[@]}" | sort -n | head -1)" -lt "$PG_PID" ]
	run "$DBTRACE" capture -d 3 -i 1 --families sched --cgroup "$name" --group-by cgroup -o "$SCRATCH/run.json"
	echo "$output"
	[ "$status" -eq 0 ]
	kill "$PGB"
	wait "$PGB" || true
	PGB=
	jq -c '[.processes[] | {pid, comm, procs, classes: [.classes[] | {name, threads}]}]' "$SCRATCH/run.json"
	jq -c '.groups' "$SCRATCH/run.json"
	# only the cluster: one row, led by the postmaster (the cgroup's head,
	# its parent outside it; not its lowest pid once pids have wrapped)
	[ "$(jq '[.processes[].pid] | unique' -c "$SCRATCH/run.json")" = "[$PG_PID]" ]
	[ "$(jq -r '.groups[0].formed_by' "$SCRATCH/run.json")" = cgroup ]
	for p in "${pids[@]}"; do
		jq -e --argjson b "$p" '.groups[0].pids | index($b) != null' "$SCRATCH/run.json" >/dev/null
	done
	[ "$(backend threads)" -eq 4 ]
	"$VALIDATE" "$SCRATCH/run.json"
	# a cgroup that is not there: one line, usage error, no file
	run "$DBTRACE" capture -d 1 --cgroup "nosuch-$$.service" -o "$SCRATCH/none.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"no cgroup 'nosuch-$$.service'"* ]]
	[ ! -e "$SCRATCH/none.json" ]
}

# serve: the backends' class series and the group's process count, against
# the clients pgbench holds open and the server's processes in /proc.
# Host only, as the TPC-B-like count.
@test "postgres under serve: one backend class series with the clients as threads, the group's processes" {
	local port procs threads n
	wait_backends 0
	"${AS_PG[@]}" "$PGBENCH" -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -S -c 8 -j 2 -T 300 \
		postgres >"$SCRATCH/pgbench.out" 2>&1 &
	PGB=$!
	wait_backends 8
	port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
	start_bg "$SCRATCH/serve.err" "$DBTRACE" serve --families sched --listen "127.0.0.1:$port" -i 0.5
	wait_for_text "$SCRATCH/serve.err" "serving metrics on" 30
	# the first intervals (seconds under the VM's TCG)
	for _ in $(seq 60); do
		sleep 0.5
		python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
			"http://127.0.0.1:$port/metrics" >"$SCRATCH/m"
		threads="$(awk -v k="dbtrace_class_threads{pid=\"$PG_PID\",comm=\"postgres\",class=\"postgres: backend\"}" \
			'index($0, k " ") == 1 { print $NF }' "$SCRATCH/m")"
		[ -n "$threads" ] && break
	done
	n=$((1 + $(pgrep -c -P "$PG_PID")))
	procs="$(awk -v k="dbtrace_group_processes{pid=\"$PG_PID\",comm=\"postgres\"}" '$1 == k { print $2 }' "$SCRATCH/m")"
	echo "group processes $procs (the server has $n), backend class threads $threads"
	[ "$threads" -eq 8 ]
	[ "$procs" -ge 8 ] && [ "$procs" -le "$n" ]
	# no backend is a series of its own
	refute grep -q "^dbtrace_class_threads{pid=\"${pids[0]}\"" "$SCRATCH/m"
}
