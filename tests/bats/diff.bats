#!/usr/bin/env bats
# `dbtrace diff`: two captures taken here, before and after a change a
# person would make (a tbf shaper on a veth, an oversized thread pool),
# compared: the rows of what changed carry the right direction, the
# numbers agree with what the load generators and the kernel counted,
# and the findings show as new. Namespaces and veth devices are the
# test's own and removed in teardown.

load helpers/common
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	netns_pair_init dbtdf
	PIDS=()
}

teardown() {
	stop_bg
	netns_pair_delete
	remove_scratch
}

# capture_around (helpers/common.bash) takes CAPTURE_OPTS
CAPTURE_OPTS=()

# row DIFF SECTION KEY METRIC FIELD
row() {
	jq -r --arg s "$2" --arg k "$3" --arg m "$4" \
		".sections[\$s].rows[] | select(.key == \$k and .metric == \$m) | .$5" "$1"
}

@test "a tbf shaper on a veth: tx queue worse, throughput down, qdisc changed, tx_queueing new" {
	netns_pair_create 10.233.0

	local run
	for run in before after; do
		[ "$run" = after ] && tc -n "$NSA" qdisc add dev "$VA" root tbf rate 20mbit burst 100kb latency 100ms
		ip netns exec "$NSB" "$TOOLS/tcp_stream" -l -a 10.233.0.2 -p 5201 -c "$LOAD_CPU" >"$SCRATCH/recv" &
		PIDS+=($!)
		wait_for_text "$SCRATCH/recv" listening
		capture_around "$SCRATCH/$run.json" 4 ip netns exec "$NSA" "$TOOLS/tcp_stream" -a 10.233.0.2 \
			-p 5201 -c "$OTHER_CPU" -d 2
		"$VALIDATE" "$SCRATCH/$run.json"
	done

	run "$DBTRACE" diff --json "$SCRATCH/before.json" "$SCRATCH/after.json"
	[ "$status" -eq 0 ]
	echo "$output" >"$SCRATCH/diff.json"
	jq -e '.schema == "dbtrace.diff/1"' "$SCRATCH/diff.json"
	local key="$VA@$NSA" p99b p99a mb sent dur
	p99b="$(row "$SCRATCH/diff.json" devices "$key" txq_p99_us before)"
	p99a="$(row "$SCRATCH/diff.json" devices "$key" txq_p99_us after)"
	echo "$key txq p99: $p99b -> $p99a us"
	awk -v b="$p99b" -v a="$p99a" 'BEGIN { exit !(b < 1000 && a > 1000) }'
	[ "$(row "$SCRATCH/diff.json" devices "$key" txq_p99_us direction)" = worse ]
	[ "$(row "$SCRATCH/diff.json" devices "$key" tx_mbps direction)" = down ]
	# what went through the shaper: the sender's bytes over the capture
	mb="$(row "$SCRATCH/diff.json" devices "$key" tx_mbps after)"
	dur="$(jq .duration_s "$SCRATCH/after.json")"
	sent="$(sed -n 's/^sent bytes=\([0-9]*\).*/\1/p' "$SCRATCH/after.json.load")"
	echo "after: $mb Mbit/s over $dur s; tcp_stream sent $sent bytes"
	within_pct "$(awk -v m="$mb" -v d="$dur" 'BEGIN { print m * d }')" \
		"$(awk -v b="$sent" 'BEGIN { print b * 8 / 1e6 }')" 15
	[ "$(row "$SCRATCH/diff.json" devices "$key" qdisc before)" = noqueue ]
	[ "$(row "$SCRATCH/diff.json" devices "$key" qdisc after)" = "tbf rate 20Mbit burst 100Kb limit 344.1Kb" ]
	[ "$(row "$SCRATCH/diff.json" devices "$key" qdisc direction)" = changed ]
	[ "$(row "$SCRATCH/diff.json" findings "$key" tx_queueing direction)" = new ]
	[ "$(row "$SCRATCH/diff.json" findings "$key" tx_queueing after)" = critical ] ||
		[ "$(row "$SCRATCH/diff.json" findings "$key" tx_queueing after)" = warning ]

	# the table says the same
	run "$DBTRACE" diff "$SCRATCH/before.json" "$SCRATCH/after.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E "^  $key +tx_mbps .* down$"
	echo "$output" | grep -E "^ +txq_p99_us .* worse$"
	echo "$output" | grep -E "^  $key +tx_queueing +- -> (warning|critical)  new  "
}

