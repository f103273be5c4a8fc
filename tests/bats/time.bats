#!/usr/bin/env bats
# The wall-time budget per class (classes[].time): each state against the
# load's own account of its threads (tests/tools/time_classes.c: its CPU
# clock, /proc/thread-self/schedstat's run-queue clock, and its own timing
# of each blocking call).

load helpers/common

setup() { make_scratch; }
teardown() {
	stop_bg
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP"
	netns_pair_delete
	remove_scratch
}

# the load's line for class $1, field $2 (e.g. oncpu_pct)
class_load_field() {
	sed -n "s/^class $(sed 's/[*]/[*]/g' <<<"$1") .* $2=\([-0-9.]*\).*/\1/p" "$OUT.load"
}

# dbtrace's summary of class $1: jq path $2 under it
class_time() { class_field "$OUT" "$(cat "$OUT.pid")" "$1" "$2"; }

# field $2 of the load's line that starts with $1 (net_wait_load.py)
load_field_of() {
	sed -n "s/^$1 .* $2=\([-0-9.]*\).*/\1/p" "$OUT.load"
}

# A loop device on a file in $SCRATCH: O_DIRECT reads of it work on any
# file system, the VM's tmpfs included. Sets LOOP.
make_loop() {
	[ -e /dev/loop-control ] || modprobe loop
	truncate -s 16M "$SCRATCH/disk.img"
	LOOP="$(losetup -f --show "$SCRATCH/disk.img")"
}

