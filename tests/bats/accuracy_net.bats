#!/usr/bin/env bats
# Accuracy of the net family's percentiles against sources that are not
# dbtrace: the load's own per-request timing (tests/tools/rr_timed: a
# server that busy-waits an exact service time; each request timed between
# the instants it and its reply became readable, as dbtrace times it), and
# a tbf shaper's rate and backlog (tc -s). Every test prints each figure next to
# its reference, with the tolerance. The three tagged vm,rt pass in the
# PREEMPT_RT guest too (one run: 2 ms p50 -0.6/+1.8%, bimodal slow share
# -0.0%, netem +1.5% against the packets' own stamps).

load helpers/common
load helpers/accuracy
load helpers/net_load
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	netns_pair_init dbtacc
	PIDS=()
	MISSES=0
}

teardown() {
	stop_bg
	netns_pair_delete
	remove_scratch
}

# rr_capture SECONDS LOAD_ARGS...: a capture of SECONDS around one
# rr_timed run (client on $OTHER_CPU, server on $LOAD_CPU); sets PORT.
rr_capture() {
	local secs="$1"
	shift
	capture_around "$SCRATCH/run.json" "$secs" "$TOOLS/rr_timed" -c "$OTHER_CPU" -S "$LOAD_CPU" "$@"
	"$VALIDATE" "$SCRATCH/run.json"
	LOADOUT="$SCRATCH/run.json.load"
	PORT="$(load_field "$LOADOUT" port)"
	[ -n "$PORT" ]
}

# The four response percentiles against the load's own: p50 within pct%,
# p99 within p99_pct% (default pct). With p99_pct "bracket" (the qemu TCG
# guest) each role is held to the load's bracket of dbtrace's own
# instants instead (rr_timed: _lo_, _hi_; a request's bounds hold its time
# between them, so their percentiles hold its percentile), 3% beyond it
# (the fine histogram's bound), and the two roles' p50s summed to the
# load's sum within pct% (check_bracketed: the offsets cancel there).
check_response() {   # pct [p99_pct|bracket]
	local role
	for role in server client; do
		echo "$role response_hist: $(port_field "$PORT" "$role" 'response_hist | {count, timed, sample_weight}' | jq -c .)"
		if [ "${2:-}" = bracket ]; then
			echo "$role response p50 and p99, the load's own: $(load_field "$LOADOUT" "${role}_p50_us")" \
				"$(load_field "$LOADOUT" "${role}_p99_us") us"
			check_between "$role response p99 (us)" "$(port_field "$PORT" "$role" response_p99_us)" \
				"$(load_field "$LOADOUT" "${role}_lo_p99_us")" \
				"$(load_field "$LOADOUT" "${role}_hi_p99_us")" 3
		else
			check "$role response p50 (us)" "$(port_field "$PORT" "$role" response_p50_us)" \
				"$(load_field "$LOADOUT" "${role}_p50_us")" "$1"
			check "$role response p99 (us)" "$(port_field "$PORT" "$role" response_p99_us)" \
				"$(load_field "$LOADOUT" "${role}_p99_us")" "${2:-$1}"
		fi
	done
	[ "${2:-}" != bracket ] ||
		check_bracketed "response p50" "$LOADOUT" "$LOADOUT" "$(port_field "$PORT" server response_p50_us)" \
			"$(port_field "$PORT" client response_p50_us)" "$1"
}

# How the 2 ms server's percentiles are held: to the load's own within 5%
# on a host, to the load's bracket in the emulated guest (see that test).
vm_hold() { [ "${DBTRACE_VM:-0}" = 1 ] && echo bracket || echo 5; }

