#!/usr/bin/env bats
# net family: tx queue latency per device (veth pair between two network
# namespaces, with and without a tbf shaper), server response time and rx
# socket-queue latency per port (loopback servers that hold requests or
# read slowly), checked against what the load generators did. Network
# namespaces and veth devices are the test's own and removed in teardown.

load helpers/common
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	netns_pair_init dbtnet
	PIDS=()
}

teardown() {
	stop_bg
	netns_pair_delete
	remove_scratch
}

# Two namespaces joined by a veth pair: $VA (10.231.0.1) in $NSA, $VB
# (10.231.0.2) in $NSB.

# stream SECONDS: a TCP stream from $NSA to $NSB during a capture.
stream() {
	ip netns exec "$NSB" "$TOOLS/tcp_stream" -l -a 10.231.0.2 -p 5201 -c "$LOAD_CPU" >"$SCRATCH/recv" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/recv" listening
	capture "$(($1 + 2))" ip netns exec "$NSA" "$TOOLS/tcp_stream" -a 10.231.0.2 -p 5201 -c "$OTHER_CPU" -d "$1"
}

dev_field() {
	jq -r --arg d "$VA" --arg n "$NSA" ".net.devices[] | select(.name == \$d and .netns == \$n) | .$1" \
		"$SCRATCH/run.json"
}

# bats test_tags=vm
@test "probes: the net family attaches on the path this kernel allows (fentry where it loads, else tracepoints)" {
	run "$DBTRACE" probes
	echo "$output"
	[ "$status" -eq 0 ]
	assert_probe_path "$output" net
}

# Host only (not in the 6.1 ring): the same tp_btf programs on both; the
# guest's minutes go to what differs by kernel.
@test "tx queue: several ms behind a tbf shaper on a veth, under 1 ms without it" {
	netns_pair_create 10.231.0
	tc -n "$NSA" qdisc add dev "$VA" root tbf rate 20mbit burst 100kb latency 100ms
	stream 3
	local p50
	p50="$(dev_field txq_p50_us)"
	echo "with tbf: $VA p50 $p50 us, p99 $(dev_field txq_p99_us) us, $(dev_field txq_packets) packets"
	awk -v v="$p50" 'BEGIN { exit !(v >= 2000) }'
	[ "$(dev_field qdisc)" = "tbf rate 20Mbit burst 100Kb limit 344.1Kb" ]
	# the finding names the shaper and its rate
	jq -e --arg c "$VA@$NSA" '[.findings[] | select(.id == "tx_queueing" and .class == $c)] | length == 1' \
		"$SCRATCH/run.json"
	jq -e --arg c "$VA@$NSA" --arg d "$VA" '.findings[] | select(.id == "tx_queueing" and .class == $c) |
	       .evidence.qdisc_kind == "tbf" and .evidence.qdisc_rate_mbit == 20 and
	       .evidence.device == $d and (.title | contains("tbf rate 20Mbit")) and
	       (.hint | contains("tbf")) and .evidence.txq_p99_us > 1000' "$SCRATCH/run.json"

	# the same stream without the shaper: veth's noqueue passes packets on at once
	tc -n "$NSA" qdisc del dev "$VA" root
	stream 3
	p50="$(dev_field txq_p50_us)"
	echo "without tbf: $VA p50 $p50 us, p99 $(dev_field txq_p99_us) us, $(dev_field txq_packets) packets"
	awk -v v="$p50" 'BEGIN { exit !(v < 1000) }'
	[ "$(dev_field qdisc)" = noqueue ]
	# under qemu TCG a stalled interval can still push one interval's p99
	# over 1 ms: the verdict is only asserted at host speed
	if [ "${DBTRACE_VM:-0}" != 1 ]; then
		jq -e --arg c "$VA@$NSA" '[.findings[] | select(.id == "tx_queueing" and .class == $c)] | length == 0' \
			"$SCRATCH/run.json"
	fi
	# rates each way come from the namespace's own counters
	jq -e --arg d "$VB" '.intervals[1].net.devices[] | select(.name == $d) | .rx_mbps > 1 and .rx_pps > 10' \
		"$SCRATCH/run.json"
}