# The load lives entirely inside the capture, so each class's budget
# covers its threads' whole lives, as the load's own account does. Its
# disk reads go to a loop device (O_DIRECT works there on any file
# system, the VM's tmpfs included). Extra capture options in $@ (the
# attach path forced).
budget_vs_load() {
	make_loop
	OUT="$SCRATCH/run.json"
	# the lockers' futex share falls as other load takes the CPUs: a
	# threshold below it, so lock_contention's other conditions are tested
	CAPTURE_OPTS=(--futex-pct 10 "$@")
	capture_around "$OUT" 8 "$TOOLS/time_classes" -d 5 "$LOOP"
	"$VALIDATE" "$OUT"
	local cls state got want sum res failed=0
	while read -r cls state; do
		sum="$(class_time "$cls" .time.sum_pct)"
		res="$(class_time "$cls" .time.residual_pct)"
		echo "$cls: sum ${sum}%, residual ${res}%"
		within_abs "$sum" 100 1 || failed=1
		# what the states measured apart add up to: the sum is not just
		# made to close by assigning the rest. Not in the PREEMPT_RT
		# guest: there (tsc=reliable, the kernel's per-CPU clocks trusted)
		# qemu's TCG vCPUs' clocks still drift apart at times, and a
		# block stamped on one vCPU and ended on the other overran the
		# window: one fresh-clone run in about six read residuals of
		# 65-75% for the three classes that block across CPUs, their
		# shares (held below) within 0.7 points all the same. The host,
		# 6.1 and 5.10 rings hold it.
		if ! { [ "${DBTRACE_VM:-0}" = 1 ] && uname -v | grep -q PREEMPT_RT; }; then
			within_abs "$res" 0 2 || failed=1
		fi
		for pair in oncpu:oncpu_pct runqueue:runq_pct "$state:${state}_pct"; do
			got="$(class_time "$cls" ".time.share_pct.${pair%%:*}")"
			want="$(class_load_field "$cls" "${pair#*:}")"
			echo "  ${pair%%:*}: dbtrace $got%, load $want%"
			within_abs "$got" "$want" 5 || failed=1
		done
	done <<-EOF
		spin oncpu
		sleeper sleep
		locker-* futex
		recv net
		piperd pipe_other
		feed sleep
		diskrd disk
	EOF
	# the syscall behind the pipe reader's pipe_other time
	got="$(class_time piperd '.blocked_by_syscall[0].syscall')"
	echo "piperd's top syscall: $got"
	[ "$got" = read ]
	# the lockers wait on one mutex: one futex word holds nearly all of
	# their blocked time, and lock_contention names it
	got="$(class_time 'locker-*' '.time.futex.top_addresses[0].blocked_share_pct')"
	echo "locker-*'s top futex word: ${got}% of its blocked time"
	within_abs "$got" 100 10
	# each wait is for a holder's 2 ms (or two: three take turns), and
	# for the holder to get a CPU among the load's other classes (and
	# whatever else runs on a shared machine: 4.95 ms seen), so the fine
	# wait histogram's median is in the milliseconds; a unit slip (µs for
	# ns, a factor 1000) or an empty histogram falls outside
	got="$(class_time 'locker-*' '.time.futex.wait_p50_us')"
	n="$(class_time 'locker-*' '.time.futex.wait_hist.count')"
	echo "locker-*'s futex waits: $n, p50 ${got} µs"
	[ "$n" -gt 0 ]
	within_abs "$got" 5000 4500
	jq -e --argjson pid "$(cat "$OUT.pid")" \
		'[.findings[] | select(.id == "lock_contention" and .pid == $pid and .class == "locker-*")] | length > 0' "$OUT"
	[ "$failed" -eq 0 ]
}

# bats test_tags=vm,rt,kernel510
@test "time: every class's states agree with the load's own timing within 5 points and sum to 100%" {
	budget_vs_load
	jq -e --arg p "$(expected_path sched)" '.probes.sched.attach == $p' "$OUT"
}

# The same on the sched family's raw_tp fallback (--attach), which reads
# the task untyped (CO-RE) and in_iowait as a probed bitfield: where a
# kernel refuses tp_btf, this is the budget users get. softirq on its own
# fallback too, since the two share the per-CPU softirq charge. On the
# host; the 5.10 ring runs the budget where raw_tp is the kernel's own
# path and the saved registers come from the top of the task's kernel
# stack (no bpf_task_pt_regs there).
@test "time: the raw_tp fallback's budget agrees with the load's own timing as the preferred path's does" {
	kernel_allows raw_tp:sched_switch raw_tp:softirq_entry || skip "raw_tp refused: $(kernel_refusal raw_tp:sched_switch)"
	budget_vs_load --attach sched=raw_tp --attach softirq=raw_tp
	jq -e '.probes.sched.attach == "raw_tp" and .probes.softirq.attach == "raw_tp"' "$OUT"
}

# The time view: one row per class, the states' columns summing to 100,
# sorted by the column asked for (f: futex).
# Host only: the view draws what the capture tests check in the VM rings.
@test "time: top --batch --view time shows each class's states summing to 100%, sorted by --sort" {
	make_loop
	# long enough for dbtrace's start under a slow (TCG) guest; stopped
	# once top is done
	"$TOOLS/time_classes" -d 60 "$LOOP" >"$SCRATCH/load.out" &
	PIDS=($!)
	wait_for_text "$SCRATCH/load.out" pid
	# --all: every class, the idle ones too (by default they are one
	# "other" row)
	run "$DBTRACE" top --batch --view time --sort f --all -d 3 -p "${PIDS[0]}"
	[ "$status" -eq 0 ]
	echo "$output" | tail -12
	echo "$output" | grep -q 'THR RUNNABLE.*%ONCPU.*%USR.*%SYS.*%RUNQ.*%SIRQ.*%BLOCK.*\*%FUTEX.*%NET.*%DISK.*%SLEEP.*%OTHER.*%KERN.*%WORD.*FUTEX-WORD.*OTHER-SYSCALLS'
	# the last table: rows of the load, each summing to 100 (on CPU, run
	# queue, softirq and the six reasons; %BLOCK is their sum)
	local last
	last="$(echo "$output" | awk '/^dbtrace top/ { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }')"
	# every class of the load, sorted by %FUTEX, highest first
	echo "$last" | awk -v pid="${PIDS[0]}" '$1 == pid { n++; if (n > 1 && $12 > prev) bad = 1; prev = $12 }
		END { exit bad || n < 7 }'
	echo "$last" | grep -q 'locker-\*'
	! echo "$last" | grep -q 'other ('
	# the lockers queue on one mutex: one futex word holds nearly all of
	# their futex time, its address shown; a class with no futex wait
	# shows neither
	echo "$last" | awk -v pid="${PIDS[0]}" '$1 == pid && $3 == "locker-*" { n++; if (!($18 >= 90 && $19 ~ /^0x[0-9a-f]+$/)) bad = 1 }
		$1 == pid && $3 == "spin" { if ($18 != "-" || $19 != "-") bad = 1 }
		END { exit bad || n != 1 }'
	echo "$last" | awk -v pid="${PIDS[0]}" '$1 == pid {
		# PID COMM CLASS THR RUNNABLE then oncpu usr sys runq sirq blocked
		# futex net disk sleep other kern, the top futex word share and
		# address; usr and sys are inside oncpu ("-": no tick)
		s = $6 + $9 + $10 + $12 + $13 + $14 + $15 + $16 + $17
		if (s < 99 || s > 101 || ($11 - ($12 + $13 + $14 + $15 + $16 + $17)) ^ 2 > 0.25) { print "bad sum:", $0, s; bad = 1 }
		if ($7 != "-" && ($6 - ($7 + $8)) ^ 2 > 0.25) { print "usr + sys is not oncpu:", $0; bad = 1 }
	} END { exit bad }'
	kill "${PIDS[0]}"
	wait "${PIDS[0]}" || true
	PIDS=()
}