# check_bracketed WHAT SERVER_SRC CLIENT_SRC SERVER_GOT CLIENT_GOT [SUM_PCT]:
# for the qemu TCG guest, dbtrace's server and client medians against what the
# load measures of the same requests: ROLE_p50_us, ROLE_lo_p50_us and
# ROLE_hi_p50_us of each role's SRC (rr_timed's output over the whole run,
# or window_medians over the interval a finding judged).
# There the kernel path between the load's stamps and dbtrace's instants
# (receive timestamp -> readable, the load's stamp -> the send's entry)
# takes tens of us, ~30x the host's, and moves the server's median one
# way and the client's the other (one run: server -7.2%, client +7.4% on
# a 400 us fast mode). So each role is held to the bracket the load
# times around dbtrace's instants (rr_timed: _lo_/_hi_), 3% beyond it
# (the fine histogram's bound), and the two roles' sum to the load's
# sum within SUM_PCT% (default 5): the offsets cancel there (the same
# 64-byte message on the same path each way), a role's own error does not.
check_bracketed() {
	local what="$1" ssrc="$2" csrc="$3" sg="$4" cg="$5" sum_pct="${6:-5}"
	check_between "server $what (us)" "$sg" "$(load_field "$ssrc" server_lo_p50_us)" \
		"$(load_field "$ssrc" server_hi_p50_us)" 3
	check_between "client $what (us)" "$cg" "$(load_field "$csrc" client_lo_p50_us)" \
		"$(load_field "$csrc" client_hi_p50_us)" 3
	check "server + client $what (us)" "$(awk -v a="$sg" -v b="$cg" 'BEGIN { print a + b }')" \
		"$(awk -v a="$(load_field "$ssrc" server_p50_us)" -v b="$(load_field "$csrc" client_p50_us)" \
			'BEGIN { print a + b }')" "$sum_pct"
}

# window_medians STAMPS T0 T1 GROUP: the medians (nearest rank, us) over
# the requests of rr_timed -o's STAMPS in GROUP (0 fast, 1 slow) that
# ended within [T0, T1) (us of CLOCK_REALTIME; a server response ends at
# the reply's send, a client's at the reply's receive timestamp), named
# as rr_timed names its own: server_p50_us= server_lo_p50_us=
# server_hi_p50_us= client_p50_us= client_lo_p50_us= client_hi_p50_us=
# STAMPS columns: slow c_start c_sent s_rx s_reply s_sent c_rx.
window_medians() {
	local m
	for m in server server_lo server_hi client client_lo client_hi; do
		awk -v m="$m" -v t0="$2" -v t1="$3" -v g="$4" '$1 == g {
			s = $5 >= t0 && $5 < t1; c = $7 >= t0 && $7 < t1
			if (m == "server" && s) print $5 - $4
			else if (m == "server_lo" && s) print $5 - $3
			else if (m == "server_hi" && s) print $7 - $4
			else if (m == "client" && c) print $7 - $2
			else if (m == "client_lo" && c) print $7 - $4
			else if (m == "client_hi" && c) print $6 - $2 }' "$1" | sort -g |
			awk -v m="$m" '{ v[NR] = $1 } END { r = int(NR * 0.5 + 0.999999); if (r < 1) r = 1
				printf "%s_p50_us=%s n=%d ", m, NR ? sprintf("%.1f", v[r]) : "none", NR }'
	done
	echo
}

# window_slow_share STAMPS T0 T1 ROLE SPLIT_US: the share (%) of ROLE's
# requests ending within [T0, T1) (as window_medians) whose own duration
# is SPLIT_US or longer: the load's count of the slow group dbtrace draws
# at that split. Its intent (every tenth request slow) is not the
# reference: a fast request the machine stalls past the split is slow by
# the clock (a TCG guest's stall took 5 of 195 in one interval).
window_slow_share() {
	awk -v t0="$2" -v t1="$3" -v role="$4" -v lim="$5" '{
		if (role == "server") { end = $5; d = $5 - $4 } else { end = $7; d = $7 - $2 }
		if (end < t0 || end >= t1) next
		n++; if (d >= lim) slow++ }
		END { printf "%.2f\n", n ? 100 * slow / n : -1 }' "$1"
}

# interval_window FILE K: "T0 T1" of the capture's interval K, us of
# CLOCK_REALTIME (started_at has milliseconds).
interval_window() {
	local t0
	t0="$(date -u -d "$(jq -r .started_at "$1")" +%s%3N)"
	jq -r --argjson k "$2" --argjson t0 "$t0" '.intervals[$k] | "\(($t0 + (.t - .dt) * 1000) * 1000) \(($t0 + .t * 1000) * 1000)"' "$1"
}

