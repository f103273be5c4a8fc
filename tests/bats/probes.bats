#!/usr/bin/env bats
# `dbtrace probes`: the attach path of each family on this kernel, and no
# program left loaded afterwards.

load helpers/common

# bats test_tags=vm,rt
@test "probes lists every family on the path this kernel allows and exits 0" {
	run "$DBTRACE" probes
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == FAMILY*ATTACH*REJECTED ]]
	# each family on the path expected for this kernel: a silent
	# fallback (e.g. to raw_tp) is a failure
	local f
	for f in softirq sched clock net loss; do
		assert_probe_path "$output" "$f"
	done
	[ "$(grep -cE '^(softirq|sched|clock|net|loss) ' <<<"$output")" -eq 5 ]
}

# bats test_tags=vm
@test "every capture records the attach path of each family" {
	local out
	out="$(mktemp)"
	"$DBTRACE" capture -d 1 -o "$out" 2>/dev/null
	local f
	for f in softirq sched clock net loss; do
		jq -e --arg f "$f" --arg p "$(expected_path "$f")" '.probes[$f].attach == $p' "$out"
	done
	rm -f "$out"
}

@test "probes -v shows what libbpf did" {
	run "$DBTRACE" probes -v
	[ "$status" -eq 0 ]
	[[ "$output" == *"softirq: attached"*"via $(expected_path softirq)"* ]]
}

# bats test_tags=vm
@test "no dbtrace BPF program stays loaded after probes, top and capture" {
	[ "$(loaded_dbtrace_progs)" -eq 0 ]
	"$DBTRACE" probes >/dev/null
	"$DBTRACE" top --batch -d 1 >/dev/null
	"$DBTRACE" capture -d 1 -o /dev/null 2>/dev/null || "$DBTRACE" capture -d 1 -o - >/dev/null 2>&1
	[ "$(loaded_dbtrace_progs)" -eq 0 ]
}

@test "--families loads only the named families and says so" {
	run "$DBTRACE" probes --families softirq,sched
	[ "$status" -eq 0 ]
	assert_probe_path "$output" softirq
	assert_probe_path "$output" sched
	grep -qE '^clock +off' <<<"$output"
	grep -qE '^net +off' <<<"$output"
	run "$DBTRACE" probes --families disk
	[ "$status" -eq 2 ]
}
