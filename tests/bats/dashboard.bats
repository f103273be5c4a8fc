#!/usr/bin/env bats
# docs/grafana/dbtrace.json, proven without Grafana: a real Prometheus
# (Debian's, as in serve.bats) scrapes `dbtrace serve` while a load runs
# that gives every panel something to show (an oversubscribed thread pool
# raising a finding, loopback request/response, a stream through a
# shaped veth, connections refused);
# helpers/dashboard_queries.py resolves the template variables (host,
# port, class) and runs every panel's query. A query that errors or
# returns no series with a number fails the test. Everything listens on
# 127.0.0.1 or in the test's own namespaces; the test kills only what it
# started.

load helpers/common
bats_require_minimum_version 1.5.0

DASHBOARD="$REPO/docs/grafana/dbtrace.json"

setup() {
	make_scratch
	netns_pair_init dbtdash
	PIDS=()
}

# stopped, and waited for: Prometheus writes into $SCRATCH until it ends.
# Each by its pid: a bare `wait` also waits for bats' own timer
# (BATS_TEST_TIMEOUT, which tests/run.sh sets), for the whole timeout.
teardown() {
	local p
	stop_bg
	for p in ${PIDS[@]+"${PIDS[@]}"}; do wait "$p" 2>/dev/null; done
	netns_pair_delete
	remove_scratch
}

@test "the dashboard is one Grafana document whose queries name only documented metrics" {
	jq -e '.title and .uid and .schemaVersion and (.panels | length) > 10' "$DASHBOARD"
	# the three variables the issue asks for, and the data source one
	[ "$(jq -r '[.templating.list[].name] | join(" ")' "$DASHBOARD")" = "datasource host port class" ]
	local m missing=0
	for m in $(jq -r '.panels[].targets[]?.expr, .templating.list[].definition // empty' "$DASHBOARD" |
		grep -oE '\b(dbtrace_[a-z_]+|process_[a-z_]+)' | sed -E 's/_(bucket|count|sum)$//' | sort -u); do
		grep -q "\`$m\`" "$REPO/docs/metrics.md" || { echo "not in docs/metrics.md: $m"; missing=1; }
	done
	[ "$missing" -eq 0 ]
}

@test "every panel's query and every template variable answers from a real Prometheus scraping dbtrace serve under load" {
	command -v prometheus >/dev/null || { echo "prometheus not found: install Debian's prometheus package (make test does)"; false; }
	local port pport closed rr rrport
	port="$(free_port)"
	pport="$(free_port)"
	"${AHEAD[@]}" "$DBTRACE" serve --listen "127.0.0.1:$port" -i 1 2>"$SCRATCH/serve.err" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/serve.err" "serving metrics" 20
	cat >"$SCRATCH/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: dbtrace
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
	prometheus --config.file="$SCRATCH/prometheus.yml" --storage.tsdb.path="$SCRATCH/tsdb" \
		--web.listen-address="127.0.0.1:$pport" >"$SCRATCH/prometheus.log" 2>&1 &
	PIDS+=($!)
	wait_for_text "$SCRATCH/prometheus.log" "Server is ready to receive web requests" 30

	# the load: six busy workers bound to one CPU (run queue, involuntary
	# switches, the oversubscription finding; its pipe pair blocks),
	# loopback request/response (ports, NET_RX), a TCP stream through a
	# tbf shaper on a veth between two namespaces of the test's own (the
	# tx queue: loopback's noqueue has none), and connections to a closed
	# port (drops: no socket)
	netns_pair_create 10.232.0
	tc -n "$NSA" qdisc add dev "$VA" root tbf rate 20mbit burst 100kb latency 100ms
	ip netns exec "$NSB" "$TOOLS/tcp_stream" -l -a 10.232.0.2 -p 5201 -c "$LOAD_CPU" >"$SCRATCH/recv" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/recv" listening
	ip netns exec "$NSA" "$TOOLS/tcp_stream" -a 10.232.0.2 -p 5201 -c "$OTHER_CPU" -d 14 >"$SCRATCH/send" &
	PIDS+=($!)
	"$TOOLS/thread_pool" -n 6 -c "$LOAD_CPU" -d 14 >"$SCRATCH/pool" &
	PIDS+=($!)
	"$TOOLS/tcp_rr" -d 14 -c "$LOAD_CPU" -S "$LOAD_CPU" >"$SCRATCH/rr" &
	rr=$!
	PIDS+=($rr)
	closed="$(free_port)"
	python3 -c 'import socket, sys, time
for _ in range(300):
    s = socket.socket()
    try:
        s.connect(("127.0.0.1", int(sys.argv[1])))
    except OSError:
        pass
    s.close()
    time.sleep(0.02)' "$closed" &
	PIDS+=($!)
	# ten seconds of scrapes under the load: every rate() over 10s has it
	sleep 11
	run "$REPO/tests/bats/helpers/dashboard_queries.py" "$DASHBOARD" "http://127.0.0.1:$pport" 10s 5m
	echo "$output"
	[ "$status" -eq 0 ]
	# the variables resolved to this host, the load's port, the pool's class
	printf '%s\n' "${lines[@]}" | grep -E "^variable host: 1 values \['127.0.0.1:$port'\]"
	printf '%s\n' "${lines[@]}" | grep -E "^variable class: .*'TNT_L0_1002'"
	# tcp_rr says its port when it ends
	wait "$rr"
	rrport="$(sed -n 's/.* port=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	echo "tcp_rr's port: $rrport"
	printf '%s\n' "${lines[@]}" | grep -E "^variable port: .*'$rrport'"
	printf '%s\n' "${lines[@]}" | grep -E '^Findings raised in the time range \[A\]: [1-9]'
}
