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

# Under qemu TCG (scripts/vmtest.sh sets DBTRACE_VM=1) everything runs ~30x
# slower: tests that need host speed say so instead of timing out.
skip_in_vm() {
	[ "${DBTRACE_VM:-0}" = 1 ] && skip "$1 (qemu TCG is ~30x slower)"
	return 0
}

# The attach path a family must take here: the host kernel (6.18 in a VM
# that refuses fentry) takes the fallbacks, Debian's 6.1 in qemu
# (DBTRACE_VM=1) the preferred paths. A silent fallback fails the test.
expected_path() {   # family
	local vm="${DBTRACE_VM:-0}"
	case "$1" in
	softirq | sched) echo tp_btf ;;
	clock) [ "$vm" = 1 ] && echo perf_event+fentry || echo perf_event ;;
	net) [ "$vm" = 1 ] && echo fentry+tp_btf || echo tp_btf ;;
	loss) echo tp_btf ;;
	esac
}

# Asserts `dbtrace probes` output ($1) shows family $2 on its expected path.
assert_probe_path() {
	local want
	want="$(expected_path "$2")"
	grep -qE "^$2 +$(sed 's/[+]/[+]/g' <<<"$want")( |$)" <<<"$1" || {
		echo "expected $2 via $want, got:"; echo "$1"; return 1; }
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
