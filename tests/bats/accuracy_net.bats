#!/usr/bin/env bats
# Accuracy of the net family's percentiles against sources that are not
# dbtrace: the load's own per-request timing (tests/tools/rr_timed: a
# server that busy-waits an exact service time; each request timed between
# the instants it and its reply became readable, as dbtrace times it), and
# a tbf shaper's rate and backlog (tc -s). Every test prints each figure next to
# its reference, with the tolerance.

load helpers/common
load helpers/accuracy
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

LIMIT=10
[ "${DBTRACE_VM:-0}" = 1 ] && LIMIT=120

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

port_field() {   # role field [file]
	jq -r --argjson p "$PORT" --arg r "$1" ".net.ports[] | select(.port == \$p and .role == \$r) | .$2" \
		"${3:-$SCRATCH/run.json}"
}

# The four response percentiles against the load's own: p50 within pct%,
# p99 within p99_pct% (default pct).
check_response() {   # pct [p99_pct]
	local role
	for role in server client; do
		check "$role response p50 (us)" "$(port_field "$role" response_p50_us)" \
			"$(load_field "$LOADOUT" "${role}_p50_us")" "$1"
		check "$role response p99 (us)" "$(port_field "$role" response_p99_us)" \
			"$(load_field "$LOADOUT" "${role}_p99_us")" "${2:-$1}"
	done
}

# bats test_tags=vm
@test "response accuracy: a server taking exactly 2 ms, p50/p99 within 5% of the load's own timing" {
	rr_capture 5 -d 2 -H 2000

	local served
	served="$(load_field "$LOADOUT" served)"
	[ "$served" -gt 200 ]
	# every request counted, exactly: the load ran inside the capture
	check "server requests" "$(port_field server requests)" "$served" 0
	check "client requests" "$(port_field client requests)" "$(load_field "$LOADOUT" transactions)" 0
	# 5%: the issue's bound. A log2 slot [1024, 2048) us interpolated
	# puts a 2.0 ms p50 at ~1550 us (-23%) and the p99 at ~3000 (+30%).
	# In the qemu TCG guest the p99 gets 10%: there the "2 ms" server's
	# own p99 is near 3.8 ms (the emulated CPU stalls it), and the few
	# requests in the tail are the ones where the load's stamps (the
	# skb's receive time, its clock before send) and dbtrace's (the
	# socket's) lie furthest apart: one run read -6.1% on 718 requests.
	# The log2 error above is still three times that.
	if [ "${DBTRACE_VM:-0}" = 1 ]; then
		check_response 5 10
	else
		check_response 5
	fi
	no_misses
}

