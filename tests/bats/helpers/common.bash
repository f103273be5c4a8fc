# Shared by every bats file: paths, and helpers that read what the kernel
# itself counts, so tests compare dbtrace against an independent source.

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
DBTRACE="$REPO/build/dbtrace"
TOOLS="$REPO/build/tests/tools"
VALIDATE="$REPO/tests/bats/helpers/validate_capture.py"

# Per-test scratch directory, removed by the caller's teardown.
make_scratch() {
	SCRATCH="$(mktemp -d /tmp/dbtrace-bats.XXXXXX)"
}

remove_scratch() {
	[ -n "${SCRATCH:-}" ] && rm -rf "$SCRATCH"
	return 0
}

# Prints the NET_RX counts of /proc/softirqs, one "cpu count" per line.
proc_net_rx() {
	awk '/^ *NET_RX:/ { for (i = 2; i <= NF; i++) print i - 2, $i }' /proc/softirqs
}

# Starts a command in the background, its stderr in $1; sets BG_PID.
start_bg() {
	local errfile="$1"
	shift
	"$@" 2>"$errfile" &
	BG_PID=$!
}

# Stops what a test left running: the command start_bg started and every
# pid in the array PIDS. For teardown.
stop_bg() {
	local p
	for p in ${PIDS[@]+"${PIDS[@]}"}; do kill "$p" 2>/dev/null; done
	[ -n "${BG_PID:-}" ] && kill "$BG_PID" 2>/dev/null
	return 0
}

# The teardown of a file whose tests leave nothing behind but background
# commands and $SCRATCH.
teardown_scratch() {
	stop_bg
	remove_scratch
}

# "${AHEAD[@]}" CMD...: runs a tracer (dbtrace, runqlat) started beside a
# test's busy load at nice -10, so that loading its programs does not
# queue behind the load: under qemu TCG the verifier's seconds stretch
# ninefold behind 16 spinners on 2 CPUs (one capture took 45 s to start).
# Once attached, a tracer wakes once per interval; its priority does not
# move what it measures. An array, not a function: a function run in the
# background is a subshell, and a signal sent to its pid would not reach
# the tracer.
AHEAD=(nice -n -10)

# capture_around OUT SECONDS CMD...: a capture of SECONDS into OUT (extra
# options in CAPTURE_OPTS) with CMD run inside it, started after the first
# snapshot. CMD's stdout goes to OUT.load (and is printed), its pid to
# OUT.pid. Waits LIMIT seconds (default 10) for dbtrace to start.
capture_around() {
	local out="$1" secs="$2"
	shift 2
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d "$secs" -i 1 ${CAPTURE_OPTS[@]+"${CAPTURE_OPTS[@]}"} -o "$out"
	wait_for_text "$SCRATCH/err" "capturing to" "${LIMIT:-10}"
	sleep 0.3   # the first snapshot follows the message
	"$@" >"$out.load" &
	echo $! >"$out.pid"
	wait $!
	wait "$BG_PID"
	BG_PID=
	cat "$out.load"
}

# A TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until file $1 contains text $2 (at most $3 seconds, default 10).
wait_for_text() {
	local file="$1" text="$2" limit="${3:-10}" i
	for ((i = 0; i < limit * 20; i++)); do
		grep -q -- "$text" "$file" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "timed out waiting for '$text' in $file:" >&2
	cat "$file" >&2
	return 1
}

# Names of the BPF programs dbtrace loads (all variants of all families),
# from the BTF of the built objects, cut to the kernel's 15 characters.
dbtrace_prog_names() {
	local o
	for o in "$REPO"/build/bpf/*.bpf.o; do
		bpftool btf dump file "$o" | sed -n "s/.*FUNC '\([^']*\)'.*linkage=global.*/\1/p"
	done | cut -c1-15 | sort -u
}

# Counts loaded BPF programs whose name is one of dbtrace's.
# The kernel frees the programs of a process that exited a little later:
# those on syscall tracepoints (the clock family's sys_enter) only after
# an RCU-tasks-trace grace period, 100-300 ms here. So a program counts
# as still loaded only if it is there for 3 s.
loaded_dbtrace_progs() {
	local names n i
	names="$(dbtrace_prog_names | paste -sd'|')"
	[ -n "$names" ] || { echo 0; return; }
	for ((i = 0; i < 60; i++)); do
		n="$(bpftool prog show 2>/dev/null | grep -cE "name ($names)( |$)" || true)"
		[ "$n" -eq 0 ] && break
		sleep 0.05
	done
	echo "$n"
}

# |a-b| <= pct% of b
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

# |a-b| <= d (percentage points, counts)
within_abs() {
	awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(x <= d) }'
}

