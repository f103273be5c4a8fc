# The loss tests' network: a sender and a receiver namespace with a router
# namespace between them, so packets are dropped on the path (as by a
# hypervisor) and never by the sender's own qdisc: a segment the sender's
# device refuses is counted by the kernel but not traced on 6.1. All
# three namespaces and their veth devices are the test's own.
#
#   NSA (sender)  va 10.232.1.1 --- ra 10.232.1.2  NSR  rb 10.232.2.1 --- vb 10.232.2.2  (NSB, receiver)
#
# Drops happen on rb, the router's device towards NSB.

# router_init PREFIX: names unique to this test run.
router_init() {
	NSA="${1}A$$"
	NSR="${1}R$$"
	NSB="${1}B$$"
}

router_create() {
	ip netns add "$NSA"
	ip netns add "$NSR"
	ip netns add "$NSB"
	ip link add va netns "$NSA" type veth peer name ra netns "$NSR"
	ip link add rb netns "$NSR" type veth peer name vb netns "$NSB"
	ip -n "$NSA" addr add 10.232.1.1/24 dev va
	ip -n "$NSR" addr add 10.232.1.2/24 dev ra
	ip -n "$NSR" addr add 10.232.2.1/24 dev rb
	ip -n "$NSB" addr add 10.232.2.2/24 dev vb
	local ns
	for ns in "$NSA" "$NSR" "$NSB"; do ip -n "$ns" link set lo up; done
	ip -n "$NSA" link set va up
	ip -n "$NSR" link set ra up
	ip -n "$NSR" link set rb up
	ip -n "$NSB" link set vb up
	ip -n "$NSA" route add default via 10.232.1.2
	ip -n "$NSB" route add default via 10.232.2.1
	ip netns exec "$NSR" sysctl -qw net.ipv4.ip_forward=1
}

router_delete() {
	local ns
	for ns in "${NSA:-}" "${NSR:-}" "${NSB:-}"; do
		[ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
	done
	return 0
}

# lossy_link: rb loses a known share of what it forwards. netem where the
# kernel has it (the VM: 5% at random), else a tc classifier dropping
# every 20th TCP segment that carries data (tests/tools/bpf/drop_nth.bpf.c;
# the host has no sch_netem). Sets LOSSY to "netem" or "bpf".
lossy_link() {
	if tc -n "$NSR" qdisc add dev rb root netem loss 5% 2>/dev/null; then
		LOSSY=netem
		return 0
	fi
	tc -n "$NSR" qdisc add dev rb clsact
	tc -n "$NSR" filter add dev rb egress bpf da obj "$TOOLS/drop_nth.bpf.o" sec tc
	LOSSY=bpf
}

# qdisc_dropped DEV: the packets every qdisc of DEV in NSR counted as
# dropped (`tc -s qdisc`), summed.
qdisc_dropped() {
	tc -n "$NSR" -s qdisc show dev "$1" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "(dropped") { v = $(i + 1); sub(/,/, "", v); s += v } }
		     END { print s + 0 }'
}

# netstat_value NS KEY: a TcpExt counter of namespace NS.
netstat_value() {
	ip netns exec "$1" awk -v k="$2" '/^TcpExt:/ { if (!h) { for (i = 2; i <= NF; i++) if ($i == k) c = i; h = 1; next }
	                                    print $c; exit }' /proc/net/netstat
}

# The kernel's own record of the qdisc drops, read apart from dbtrace and
# from tc: skb:kfree_skb events with reason QDISC_DROP in a tracefs
# instance of the test's own. It has every drop tc counts; on the 6.18
# host BPF programs on the tracepoint (dbtrace's, bpftrace's) are now and
# then not run for a few of them (loss.bats, drops_match).
# trace_drops_start sets TRACE_INST, or leaves it empty where the kernel's
# kfree_skb has no reason (before 5.17) or tracefs is not there.
trace_drops_start() {
	local base=/sys/kernel/tracing ev n
	TRACE_INST=
	ev="$base/events/skb/kfree_skb/format"
	[ -r "$ev" ] || return 0
	n="$(grep -o '{ [0-9]*, "QDISC_DROP" }' "$ev" | grep -o '[0-9]*' || true)"
	[ -n "$n" ] || return 0
	TRACE_INST="$base/instances/dbtloss$$"
	mkdir "$TRACE_INST"
	echo 4096 >"$TRACE_INST/buffer_size_kb"
	echo "reason == $n" >"$TRACE_INST/events/skb/kfree_skb/filter"
	echo 1 >"$TRACE_INST/events/skb/kfree_skb/enable"
}

# trace_drops_stop: the events recorded since trace_drops_start (fails
# when the buffer overran: the count would be short); removes the instance.
trace_drops_stop() {
	local n overrun
	echo 0 >"$TRACE_INST/events/skb/kfree_skb/enable"
	n="$(grep -c 'reason: QDISC_DROP' "$TRACE_INST/trace")"
	overrun="$(cat "$TRACE_INST"/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')"
	trace_drops_delete
	[ "$overrun" -eq 0 ] || { echo "the trace buffer overran: $overrun events lost" >&2; return 1; }
	echo "$n"
}

trace_drops_delete() {
	[ -n "${TRACE_INST:-}" ] && [ -d "$TRACE_INST" ] && rmdir "$TRACE_INST"
	return 0
}
