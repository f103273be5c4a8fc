#!/usr/bin/env bats
# loss family: retransmits per port and kind, drops by reason, accept-queue
# overflows, and their findings, held against what the kernel counted
# outside dbtrace: the sending socket's own TCP_INFO (tcpi_total_retrans),
# the qdisc's drop counter (`tc -s qdisc`), the namespace's ListenOverflows
# and `ss -lnt`. Traffic crosses a router namespace whose device drops
# (helpers/loss.bash); every namespace and veth is the test's own and
# removed in teardown.

load helpers/common
load helpers/loss
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	router_init dbtloss
	PIDS=()
	# the two families these tests read: half the load time under qemu TCG
	CAPTURE_OPTS=(--families net,loss)
}

teardown() {
	stop_bg
	trace_drops_delete
	router_delete
	netns_pair_delete
	remove_scratch
}

# retx PORT ROLE FIELD: the whole capture's retransmits of a port row
retx() {
	jq -r --argjson p "$1" --arg r "$2" \
		"[.net.ports[] | select(.port == \$p and .role == \$r) | .retransmits.$3] | first // 0" \
		"$SCRATCH/run.json"
}

# drops_on DEVICE REASON: the whole capture's drops on a device of NSR
# for that reason
drops_on() {
	jq -r --arg d "$1" --arg n "$NSR" --arg r "$2" \
		'[.net.drops[] | select(.device == $d and .netns == $n and .reason == $r) | .count] | add // 0' \
		"$SCRATCH/run.json"
}

# qdisc_reason: how this kernel names a qdisc's drops: qdisc_drop (5.19+
# names them), unknown (before 5.17 kfree_skb has no reason), else
# not_specified
qdisc_reason() {
	if jq -e '.net.drop_reasons | any(.reason == "qdisc_drop")' "$SCRATCH/run.json" >/dev/null; then
		echo qdisc_drop
	elif jq -e '.net.drop_reasons | all(.reason == "unknown")' "$SCRATCH/run.json" >/dev/null; then
		echo unknown
	else
		echo not_specified
	fi
}

# drops_match DBTRACE TC REASON: each skb the qdisc dropped is one
# kfree_skb with the qdisc's reason (within 3%, or 2); where the kernel
# gives no reason (before 5.17) every skb freed unconsumed on the device
# counts, the qdisc's drops among them: at least tc's. Not closer: on the
# 6.18 host the BPF programs on kfree_skb are now and then not run for a
# few of the tracepoint's events, with no recursion miss counted (the
# tracefs record below has them, tc counts them; bpftrace alone missed
# none in 10 runs with BPF run-time statistics off and 1-12 of ~1000 in
# 10 of 20 with them on or toggled, which dbtrace's overhead meter does a
# tenth of the time; dbtrace here 3-20 in about half its runs). The
# guests' kernels give every one (exact in each ring's runs).
drops_match() {
	if [ "$3" = unknown ]; then
		[ "$1" -ge "$2" ]
	else
		close_to "$1" "$2" 3 2
	fi
}

# bats test_tags=vm
@test "probes: the loss family attaches with tp_btf (retransmit and drop tracepoints)" {
	run "$DBTRACE" probes
	echo "$output"
	[ "$status" -eq 0 ]
	assert_probe_path "$output" loss
	grep -E '^  loss +tp_btf/tcp_retransmit_skb ' <<<"$output"
	grep -E '^  loss +tp_btf/kfree_skb +every dropped packet' <<<"$output"
}

