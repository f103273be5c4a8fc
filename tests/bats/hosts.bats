#!/usr/bin/env bats
# Two hosts joined: a capture of each end of a connection (--netns: two
# namespaces on one kernel stand for two hosts, with the loss tests'
# router namespace between them, helpers/loss.bash: the client in NSA,
# the server in NSB), and `dbtrace report client.json server.json` joins the
# port: the client's outside stage split into the server host's time on
# host and the network between. Each figure against the load's own
# timing (rr_timed -T: the packets' receive and transmit timestamps).

load helpers/common
load helpers/accuracy
load helpers/loss
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	router_init dbth
	MISSES=0
}

teardown() {
	stop_bg
	[ -n "${CAP2_PID:-}" ] && kill "$CAP2_PID" 2>/dev/null
	router_delete
	remove_scratch
}

# two_captures SECONDS LOAD_ARGS...: dbtrace --netns on the client's
# namespace and on the server's, rr_timed between them inside both;
# sets PORT and LOADOUT.
two_captures() {
	local secs="$1"
	shift
	"$DBTRACE" capture --families net --netns "$NSB" -d "$secs" -i 1 -o "$SCRATCH/server.json" \
		2>"$SCRATCH/err2" &
	CAP2_PID=$!
	CAPTURE_OPTS=(--families net --netns "$NSA")
	capture_around "$SCRATCH/client.json" "$secs" "$TOOLS/rr_timed" -c "$OTHER_CPU" -S "$LOAD_CPU" \
		-a 10.232.2.2 -N "/run/netns/$NSB,/run/netns/$NSA" "$@"
	wait "$CAP2_PID"
	CAP2_PID=
	"$VALIDATE" "$SCRATCH/client.json"
	"$VALIDATE" "$SCRATCH/server.json"
	LOADOUT="$SCRATCH/client.json.load"
	PORT="$(load_field "$LOADOUT" port)"
	[ -n "$PORT" ]
	"$DBTRACE" report "$SCRATCH/client.json" "$SCRATCH/server.json" -o "$SCRATCH/run.html"
}

# joined N: the Nth number of the report's joined row of $PORT (1-7: the
# parts, client tx, network, server rx, socket_wait, server, server tx,
# client rx; 8 the client's total; 9 the server's time on host).
joined() {
	grep -o "<tr data-port=\"$PORT\">.*</tr>" "$SCRATCH/run.html" | head -1 |
		grep -o 'data-v="[-0-9.]*"' | sed -n "${1}s/data-v=\"\(.*\)\"/\1/p"
}

@test "--netns: each capture holds its own namespace's end of the connection, and says which" {
	router_create
	two_captures 4 -d 2 -H 500
	[ "$(jq -r .host.netns "$SCRATCH/client.json")" = "$NSA" ]
	[ "$(jq -r .host.netns "$SCRATCH/server.json")" = "$NSB" ]
	# each end in its own capture only, the router's devices in neither
	[ "$(jq -r --argjson p "$PORT" '[.net.ports[] | select(.port == $p) | .role] | join(",")' "$SCRATCH/client.json")" = client ]
	[ "$(jq -r --argjson p "$PORT" '[.net.ports[] | select(.port == $p) | .role] | join(",")' "$SCRATCH/server.json")" = server ]
	[ "$(jq -r '[.net.devices[] | select(.name == "ra" or .name == "rb" or .name == "vb")] | length' "$SCRATCH/client.json")" = 0 ]
	[ "$(jq -r '[.net.devices[] | select(.name == "va")] | length' "$SCRATCH/client.json")" = 1 ]
	# every request counted on both ends
	check "client requests" "$(port_field "$PORT" client requests "$SCRATCH/client.json")" \
		"$(load_field "$LOADOUT" transactions)" 0
	check "server requests" "$(port_field "$PORT" server requests "$SCRATCH/server.json")" \
		"$(load_field "$LOADOUT" served)" 0
	run "$DBTRACE" capture --netns "nosuch$$" -d 1 -o "$SCRATCH/x.json"
	[ "$status" -eq 2 ]
	[ "$output" = "dbtrace: --netns 'nosuch$$': no such network namespace (/run/netns/nosuch$$)" ]
	[ ! -e "$SCRATCH/x.json" ]
	no_misses
}

