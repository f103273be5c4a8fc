# Shared by the accuracy_*.bats files: each compares a figure dbtrace
# reports with the same figure from a source that is not dbtrace (the
# load's own timing, /proc, tc, libbpf-tools), prints both, and counts a
# miss instead of stopping at the first, so one run shows every figure.

# near WHAT GOT WANT PCT: prints "WHAT: dbtrace GOT, reference WANT
# (off D%, allowed PCT%)" and fails when |GOT-WANT| > PCT% of WANT, or when
# either is not a number (a null percentile is a miss, not a pass).
near() {
	local what="$1" got="$2" want="$3" pct="$4"
	awk -v w="$what" -v a="$got" -v b="$want" -v p="$pct" 'BEGIN {
		num = "^-?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$"
		if (a !~ num || b !~ num || b + 0 == 0) {
			printf "%s: dbtrace %s, reference %s: not comparable (allowed %s%%) MISS\n", w, a, b, p
			exit 1
		}
		d = (a - b) / b * 100
		ok = (d <= p && d >= -p)
		printf "%s: dbtrace %s, reference %s (off %+.1f%%, allowed %s%%)%s\n", w, a, b, d, p, ok ? "" : " MISS"
		exit !ok
	}'
}

# between WHAT GOT LO HI PCT: like near, for a reference known only as a
# bracket: fails unless LO x (1 - PCT%) <= GOT <= HI x (1 + PCT%), or when
# any of them is not a number.
between() {
	awk -v w="$1" -v a="$2" -v l="$3" -v h="$4" -v p="$5" 'BEGIN {
		num = "^-?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$"
		if (a !~ num || l !~ num || h !~ num) {
			printf "%s: dbtrace %s, reference [%s, %s]: not comparable MISS\n", w, a, l, h
			exit 1
		}
		ok = (a >= l * (1 - p / 100) && a <= h * (1 + p / 100))
		printf "%s: dbtrace %s, reference between %s and %s (allowed %s%% beyond)%s\n", w, a, l, h, p, ok ? "" : " MISS"
		exit !ok
	}'
}

# attached FILE FAMILY...: fails, saying why, unless capture FILE has each
# FAMILY on the attach path this kernel allows (expected_path): a family
# the kernel refused leaves its figures null or its rows empty, which is
# no question of accuracy (6.1's verifier once refused sched and softirq,
# and these tests saw only "no processes" and a null share).
attached() {
	local file="$1" f want got
	shift
	for f in "$@"; do
		want="$(expected_path "$f")"
		got="$(jq -r --arg f "$f" '.probes[$f].attach' "$file")"
		[ "$got" = "$want" ] || {
			echo "$f family attached via '$got', expected '$want'; rejected: $(jq -c --arg f "$f" '.probes[$f].rejected' "$file")"
			return 1
		}
	done
}

# MISSES counts the misses of check and check_between calls; a test ends
# with no_misses.
MISSES=0
check() {
	near "$@" || MISSES=$((MISSES + 1))
}

check_between() {
	between "$@" || MISSES=$((MISSES + 1))
}

no_misses() {
	echo "$MISSES figure(s) outside their tolerance"
	[ "$MISSES" -eq 0 ]
}

# The jq definition of a histogram's total count, whatever form the
# capture keeps it in: an array of counts per log2 µs slot (schema /1), or
# a fine histogram (schema /2: an object whose "buckets" are [lower bound
# in ns, count] pairs). The sum of the buckets, not the object's own
# "count", so that the two are checked against each other elsewhere.
JQ_HIST_TOTAL='def hist_total: if . == null then 0
	elif type == "array" then (map(numbers) | add // 0)
	elif type == "object" then ([.buckets[]?[1]] | add // 0)
	else 0 end;'