# bats test_tags=vm,rt,kernel
@test "stream through a tbf router: retransmits match tcpi_total_retrans, drops match tc's counter" {
	router_create
	# a tbf whose queue overflows: on the host at 50 Mbit, in the TCG VM
	# (which sends far less) at 4 Mbit with a queue of a few packets
	if [ "${DBTRACE_VM:-0}" = 1 ]; then
		tc -n "$NSR" qdisc add dev rb root tbf rate 4mbit burst 5kb limit 6kb
	else
		tc -n "$NSR" qdisc add dev rb root tbf rate 50mbit burst 20kb limit 30kb
	fi
	ip netns exec "$NSB" "$TOOLS/tcp_stream" -l -a 10.232.2.2 -p 5201 -c 1 >"$SCRATCH/recv" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/recv" listening
	# the capture outlasts the stream by 6 s: the sender waits until all is
	# acknowledged, so every retransmit falls inside it
	trace_drops_start
	capture 9 ip netns exec "$NSA" "$TOOLS/tcp_loss" stream -a 10.232.2.2 -p 5201 -d 3
	local kernel got dropped drops fast reason traced all
	[ -z "$TRACE_INST" ] || traced="$(trace_drops_stop)"
	kernel="$(field total_retrans)"
	got="$(retx 5201 client segments)"
	dropped="$(qdisc_dropped rb)"
	reason="$(qdisc_reason)"
	drops="$(drops_on rb "$reason")"
	fast="$(retx 5201 client fast)"
	echo "retransmits: dbtrace $got (fast $fast), the socket's tcpi_total_retrans $kernel"
	all="$(jq '[.net.drop_reasons[] | select(.reason == "qdisc_drop") | .count] | add // 0' "$SCRATCH/run.json")"
	echo "drops on rb: dbtrace $drops, tc -s qdisc $dropped; qdisc drops on every device:" \
		"dbtrace $all, the kernel's kfree_skb events ${traced:-(not traced here)}"
	jq -c '.net.drops[]' "$SCRATCH/run.json"
	jq -c '{lost_events: .overhead.lost_events}' "$SCRATCH/run.json"
	[ "$dropped" -gt 20 ]
	[ "$kernel" -gt 20 ]
	within_pct "$got" "$kernel" 5
	drops_match "$drops" "$dropped" "$reason"
	if [ -n "${traced:-}" ]; then
		# rb's qdisc made every QDISC_DROP of the run; dbtrace read no
		# more of them than the kernel traced, and missed as few
		[ "$drops" -eq "$all" ]
		[ "$all" -le "$traced" ]
		close_to "$all" "$traced" 3 2
	fi
	# the kinds add up, and a bulk stream recovers by fast retransmit
	[ "$(jq '[.net.ports[] | select(.port == 5201 and .role == "client") | .retransmits |
	         .timeout + .fast + .tlp + .syn + .other] | first' "$SCRATCH/run.json")" -eq "$got" ]
	if [ "${DBTRACE_VM:-0}" != 1 ]; then
		awk -v f="$fast" -v g="$got" 'BEGIN { exit !(f >= 0.9 * g) }'
		[ "$(jq -r '.net.drop_reasons[0].reason' "$SCRATCH/run.json")" = qdisc_drop ]
		# the finding names the reason and the place
		jq -e --arg p "rb@$NSR" '.findings[] | select(.id == "packet_drops") |
		       .evidence.top_reason == "qdisc_drop" and .evidence.top_place == $p' "$SCRATCH/run.json"
	fi
	# the device row carries its drops too
	jq -e --arg n "$NSR" '.net.devices[] | select(.name == "rb" and .netns == $n) | .drops > 20' \
		"$SCRATCH/run.json"
}

# bats test_tags=vm
@test "request/response over a lossy link: RTO waits match the slow replies, the second mode and retransmit_timeouts" {
	router_create
	lossy_link
	ip netns exec "$NSB" "$TOOLS/tcp_loss" serve -a 10.232.2.2 -p 7000 >"$SCRATCH/serve" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/serve" listening
	# 16 connections on a host: each sends its ~19 requests between two
	# losses in a burst, so under load sampling (bpf/load_sample.bpf.h)
	# one reply in 16 is timed, and bimodal_response wants two timed in
	# an interval's slow group; with 4 connections (20 slow replies a
	# second) an interval had none timed about one time in three
	local secs=5 conns=16
	[ "${DBTRACE_VM:-0}" = 1 ] && secs=8 conns=4
	capture $((secs + 3)) ip netns exec "$NSA" "$TOOLS/tcp_loss" rr -a 10.232.2.2 -p 7000 -d "$secs" -n "$conns"
	# the server prints each connection's TCP_INFO once the client closed it
	for ((i = 0; i < 40 && $(grep -c '^conn ' "$SCRATCH/serve") < conns; i++)); do sleep 0.1; done
	local slow waits retx kernel sretx skernel dropped drops reason
	slow="$(field slow)"
	waits="$(retx 7000 client rto_waits)"
	retx="$(retx 7000 client segments)"
	kernel="$(field total_retrans)"
	sretx="$(retx 7000 server segments)"
	skernel="$(awk -F= '/^conn / { s += $2 } END { print s + 0 }' "$SCRATCH/serve")"
	dropped="$(qdisc_dropped rb)"
	if [ "$LOSSY" = bpf ]; then
		reason=tc_egress
	else
		reason="$(qdisc_reason)"
	fi
	drops="$(drops_on rb "$reason")"
	echo "lossy link: $LOSSY; $(field requests) requests, $slow took 150 ms or more"
	echo "client: dbtrace RTO waits $waits, retransmits $retx; tcpi_total_retrans $kernel"
	echo "server: dbtrace retransmits $sretx; tcpi_total_retrans $skernel"
	echo "drops on rb: dbtrace $drops, tc -s qdisc $dropped"
	jq -c '.net.ports[] | select(.port == 7000) | {role, requests, retransmits}' "$SCRATCH/run.json"
	jq -c '.overhead' "$SCRATCH/run.json"
	[ "$dropped" -gt 10 ]
	[ "$slow" -gt 10 ]
	# a request that waited for a retransmit timer is a reply slower than 150 ms
	close_to "$waits" "$slow" 5 2
	within_pct "$retx" "$kernel" 5
	close_to "$sretx" "$skernel" 5 2
	drops_match "$drops" "$dropped" "$reason"
	# every wait was a timer: an RTO or a tail-loss probe
	[ "$(jq '[.net.ports[] | select(.port == 7000 and .role == "client") | .retransmits |
	         .tail_loss_probes + .rto_timeouts] | first' "$SCRATCH/run.json")" -ge "$waits" ]
	jq -e '.findings[] | select(.id == "retransmit_timeouts" and .class == "7000/client") |
	       .evidence.rto_waits > 0 and .evidence.port == 7000' "$SCRATCH/run.json"
	if [ "${DBTRACE_VM:-0}" != 1 ]; then
		# the RTO in ms needs the kernel's HZ (its config: the VM has none)
		jq -e '.net.ports[] | select(.port == 7000 and .role == "client") |
		       .retransmits.rto_wait_ms >= 200 and .retransmits.rto_wait_ms < 400' "$SCRATCH/run.json"
		# the client's response times per interval, by octave (log2 of
		# ns: 20 is 1 ms, 27 134 ms), for a run that finds no second mode
		jq -c '.intervals[] | .net.ports[]? | select(.port == 7000 and .role == "client") |
		       {requests, octaves: ([.response_hist.buckets[]? | {o: (.[0] | if . < 1 then 0 else log2 | floor end), n: .[1]}] |
		       group_by(.o) | map("\(.[0].o):\(map(.n) | add)") | join(" "))}' "$SCRATCH/run.json"
		# the second mode sits at the timeout, and bimodal_response says why
		jq -e '.findings[] | select(.id == "bimodal_response" and .class == "7000/client") |
		       .evidence.slow_mode_us >= 150000 and .evidence.rto_waits > 0 and
		       (.hint | contains("the slow group is retransmissions"))' "$SCRATCH/run.json"
	fi
}