# close_to A B PCT ABS: |A-B| <= max(PCT% of B, ABS)
close_to() {
	awk -v a="$1" -v b="$2" -v p="$3" -v m="$4" 'BEGIN { d = a - b; if (d < 0) d = -d
		t = b * p / 100; if (t < m) t = m; exit !(d <= t) }'
}

# Seconds to wait for dbtrace (or a libbpf-tools program) to start
# tracing: under qemu TCG loading BPF programs takes far longer.
LIMIT=20
[ "${DBTRACE_VM:-0}" = 1 ] && LIMIT=120

# --- loads and captures ------------------------------------------------------

# load_field FILE NAME: NAME=value from a load's output (its last line
# that has it).
load_field() {
	sed -n "s/.*\b$2=\([-0-9.]*\).*/\1/p" "$1" | tail -1
}

# field NAME: the same from the output of the load `capture` ran around.
field() { load_field "$SCRATCH/run.json.load" "$1"; }

# capture SECONDS CMD...: capture_around into $SCRATCH/run.json, validated
# against the schema; CMD's stdout in $SCRATCH/run.json.load.
capture() {
	capture_around "$SCRATCH/run.json" "$@"
	"$VALIDATE" "$SCRATCH/run.json"
}

# port_field PORT ROLE FIELD [FILE]: FIELD of a capture's whole-run row
# of a service port and role (FILE: $SCRATCH/run.json).
port_field() {
	jq -r --argjson p "$1" --arg r "$2" ".net.ports[] | select(.port == \$p and .role == \$r) | .$3" \
		"${4:-$SCRATCH/run.json}"
}

# class_field FILE PID CLASS FILTER: the jq FILTER (".oncpu_pct",
# ".time.share_pct.net | . * 2") of the class CLASS of the summary's row
# of PID in the capture FILE.
class_field() {
	jq -r --argjson p "$2" --arg c "$3" ".processes[] | select(.pid == \$p) | .classes[] | select(.name == \$c) | $4" \
		"$1"
}

# --- CPUs ------------------------------------------------------------------
# The tests pin their loads to CPUs, and a machine has 1 to 64 of them (or
# more), not always numbered from 0 or all usable (offline CPUs, a cpuset).

# Expands a kernel CPU list ("0-3,8,10-11") to one number per line.
expand_cpulist() {
	tr -d ' \n' <<<"$1" | awk -v RS=, -F- 'NF { e = NF > 1 ? $2 : $1; for (i = $1; i <= e; i++) print i }'
}

# The reverse, as the kernel and dbtrace print it: numbers on stdin, one
# per line, to "0-3,8,10-11".
format_cpulist() {
	sort -n -u | awk '{ if (NR > 1 && $1 == last + 1) { last = $1; next }
	                    if (NR > 1) out = out (first == last ? first : first "-" last) ","
	                    first = last = $1 }
	             END { if (NR) out = out (first == last ? first : first "-" last); print out }'
}

# Online CPUs, one per line.
online_cpus() { expand_cpulist "$(cat /sys/devices/system/cpu/online)"; }

# CPUs the tests may pin to: online and in this shell's affinity.
usable_cpus() {
	local allowed
	allowed="$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/$$/status)"
	LC_ALL=C comm -12 <(online_cpus | LC_ALL=C sort) <(expand_cpulist "$allowed" | LC_ALL=C sort) | sort -n
}

