#!/usr/bin/env bats
# `dbtrace probes`: the attach path of each family on this kernel, and no
# program left loaded afterwards.

load helpers/common

# bats test_tags=vm,rt,kernel
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
	# for README's table of kernels (scripts/kernel-table.sh): each
	# family's path and what it adapted, as a TAP comment
	{
		printf '# kernel-paths %s %s' "${VMTEST_KERNEL:-host}" "$(uname -r)"
		awk '/^(softirq|sched|clock|net|loss) / { printf " %s=%s", $1, $2 }' <<<"$output"
		echo
		awk '/ADAPTED/ { on = 1; next } on && NF == 0 { on = 0 }
		     on { f = $1; $1 = ""; sub(/^ /, ""); printf "# kernel-note %s %s\n", f, $0 }' <<<"$output" |
			sed "s/^# kernel-note /# kernel-note ${VMTEST_KERNEL:-host} /"
	} >&3
}

# What a path does in place of a helper the kernel lacks is said, and
# only then: on 5.10 the sampler and the switch program find the saved
# registers on the task's stack, and typed socket programs keep their
# state in a hash.
# bats test_tags=vm,kernel
@test "probes notes each load-time adaptation exactly where the kernel lacks what it replaces" {
	run "$DBTRACE" probes
	[ "$status" -eq 0 ]
	local f path note checks n=0
	for f in softirq sched clock net loss; do
		path="$(expected_path "$f")"
		while IFS='|' read -r checks note; do
			# shellcheck disable=SC2086 # one word per check
			if kernel_allows $checks; then
				refute grep -qE "^  $f +$note: no " <<<"$output"
			else
				grep -qE "^  $f +$note: no " <<<"$output"
				n=$((n + 1))
			fi
		done < <(family_adaptations "$f" "$path")
	done
	echo "adaptations noted: $n"
}

# A kernel without /sys/kernel/btf/vmlinux (Ubuntu 20.04's GA kernel, a
# vendor's): hidden here by a tmpfs in a mount namespace of the test's own,
# so nothing else sees it. Without --btf, one line naming the option;
# with the kernel's BTF copied to a file, every family attaches on a path
# that needs no BTF of the kernel's own, and a capture works.
# bats test_tags=vm,kernel510
@test "--btf FILE: a kernel without /sys/kernel/btf runs every family; without the option, one line naming it" {
	local btf="$BATS_TEST_TMPDIR/vmlinux.btf" hide f
	cp /sys/kernel/btf/vmlinux "$btf"
	hide="mount -t tmpfs none /sys/kernel/btf && exec"
	run unshare -m sh -c "$hide $DBTRACE probes"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"no BTF"*"--btf FILE"* ]]
	run unshare -m sh -c "$hide $DBTRACE probes --btf $btf"
	echo "$output"
	[ "$status" -eq 0 ]
	for f in softirq sched clock net loss; do
		grep -qE "^$f +$(expected_path_without_btf "$f" | sed 's/[+]/[+]/g') " <<<"$output"
	done
	run unshare -m sh -c "$hide $DBTRACE capture -d 1 --btf $btf -o $BATS_TEST_TMPDIR/c.json"
	[ "$status" -eq 0 ]
	jq -e '[.probes[] | .attach != null] | all' "$BATS_TEST_TMPDIR/c.json"
	jq -e '.intervals | length >= 1' "$BATS_TEST_TMPDIR/c.json"
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
	# a family left out is not one that failed: nothing said of it
	run "$DBTRACE" capture -d 1 --families softirq,sched -o "$BATS_TEST_TMPDIR/two.json"
	[ "$status" -eq 0 ]
	echo "$output"
	refute grep -q 'did not attach' <<<"$output"
	jq -e '.probes.clock.enabled == false and .probes.sched.attach != null' "$BATS_TEST_TMPDIR/two.json"
}

