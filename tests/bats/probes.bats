#!/usr/bin/env bats
# `dbtrace probes`: the attach path of each family on this kernel, and no
# program left loaded afterwards.

load helpers/common

@test "probes lists the softirq family with its attach path and exits 0" {
	run "$DBTRACE" probes
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == FAMILY*ATTACH*REJECTED ]]
	# both kernels here have BTF: the preferred path must win, a silent
	# fallback to raw_tp is a failure
	[[ "$output" =~ softirq\ +tp_btf ]]
}

@test "probes -v shows what libbpf did" {
	run "$DBTRACE" probes -v
	[ "$status" -eq 0 ]
	[[ "$output" == *"softirq: attached"*"via tp_btf"* ]]
}

@test "no dbtrace BPF program stays loaded after probes, top and capture" {
	[ "$(loaded_dbtrace_progs)" -eq 0 ]
	"$DBTRACE" probes >/dev/null
	"$DBTRACE" top --batch -d 1 >/dev/null
	"$DBTRACE" capture -d 1 -o /dev/null 2>/dev/null || "$DBTRACE" capture -d 1 -o - >/dev/null 2>&1
	[ "$(loaded_dbtrace_progs)" -eq 0 ]
}
