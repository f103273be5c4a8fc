#!/usr/bin/env bats
# `dbtrace top --batch`: plain-text tables, one per interval.

load helpers/common

@test "top --batch -d 2 prints two tables with every column" {
	run "$DBTRACE" top --batch -d 2
	[ "$status" -eq 0 ]
	[ "$(grep -c '^dbtrace top - ' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^CPU ' <<<"$output")" -eq 2 ]
	local header
	header="$(grep -m1 '^CPU ' <<<"$output")"
	for col in %usr %sys %si NET_RX NET_TX TIMER SCHED RCU %hirq %idle wait99us; do
		[[ "$header" == *"$col"* ]]
	done
	# one row per online CPU plus "all", in each table (online, not
	# nproc: a cpuset or taskset around the tests leaves the rest online)
	local ncpu rows
	ncpu="$(online_cpus | wc -l)"
	rows="$(grep -cE '^[0-9]+ ' <<<"$output")"
	[ "$rows" -eq $((2 * ncpu)) ]
	[ "$(grep -c '^all ' <<<"$output")" -eq 2 ]
}

@test "top --batch --sort n marks NET_RX and sorts by it" {
	# the load outlives dbtrace's start-up, however slow (qemu TCG)
	"$TOOLS/tcp_rr" -d 300 -c "$LOAD_CPU" -S "$LOAD_CPU" >/dev/null &
	local load=$!
	run "$DBTRACE" top --batch -d 2 --sort n
	kill "$load"; wait "$load" 2>/dev/null || true
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"*NET_RX"* ]]
	# the loaded CPU comes first in the last table
	local first
	first="$(awk '/^dbtrace top/ { n++ } n == 2 && /^[0-9]+ / { print $1; exit }' <<<"$output")"
	[ "$first" = "$LOAD_CPU" ]
}

@test "top rejects a bad sort key with exit 2" {
	run "$DBTRACE" top --batch -d 1 --sort Z
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad sort key"* ]]
}

@test "shares add up: usr+sys+idle+iowait+steal is about 100 per CPU" {
	run "$DBTRACE" top --batch -d 1
	[ "$status" -eq 0 ]
	# columns: CPU %usr %sys %si NET_RX NET_TX TIMER SCHED RCU %hirq %idle %steal
	awk '/^[0-9]+ / { s = $2 + $3 + $11 + $12; if (s < 90 || s > 101) { print "cpu " $1 " sums to " s; bad = 1 } }
	     END { exit bad }' <<<"$output"
}