# Host only (not in the 6.1 ring): the same tp_btf programs on both; the
# guest's minutes go to what differs by kernel.
@test "a listener with backlog 1 and a burst of connects: accept_queue_overflow names the port" {
	router_create
	ip netns exec "$NSB" "$TOOLS/tcp_loss" listen -a 10.232.2.2 -p 8080 -b 1 >"$SCRATCH/listen" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/listen" listening
	local before after overflows
	before="$(netstat_value "$NSB" ListenOverflows)"
	# SYNs refused at 0 s and again at 1 s (the client's retransmit), all
	# inside the capture; the burst closes its sockets at 2 s
	capture 5 ip netns exec "$NSA" "$TOOLS/tcp_loss" burst -a 10.232.2.2 -p 8080 -n 8 -w 2
	after="$(netstat_value "$NSB" ListenOverflows)"
	overflows="$(jq --arg n "$NSB" '[.net.listeners[] | select(.port == 8080 and .netns == $n) | .overflows] | first' \
		"$SCRATCH/run.json")"
	echo "ListenOverflows of $NSB: $before -> $after; dbtrace: $overflows"
	ip netns exec "$NSB" ss -lnt
	[ $((after - before)) -gt 0 ]
	# sock_diag answers for TCP only with inet_diag and tcp_diag (modules
	# Debian's kernel loads on first use; scripts/vmtest.sh packs them)
	[ "$overflows" != null ] || { echo "no listener on 8080 in $NSB: is tcp_diag loaded?"; false; }
	[ "$overflows" -eq $((after - before)) ]
	# the queue as ss shows it: Recv-Q waiting, Send-Q the limit
	read -r q b < <(ip netns exec "$NSB" ss -lnt 'sport = :8080' | awk 'NR == 2 { print $2, $3 }')
	jq -e --arg n "$NSB" --argjson q "$q" --argjson b "$b" \
		'.intervals[-1].net.listeners[] | select(.port == 8080 and .netns == $n) |
		 .accept_queue == $q and .backlog == $b' "$SCRATCH/run.json"
	jq -e --arg c "8080/server@$NSB" --arg n "$NSB" '.findings[] | select(.id == "accept_queue_overflow" and .class == $c) |
	       .evidence.port == 8080 and .evidence.backlog == 1 and .evidence.netns == $n and
	       .evidence.somaxconn > 0 and (.hint | contains("somaxconn"))' "$SCRATCH/run.json"
	# the clients re-sent their SYNs
	[ "$(retx 8080 client syn)" -gt 0 ]
}

