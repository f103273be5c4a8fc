#!/usr/bin/env bats
# `dbtrace serve`: the Prometheus exporter. promtool checks the
# exposition; the exported counters are compared with what the kernel
# counted for a thread pool's threads and with the transactions of a
# loopback request/response load; a real Prometheus server (Debian's)
# scrapes dbtrace and the series are read back through its query API.
# Everything listens on 127.0.0.1 only; the test kills only what it started.

load helpers/common
bats_require_minimum_version 1.5.0

setup() {
	make_scratch
	PIDS=()
}

teardown() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	remove_scratch
}

# need_tool CMD: Debian's prometheus package is installed by make test; the
# qemu guest of scripts/vmtest.sh does not carry it.
need_tool() {
	command -v "$1" >/dev/null && return 0
	[ "${DBTRACE_VM:-0}" = 1 ] && skip "$1 is not in the VM guest"
	echo "$1 not found: install Debian's prometheus package (make test does)" >&2
	return 1
}

# A TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

http_get() {
	python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"
}

# start_serve PORT [OPTIONS]: dbtrace serve in the background (SERVE_PID),
# back once it listens.
start_serve() {
	local port="$1"
	shift
	"$DBTRACE" serve --listen "127.0.0.1:$port" "$@" 2>"$SCRATCH/serve.err" &
	SERVE_PID=$!
	PIDS+=("$SERVE_PID")
	wait_for_text "$SCRATCH/serve.err" "serving metrics on http://127.0.0.1:$port/metrics" "$LIMIT"
}

# value FILE SERIES: the sample of exactly that series ("" when absent).
value() {
	awk -v k="$2" '$0 !~ /^#/ { i = index($0, " "); s = $0; while ((j = index(substr(s, i + 1), " ")) > 0) i += j;
	               if (substr($0, 1, i - 1) == k) { print substr($0, i + 1); exit } }' "$1"
}

# Every counter, bucket, sum and count in scrape $1 that is still in
# scrape $2 did not go down.
assert_monotonic() {
	awk '$0 ~ /^#/ { next } { i = 0; s = $0; while ((j = index(substr(s, i + 1), " ")) > 0) i += j
	     k = substr($0, 1, i - 1); v = substr($0, i + 1) + 0
	     if (k !~ /_total|_bucket|_sum|_count/) next
	     if (FNR == NR) { a[k] = v; next }
	     if (k in a) { n++; if (v < a[k]) { print "went down: " k " " a[k] " -> " v; bad = 1 } } }
	     END { if (!n) { print "no series in common"; bad = 1 }; exit bad }' "$1" "$2"
}

# The buckets of every histogram series never decrease with le, and +Inf
# equals _count.
assert_histograms() {
	awk '/_bucket\{/ { key = $1; sub(/,?le="[^"]*"\}/, "}", key); sub(/_bucket/, "", key)
	                   if (key != prev) { last = -1; prev = key }
	                   if ($2 + 0 < last) { print "bucket decreases: " $1; bad = 1 }
	                   last = $2 + 0; if ($1 ~ /le="\+Inf"/) inf[key] = $2 }
	     /_count[{ ]/ { key = $1; sub(/_count/, "", key); if (key !~ /\}$/) key = key "{}"; cnt[key] = $2 }
	     END { for (k in inf) { n++; if (inf[k] != cnt[k]) { print "+Inf != _count for " k; bad = 1 } }
	           if (!n) { print "no histogram"; bad = 1 }; exit bad }' "$1"
}