# The join on a host: the server's time on host in the joined path
# against the packets' own (the request's receive timestamp to the
# reply's transmit timestamp on the server's veth), and the parts adding
# up to the client's total.
@test "report joins two hosts: the server's time on host within 5% of the packets', the parts make the client's total" {
	skip_in_vm "veth's transmit timestamps and the router's path take tens of us there"
	router_create
	two_captures 5 -d 3 -H 500 -T
	grep -q '<section id="hosts">' "$SCRATCH/run.html"
	check "joined: the server's time on host (us)" "$(joined 9)" "$(load_field "$LOADOUT" server_host_mean_us)" 5
	check "joined: the server stage (us)" "$(joined 5)" "$(load_field "$LOADOUT" server_service_mean_us)" 5
	check "joined: the parts summed vs the client's total (us)" \
		"$(for k in 1 2 3 4 5 6 7; do joined "$k"; done | awk '{ s += $1 } END { print s }')" "$(joined 8)" 1
	# diff takes each side as several hosts' captures and compares the
	# joined path; one host alone joins nothing
	run "$DBTRACE" diff --json "$SCRATCH/client.json,$SCRATCH/server.json" "$SCRATCH/server.json,$SCRATCH/client.json"
	[ "$status" -eq 0 ]
	check "diff: joined network (us), before" "$(jq -r --arg p "$PORT" '.sections.joined.rows[] | select(.key == $p and .metric == "network_us") | .before' <<<"$output")" "$(joined 2)" 0.1
	[ "$(jq -r --arg p "$PORT" '.sections.joined.rows[] | select(.key == $p and .metric == "network_us") | .direction' <<<"$output")" = same ]
	run "$DBTRACE" diff --json "$SCRATCH/client.json" "$SCRATCH/server.json"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.sections.joined.rows | length' <<<"$output")" = 0 ]
	run "$DBTRACE" diff "$SCRATCH/client.json,$SCRATCH/nosuch.json" "$SCRATCH/server.json"
	[ "$status" -eq 2 ]
	no_misses
}

# netem between the hosts (on the router, both ways): the joined report
# puts its 2 ms between them, against the load's own figure of the same
# (the client's time from its send to the reply's receive timestamp, less
# the server's from the request's receive timestamp to the reply's
# transmit timestamp), and the server's time on host where the packets
# say. sch_netem loads in the VM rings, not on every host.
# bats test_tags=vm
@test "report joins two hosts with netem 1ms between them: 2 ms between the hosts within 5%" {
	router_create
	run tc -n "$NSR" qdisc add dev ra root netem delay 1ms
	[ "$status" -eq 0 ] || skip "sch_netem does not load here: tc said: $output"
	tc -n "$NSR" qdisc add dev rb root netem delay 1ms
	# a 2 ms server: under qemu TCG the receive path below TCP, in the
	# packets' time on host and not in dbtrace's, takes ~30 us (-3.9%
	# of a 0.5 ms server's in one 6.1 run)
	two_captures 6 -d 4 -H 2000 -T
	local want
	want="$(awk -v c="$(load_field "$LOADOUT" client_mean_us)" -v s="$(load_field "$LOADOUT" server_host_mean_us)" \
		'BEGIN { printf "%.1f", c - s }')"
	echo "the load's own: client $(load_field "$LOADOUT" client_mean_us) us, server on host $(load_field "$LOADOUT" server_host_mean_us) us; netem's 2000"
	check "joined: between the hosts (us)" "$(joined 2)" "$want" 5
	check "joined: the server's time on host (us)" "$(joined 9)" "$(load_field "$LOADOUT" server_host_mean_us)" 5
	no_misses
}
