#!/usr/bin/env bash
# README's table of kernels, made from what the test rings saw: each ring's
# probes test (tests/bats/probes.bats) prints the path each family took and
# what it adapted, as TAP comments; tests/run.sh keeps the last of each
# ring in build/kernel-paths.txt:
#   # kernel-paths RING RELEASE softirq=PATH sched=PATH clock=PATH net=PATH loss=PATH
#   # kernel-note RING FAMILY NOTE...
#
#   scripts/kernel-table.sh [PATHS_FILE]                  print the table
#   scripts/kernel-table.sh --write README.md [PATHS_FILE] put it between
#       README's <!-- kernels:begin --> and <!-- kernels:end --> lines
#   scripts/kernel-table.sh --check README.md [PATHS_FILE] exit 1 when a
#       ring's row in README differs from what the ring saw (the host's row,
#       which depends on the machine, is not checked)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=print readme=
case "${1:-}" in
--write | --check) mode=${1#--}; readme=${2:?$1 needs README.md}; shift 2 ;;
esac
paths=${1:-build/kernel-paths.txt}
[ -r "$paths" ] || { echo "kernel-table: no $paths: run the test rings first (make test)" >&2; exit 2; }

begin='<!-- kernels:begin -->' end='<!-- kernels:end -->'

# The table: one row per ring in the order below, a note's text once as a
# numbered footnote under it.
table() {
	awk '
	BEGIN {
		n = split("5.10 6.1 rt 6.12 host", order, " ")
		name["5.10"] = "Debian 11 cloud"; name["6.1"] = "Debian 12 cloud"
		name["rt"] = "Debian 12 PREEMPT_RT"; name["6.12"] = "Debian 12, 6.12 cloud"
		name["host"] = "this development VM"
		nf = split("softirq sched clock net loss", fam, " ")
	}
	$2 == "kernel-paths" {
		ring = $3; rel[ring] = $4
		for (i = 5; i <= NF; i++) { split($i, kv, "="); path[ring, kv[1]] = kv[2] }
	}
	$2 == "kernel-note" {
		ring = $3; f = $4; text = $0
		sub(/^# kernel-note [^ ]+ [^ ]+ /, "", text)
		if (!(text in num)) { num[text] = ++notes; note[notes] = text }
		mark[ring, f] = mark[ring, f] (mark[ring, f] == "" ? " " : ",") num[text]
	}
	END {
		printf "| kernel | ring |"
		for (i = 1; i <= nf; i++) printf " %s |", fam[i]
		printf "\n|---|---|"
		for (i = 1; i <= nf; i++) printf "---|"
		printf "\n"
		for (r = 1; r <= n; r++) {
			ring = order[r]
			if (!(ring in rel)) continue
			printf "| %s (%s) | `%s` |", rel[ring], name[ring], ring
			for (i = 1; i <= nf; i++) {
				p = path[ring, fam[i]]
				m = mark[ring, fam[i]]
				printf " %s%s |", p == "" ? "?" : "`" p "`", m == "" ? "" : " (" substr(m, 2) ")"
			}
			printf "\n"
		}
		if (notes) printf "\n"
		for (k = 1; k <= notes; k++) printf "(%d) %s.  \n", k, note[k]
	}' "$paths"
}

case $mode in
print) table ;;
write)
	grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
		{ echo "kernel-table: $readme has no $begin / $end lines" >&2; exit 2; }
	tmp=$(mktemp)
	table >"$tmp.table"
	awk -v b="$begin" -v e="$end" -v t="$tmp.table" '
		$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip' "$readme" >"$tmp"
	mv "$tmp" "$readme"
	rm -f "$tmp.table"
	;;
check)
	# each Debian kernel's ring that ran: its row as README has it and
	# as the ring saw it, without the release (it moves with Debian's
	# updates); the host's row depends on the machine
	section=$(sed -n "/^$begin\$/,/^$end\$/p" "$readme")
	rows=$(table)
	bad=0 n=0
	for ring in $(awk '$2 == "kernel-paths" && $3 != "host" { print $3 }' "$paths"); do
		row() { grep -F "| \`$ring\` |" | sed -E 's/^\| [^ ]+ /| /'; }
		n=$((n + 1))
		if [ "$(row <<<"$section")" != "$(row <<<"$rows")" ]; then
			echo "kernel-table: README's row for the $ring ring differs from what it saw:"
			echo "  README: $(row <<<"$section")"
			echo "  ring:   $(row <<<"$rows")"
			bad=1
		fi
	done
	[ "$bad" = 0 ] || { echo "  (scripts/kernel-table.sh --write README.md)"; exit 1; }
	echo "kernel-table: README's rows agree with the $n ring(s) that ran"
	;;
esac