# bats test_tags=vm,rt,kernel
@test "response accuracy: a server taking exactly 2 ms, p50/p99 within 5% of the load's own timing" {
	rr_capture 5 -d 2 -H 2000

	local served
	served="$(load_field "$LOADOUT" served)"
	[ "$served" -gt 200 ]
	# every request counted, exactly: the load ran inside the capture
	check "server requests" "$(port_field "$PORT" server requests)" "$served" 0
	check "client requests" "$(port_field "$PORT" client requests)" "$(load_field "$LOADOUT" transactions)" 0
	# 5%: the issue's bound. A log2 slot [1024, 2048) us interpolated
	# puts a 2.0 ms p50 at ~1550 us (-23%) and the p99 at ~3000 (+30%).
	# In the qemu TCG guest the percentiles are held to the load's
	# bracket of dbtrace's own instants (check_response): there the few
	# requests in the tail are stalled by the emulator, which runs the
	# two vCPUs in turns, and a stall between the load's stamp (the skb's
	# receive time, its clock before send) and dbtrace's (readable, the
	# send's entry) moves one and not the other: runs read the client's
	# p99 +23% and +13.5%, the server's -11.8%, against the load's own,
	# all inside the bracket. The medians move the same way by the
	# emulated receive path itself (~100 us when the guest is slow: 5.10
	# runs read the client's p50 +4.2% twice, the server's -2.4%), and
	# their sum stays within 5% of the load's. On PREEMPT_RT the request
	# may become readable after the client's send returned (softirqs run
	# in threads), and the load bounds "readable" by the reader's own read
	# return there (rr_timed: readable_bound=read_return).
	check_response 5 "$(vm_hold)"
	no_misses
}

# The kprobe+raw_tp path (kprobes for kernels that refuse fentry and lack
# the socket tracepoints) forced where the kernel has kprobes: its
# receive is a kprobe that keeps the socket and flags and a kretprobe that
# reads the result, the flags' argument placed by tcp_recvmsg's prototype
# in BTF. The same requests, counts and percentiles as the preferred path.
# In the rt ring (6.1's prototype, five arguments, and the one kernel that
# preempts its map readers) and the 5.10 ring (the old one, six): 6.1 and
# 6.12 share the rt ring's prototype and programs.
# bats test_tags=rt,kernel510
@test "response accuracy on the kprobe path: the 2 ms server's counts and p50/p99 within 5% of the load's own" {
	skip_without_kprobes
	kprobe_rr_counts
	check_response 5 "$(vm_hold)"
	no_misses
}

skip_without_kprobes() {
	kernel_allows kprobe:tcp_sendmsg kretprobe:tcp_recvmsg ||
		skip "this kernel has no kprobes ($(kernel_refusal kprobe:tcp_sendmsg))"
}

# The 2 ms server on the kprobe path, its requests counted exactly
# (kprobe_rr_counts_within PCT: within PCT%).
kprobe_rr_counts() { kprobe_rr_counts_within 0; }

kprobe_rr_counts_within() {
	CAPTURE_OPTS=(--attach net=kprobe+raw_tp)
	rr_capture 5 -d 2 -H 2000
	[ "$(jq -r .probes.net.attach "$SCRATCH/run.json")" = kprobe+raw_tp ]
	check "server requests" "$(port_field "$PORT" server requests)" "$(load_field "$LOADOUT" served)" "$1"
	check "client requests" "$(port_field "$PORT" client requests)" "$(load_field "$LOADOUT" transactions)" "$1"
}

# A kprobe is skipped while a bpf() map call holds its CPU's
# bpf_prog_active (bpf/net.bpf.c, "events the kernel skipped"), and on a
# fully preemptible kernel every thread that preempts such a call runs
# unseen there. Another tool reading maps beside dbtrace (bpftool dumping
# dbtrace's port histograms, 4 MB a time, on each CPU over and over) makes
# that happen many times a second: without the recoveries the 6.1 rt
# guest counted 165 of 175 requests (-5.7%). A request is found again from
# the socket's own sequence numbers at the next event seen on its socket,
# and the capture says how many were found that way (skipped_requests:
# counted, not timed): within 1%. Not exactly: a request with every probe
# of one side skipped and no later event on that side (the connection's
# last, its reply's data-ready and read both unseen, then close) is not
# found: a client's 1 in 306 in one of six runs on the rt ring, the others
# exact. Their times are lost, and they are the requests the other tool
# held up, so the percentiles are not held to the load's here.
# In the rt ring only: a map reader is preempted inside its call only on
# a fully preemptible kernel (Debian's other kernels preempt voluntarily
# by default), and elsewhere the test was the plain kprobe test's again,
# 40-50 s of each ring under TCG.
# bats test_tags=rt
@test "kprobe path beside another tool's map reads: every request counted, those whose probes were skipped said" {
	skip_without_kprobes
	local cpu skipped
	for cpu in "$LOAD_CPU" "$OTHER_CPU"; do
		map_reader "$cpu" "$SCRATCH/run.json.load" &
		PIDS+=($!)
	done
	kprobe_rr_counts_within 1
	skipped="$(jq '[.intervals[].net.skipped_requests] | add' "$SCRATCH/run.json")"
	echo "requests counted whose probes the kernel skipped: $skipped"
	# how many is chance (where the reader's calls are preempted): 0 to
	# 10 in a run on the rt ring, so it is printed, not held
	no_misses
}