@test "a clean load raises none of the loss findings" {
	netns_pair_init dbtc
	netns_pair_create 10.233.0
	ip netns exec "$NSB" "$TOOLS/tcp_loss" serve -a 10.233.0.2 -p 7001 >"$SCRATCH/serve" &
	PIDS+=($!)
	ip netns exec "$NSB" "$TOOLS/tcp_loss" listen -a 10.233.0.2 -p 8081 -b 128 >"$SCRATCH/listen" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/serve" listening
	wait_for_text "$SCRATCH/listen" listening
	capture 5 bash -c "ip netns exec $NSA $TOOLS/tcp_loss burst -a 10.233.0.2 -p 8081 -n 8 -w 1 &&
	                   ip netns exec $NSA $TOOLS/tcp_loss rr -a 10.233.0.2 -p 7001 -d 2 -n 4"
	echo "$(field requests) requests"
	jq -c '[.findings[] | {id, class}]' "$SCRATCH/run.json"
	[ "$(field requests)" -gt 1000 ]
	[ "$(field total_retrans)" -eq 0 ]
	[ "$(jq '[.findings[] | select(.id | IN("retransmit_timeouts", "packet_drops",
	       "accept_queue_overflow", "softnet_backlog_drops"))] | length' "$SCRATCH/run.json")" -eq 0 ]
	[ "$(retx 7001 client segments)" -eq 0 ]
	[ "$(jq --arg n "$NSB" '[.net.listeners[] | select(.port == 8081 and .netns == $n) | .overflows] | first' \
		"$SCRATCH/run.json")" -eq 0 ]
}

@test "top --batch --view net shows RETX/s, RTO/s and DROP/s" {
	router_create
	tc -n "$NSR" qdisc add dev rb root tbf rate 50mbit burst 20kb limit 30kb
	ip netns exec "$NSB" "$TOOLS/tcp_stream" -l -a 10.232.2.2 -p 5202 -c 1 >"$SCRATCH/recv" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/recv" listening
	ip netns exec "$NSA" "$TOOLS/tcp_loss" stream -a 10.232.2.2 -p 5202 -d 6 >"$SCRATCH/send" &
	PIDS+=($!)
	run "$DBTRACE" top --batch -d 3 --view net --port 5202
	echo "$output"
	[ "$status" -eq 0 ]
	grep -E '^DEVICE .* TXQp99us +DROP/s +QDISC' <<<"$output"
	grep -E '^PORT +ROLE .* RXQp99us +RETX/s +RTO/s +DROP/s$' <<<"$output"
	# the sender's row: no request, retransmits every second (RETX/s is the
	# 9th column once the 6 net columns are dashes)
	grep -E '^5202 +client ' <<<"$output" | awk '{ if ($9 + 0 > 0) ok = 1 } END { exit !ok }'
	# rb drops, in the device table
	grep -E "^rb@$NSR " <<<"$output" | awk '{ if ($10 + 0 > 0) ok = 1 } END { exit !ok }'
}

@test "serve: retransmits per port and kind, drops by reason, listener overflows" {
	router_create
	tc -n "$NSR" qdisc add dev rb root tbf rate 50mbit burst 20kb limit 30kb
	ip netns exec "$NSB" "$TOOLS/tcp_stream" -l -a 10.232.2.2 -p 5203 -c 1 >"$SCRATCH/recv" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/recv" listening
	local port
	port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
	"$DBTRACE" serve --listen "127.0.0.1:$port" -i 1 2>"$SCRATCH/serve.err" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/serve.err" "serving metrics on" "$LIMIT"
	ip netns exec "$NSA" "$TOOLS/tcp_loss" stream -a 10.232.2.2 -p 5203 -d 2 >"$SCRATCH/send"
	sleep 1.5
	python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
		"http://127.0.0.1:$port/metrics" >"$SCRATCH/metrics"
	grep -E '^dbtrace_(port_retransmits|packet_drops|listen_overflows)_total' "$SCRATCH/metrics" | head -20
	local kernel got
	kernel="$(sed -n 's/.*total_retrans=\([0-9]*\).*/\1/p' "$SCRATCH/send")"
	got="$(awk -F' ' '/^dbtrace_port_retransmits_total\{port="5203",role="client",kind=/ { s += $2 } END { print s + 0 }' \
		"$SCRATCH/metrics")"
	echo "retransmits: metrics $got, tcpi_total_retrans $kernel"
	[ "$kernel" -gt 20 ]
	within_pct "$got" "$kernel" 5
	awk '/^dbtrace_packet_drops_total\{reason="qdisc_drop"\}/ { if ($2 > 20) ok = 1 } END { exit !ok }' "$SCRATCH/metrics"
	grep -q '^# TYPE dbtrace_listener_overflows_total counter' "$SCRATCH/metrics"
	if command -v promtool >/dev/null; then
		promtool check metrics <"$SCRATCH/metrics"
	fi
}