# Involuntary switches are not asserted to rise: one worker beside a
# ping-pong pair is preempted by every wakeup, eight workers sharing a
# CPU only at the end of each slice; which is more depends on the load.
@test "an oversized thread pool: run-queue delay worse, oversubscription new, switches as the kernel counted" {
	CAPTURE_OPTS=(--comm thread_pool)
	capture_around "$SCRATCH/before.json" 3.5 "$TOOLS/thread_pool" -n 1 -d 2 -c "$POOL_CPUS"
	capture_around "$SCRATCH/after.json" 3.5 "$TOOLS/thread_pool" -n 8 -d 2 -c "$LOAD_CPU"

	run "$DBTRACE" diff --json "$SCRATCH/before.json" "$SCRATCH/after.json"
	[ "$status" -eq 0 ]
	echo "$output" >"$SCRATCH/diff.json"
	local key="thread_pool/TNT_L0_1002" rate dur want
	[ "$(row "$SCRATCH/diff.json" classes "$key" threads before)" = 1 ]
	[ "$(row "$SCRATCH/diff.json" classes "$key" threads after)" = 8 ]
	[ "$(row "$SCRATCH/diff.json" classes "$key" runq_p99_us direction)" = worse ]
	awk -v v="$(row "$SCRATCH/diff.json" classes "$key" runq_p99_us after)" 'BEGIN { exit !(v > 1000) }'
	[ "$(row "$SCRATCH/diff.json" classes "$key" runnable_avg direction)" = up ]
	# the after side's switches: the rate over the capture is the count the
	# kernel kept for the pool's threads, which lived inside the capture
	rate="$(row "$SCRATCH/diff.json" classes "$key" csw_involuntary_per_s after)"
	dur="$(jq .duration_s "$SCRATCH/after.json")"
	want="$(awk '$2 == "TNT_L0_1002" { for (i = 3; i <= NF; i++) if ($i ~ /^invol=/) print substr($i, 7) }' \
		"$SCRATCH/after.json.load")"
	echo "involuntary switches after: dbtrace $rate/s over $dur s, kernel $want"
	[ "$want" -ge 50 ]
	within_pct "$(awk -v r="$rate" -v d="$dur" 'BEGIN { print r * d }')" "$want" 15
	# the verdict
	[[ "$(row "$SCRATCH/diff.json" findings "$key" oversubscription direction)" =~ ^(new|worse)$ ]]
	[[ "$(row "$SCRATCH/diff.json" findings "$key" oversubscription after)" =~ ^(warning|critical)$ ]]
	jq -e '.summary.worse >= 2' "$SCRATCH/diff.json"
}

@test "bad input: one line and exit 2; a capture against itself changes nothing" {
	local good="$REPO/tests/fixtures/captures/rr.json"
	run -2 "$DBTRACE" diff "$good" "$SCRATCH/missing.json"
	[ "$output" = "dbtrace: cannot read $SCRATCH/missing.json: No such file or directory" ]
	echo '[1, 2]' >"$SCRATCH/array.json"
	run -2 "$DBTRACE" diff "$SCRATCH/array.json" "$good"
	[ "$output" = "dbtrace: $SCRATCH/array.json is not a dbtrace capture: not a JSON object" ]
	run -2 "$DBTRACE" diff "$good"
	[ "$output" = "dbtrace: diff needs two capture files: dbtrace diff BEFORE.json AFTER.json" ]
	run -2 "$DBTRACE" diff "$good" "$good" --listen :1
	[ "${#lines[@]}" -eq 1 ]
	"$DBTRACE" --help | grep -E '^  (serve|report|diff) ' | wc -l | grep -qx 3

	run "$DBTRACE" diff --json "$good" "$good"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.summary | to_entries[] | select(.key != "same") | .value] | add == 0'
	echo "$output" | jq -e '.summary.same > 50'
	run "$DBTRACE" diff --top-n 1 --json "$good" "$good"
	echo "$output" | jq -e '[.sections.classes.rows[].key] | unique | length == 1'
}