# map_reader CPU LOADOUT: dumps dbtrace's port histograms on CPU, over
# and over until killed, from half a second after the load's connection is
# up (LOADOUT: the load's output). A connection whose very first event
# is skipped is not recovered: there is nothing seen before it to hold
# its sequence numbers against, and a connection opened before dbtrace
# started (a pool's) looks the same.
map_reader() {
	until grep -q "listening port" "$2" 2>/dev/null; do sleep 0.05; done
	sleep 0.5
	while :; do
		taskset -c "$1" bpftool map dump name net_port_hist >/dev/null 2>&1 || sleep 0.1
	done
}

# In the qemu TCG guest the medians (p50, fast mode) are held to the
# load's brackets and the roles' sum (check_bracketed); the p99 and the
# slow mode (over 5 ms, where tens of us are under 1%) to 5% as on the
# host.
# bats test_tags=vm
@test "response accuracy: a bimodal server (90% 200 us, 10% 5 ms), percentiles and both modes within 5%" {
	# a 1 ms pause after each reply: at most 3 requests (6 measurement
	# starts) per 4 ms jiffy on the client's CPU, under the 8 past which
	# dbtrace samples (bpf/load_sample.bpf.h), so every request is timed
	# and each interval's group shares are exact, not estimates from a
	# few requests weighted 16 (the sampling test covers those)
	rr_capture 5 -d 3 -B 200,5000,10 -g 1000 -o "$SCRATCH/stamps"

	local vm="${DBTRACE_VM:-0}" role
	if [ "$vm" = 1 ]; then
		check_bracketed "response p50" "$LOADOUT" "$LOADOUT" "$(port_field "$PORT" server response_p50_us)" \
			"$(port_field "$PORT" client response_p50_us)"
		for role in server client; do
			check "$role response p99 (us)" "$(port_field "$PORT" "$role" response_p99_us)" \
				"$(load_field "$LOADOUT" "${role}_p99_us")" 5
		done
	else
		check_response 5
	fi
	# bimodal_response names both groups, per role; its centres are
	# each group's median in the interval it judged (its evidence is its
	# last interval's), and so are the load's they are held to: the
	# requests that ended in that interval (rr_timed -o). Intervals of
	# one steady run differ by more than 5%: one host run's fast medians
	# were 254 us in the judged interval, 238 us over the run.
	local f k t0 t1
	declare -A FAST
	for role in server client; do
		f="$(jq -c --arg c "$PORT/$role" '[.findings[] | select(.id == "bimodal_response" and .class == $c)][0]' \
			"$SCRATCH/run.json")"
		k="$(jq .last_interval <<<"$f")"
		f="$(jq -c .evidence <<<"$f")"
		echo "$role bimodal_response evidence (interval $k): $f"
		if [ "$f" = null ]; then
			echo "$role: no bimodal_response finding MISS"
			MISSES=$((MISSES + 1))
			continue
		fi
		FAST[$role]="$(jq .fast_mode_us <<<"$f")"
		read -r t0 t1 < <(interval_window "$SCRATCH/run.json" "$k")
		window_medians "$SCRATCH/stamps" "$t0" "$t1" 0 >"$SCRATCH/fast.$role"
		window_medians "$SCRATCH/stamps" "$t0" "$t1" 1 >"$SCRATCH/slow.$role"
		echo "$role's interval, fast: $(cat "$SCRATCH/fast.$role")"
		echo "$role's interval, slow: $(cat "$SCRATCH/slow.$role")"
		[ "$vm" = 1 ] || check "$role fast mode (us)" "${FAST[$role]}" \
			"$(load_field "$SCRATCH/fast.$role" "${role}_p50_us")" 5
		check "$role slow mode (us)" "$(jq .slow_mode_us <<<"$f")" \
			"$(load_field "$SCRATCH/slow.$role" "${role}_p50_us")" 5
		# the slow share against the load's own durations at dbtrace's
		# split, over the same interval; 10%: 1 request in 100+
		check "$role slow share (%)" "$(jq .slow_mode_pct <<<"$f")" \
			"$(window_slow_share "$SCRATCH/stamps" "$t0" "$t1" "$role" "$(jq .split_us <<<"$f")")" 10
	done
	[ "$vm" != 1 ] || check_bracketed "fast mode" "$SCRATCH/fast.server" "$SCRATCH/fast.client" \
		"${FAST[server]:-}" "${FAST[client]:-}"
	no_misses
}