# The on-CPU split into user and system (time.oncpu_split) against a load
# whose classes are all user space (usrspin), nearly all kernel (sysread:
# read() of /dev/zero into 1 MiB) and between (mixed), each measuring its
# own CPU time inside its read() calls (tests/tools/cpu_modes.c). Its
# own measure is the independent half: dbtrace's system share of oncpu
# agrees with it within 10 points. The kernel's utime/stime of
# /proc/thread-self/stat are the very counters dbtrace copies, so that
# half proves the plumbing (copied, based, diffed, summed per class,
# not swapped), not the kernel's accounting. The shares are far apart
# (about 0, 50 and 100): a split swapped, stuck or made up fails.
# bats test_tags=vm
@test "time: oncpu's user and system split agrees with the load's own CPU time in syscalls and /proc within 10 points" {
	OUT="$SCRATCH/run.json"
	capture_around "$OUT" 7 "$TOOLS/cpu_modes" -d 4
	"$VALIDATE" "$OUT"
	local cls got own proc oncpu split failed=0
	for cls in usrspin sysread mixed; do
		got="$(class_time "$cls" '.time.oncpu_split | 100 * .system_seconds / (.user_seconds + .system_seconds)')"
		own="$(class_load_field "$cls" sys_share_pct)"
		proc="$(class_load_field "$cls" proc_sys_share_pct)"
		echo "$cls: system share of on-CPU: dbtrace $got%, the load's own $own%, /proc $proc%"
		within_abs "$got" "$own" 10 || failed=1
		within_abs "$got" "$proc" 10 || failed=1
		# inside oncpu, not beside it
		oncpu="$(class_time "$cls" .time.share_pct.oncpu)"
		split="$(class_time "$cls" '.time.oncpu_split | .user_pct + .system_pct')"
		echo "  oncpu $oncpu%, user + system $split%, sum $(class_time "$cls" .time.sum_pct)%"
		within_abs "$split" "$oncpu" 0.1 || failed=1
	done
	# per interval too: the busy classes' intervals are split (each has
	# hundreds of ticks a second), within the same bounds as the whole
	jq -e --argjson pid "$(cat "$OUT.pid")" '[.intervals[].processes[]? | select(.pid == $pid)
		| .classes[] | select(.name == "sysread") | .time.oncpu_split | select(. != null)
		| 100 * .system_seconds / (.user_seconds + .system_seconds)] | length >= 2 and min > 80' "$OUT"
	[ "$failed" -eq 0 ]
}

