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

# The four response percentiles against the load's own, within pct%.
check_response() {   # pct
	local role
	for role in server client; do
		check "$role response p50 (us)" "$(port_field "$role" response_p50_us)" \
			"$(load_field "$LOADOUT" "${role}_p50_us")" "$1"
		check "$role response p99 (us)" "$(port_field "$role" response_p99_us)" \
			"$(load_field "$LOADOUT" "${role}_p99_us")" "$1"
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
	# puts a 2.0 ms p50 at ~1550 us (-23%) and the p99 at ~3000 (+30%)
	check_response 5
	no_misses
}

# bats test_tags=vm
@test "response accuracy: a bimodal server (90% 200 us, 10% 5 ms), percentiles and both modes within 5%" {
	rr_capture 5 -d 2 -B 200,5000,10

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
		# the shares: 10% slow, give or take what one interval holds
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