# Under load one request in sixteen is timed (bpf/load_sample.bpf.h: past
# 8 measurement starts per jiffy on a CPU) and counts sixteen times. One
# load, two connections taking turns every 100 ms with the same request
# mix: one back to back (about 4 requests per ms, 2 measurement starts
# each on the client's CPU: sampled), one with the client pausing 3 ms
# after each reply (under 2 starts per jiffy: every request timed). Taking
# turns, both see the same machine (whatever else runs on it). Each must
# match its own connection's timing within 5%, and the sampled one must be
# off by no more than the unsampled one, give or take 5 points: the two
# connections' truths differ a little by themselves (a paced server wakes
# from a deeper idle, ~20 us here), so their percentiles are compared
# through each one's error, not directly. The counts are exact in both.
# 5% of the requests are slow: the p99 is then the slow group's 80th
# percentile, not its tail, which one preemption more or less would move.
# Host only: in the qemu TCG guest the counts were exact but the paced
# connection's server p50 read -11.5% and -9.9% against the load's stamps
# in two runs, its p99 -2.6% and -9.6% (the busy one's p50 -3.1% and
# -2.5%, p99 -1.9% and -1.4%): a server woken from idle
# there takes tens of us between the receive stamp and the data being
# readable, where dbtrace's timing starts, so the two connections'
# errors differ by more than the 5 points this test allows.
@test "sampling: sampled and unsampled connections of one load agree within 5%, counts exact" {
	capture_around "$SCRATCH/run.json" 7 "$TOOLS/rr_timed" -c "$OTHER_CPU" -S "$LOAD_CPU" \
		-d 4 -B 200,1000,5 -g 3000 -A 100
	"$VALIDATE" "$SCRATCH/run.json"
	local conn req total line pct
	declare -A ERR
	for conn in burst paced; do
		line="$SCRATCH/$conn.load"
		grep "^conn=$conn " "$SCRATCH/run.json.load" >"$line"
		PORT="$(load_field "$line" port)"
		req="$(port_field "$PORT" server requests)"
		total="$(jq -r --argjson p "$PORT" "$JQ_HIST_TOTAL"' .net.ports[] | select(.port == $p and .role == "server") |
			.response_hist | hist_total' "$SCRATCH/run.json")"
		echo "$conn (port $PORT): server requests $req, histogram total $total"
		# a fine histogram (schema /2) also says how many it timed and
		# what its buckets add up to
		local timed count
		read -r timed count < <(jq -r --argjson p "$PORT" '.net.ports[] | select(.port == $p and .role == "server") |
			.response_hist | objects | "\(.timed) \(.count)"' "$SCRATCH/run.json")
		if [ -n "${count:-}" ]; then
			echo "$conn: histogram says count $count, timed $timed"
			check "$conn histogram count vs its buckets" "$count" "$total" 0
			if [ "$conn" = burst ]; then
				[ "$timed" -lt "$count" ] || { echo "burst: timed $timed = count $count: not sampled MISS"; MISSES=$((MISSES + 1)); }
			else
				check "paced: timed (every request)" "$timed" "$req" 0
			fi
		fi
		check "$conn server requests" "$req" "$(load_field "$line" served)" 0
		check "$conn client requests" "$(port_field "$PORT" client requests)" "$(load_field "$line" transactions)" 0
		if [ "$conn" = burst ]; then
			# it was sampled: weights of 16 make the total differ from
			# the count, and estimate it (1000+ timed requests: +-10%)
			if [ "$total" = "$req" ]; then
				echo "the back-to-back connection was not sampled: histogram total = requests MISS"
				MISSES=$((MISSES + 1))
			fi
			check "burst histogram total (sampled)" "$total" "$req" 10
		else
			check "paced histogram total (every request timed)" "$total" "$req" 0
		fi
		for pct in 50 99; do
			got="$(port_field "$PORT" server "response_p${pct}_us")"
			want="$(load_field "$line" "server_p${pct}_us")"
			check "$conn server p$pct (us)" "$got" "$want" 5
			ERR[$conn$pct]="$(awk -v a="$got" -v b="$want" 'BEGIN { printf "%.2f", (a - b) / b * 100 }')"
		done
	done
	for pct in 50 99; do
		echo "p$pct error: sampled ${ERR[burst$pct]}%, unsampled ${ERR[paced$pct]}%"
		awk -v a="${ERR[burst$pct]}" -v b="${ERR[paced$pct]}" 'BEGIN { d = a - b; exit !(d <= 5 && d >= -5) }' || {
			echo "p$pct: sampled and unsampled errors differ by more than 5 points MISS"
			MISSES=$((MISSES + 1))
		}
	done
	no_misses
}

# A tbf shaper whose queue a UDP flood at 1.5x its rate keeps full: every
# packet waits for the bytes ahead of it to leave at the shaper's rate,
# backlog x 8 / rate, with the backlog from tc -s (sampled every 50 ms
# while the flood runs). 15%: the backlog moves by a packet or two as
# tbf's tokens come in, and tc's samples are not the packets' own instants.
# Host only: under qemu TCG one host thread runs every vCPU, and each tc
# run stalls the flood long enough for the queue to drain.
@test "tx queue accuracy: p50 behind a full tbf queue within 15% of backlog / rate" {
	skip_in_vm "the flood cannot keep the queue full while tc samples it"
	netns_pair_create 10.231.0
	local rate_mbit=20
	tc -n "$NSA" qdisc add dev "$VA" root tbf rate ${rate_mbit}mbit burst 10kb limit 60kb
	touch "$SCRATCH/flooding"
	capture_around "$SCRATCH/run.json" 6 bash -c "$(declare -f udp_flood); udp_flood $NSA 10.231.0.2 30 3; rm -f $SCRATCH/flooding" &
	local cap=$!
	sleep 1.5
	tx_backlog "$NSA" "$VA" >"$SCRATCH/backlog"
	wait "$cap"
	"$VALIDATE" "$SCRATCH/run.json"
	local want got
	want="$(backlog_wait_us "$SCRATCH/backlog" "$rate_mbit")"
	got="$(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | .txq_p50_us' "$SCRATCH/run.json")"
	echo "$VA: $(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | "\(.txq_packets) packets, p99 \(.txq_p99_us) us, drops \(.drops)"' "$SCRATCH/run.json")"
	check "tx queue p50 (us) vs backlog*8/rate" "$got" "$want" 15
	no_misses
}

# udp_one_way NS ADDR SECONDS [STAMPS]: receives udp_flood's datagrams on
# ADDR:9 in namespace NS for SECONDS (or until 1.5 s pass without one
# after the first) and prints "one_way_p50_us=X
# packets=N": from the send time a datagram carries to the kernel's
# receive timestamp (SO_TIMESTAMPNS, CLOCK_REALTIME like time.time_ns()).
# With STAMPS, "number ns" lines of each datagram's receive timestamp go
# to that file. Prints "listening" once bound.
udp_one_way() {
	ip netns exec "$1" python3 -c '
import socket, sys, time
addr, secs = sys.argv[1], float(sys.argv[2])
out = open(sys.argv[3], "w") if len(sys.argv) > 3 else None
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
TSNS = getattr(socket, "SO_TIMESTAMPNS", 35)   # Python 3.11 lacks the name
s.setsockopt(socket.SOL_SOCKET, TSNS, 1)
s.bind((addr, 9))
s.settimeout(0.5)
print("listening", flush=True)
d, end = [], time.monotonic() + secs
quiet = 0
while time.monotonic() < end:
    try:
        data, anc, _, _ = s.recvmsg(2048, 64)
        quiet = 0
    except socket.timeout:
        quiet += 1
        if d and quiet >= 3:    # 1.5 s without a datagram: the flood is over
            break
        continue
    for lvl, typ, val in anc:
        if lvl == socket.SOL_SOCKET and typ == TSNS:
            sec, nsec = int.from_bytes(val[:8], "little"), int.from_bytes(val[8:16], "little")
            d.append((sec * 10**9 + nsec - int(data.split()[0])) / 1000)
            if out:
                out.write("%s %d\n" % (data.split()[1].decode(), sec * 10**9 + nsec))
if out:
    out.close()
d.sort()
print("one_way_p50_us=%.1f packets=%d" % (d[(len(d) + 1) // 2 - 1] if d else -1, len(d)))' "$2" "$3" ${4:+"$4"}
}

# netem holds every packet for its delay: the tx queue p50 is that delay.
# sch_netem loads in the VM rings (scripts/vmtest.sh), not on every host.
# 5% of 1000 us: netem releases packets from an hrtimer, tens of us late
# at most on an idle CPU. Under qemu TCG the hrtimer fires hundreds of us
# late (one run: 1275 us held), so there the hold is measured by the
# packets themselves, and dbtrace held to that: each datagram's time
# from the kernel's stamp as it entered the qdisc (SO_TIMESTAMPING
# TX_SCHED, beside net_dev_queue) to its receive timestamp on the peer
# (taken inside veth's xmit, just before net_dev_xmit fires), datagram
# by datagram, its median within 5% of dbtrace's p50, in the guest as on
# a host. (The send time a datagram carries is no reference for this:
# under TCG the sender's own path to the qdisc takes 200-300 us and
# varies, and the trip's median moved dbtrace's figure by 7-11% either
# way between runs.)
# bats test_tags=vm
@test "tx queue accuracy: netem delay 1ms reads 1000 us within 5%, and tx_queueing names netem" {
	netns_pair_create 10.231.0
	run tc -n "$NSA" qdisc add dev "$VA" root netem delay 1ms
	[ "$status" -eq 0 ] || skip "sch_netem does not load here: tc said: $output"
	# light: 200 packets a second, a queue that never builds
	udp_one_way "$NSB" 10.231.0.2 $((LIMIT + 12)) "$SCRATCH/rx.stamps" >"$SCRATCH/oneway" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/oneway" listening
	capture_around "$SCRATCH/run.json" 5 bash -c "$(declare -f udp_flood); udp_flood $NSA 10.231.0.2 1.6 3 $SCRATCH/tx.stamps"
	"$VALIDATE" "$SCRATCH/run.json"
	wait "${PIDS[-1]}"
	cat "$SCRATCH/oneway"
	local got
	got="$(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | .txq_p50_us' "$SCRATCH/run.json")"
	echo "$VA: $(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | "\(.qdisc): \(.txq_packets) packets, p99 \(.txq_p99_us) us"' "$SCRATCH/run.json")"
	# each datagram's qdisc entry to its receive timestamp, by number
	local held n
	join <(sort -k1,1 "$SCRATCH/tx.stamps") <(sort -k1,1 "$SCRATCH/rx.stamps") |
		awk '{ print ($3 - $2) / 1000 }' | sort -g >"$SCRATCH/held"
	n="$(wc -l <"$SCRATCH/held")"
	held="$(awk -v n="$n" 'NR == int((n + 1) / 2) { print }' "$SCRATCH/held")"
	echo "held per the packets' own stamps: $n packets, median $held us, p99 $(awk -v n="$n" 'NR == int(n * 0.99 + 0.999) { print }' "$SCRATCH/held") us"
	[ "$n" -ge 500 ]
	check "tx queue p50 (us) vs the datagrams' qdisc entry to receive stamps" "$got" "$held" 5
	if [ "${DBTRACE_VM:-0}" != 1 ]; then
		# at host speed the hold is the delay
		check "tx queue p50 (us) behind netem delay 1ms" "$got" 1000 5
	else
		# netem's timer fires late, never early
		echo "tx queue p50: dbtrace $got us, at least netem's 1000 us (3% margin: the histogram's bound)?"
		awk -v g="$got" 'BEGIN { exit !(g >= 970) }' || {
			echo "MISS"
			MISSES=$((MISSES + 1))
		}
	fi
	local f
	f="$(jq -c --arg c "$VA@$NSA" '[.findings[] | select(.id == "tx_queueing" and .class == $c)][0]' "$SCRATCH/run.json")"
	echo "tx_queueing: $f"
	jq -e '.evidence.qdisc_kind == "netem" and .evidence.netem_delay_us == 1000 and (.hint | contains("netem"))' <<<"$f" || {
		echo "no tx_queueing finding naming netem MISS"
		MISSES=$((MISSES + 1))
	}
	no_misses
}