# Host only: in the cloud ring accuracy_net.bats times the same 2 ms server
# per request, against the load's own timestamps.
@test "response time: a server holding each request 2 ms, counted per request" {
	# tcp_rr -H: the server thread sleeps 2 ms between reading a request and replying
	capture 5 "$TOOLS/tcp_rr" -d 2 -H 2000 -c "$OTHER_CPU" -S "$LOAD_CPU"
	local port served got p50
	port="$(field port)"
	served="$(field served)"
	got="$(port_field "$port" server requests)"
	p50="$(port_field "$port" server response_p50_us)"
	echo "port $port: server served $served, dbtrace counted $got, response p50 $p50 us"
	[ "$served" -gt 50 ]
	within_pct "$got" "$served" 5
	# within 1.8-4 ms; under qemu TCG the hold itself can overshoot, and
	# the bound grows to the client's own round trip when that is longer
	local hi=4000
	[ "${DBTRACE_VM:-0}" = 1 ] && hi="$(awk -v r="$(field rate)" 'BEGIN { h = 1.1e6 / r; print (h > 4000 ? h : 4000) }')"
	awk -v v="$p50" -v hi="$hi" 'BEGIN { exit !(v >= 1800 && v <= hi) }'
	# the client end of the same connections is reported apart
	[ "$(port_field "$port" client requests)" -gt 0 ]
	[ "$(jq --argjson p "$port" '[.net.ports[] | select(.port == $p)] | length' "$SCRATCH/run.json")" -eq 2 ]
}

# Tens of thousands of requests a second on one CPU: past 20 measurement
# starts per ms, one request in four is timed (bpf/net.bpf.c); every one
# is still counted, and the percentiles come from the timed ones.
@test "response time under load: every request counted, percentiles from a sample" {
	capture 4 "$TOOLS/tcp_rr" -d 2 -c "$LOAD_CPU" -S "$LOAD_CPU"
	local port served got srv cli
	port="$(field port)"
	served="$(field served)"
	got="$(port_field "$port" server requests)"
	srv="$(port_field "$port" server response_p50_us)"
	cli="$(port_field "$port" client response_p50_us)"
	echo "port $port: served $served, counted $got; response p50 server $srv us, client $cli us"
	[ "$served" -gt 20000 ]
	within_pct "$got" "$served" 1
	within_pct "$(port_field "$port" client requests)" "$served" 1
	# loopback on one CPU: microseconds, and the client waits for the server
	awk -v s="$srv" -v c="$cli" 'BEGIN { exit !(s > 0 && s < 1000 && c >= s) }'
}

# bats test_tags=vm
@test "rx socket queue: a reader sleeping 5 ms between reads" {
	capture 5 "$TOOLS/slow_reader" -d 2 -g 5000 -i 500 -c "$OTHER_CPU" -S "$LOAD_CPU"
	local port p50
	port="$(field port)"
	p50="$(port_field "$port" server rxq_p50_us)"
	echo "port $port: $(field reads) reads, rx queue p50 $p50 us, p99 $(port_field "$port" server rxq_p99_us) us"
	awk -v v="$p50" 'BEGIN { exit !(v > 3000) }'
	[ "$(port_field "$port" server reads)" -gt 20 ]
}

@test "top --batch --view net shows devices and only the --port given" {
	"$TOOLS/tcp_rr" -d 30 -H 500 -c "$OTHER_CPU" -S "$LOAD_CPU" >"$SCRATCH/load" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/load" listening
	local port
	port="$(sed -n 's/^listening port=\([0-9]*\).*/\1/p' "$SCRATCH/load")"
	run "$DBTRACE" top --batch -d 2 --view net --port "$port"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -E '^DEVICE +SPEED +TXpps' <<<"$output"
	grep -E '^lo +- ' <<<"$output"
	grep -E '^PORT +ROLE +\*?REQ/s' <<<"$output"
	grep -E "^$port +server +[0-9]+" <<<"$output"
	grep -E "^$port +client +[0-9]+" <<<"$output"
	# no other port passes the filter
	[ -z "$(grep -E '^[0-9]+ +(server|client) ' <<<"$output" | grep -v "^$port ")" ]
}