# io_bound (disk wait over 30% of a class's time, src/findings/io_bound.c)
# on a class built for it: diskrd's 256 KiB O_DIRECT reads of a loop
# device each wait in the kernel's I/O wait while the loop worker copies
# them (about 60% of its time on the host, the load's own timing), at the
# default threshold. Beside it the sleeper, 70% blocked but in nanosleep:
# a rule that took any blocked time for disk would name it.
# bats test_tags=vm
@test "time: io_bound names the class waiting on disk with its evidence, not a class blocked elsewhere" {
	make_loop
	OUT="$SCRATCH/run.json"
	capture_around "$OUT" 7 "$TOOLS/time_classes" -d 4 -c diskrd,sleeper -b 262144 "$LOOP"
	"$VALIDATE" "$OUT"
	local pid want f
	pid="$(cat "$OUT.pid")"
	want="$(class_load_field diskrd disk_pct)"
	jq -c --argjson pid "$pid" '.findings[] | select(.id == "io_bound" and .pid == $pid)' "$OUT"
	f="$(jq -c --argjson pid "$pid" '.findings[] | select(.id == "io_bound" and .pid == $pid and .class == "diskrd")' "$OUT")"
	[ -n "$f" ]
	# the evidence is the last interval it fired in: within 10 points of
	# the load's whole-run share, over the threshold, its seconds that
	# share of the thread's alive time in the interval (the load may end
	# inside it), severity by the rule's 60% line
	echo "diskrd: evidence disk_pct $(jq .evidence.disk_pct <<<"$f"), the load's own $want%"
	within_abs "$(jq .evidence.disk_pct <<<"$f")" "$want" 10
	jq -e --argjson pid "$pid" --argjson f "$f" '(.intervals[$f.last_interval].processes[] | select(.pid == $pid)
		| .classes[] | select(.name == "diskrd") | .time.thread_seconds) as $alive
		| $f.evidence | .disk_pct > 30 and .threads == 1 and $alive <= .interval_s + 0.01
		and ((.disk_seconds - .disk_pct / 100 * $alive) | fabs) < 0.005
		and $f.severity == (if .disk_pct >= 60 then "critical" else "warning" end)' "$OUT"
	# blocked most of its time, but not on disk
	echo "sleeper: sleep $(class_time sleeper .time.share_pct.sleep)%, disk $(class_time sleeper .time.share_pct.disk)%"
	jq -e --argjson pid "$pid" '[.findings[] | select(.id == "io_bound" and .pid == $pid and .class != "diskrd")] | length == 0' "$OUT"
}