# CPUS: the usable CPUs. LOAD_CPU: where a test pins its load (the second
# usable CPU: the first often carries the machine's own interrupts);
# OTHER_CPU: a different one for the other side of a test. POOL_CPUS: the
# first two usable CPUs as a list, for thread pools. On a 1-CPU machine
# all of them are that CPU: tests that need two distinct CPUs call
# need_cpus 2.
mapfile -t CPUS < <(usable_cpus)
[ ${#CPUS[@]} -gt 0 ] || CPUS=(0)
LOAD_CPU="${CPUS[1]:-${CPUS[0]}}"
OTHER_CPU="${CPUS[0]}"
POOL_CPUS="$(printf '%s\n' "${CPUS[@]:0:2}" | format_cpulist)"
POOL_NCPUS="$(expand_cpulist "$POOL_CPUS" | wc -l)"

# Skips a test that needs N distinct usable CPUs on a machine with fewer.
need_cpus() {
	[ ${#CPUS[@]} -ge "$1" ] ||
		skip "needs $1 usable CPUs, only ${#CPUS[@]} here (CPU $(printf '%s\n' "${CPUS[@]}" | format_cpulist))"
	return 0
}

# The CPU mask of one CPU as rps_cpus and smp_affinity take it: 32-bit
# hex words, most significant first, separated by commas.
cpu_mask() {
	local cpu="$1" words=() w i
	for ((w = 0; w <= cpu / 32; w++)); do
		if [ "$w" -eq $((cpu / 32)) ]; then
			words=("$(printf '%x' $((1 << (cpu % 32))))" "${words[@]}")
		else
			words=(00000000 "${words[@]}")
		fi
	done
	(IFS=,; echo "${words[*]}")
}

# Under qemu TCG (scripts/vmtest.sh sets DBTRACE_VM=1) everything runs ~30x
# slower: tests that need host speed say so instead of timing out.
skip_in_vm() {
	[ "${DBTRACE_VM:-0}" = 1 ] && skip "$1 (qemu TCG is ~30x slower)"
	return 0
}

# kernel_allows CHECK...: whether the running kernel loads and attaches an
# empty program of each kind at each place ("fentry:FUNC", "tp_btf:TP",
# "tracepoint:CAT/NAME", "kprobe:FUNC", ...: tests/tools/bpf_can). Each
# answer is kept for the rest of the run.
kernel_allows() {
	local c
	for c in "$@"; do
		grep -q ' yes$' "$(bpf_can_result "$c")" || return 1
	done
}

# The file holding bpf_can's line for one check ("CHECK yes" or
# "CHECK no: STAGE: ENAME (text)"), made on first use.
bpf_can_result() {
	local dir="${BATS_RUN_TMPDIR:-${TMPDIR:-/tmp}/dbtrace-bats.$$}/bpf_can" f
	f="$dir/${1//\//_}"
	if [ ! -s "$f" ]; then
		mkdir -p "$dir"
		"$TOOLS/bpf_can" "$1" >"$f.$$" 2>&1
		mv -f "$f.$$" "$f"
	fi
	echo "$f"
}

# kernel_refusal CHECK...: "STAGE: ENAME" of the first check the kernel
# refuses (e.g. "load: EPERM"), nothing when it allows them all.
kernel_refusal() {
	local c
	for c in "$@"; do
		sed -n 's/^[^ ]* no: \([a-z]*: E[A-Z0-9]*\).*/\1/p' "$(bpf_can_result "$c")" | grep . && return
	done
	return 0
}

# The clock syscalls' entry points as fentry sees them on this architecture.
syscall_fn() {
	case "$(uname -m)" in
	x86_64) echo "__x64_sys_$1" ;;
	aarch64) echo "__arm64_sys_$1" ;;
	*) echo "sys_$1" ;;
	esac
}

# family_variants FAMILY: one line per attach path, "PATH CHECK...", in
# dbtrace's order of preference (src/collect/FAMILY.c), with the program
# types and places each path's programs use (bpf/FAMILY.bpf.c), and the
# helpers and instructions they cannot do without (what a path can do
# another way, at load time, is in family_adaptations).
family_variants() {
	local s fe=() tp=()
	case "$1" in
	softirq)
		echo tp_btf tp_btf:softirq_{raise,entry,exit} tp_btf:irq_handler_{entry,exit}
		echo raw_tp raw_tp:softirq_{raise,entry,exit} raw_tp:irq_handler_{entry,exit}
		;;
	sched)
		echo tp_btf tp_btf:sched_switch iter:task helper:tracing:task_storage_get insn:atomic_fetch
		echo raw_tp raw_tp:sched_switch
		;;
	clock)
		for s in clock_gettime gettimeofday time clock_nanosleep; do
			fe+=("fentry:$(syscall_fn "$s")")
			tp+=("tracepoint:syscalls/sys_enter_$s")
		done
		# by default nothing that taxes every system call: fentry on
		# the clock syscalls, else the sampler alone
		echo "perf_event+fentry perf_event ${fe[*]}"
		if [ "${2:-}" = count ]; then   # --clock-syscalls=count
			echo "perf_event+tracepoint perf_event ${tp[*]}"
			echo perf_event+tp_btf perf_event tp_btf:sys_enter
			echo perf_event+raw_tp perf_event raw_tp:sys_enter
		fi
		echo perf_event perf_event
		;;
	loss)
		echo tp_btf tp_btf:{tcp_retransmit_skb,tcp_retransmit_synack,kfree_skb}
		echo raw_tp raw_tp:{tcp_retransmit_skb,tcp_retransmit_synack,kfree_skb}
		;;
	net)
		echo fentry+tp_btf tp_btf:net_dev_{queue,xmit} fentry:tcp_sendmsg fexit:tcp_recvmsg \
			fentry:sock_def_readable
		echo tp_btf tp_btf:net_dev_{queue,xmit} tp_btf:{tcp_sendmsg_locked,sock_recv_length,sk_data_ready}
		echo raw_tp raw_tp:net_dev_{queue,xmit} raw_tp:{tcp_sendmsg_locked,sock_recv_length,sk_data_ready}
		echo kprobe+raw_tp raw_tp:net_dev_{queue,xmit} kprobe:{tcp_sendmsg,tcp_recvmsg,sock_def_readable} \
			kretprobe:tcp_recvmsg
		;;
	esac
}