# not tagged vm: under qemu TCG the server's fast mode reads 8% under the
# load's (368 vs 400 us): the receive timestamp leads readability there
@test "response accuracy: a bimodal server (90% 200 us, 10% 5 ms), percentiles and both modes within 5%" {
	# a 1 ms pause after each reply: at most 3 requests (6 measurement
	# starts) per 4 ms jiffy on the client's CPU, under the 8 past which
	# dbtrace samples (bpf/load_sample.bpf.h), so every request is timed
	# and each interval's group shares are exact, not estimates from a
	# few requests weighted 16 (the sampling test covers those)
	rr_capture 5 -d 3 -B 200,5000,10 -g 1000

	check_response 5
	# bimodal_response names both groups, per role; its centres are
	# each group's median in the interval it judged, the load's are over
	# the whole run (a steady load: the same to within noise)
	local role f
	for role in server client; do
		f="$(jq -c --arg c "$PORT/$role" '[.findings[] | select(.id == "bimodal_response" and .class == $c)][0].evidence' \
			"$SCRATCH/run.json")"
		echo "$role bimodal_response evidence: $f"
		if [ "$f" = null ]; then
			echo "$role: no bimodal_response finding MISS"
			MISSES=$((MISSES + 1))
			continue
		fi
		check "$role fast mode (us)" "$(jq .fast_mode_us <<<"$f")" "$(load_field "$LOADOUT" "${role}_fast_p50_us")" 5
		check "$role slow mode (us)" "$(jq .slow_mode_us <<<"$f")" "$(load_field "$LOADOUT" "${role}_slow_p50_us")" 5
		# the shares: 10% slow (every tenth request), give or take the
		# requests of a partial interval
		check "$role slow share (%)" "$(jq .slow_mode_pct <<<"$f")" 10 20
	done
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
		req="$(port_field server requests)"
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
		check "$conn client requests" "$(port_field client requests)" "$(load_field "$line" transactions)" 0
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
			got="$(port_field server "response_p${pct}_us")"
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

# udp_flood NS ADDR MBIT SECONDS: 1000-byte UDP datagrams from namespace NS
# to ADDR:9 at MBIT Mbit/s for SECONDS (a load that does not slow down
# when the qdisc drops, unlike TCP: a shaper's queue then stays full).
udp_flood() {
	ip netns exec "$1" python3 -c '
import socket, sys, time
addr, mbit, secs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
per_ms = mbit * 1e6 / 8 / 1000 / 1000
t0 = time.monotonic(); sent = 0
while True:
    t = time.monotonic() - t0
    if t >= secs:
        break
    while sent < t * 1000 * per_ms:
        try:
            # the send time leads the datagram: udp_one_way reads it
            s.sendto(b"%d " % time.time_ns() + b"x" * 980, (addr, 9))
        except OSError:
            pass
        sent += 1
    time.sleep(0.0005)
print("sent=%d" % sent)' "$2" "$3" "$4"
}

# tx_backlog NS DEV: the qdisc's backlog in bytes, every 50 ms, while a
# file $SCRATCH/flooding exists.
tx_backlog() {
	while [ -e "$SCRATCH/flooding" ]; do
		# the largest: a 6.1 kernel shows it on tbf's inner bfifo
		tc -n "$1" -s qdisc show dev "$2" | sed -n 's/.*backlog \([0-9]*\)b .*/\1/p' | sort -n | tail -1
		sleep 0.05
	done
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
	local backlog want got
	# the middle of the flood: the queue fills in its first few ms
	backlog="$(sort -n "$SCRATCH/backlog" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
	echo "tc backlog samples: $(wc -l <"$SCRATCH/backlog"), median $backlog bytes"
	[ "$(wc -l <"$SCRATCH/backlog")" -ge 10 ]
	want="$(awk -v b="$backlog" -v r="$rate_mbit" 'BEGIN { printf "%.1f", b * 8 / r }')"   # bytes*8 / (Mbit/s) = us
	got="$(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | .txq_p50_us' "$SCRATCH/run.json")"
	echo "$VA: $(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | "\(.txq_packets) packets, p99 \(.txq_p99_us) us, drops \(.drops)"' "$SCRATCH/run.json")"
	check "tx queue p50 (us) vs backlog*8/rate" "$got" "$want" 15
	no_misses
}

# udp_one_way NS ADDR SECONDS: receives udp_flood's datagrams on ADDR:9 in
# namespace NS for SECONDS and prints "one_way_p50_us=X packets=N": from
# the send time a datagram carries to the kernel's receive timestamp
# (SO_TIMESTAMPNS, CLOCK_REALTIME like time.time_ns()). Prints
# "listening" once bound.
udp_one_way() {
	ip netns exec "$1" python3 -c '
import socket, sys, time
addr, secs = sys.argv[1], float(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
TSNS = getattr(socket, "SO_TIMESTAMPNS", 35)   # Python 3.11 lacks the name
s.setsockopt(socket.SOL_SOCKET, TSNS, 1)
s.bind((addr, 9))
s.settimeout(0.5)
print("listening", flush=True)
d, end = [], time.monotonic() + secs
while time.monotonic() < end:
    try:
        data, anc, _, _ = s.recvmsg(2048, 64)
    except socket.timeout:
        continue
    for lvl, typ, val in anc:
        if lvl == socket.SOL_SOCKET and typ == TSNS:
            sec, nsec = int.from_bytes(val[:8], "little"), int.from_bytes(val[8:16], "little")
            d.append((sec * 10**9 + nsec - int(data.split()[0])) / 1000)
d.sort()
print("one_way_p50_us=%.1f packets=%d" % (d[(len(d) + 1) // 2 - 1] if d else -1, len(d)))' "$2" "$3"
}

# netem holds every packet for its delay: the tx queue p50 is that delay.
# sch_netem loads in the VM rings (scripts/vmtest.sh), not on every host.
# 5% of 1000 us: netem releases packets from an hrtimer, tens of us late
# at most on an idle CPU.
# bats test_tags=vm
@test "tx queue accuracy: netem delay 1ms reads 1000 us within 5%, and tx_queueing names netem" {
	netns_pair_create 10.231.0
	run tc -n "$NSA" qdisc add dev "$VA" root netem delay 1ms
	[ "$status" -eq 0 ] || skip "sch_netem does not load here: tc said: $output"
	# light: 200 packets a second, a queue that never builds; the
	# receiver times each one's trip, the netem hold and the little
	# around it (under qemu TCG netem's timer fires late: the trip
	# shows that too, so dbtrace is held to the trip as well as to 1 ms)
	udp_one_way "$NSB" 10.231.0.2 $((LIMIT + 12)) >"$SCRATCH/oneway" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/oneway" listening
	capture_around "$SCRATCH/run.json" 5 bash -c "$(declare -f udp_flood); udp_flood $NSA 10.231.0.2 1.6 3"
	"$VALIDATE" "$SCRATCH/run.json"
	wait "${PIDS[-1]}"
	cat "$SCRATCH/oneway"
	local got
	got="$(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | .txq_p50_us' "$SCRATCH/run.json")"
	echo "$VA: $(jq -r --arg d "$VA" --arg n "$NSA" '.net.devices[] | select(.name == $d and .netns == $n) | "\(.qdisc): \(.txq_packets) packets, p99 \(.txq_p99_us) us"' "$SCRATCH/run.json")"
	local trip
	trip="$(load_field "$SCRATCH/oneway" one_way_p50_us)"
	if [ "${DBTRACE_VM:-0}" != 1 ]; then
		# at host speed the hold is the delay, and the trip barely more
		check "tx queue p50 (us) behind netem delay 1ms" "$got" 1000 5
		check "tx queue p50 (us) vs the packets' own trip (receive timestamp - send time)" "$got" "$trip" 5
	else
		# under qemu TCG netem's timer fires late and the sender's own
		# path to the qdisc takes hundreds of us: the hold lies between
		# the configured 1 ms and the whole trip
		echo "tx queue p50: dbtrace $got us, between netem's 1000 us and the trip's $trip us (3% / 5% margins)?"
		awk -v g="$got" -v t="$trip" 'BEGIN { exit !(g >= 970 && g <= t * 1.05) }' || {
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