@test "exposition passes promtool; counters equal the kernel's counts for a thread pool and the load's transactions" {
	local port pool pool_pid want_vol want_invol want_ticks got hz
	need_tool promtool
	port="$(free_port)"
	start_serve "$port" -i 0.5
	sleep 0.7
	http_get "http://127.0.0.1:$port/metrics" >"$SCRATCH/m0"

	# two busy workers and a ping-pong pair on LOAD_CPU; the pool reports
	# what the kernel counted for its threads just before they stop
	"$TOOLS/thread_pool" -n 2 -d 2 -c "$LOAD_CPU" >"$SCRATCH/pool"
	pool_pid="$(head -1 "$SCRATCH/pool")"
	# loopback request/response on LOAD_CPU
	"$TOOLS/tcp_rr" -d 2 -c "$LOAD_CPU" -S "$LOAD_CPU" >"$SCRATCH/rr"
	sleep 1.2   # two more intervals: everything above is in the sums
	http_get "http://127.0.0.1:$port/metrics" >"$SCRATCH/m1"
	cat "$SCRATCH/pool" "$SCRATCH/rr"

	run promtool check metrics <"$SCRATCH/m1"
	echo "$output"
	[ "$status" -eq 0 ]
	assert_monotonic "$SCRATCH/m0" "$SCRATCH/m1"
	assert_histograms "$SCRATCH/m1"
	grep -q '^# TYPE dbtrace_port_response_seconds histogram$' "$SCRATCH/m1"

	# the workers' class: switches and CPU time as the kernel counted them
	read -r want_vol want_invol want_ticks < <(awk '$2 == "TNT_L0_1002" {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); c[kv[1]] = kv[2] }
		print c["vol"], c["invol"], c["cpu_ticks"] }' "$SCRATCH/pool")
	hz="$(getconf CLK_TCK)"
	local lbl="pid=\"$pool_pid\",comm=\"thread_pool\",class=\"TNT_L0_1002\""
	got="$(value "$SCRATCH/m1" "dbtrace_class_context_switches_total{$lbl,kind=\"involuntary\"}")"
	echo "TNT_L0_1002 involuntary: kernel $want_invol, dbtrace $got"
	[ "$want_invol" -ge 20 ]
	within_pct "$got" "$want_invol" 10
	got="$(value "$SCRATCH/m1" "dbtrace_class_cpu_seconds_total{$lbl}")"
	echo "TNT_L0_1002 cpu: kernel $want_ticks ticks at $hz Hz, dbtrace $got s"
	within_pct "$got" "$(awk -v t="$want_ticks" -v h="$hz" 'BEGIN { print t / h }')" 10
	# the gauge is the latest interval's: the pool ended before tcp_rr's
	# 2 s and the 1.2 s wait, intervals ago, so it is 0 (a gauge that kept
	# the workers, or summed intervals, would not be)
	local threads
	threads="$(value "$SCRATCH/m1" "dbtrace_class_threads{$lbl}")"
	echo "TNT_L0_1002 threads gauge after the pool ended: $threads"
	[ "$threads" -eq 0 ]

	# one response-time sample per transaction, on the server side
	local rrport trans
	rrport="$(sed -n 's/.*transactions=.* port=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	trans="$(sed -n 's/.*transactions=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	got="$(value "$SCRATCH/m1" "dbtrace_port_response_seconds_count{port=\"$rrport\",role=\"server\"}")"
	echo "port $rrport: $trans transactions, $got response samples"
	# an estimate under load: one request in 16 is timed and counts 16
	# times, so over ~100k requests its standard error is about 1.2%
	within_pct "$got" "$trans" 5
	# loopback NET_RX ran on the load's CPU and took real time
	got="$(value "$SCRATCH/m1" "dbtrace_softirq_seconds_total{cpu=\"$LOAD_CPU\",vector=\"net_rx\"}")"
	echo "cpu$LOAD_CPU net_rx: $got s"
	awk -v v="$got" 'BEGIN { exit !(v > 0.01 && v < 5) }'
	# the exporter's own numbers
	[ "$(value "$SCRATCH/m1" "dbtrace_build_info{version=\"$(cat "$REPO/VERSION")\"}")" = 1 ]
	awk -v v="$(value "$SCRATCH/m1" process_resident_memory_bytes)" 'BEGIN { exit !(v > 1e6 && v < 30 * 1048576) }'
	[ -n "$(value "$SCRATCH/m1" dbtrace_lost_events_total)" ]
	[ -n "$(value "$SCRATCH/m1" process_cpu_seconds_total)" ]
	[ "$(value "$SCRATCH/m1" "dbtrace_probe_info{family=\"sched\",attach=\"$(expected_path sched)\"}")" = 1 ]
}

@test "--top-n bounds the series whatever runs: the rest is summed into other" {
	local port n
	need_tool promtool
	port="$(free_port)"
	start_serve "$port" -i 0.5 --top-n 2
	"$TOOLS/thread_pool" -n 2 -d 1.5 -c "$LOAD_CPU" >/dev/null
	"$TOOLS/tcp_rr" -d 1 -c "$LOAD_CPU" -S "$LOAD_CPU" >/dev/null
	"$TOOLS/tcp_rr" -d 1 -c "$LOAD_CPU" -S "$LOAD_CPU" >/dev/null
	sleep 1.2
	http_get "http://127.0.0.1:$port/metrics" >"$SCRATCH/m"
	promtool check metrics <"$SCRATCH/m"
	n="$(grep -c '^dbtrace_class_cpu_seconds_total{' "$SCRATCH/m")"
	echo "class series: $n"
	[ "$n" -le 3 ]
	grep -q '^dbtrace_class_cpu_seconds_total{pid="",comm="",class="other"} ' "$SCRATCH/m"
	# ports: two tcp_rr runs, two roles each: at most 2 kept + other
	n="$(grep -c '^dbtrace_port_response_seconds_count{' "$SCRATCH/m")"
	echo "port series: $n"
	[ "$n" -le 3 ]
	[ "$(value "$SCRATCH/m" dbtrace_series_limit)" = 2 ]
}

@test "a real Prometheus server scrapes dbtrace and answers queries on its series" {
	local port pport rrport trans
	need_tool prometheus
	port="$(free_port)"
	pport="$(free_port)"
	start_serve "$port" -i 0.5
	cat >"$SCRATCH/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: dbtrace
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
	promtool check config "$SCRATCH/prometheus.yml"
	prometheus --config.file="$SCRATCH/prometheus.yml" --storage.tsdb.path="$SCRATCH/tsdb" \
		--web.listen-address="127.0.0.1:$pport" >"$SCRATCH/prometheus.log" 2>&1 &
	PIDS+=($!)
	wait_for_text "$SCRATCH/prometheus.log" "Server is ready to receive web requests" 30

	# query EXPR: the value of the first sample of an instant query
	query() {
		python3 - "http://127.0.0.1:$pport/api/v1/query" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
r = json.load(urllib.request.urlopen(url, timeout=5))
assert r["status"] == "success", r
res = r["data"]["result"]
print(res[0]["value"][1] if res else "none")
PY
	}
	# the load starts once Prometheus has scraped dbtrace: the counters'
	# increase over the load is then in what it stored
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(query 'up{job="dbtrace"}')" = 1 ] && break
		sleep 0.2
	done
	"$TOOLS/tcp_rr" -d 3 -c "$LOAD_CPU" -S "$LOAD_CPU" >"$SCRATCH/rr"
	cat "$SCRATCH/rr"
	rrport="$(sed -n 's/.*transactions=.* port=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	trans="$(sed -n 's/.*transactions=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	sleep 3   # the last interval, then at least two scrapes of it

	local up count p50 nrx fams
	up="$(query 'up{job="dbtrace"}')"
	count="$(query "dbtrace_port_response_seconds_count{port=\"$rrport\",role=\"server\"}")"
	p50="$(query "histogram_quantile(0.5, dbtrace_port_response_seconds_bucket{port=\"$rrport\",role=\"server\"})")"
	nrx="$(query "increase(dbtrace_softirq_seconds_total{cpu=\"$LOAD_CPU\",vector=\"net_rx\"}[1m])")"
	fams="$(query 'count(count by (__name__) ({job="dbtrace",__name__=~"dbtrace_.*"}))')"
	echo "up=$up count=$count (tcp_rr: $trans) p50=$p50 s net_rx increase=$nrx s families=$fams"
	[ "$up" = 1 ]
	within_pct "$count" "$trans" 5   # sampled under load, as above
	# loopback request/response: tens of µs, far from a bucket edge of 10 ms
	awk -v v="$p50" 'BEGIN { exit !(v > 1e-6 && v < 1e-2) }'
	# 3 s of loopback request/response spend tenths of a second in NET_RX
	awk -v v="$nrx" 'BEGIN { exit !(v > 0.05) }'
	[ "$fams" -ge 15 ]
	# nothing was dropped on ingestion (Prometheus's own counters)
	http_get "http://127.0.0.1:$pport/metrics" >"$SCRATCH/prom-self"
	grep -E '^prometheus_target_scrapes_(sample_out_of_order|sample_duplicate_timestamp|sample_out_of_bounds)_total ' \
		"$SCRATCH/prom-self"
	refute grep -E '^prometheus_target_scrapes_(sample_out_of_order|sample_duplicate_timestamp|sample_out_of_bounds)_total [1-9]' \
		"$SCRATCH/prom-self"
	grep -qE '^prometheus_target_scrapes_sample_out_of_order_total 0$' "$SCRATCH/prom-self"
}

@test "bad --listen, a port in use or a foreign address: one line, exit 2, nothing loaded" {
	local port
	run -2 "$DBTRACE" serve --listen 127.0.0.1:99999
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"bad --listen '127.0.0.1:99999'"* ]]
	run -2 "$DBTRACE" serve --listen localhost
	[ "${#lines[@]}" -eq 1 ]
	run -2 "$DBTRACE" serve --listen 192.0.2.1:9464
	[ "$output" = "dbtrace: cannot listen on 192.0.2.1:9464: Cannot assign requested address (not an address of this host)" ]
	port="$(free_port)"
	python3 -c 'import socket, sys, time; s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("held", flush=True); time.sleep(30)' \
		"$port" >"$SCRATCH/held" &
	PIDS+=($!)
	wait_for_text "$SCRATCH/held" held
	run -2 "$DBTRACE" serve --listen "127.0.0.1:$port"
	[ "$output" = "dbtrace: cannot listen on 127.0.0.1:$port: Address already in use" ]
	run -2 "$DBTRACE" serve --top-n 0
	[ "${#lines[@]}" -eq 1 ]
}

# A shell without job control starts background commands with SIGINT
# ignored (POSIX); env --default-signal gives serve the disposition it has
# when started from a terminal, where Ctrl-C sends SIGINT.
@test "SIGTERM and SIGINT stop the server cleanly and free the port" {
	local port sig rc
	for sig in TERM INT; do
		port="$(free_port)"
		env --default-signal=INT "$DBTRACE" serve --listen "127.0.0.1:$port" -i 0.5 2>"$SCRATCH/serve.err" &
		SERVE_PID=$!
		PIDS+=("$SERVE_PID")
		wait_for_text "$SCRATCH/serve.err" "serving metrics on" "$LIMIT"
		http_get "http://127.0.0.1:$port/metrics" | grep -q '^# TYPE dbtrace_softirq_seconds_total counter$'
		sleep 0.6
		kill -s "$sig" "$SERVE_PID"
		rc=0
		wait "$SERVE_PID" || rc=$?
		cat "$SCRATCH/serve.err"
		[ "$rc" -eq 0 ]
		grep -q "stopped after" "$SCRATCH/serve.err"
		# nothing listens there any more (SO_REUSEADDR: the scrape's
		# connection may still be in TIME_WAIT, as after any server)
		python3 -c 'import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()' "$port"
	done
}

# scrape_within PORT SECONDS OUT: one scrape with curl, which must return
# 200 within SECONDS; its body in OUT.
scrape_within() {
	local code
	code="$(curl -s --max-time "$2" -o "$3" -w '%{http_code} %{time_total}' "http://127.0.0.1:$1/metrics")" || {
		echo "scrape failed or took over $2 s: $code" >&2
		return 1
	}
	echo "scrape: $code s"
	[ "${code%% *}" = 200 ]
	grep -q '^dbtrace_build_info{' "$3"
}

@test "a hundred idle connections, connection churn and thread churn: every scrape returns within 1 s" {
	local port i
	port="$(free_port)"
	start_serve "$port" -i 0.5
	python3 "$REPO/tests/bats/helpers/hostile_clients.py" "$port" --idle 100 --churn --seconds 6 \
		>"$SCRATCH/hostile" &
	PIDS+=($!)
	local hostile=$!
	wait_for_text "$SCRATCH/hostile" ready
	# threads come and go by the thousand: every interval reads full maps
	"$TOOLS/thread_churn" -n 10000000 >/dev/null &
	PIDS+=($!)
	for ((i = 0; i < 8; i++)); do
		scrape_within "$port" 1 "$SCRATCH/m$i"
		sleep 0.5
	done
	wait "$hostile"
	cat "$SCRATCH/hostile"
	# the crowd was there all along: shed, not left to time out
	grep -qE 'churned=[1-9][0-9]{2,}' "$SCRATCH/hostile"
}

@test "slow-loris clients are cut off at the request deadline and never hold the server" {
	local port
	port="$(free_port)"
	start_serve "$port" -i 0.5
	# ten clients each sending a header byte every 0.2 s, for 12 s: MHD's
	# own inactivity timeout never fires for them
	python3 "$REPO/tests/bats/helpers/hostile_clients.py" "$port" --loris 10 --seconds 12 \
		>"$SCRATCH/hostile" &
	PIDS+=($!)
	local hostile=$!
	wait_for_text "$SCRATCH/hostile" ready
	scrape_within "$port" 1 "$SCRATCH/m"
	wait "$hostile"
	cat "$SCRATCH/hostile"
	grep -q 'loris_open=0 ' "$SCRATCH/hostile"
	# 5 s to complete a request, checked at least every interval
	awk -v l="$(sed -n 's/.*loris_max_life=\([0-9.]*\).*/\1/p' "$SCRATCH/hostile")" \
		'BEGIN { exit !(l >= 4.5 && l < 7) }'
}

@test "port slots of ports gone quiet are given back: after 400 short-lived ports a new port is still measured" {
	local port rrport trans got
	port="$(free_port)"
	start_serve "$port" -i 0.25
	# 200 listeners, one exchange each: 400 (port, role) keys, more than
	# the kernel side's 256 slots
	python3 "$REPO/tests/bats/helpers/port_churn.py" 200
	# quiet for 5 s, then given back at the next read
	sleep 6
	"$TOOLS/tcp_rr" -d 1 -c 1 -S 1 >"$SCRATCH/rr"
	cat "$SCRATCH/rr"
	sleep 0.6   # two more intervals
	scrape_within "$port" 1 "$SCRATCH/m"
	rrport="$(sed -n 's/.*transactions=.* port=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	trans="$(sed -n 's/.*transactions=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"
	got="$(value "$SCRATCH/m" "dbtrace_port_response_seconds_count{port=\"$rrport\",role=\"server\"}")"
	echo "port $rrport: $trans transactions, $got response samples"
	within_pct "$got" "$trans" 5
	got="$(value "$SCRATCH/m" "dbtrace_port_response_seconds_count{port=\"$rrport\",role=\"client\"}")"
	within_pct "$got" "$trans" 5
}