# --attach FAMILY=PATH, every path of every family (with
# --clock-syscalls=count, the clock family's counting paths too), each
# family's Nth path in the Nth run: where the kernel lets that path's
# program types attach at its places (bpf_can, empty programs), dbtrace
# attaches there and says the other paths were not tried; where it
# refuses them, the family fails with the kernel's refusal of that path,
# never a quiet fall back to another. (Debian's 6.1 refuses the net
# family's tp_btf and raw_tp paths: its kernel has none of their socket
# tracepoints, so fentry is that kernel's only net path.) In the cloud
# guest, not the PREEMPT_RT one too: the same 6.1 paths, and 65 s there.
# bats test_tags=vm,kernel
@test "--attach tries only the path named: each path of each family attaches where the kernel allows it" {
	local n f mode path checks opts fams line tried=0 refused=0 runs=0 rr
	for mode in "" count; do
		for n in 1 2 3 4 5; do
			opts=() fams=()
			for f in softirq sched clock net loss; do
				# the counting run: the paths only it has
				[ -z "$mode" ] || [ "$f" = clock ] || continue
				path="$(family_variants "$f" "$mode" | sed -n "${n}p" | cut -d' ' -f1)"
				[ -n "$mode" ] && [[ "$path" != *+tracepoint && "$path" != *+tp_btf && "$path" != *+raw_tp ]] && continue
				[ -n "$path" ] || continue
				opts+=(--attach "$f=$path")
				fams+=("$f")
			done
			[ "${#fams[@]}" -gt 0 ] || continue
			run "$DBTRACE" probes --families "$(IFS=,; echo "${fams[*]}")" "${opts[@]}" ${mode:+--clock-syscalls=count}
			runs=$((runs + 1)) rr=0
			for f in "${fams[@]}"; do
				path="$(family_variants "$f" "$mode" | sed -n "${n}p" | cut -d' ' -f1)"
				checks="$(family_variants "$f" "$mode" | sed -n "${n}p" | cut -d' ' -f2-)"
				line="$(grep -E "^$f " <<<"$output")"
				echo "$f=$path${mode:+ (count)}: $line"
				# shellcheck disable=SC2086 # one word per check
				if kernel_allows $checks; then
					grep -qE "^$f +${path//+/[+]} " <<<"$line"
					tried=$((tried + 1))
				else
					# refused with the stage and errno of the real try;
					# not always bpf_can's (a tracepoint this kernel
					# lacks: bpf_can finds no BTF type, ENOENT, where
					# libbpf's load of the program says ESRCH)
					# shellcheck disable=SC2086
					echo "  bpf_can: $(kernel_refusal $checks)"
					# or, for a helper or instruction it lacks, what
					# that is, without a load
					grep -qE "^$f +none .*${path//+/[+]}: ([a-z]+[^;]*: E[A-Z0-9]+ \(|needs [a-z])" <<<"$line"
					refused=$((refused + 1)) rr=$((rr + 1))
				fi
				# every other path of the family named as not tried
				[ "$(grep -o "not tried: --attach $f=" <<<"$line" | wc -l)" -eq \
					"$(($(family_variants "$f" "$mode" | wc -l) - 1))" ]
			done
			# exit 3 exactly when a forced family failed
			[ "$status" -eq "$([ "$rr" -gt 0 ] && echo 3 || echo 0)" ]
		done
	done
	echo "paths attached: $tried, refused by this kernel: $refused, in $runs runs"
	# softirq 2, sched 2, clock 2 + 3 counting, net 4, loss 2
	[ $((tried + refused)) -eq 15 ]
}

@test "--attach: a path the family does not have is bad usage; a refused one stops capture without a file" {
	run "$DBTRACE" probes --attach sched=fentry
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"bad --attach sched=fentry: no such attach path; sched has tp_btf, raw_tp"* ]]
	run "$DBTRACE" probes --attach sched
	[ "$status" -eq 2 ]
	# a path this kernel refuses (fentry here; none where all load)
	local path checks refused=
	while read -r path checks; do
		# shellcheck disable=SC2086
		kernel_allows $checks || { refused="$path"; break; }
	done < <(family_variants net)
	[ -n "$refused" ] || skip "this kernel allows every net path"
	local out="$BATS_TEST_TMPDIR/forced.json"
	run "$DBTRACE" capture -d 1 -o "$out" --attach "net=$refused"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"net: --attach $refused did not attach: "* ]]
	[ ! -e "$out" ]
}
