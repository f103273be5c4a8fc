#!/usr/bin/env bats
# Accuracy of the sched family's run-queue figures against sources that
# are not dbtrace: the kernel's own run_delay per thread
# (/proc/PID/task/TID/schedstat, summed by thread_pool just before its
# threads stop) and libbpf-tools `runqlat` (its own BPF programs) over the
# same window on a pinned, oversubscribed pool.

load helpers/common
load helpers/accuracy

setup() {
	make_scratch
	MISSES=0
}

teardown() {
	[ -n "${RQL_PID:-}" ] && kill "$RQL_PID" 2>/dev/null
	[ -n "${POOL:-}" ] && kill "$POOL" 2>/dev/null
	teardown_scratch
}

# The pool lives entirely inside dbtrace's window, so dbtrace saw every
# wait of its threads; the pool sums run_delay per thread name just before
# its threads stop. dbtrace's run-queue seconds of a class are its
# runnable threads minus its running ones, over the window:
# (runnable_avg - oncpu_pct/100) x duration.
# In the 6.1 guest this capture once had no processes: 6.1's verifier
# refused the sched programs' fine-histogram update, so the family did
# not load (fixed by the clamp in bpf/hist.bpf.h; probes.bats checks every
# family's path in the VM rings).
# bats test_tags=vm,rt
@test "run-queue time per class equals schedstat's run_delay (within 3%)" {
	local out="$SCRATCH/run.json"
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 7 -i 1 --comm thread_pool -o "$out"
	wait_for_text "$SCRATCH/err" "capturing to" "$LIMIT"
	"$TOOLS/thread_pool" -n 6 -d 4 -c "$POOL_CPUS" >"$SCRATCH/pool.out"
	wait "$BG_PID"; BG_PID=
	"$VALIDATE" "$out"
	attached "$out" sched
	cat "$SCRATCH/pool.out"
	local pid secs cls got want
	pid="$(head -1 "$SCRATCH/pool.out")"
	secs="$(jq .duration_s "$out")"
	for cls in TNT_L0_1002 RpcIO; do
		got="$(class_field "$out" "$pid" "$cls" "(.runnable_avg - .oncpu_pct / 100) * $secs * 1000")"
		want="$(sed -n "s/^count $cls .*run_delay_ns=\([0-9]*\).*/\1/p" "$SCRATCH/pool.out" | awk '{ print $1 / 1e6 }')"
		# 3%: the workers wake once more to exit after being counted
		# (a switch each), and runnable_avg is rounded in the capture
		check "$cls run-queue time (ms) vs schedstat run_delay" "$got" "$want" 3
	done
	no_misses
}

# runqlat's histogram for the pool: "lo -> hi : count" lines (log2 us).
# runqlat_bucket FILE PCT: prints "lo hi" of the bucket holding the PCTth
# percentile.
runqlat_bucket() {
	awk -v p="$2" 'BEGIN { n = 0 } $2 == "->" && $4 == ":" { lo[n] = $1; hi[n] = $3; c[n] = $5; t += $5; n++ }
		END { for (i = 0; i < n; i++) { s += c[i]; if (s >= t * p / 100) { print lo[i], hi[i]; exit } } }' "$1"
}

# runqlat_rank FILE V: "below upto": the percentage of runqlat's waits in
# buckets below the one holding V us, and up to the end of that bucket.
runqlat_rank() {
	awk -v v="$2" 'BEGIN { n = 0 } $2 == "->" && $4 == ":" { lo[n] = $1; hi[n] = $3; c[n] = $5; t += $5; n++ }
		END { for (i = 0; i < n; i++) { if (v < hi[i] + 1) { printf "%.2f %.2f\n", s / t * 100, (s + c[i]) / t * 100; exit }
		                                s += c[i] } }' "$1"
}

# runqlat keeps log2 us buckets ([2^k, 2^(k+1)-1]): the finest it can say
# of a percentile is which bucket holds it. dbtrace's p50 and p99 must lie
# in that bucket, widened by 10% each way (a percentile near an edge can
# fall on either side between two tools' slightly different windows), or
# hold the same rank among runqlat's waits within half a point: this
# pool's waits are a mass under 30 us (RpcIO's wake-ups) and a ~1% tail of
# milliseconds (the spinners' time slices), so its p99 sits on a cliff,
# and a shift of a tenth of a point between the two windows (runqlat's
# also holds dbtrace's start-up) moves it from 15 us to 12 ms; in rank
# the two stay close. (A p99 the 98th or 99.6th percentile of runqlat's
# waits still fails.)
# Both tools time the same thing: from the wake-up or the preemption to
# the next switch in.
# (In the 6.1 guest the pool was once not the capture's first process:
# there was none, the sched family refused by 6.1's verifier, as above.)
# bats test_tags=vm
@test "run-queue p50/p99 of an oversubscribed pool lie within 10% of runqlat's buckets" {
	command -v runqlat >/dev/null || skip "libbpf-tools' runqlat is not installed (scripts/setup.sh --test)"
	"$TOOLS/thread_pool" -n 8 -d 60 -c "$POOL_CPUS" >"$SCRATCH/pool.out" &
	POOL=$!
	wait_for_text "$SCRATCH/pool.out" "$POOL"
	sleep 0.5
	local secs=4
	# runqlat's window holds dbtrace's: it prints its histogram when
	# interrupted (SIGINT, given back to this background command)
	"${AHEAD[@]}" env --default-signal=INT stdbuf -oL runqlat -p "$POOL" 999 1 >"$SCRATCH/runqlat" 2>&1 &
	RQL_PID=$!
	wait_for_text "$SCRATCH/runqlat" "Tracing" "$LIMIT"
	"${AHEAD[@]}" "$DBTRACE" capture -d "$secs" -p "$POOL" -o "$SCRATCH/run.json" 2>/dev/null
	kill -INT "$RQL_PID"
	wait "$RQL_PID"; RQL_PID=
	local pool="$POOL"
	kill "$POOL"; wait "$POOL" 2>/dev/null || true; POOL=
	attached "$SCRATCH/run.json" sched
	jq -e --argjson p "$pool" '.processes[0].pid == $p' "$SCRATCH/run.json"
	"$VALIDATE" "$SCRATCH/run.json"
	cat "$SCRATCH/runqlat"
	local pct got lo hi below upto
	for pct in 50 99; do
		got="$(jq -r '.processes[0] | .runq_p'"$pct"'_us' "$SCRATCH/run.json")"
		read -r lo hi < <(runqlat_bucket "$SCRATCH/runqlat" "$pct")
		echo "p$pct: dbtrace $got us, runqlat's bucket [$lo, $hi] us (allowed [$(awk -v l="$lo" 'BEGIN { print l * 0.9 }'), $(awk -v h="$hi" 'BEGIN { print (h + 1) * 1.1 }')])"
		awk -v v="$got" -v l="$lo" -v h="$hi" 'BEGIN { exit !(v >= l * 0.9 && v <= (h + 1) * 1.1) }' && continue
		read -r below upto < <(runqlat_rank "$SCRATCH/runqlat" "$got")
		echo "p$pct: outside runqlat's bucket; its rank among runqlat's waits: between ${below:-?}% and ${upto:-?}% (allowed $pct +- 0.5)"
		awk -v b="$below" -v u="$upto" -v p="$pct" 'BEGIN { exit !(b != "" && b <= p + 0.5 && u >= p - 0.5) }' || {
			echo "p$pct outside runqlat's bucket and rank MISS"
			MISSES=$((MISSES + 1))
		}
	done
	no_misses
}