# net_wait_dominant (src/findings/net_wait_dominant.c) on a load built for
# it (helpers/net_wait_load.py): a server thread answering at once, whose
# client in another namespace sees every request held 20 ms by netem on
# the way (veth pair): the server waits on the network nearly all its
# time, waking once per request, while its clients see a p99 over 5 ms
# that the server side does not. Beside it nw_idle, blocked in accept()
# where nothing connects: nearly all its time a network wait too, but it
# never wakes, so it is not serving that port. sch_netem is needed: it
# loads in the VM rings, not on every host. 20 ms, not less: under TCG
# the Python server's own p99 reaches ~10 ms, and the rule wants the
# server side at most half the client's.
# And nw_cli, the client's thread: it waits in recv() for each reply and
# matches the rule's numbers as well, but its process holds no socket
# bound to the port (sysinfo/port_socket.h), so it is not the server.
# bats test_tags=vm
@test "time: net_wait_dominant names the server class waiting for requests behind a slow network, not an idle listener" {
	netns_pair_init dbtnw
	netns_pair_create 10.233.0
	run tc -n "$NSA" qdisc add dev "$VA" root netem delay 20ms
	[ "$status" -eq 0 ] || skip "sch_netem does not load here: tc said: $output"
	local port=5433 pid f got srv_net load="$REPO/tests/bats/helpers/net_wait_load.py"
	OUT="$SCRATCH/run.json"
	# both sides start inside the capture: nw_idle blocks once, in its
	# first interval, and is seen doing so. Server and client are two
	# python3 children of one shell, which --group-by parent makes one
	# group: apart, as a database and its benchmark client are
	CAPTURE_OPTS=(--group-by pid)
	capture_around "$OUT" 9 bash -c "ip netns exec $NSB python3 $load server 10.233.0.2 $port 4 >$SCRATCH/server.out &
		echo \$! >$SCRATCH/server.pid
		for i in \$(seq 300); do grep -q listening $SCRATCH/server.out && break; sleep 0.1; done
		ip netns exec $NSA python3 $load client 10.233.0.2 $port 4
		wait"
	cat "$SCRATCH/server.out"
	"$VALIDATE" "$OUT"
	pid="$(cat "$SCRATCH/server.pid")"
	# class_time reads the process of OUT.pid: the server's from here on
	echo "$pid" >"$OUT.pid"
	srv_net="$(sed -n 's/^server .* net_pct=\([0-9.]*\).*/\1/p' "$SCRATCH/server.out")"
	jq -c '.findings[] | select(.id == "net_wait_dominant")' "$OUT"
	f="$(jq -c --argjson pid "$pid" '.findings[] | select(.id == "net_wait_dominant" and .pid == $pid and .class == "nw_srv")' "$OUT")"
	[ -n "$f" ]
	# the class's net share against the server's own timing of its
	# blocking calls (its whole life, as the class's summary); the
	# evidence (the last interval it fired in) over the rule's lines
	echo "nw_srv: net dbtrace $(class_time nw_srv .time.share_pct.net)%, its own $srv_net%; evidence net_pct $(jq .evidence.net_pct <<<"$f")"
	within_abs "$(class_time nw_srv .time.share_pct.net)" "$srv_net" 5
	jq -e --argjson port "$port" '.evidence | .port == $port and .net_pct > 50 and .client_resp_p99_us >= 5000
		and .server_resp_p99_us <= 0.5 * .client_resp_p99_us' <<<"$f"
	# the client side's response time against the client's own: the
	# whole run's median within 25% (its own adds Python's wake-up and
	# read); the evidence's p99, one interval's, between netem's 20 ms,
	# which every request waits (less 5%: the fine histogram's bucket
	# width), and the slowest the client saw
	got="$(jq -r --argjson p "$port" '.net.ports[] | select(.port == $p and .role == "client") | .response_p50_us' "$OUT")"
	echo "client p50: dbtrace $got us, the client's own $(load_field_of client p50_us) us"
	within_pct "$got" "$(load_field_of client p50_us)" 25
	echo "client p99 (evidence): $(jq .evidence.client_resp_p99_us <<<"$f") us, netem 20000 us, the client's max $(load_field_of client max_us) us; server side $(jq .evidence.server_resp_p99_us <<<"$f") us"
	jq -e --argjson max "$(load_field_of client max_us)" '.evidence.client_resp_p99_us | . >= 19000 and . <= $max' <<<"$f"
	# a network wait as long, but no request served
	echo "nw_idle: net $(class_time nw_idle .time.share_pct.net)% of its time"
	within_abs "$(class_time nw_idle .time.share_pct.net)" 100 10
	jq -e '[.findings[] | select(.id == "net_wait_dominant" and .class == "nw_idle")] | length == 0' "$OUT"
	# the client: over the rule's net share too (so only the port
	# tells it apart), and not named
	got="$(jq -r '[.processes[].classes[] | select(.name == "nw_cli") | .time.share_pct.net][0]' "$OUT")"
	echo "nw_cli: net $got% of its time"
	awk -v g="$got" 'BEGIN { exit !(g > 50) }'
	jq -e '[.findings[] | select(.id == "net_wait_dominant" and .class == "nw_cli")] | length == 0' "$OUT"
}