# family_adaptations FAMILY PATH: one line per way the path adapts at load
# time to a kernel that lacks something, "CHECK...|NOTE": dbtrace must
# note NOTE (bpf/core_fixes.bpf.h, src/core/bpf_features.c) exactly when
# one of the checks fails.
family_adaptations() {
	case "$1:$2" in
	sched:* | clock:*)
		echo "helper:perf_event:task_pt_regs helper:perf_event:get_current_task_btf|saved registers found on the task's stack"
		;;
	net:fentry+tp_btf | net:tp_btf | loss:tp_btf)
		echo "helper:tracing:sk_storage_get|socket state in a hash"
		;;
	esac
}

# The attach path a family must take on the running kernel: the first of
# its paths whose program types and places this kernel accepts, found by
# loading and attaching empty programs (kernel_allows). So the expectation
# follows the kernel, whichever it is (this host's 6.18 refuses fentry with
# EPERM, Debian's 6.1 allows it), and a silent fallback still fails.
expected_path() {   # family [count]
	local path checks
	while read -r path checks; do
		# shellcheck disable=SC2086 # one word per check
		kernel_allows $checks && { echo "$path"; return; }
	done < <(family_variants "$1" "${2:-}")
	echo none
}

# The path a family must take where user space cannot read the kernel's
# BTF (only --btf's file): the first of its paths the kernel allows
# whose programs do not attach by the kernel's BTF (tp_btf, fentry,
# fexit, iterators) nor are tracing programs.
expected_path_without_btf() {   # family
	local path checks
	while read -r path checks; do
		[[ " $checks" =~ \ (tp_btf|fentry|fexit|iter|helper:tracing): ]] && continue
		# shellcheck disable=SC2086 # one word per check
		kernel_allows $checks && { echo "$path"; return; }
	done < <(family_variants "$1")
	echo none
}

# The checks behind one path of a family, for kernel_refusal.
path_checks() {   # family path
	family_variants "$1" | awk -v p="$2" '$1 == p { $1 = ""; print }'
}

# Asserts `dbtrace probes` output ($1) shows family $2 on its expected path.
assert_probe_path() {
	local want
	want="$(expected_path "$2")"
	grep -qE "^$2 +$(sed 's/[+]/[+]/g' <<<"$want")( |$)" <<<"$1" || {
		echo "expected $2 via $want, got:"; echo "$1"
		echo "what this kernel allows (tests/tools/bpf_can):"
		cat "${BATS_RUN_TMPDIR:-/nonexistent}"/bpf_can/* 2>/dev/null
		return 1
	}
}

# Two network namespaces joined by a veth pair, both ends up, for tests
# that need a real device between a sender and a receiver. netns_pair_init
# PREFIX names them (NSA NSB VA VB, unique per test run); netns_pair_create
# SUBNET ("10.231.0") makes them with SUBNET.1 in NSA and SUBNET.2 in NSB;
# netns_pair_delete (teardown) removes both namespaces, and with them the
# veth ends in them.
netns_pair_init() {
	NSA="${1}A$$"
	NSB="${1}B$$"
	VA="${1}a$$"
	VB="${1}b$$"
}

netns_pair_create() {
	ip netns add "$NSA"
	ip netns add "$NSB"
	ip link add "$VA" netns "$NSA" type veth peer name "$VB" netns "$NSB"
	ip -n "$NSA" addr add "$1.1/24" dev "$VA"
	ip -n "$NSB" addr add "$1.2/24" dev "$VB"
	ip -n "$NSA" link set "$VA" up
	ip -n "$NSB" link set "$VB" up
	ip -n "$NSA" link set lo up
	ip -n "$NSB" link set lo up
}

netns_pair_delete() {
	[ -n "${NSA:-}" ] && ip netns del "$NSA" 2>/dev/null
	[ -n "${NSB:-}" ] && ip netns del "$NSB" 2>/dev/null
	return 0
}

# refute CMD...: fails the test when CMD succeeds. A bare `! CMD` asserts
# nothing in bats (set -e ignores a negated command) unless it is the
# test's last line.
refute() {
	if "$@"; then
		echo "expected to fail, but succeeded: $*" >&2
		return 1
	fi
}
