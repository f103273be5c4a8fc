#!/usr/bin/env bash
# Runs bats files inside a qemu guest booted on one of Debian's kernels, so
# the suite also exercises the attach paths the host kernel refuses.
#
#   scripts/vmtest.sh [--kernel K] [--timeout SECONDS] [-v] BATS_DIR_OR_FILE...
#   scripts/vmtest.sh [--kernel K] --run 'COMMAND'
#   scripts/vmtest.sh [--kernel K] --shell
#
# K is one of Debian's kernels (default 6.1):
#   5.10   Debian 11's cloud kernel (linux-image-cloud-amd64 of bullseye,
#          fetched through a private apt source list in the cache: the
#          machine's own sources are left as they are)
#   6.1    Debian 12's cloud kernel (linux-image-cloud-amd64; `cloud` is
#          the same)
#   6.12   Debian 12's 6.12 cloud kernel (linux-image-6.12-cloud-amd64)
#   rt     Debian 12's PREEMPT_RT kernel (linux-image-rt-amd64, 6.1)
# --run runs COMMAND with bash as root in the guest, in the repo at its own
# path (build/ included: build on the host first), its output on stdout,
# and exits with COMMAND's status: a way to try dbtrace on a kernel
# without writing a bats file.
#
# The guest's root file system is an initramfs made from the host's own
# binaries and their shared libraries (bash, coreutils, bats, jq, bpftool,
# iproute2, procps, python3 with jsonschema, kmod, ...), the repo at its own
# absolute path (without .git and build/vm) and the kernel modules the tests
# need. The kernel is the current linux-image-{cloud,rt}-amd64 from Debian's
# archive, downloaded once into build/vm/. qemu runs under TCG (KVM hangs
# on these machines) with the kernel console on ttyS0 (build/vm/console-*.log)
# and bats' TAP stream on ttyS1, which this script copies to stdout as it
# arrives, followed by one line 'vmtest: N passed, N failed, N skipped'.
# Progress and timings go to stderr.
#
# Exit status (--run: COMMAND's own, but for 2 and 3 as below when the
# guest never ran it): 0 all tests passed; 1 some test failed; 2 the guest never
# reported (kernel panic, timeout, qemu crash) or the setup failed; 3 this
# machine cannot run the guest (not amd64, no apt, qemu not installable,
# no kernel image to be had): the last line on stdout is then
# 'vmtest: cannot run here: REASON', and tests/run.sh counts the ring as
# skipped with that reason.
#
# Environment:
#   VMTEST_MODULES   kernel modules to load before the suite
#                    (default: veth sch_tbf sch_netem inet_diag tcp_diag loop)
#   VMTEST_PACKAGES  more host Debian packages to put in the guest
#   VMTEST_PATHS     more host files or directories to put in the guest
#   VMTEST_APPEND    more kernel command line
#   VMTEST_CACHE     cache directory (default: REPO/build/vm)
#   VMTEST_HOST_CPUS the host CPUs qemu runs on (a taskset list; default
#                    any): tests/run.sh gives each of two guests run side
#                    by side a CPU of its own
#   VMTEST_SMP       the guest's CPUs (default 2; 1 checks the 1-CPU paths:
#                    such a guest keeps its TSC under TCG, and the clock
#                    tests' sampled vDSO share then comes out about half
#                    the program's own: TCG takes the timer interrupt only
#                    between translated blocks)
set -euo pipefail
shopt -s lastpipe

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${VMTEST_CACHE:-$repo/build/vm}

log() { printf 'vmtest: %s\n' "$*" >&2; }
die() { log "$*"; exit 2; }
# A missing prerequisite of this machine, not a fault of the tests.
cannot() { printf 'vmtest: cannot run here: %s\n' "$*"; exit 3; }
now() { printf '%s' "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
	exit "${1:-0}"
}

flavour=6.1
timeout=1800
mode=bats
run_cmd=''
verbose=0
bats_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) flavour=${2:?--kernel needs 5.10, 6.1, 6.12 or rt}; shift 2 ;;
	--kernel=*) flavour=${1#*=}; shift ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--timeout=*) timeout=${1#*=}; shift ;;
	--shell) mode=shell; shift ;;
	--run) mode=run; run_cmd=${2?--run needs a command}; shift 2 ;;
	--run=*) mode=run; run_cmd=${1#*=}; shift ;;
	-v | --verbose) verbose=1; shift ;;
	-h | --help) usage 0 ;;
	--) shift; bats_args+=("$@"); break ;;
	-*) log "unknown option $1"; usage 2 >&2 ;;
	*) bats_args+=("$1"); shift ;;
	esac
done
# Each kernel: the meta package naming its current image, and the Debian
# suite whose archive has it (bookworm: the machine's own apt sources).
case $flavour in
cloud | 6.1) flavour=6.1 meta=linux-image-cloud-amd64 suite=bookworm ;;
6.12) meta=linux-image-6.12-cloud-amd64 suite=bookworm ;;
rt) meta=linux-image-rt-amd64 suite=bookworm ;;
5.10) meta=linux-image-cloud-amd64 suite=bullseye ;;
*) die "--kernel must be 5.10, 6.1, 6.12 or rt, not $flavour" ;;
esac
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout needs a whole number of seconds"
[ "$mode" != bats ] || [ ${#bats_args[@]} -gt 0 ] || usage 2 >&2
[ "$mode" != run ] || [ -n "$run_cmd" ] || die "--run needs a command"

read -r -a modules <<<"${VMTEST_MODULES-veth sch_tbf sch_netem inet_diag tcp_diag loop}"
read -r -a extra_pkgs <<<"${VMTEST_PACKAGES-}"
read -r -a extra_paths <<<"${VMTEST_PATHS-}"

# Paths become absolute (the guest runs bats from the repo); bats' own
# options and their values go through as they are.
abs_bats=()
prev=
for a in "${bats_args[@]}"; do
	case $prev in
	-f | --filter | -j | --jobs | -F | --formatter | -o | --output | --filter-status | \
		--filter-tags | --report-formatter | --code-quote-style | --gather-test-outputs-in | \
		--line-reference-format)
		abs_bats+=("$a") ;;
	*)
		case $a in
		-*) abs_bats+=("$a") ;;
		*)
			[ -e "$a" ] || die "no such bats file or directory: $a"
			abs_bats+=("$(realpath "$a")")
			;;
		esac
		;;
	esac
	prev=$a
done

# ---------------------------------------------------------------- host tools
# The guest's root file system is this host's own amd64 binaries, its
# kernel an amd64 Debian package fetched with apt.
[ "$(uname -m)" = x86_64 ] ||
	cannot "the guest is built from this host's amd64 binaries and Debian's amd64 kernel; this host is $(uname -m)"
for t in apt-get apt-cache dpkg; do
	command -v "$t" >/dev/null || cannot "$t is missing: the guest's kernel comes from Debian's archive through apt"
done
[[ ${VMTEST_SMP:-2} =~ ^[1-9][0-9]*$ ]] || die "VMTEST_SMP must be a number of CPUs"

need_pkgs=()
command -v qemu-system-x86_64 >/dev/null || need_pkgs+=(qemu-system-x86)
command -v cpio >/dev/null || need_pkgs+=(cpio)
# kmod: depmod here, modprobe in the guest
dpkg-query -W -f='${Status}' kmod 2>/dev/null | grep -q 'install ok installed' || need_pkgs+=(kmod)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	SUDO=
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || cannot "${need_pkgs[*]} not installed, and no root or sudo to install them"
		SUDO=sudo
	fi
	log "installing ${need_pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq || log "warning: apt-get update failed"
	if ! out=$($SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" 2>&1 >/dev/null); then
		cannot "${need_pkgs[*]} not installed and apt-get could not install them: $(tail -n 1 <<<"$out")"
	fi
fi
for t in bats python3 jq bpftool; do
	command -v "$t" >/dev/null || log "warning: $t is not on the host, the guest will lack it (scripts/setup.sh installs it)"
done

mkdir -p "$cache"

# ------------------------------------------------------------------- kernel
# The meta package depends on the current versioned image, e.g.
# linux-image-6.1.0-56-cloud-amd64; never name a version here. A suite
# other than the machine's (bullseye) is reached through a source list and
# package lists of its own in the cache, given to each apt call.
apt_opts=()
if [ "$suite" != bookworm ]; then
	aptdir=$cache/apt-$suite
	apt_opts=(-o "Dir::Etc::SourceList=$aptdir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$aptdir/lists" -o "Dir::Cache=$aptdir/cache")
	mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
	printf 'deb http://deb.debian.org/debian %s main\ndeb http://deb.debian.org/debian-security %s-security main\n' \
		"$suite" "$suite" >"$aptdir/sources.list"
fi
kcache=$cache/kernel-$flavour
mkdir -p "$kcache"

resolve_kernel() {
	apt-cache "${apt_opts[@]}" depends "$meta" 2>/dev/null |
		sed -n 's/^ *|\{0,1\}Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1 || true
}

# bzImage -> vmlinux. An ELF vmlinux with a PVH note (CONFIG_PVH) boots
# straight into 64-bit code, skipping the self-decompression that TCG makes slow.
extract_vmlinux() { # bzImage out
	local img=$1 out=$2 magic cmd off
	for magic in '\xfd7zXZ\x00:xz -dc' '(\xb5/\xfd:zstd -dcq' '\x1f\x8b\x08:gzip -dc' \
		'\x02\x21\x4c\x18:lz4 -dc' 'BZh:bzip2 -dc' '\x89LZO:lzop -dc'; do
		cmd=${magic#*:}
		command -v "${cmd%% *}" >/dev/null || continue
		for off in $(LC_ALL=C grep -aboP "${magic%%:*}" "$img" 2>/dev/null | cut -d: -f1 | head -n 5); do
			tail -c +"$((off + 1))" "$img" | $cmd >"$out.tmp" 2>/dev/null || true
			if [ "$(head -c 4 "$out.tmp" 2>/dev/null)" = $'\x7fELF' ]; then
				mv "$out.tmp" "$out"
				return 0
			fi
		done
	done
	rm -f "$out.tmp"
	return 1
}

fetch_kernel() {
	local pkg dir tmp t0
	pkg=$(resolve_kernel)
	if [ -z "$pkg" ]; then
		log "apt knows no $meta of $suite yet: apt-get update"
		apt-get "${apt_opts[@]}" update -qq || true
		pkg=$(resolve_kernel)
	fi
	if [ -z "$pkg" ]; then
		# offline: fall back on what is already cached
		dir=$(printf '%s\n' "$kcache"/linux-image-* | sort -V | tail -n 1)
		[ -e "$dir/.done" ] || dir=''
		[ -n "$dir" ] || cannot "apt knows no $meta of $suite (no Debian archive reachable?) and none is cached in ${kcache#"$repo"/}"
		log "warning: apt cannot resolve $meta of $suite, using cached $(basename "$dir")"
		kdir=$dir
		return
	fi
	kdir=$kcache/$pkg
	[ -e "$kdir/.done" ] && return
	t0=$(now)
	log "downloading $pkg"
	tmp=$(mktemp -d "$cache/fetch.XXXXXX")
	local out
	if ! out=$(cd "$tmp" && apt-get "${apt_opts[@]}" download -qq -o APT::Sandbox::User=root "$pkg" 2>&1); then
		rm -rf "$tmp"
		cannot "apt-get download $pkg failed (offline?): $(tail -n 1 <<<"$out")"
	fi
	local t1
	t1=$(now)
	log "downloaded in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s; unpacking"
	dpkg -x "$tmp"/*.deb "$tmp/root"
	rm -f "$tmp"/*.deb
	local mods=("$tmp"/root/lib/modules/*)
	depmod -b "$tmp/root" "${mods[0]##*/}"
	local img=("$tmp"/root/boot/vmlinuz-*)
	if ! extract_vmlinux "${img[0]}" "$tmp/root/boot/vmlinux"; then
		log "warning: could not extract vmlinux from ${img[0]##*/}; booting the bzImage"
	fi
	rm -rf "$kdir"
	mv "$tmp/root" "$kdir"
	rmdir "$tmp"
	touch "$kdir/.done"
	log "unpacked in $(since "$t1") s (download + unpack $(since "$t0") s)"
	# Older versions of the same kernel left in the cache are dead weight.
	for old in "$kcache"/linux-image-*; do
		[ "$old" = "$kdir" ] || rm -rf "$old"
	done
}

exec {lockfd}>"$cache/.lock"
flock "$lockfd"
fetch_kernel

mods=("$kdir"/lib/modules/*)
kver=${mods[0]##*/}
kimage=$kdir/boot/vmlinux
if [ ! -e "$kimage" ] || ! readelf -n "$kimage" 2>/dev/null | grep -q 'Xen.*0x00000012'; then
	imgs=("$kdir"/boot/vmlinuz-*)
	kimage=${imgs[0]}
fi

# ---------------------------------------------------------------- initramfs
run=$(mktemp -d "$cache/run.XXXXXX")
# shellcheck disable=SC2317 # called by the trap
cleanup() { rm -rf "$run"; }
trap cleanup EXIT
# Still under the lock: the cached system part is shared by parallel runs.

t_build=$(now)
pyver=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo 3)
guest_pkgs=(
	bash dash coreutils util-linux mount procps iproute2 grep sed mawk
	findutils diffutils gzip tar hostname psmisc kmod
	bats jq bpftool
	# the accuracy tests' independent references: softirqs, runqlat
	libbpf-tools
	python3 python3-minimal "python$pyver" "python$pyver-minimal"
	"libpython$pyver-minimal" "libpython$pyver-stdlib"
	python3-jsonschema python3-attr python3-pyrsistent
	"${extra_pkgs[@]}"
)
guest_paths=(/usr/bin/awk "${extra_paths[@]}")

# The host system part changes only when packages do: cache its cpio, keyed
# on the package database, the alternatives and what is asked for.
key=$({
	cat "$here/vm/rootfs-list.py"
	printf '%s\n' "${guest_pkgs[@]}" "${guest_paths[@]}"
	stat -c '%Y %s' /var/lib/dpkg/status
	ls -l /etc/alternatives
} | sha256sum | cut -c1-16)
syscpio=$cache/system-$key.cpio
syslist=$cache/system-$key.list
if [ ! -e "$syscpio" ] || [ ! -e "$syslist" ]; then
	args=()
	for p in "${guest_pkgs[@]}"; do args+=(--pkg "$p"); done
	for p in "${guest_paths[@]}"; do args+=(--path "$p"); done
	/usr/bin/python3 "$here/vm/rootfs-list.py" "${args[@]}" >"$syslist.tmp"
	(cd / && cpio -o -H newc --quiet <"$syslist.tmp") >"$syscpio.tmp"
	rm -f "$cache"/system-*.cpio "$cache"/system-*.list
	mv "$syscpio.tmp" "$syscpio"
	mv "$syslist.tmp" "$syslist"
fi
flock -u "$lockfd"

# The repo at its own path, and any bats file given from outside it.
{
	d=$repo
	while [ "$d" != / ]; do d=$(dirname "$d"); [ "$d" = / ] || echo "${d#/}"; done
	# not the fuzz build, nor make deb's package and package.bats' root
	# file system (a quarter of a gigabyte)
	(cd / && find "${repo#/}" \( -path "${repo#/}/.git" -o -path "${cache#/}" -o -path "${repo#/}/build/fuzz" \
		-o -path "${repo#/}/build/deb" -o -path "${repo#/}/build/pkgtest" \) -prune -o -print)
	# Shared libraries of the repo's binaries (build/dbtrace links
	# libbpf, libelf, json-c, ncurses) that the system part lacks.
	largs=()
	for d in "$repo"/build/*; do
		case $d in "$cache" | "$repo"/build/deb | "$repo"/build/pkgtest | "$repo"/build/fuzz) continue ;; esac
		largs+=(--libs-of "$d")
	done
	if [ ${#largs[@]} -gt 0 ]; then
		/usr/bin/python3 "$here/vm/rootfs-list.py" "${largs[@]}" | LC_ALL=C comm -23 - "$syslist"
	fi
	for p in "${abs_bats[@]}"; do
		# only files made absolute above; bats options and their values
		# (--filter-tags vm) are not paths
		case $p/ in /*) ;; *) continue ;; esac
		case $p/ in "$repo"/*) continue ;; esac
		d=$(dirname "$p")
		while [ "$d" != / ]; do echo "${d#/}"; d=$(dirname "$d"); done
		if [ -d "$p" ]; then
			(cd / && find "${p#/}" -print)
		else
			echo "${p#/}"
			# bats' `load` helpers beside it
			(cd / && find "$(dirname "${p#/}")" -maxdepth 1 -name '*.bash')
		fi
	done
} | LC_ALL=C sort -u >"$run/repo.list"
(cd / && cpio -o -H newc --quiet <"$run/repo.list") >"$run/repo.cpio"

# The small part made here: /init, its config, /etc basics, the modules.
st=$run/stage
mkdir -p "$st"/{dev,proc,sys,tmp,run,root,etc,mnt}
cp "$here/vm/init" "$st/init"
chmod 755 "$st/init"
mknod -m 600 "$st/dev/console" c 5 1
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$st/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$st/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files\n' >"$st/etc/nsswitch.conf"
printf '127.0.0.1 localhost vmtest\n::1 localhost\n' >"$st/etc/hosts"
cat >"$st/etc/fstab" <<'EOF'
proc     /proc               proc     defaults                      0 0
sysfs    /sys                sysfs    defaults                      0 0
devtmpfs /dev                devtmpfs mode=0755                     0 0
devpts   /dev/pts            devpts   mode=0620,ptmxmode=0666,X-mount.mkdir 0 0
tmpfs    /dev/shm            tmpfs    mode=1777,X-mount.mkdir       0 0
tmpfs    /run                tmpfs    mode=0755                     0 0
debugfs  /sys/kernel/debug   debugfs  defaults                      0 0
tracefs  /sys/kernel/tracing tracefs  defaults                      0 0
bpf      /sys/fs/bpf         bpf      mode=0700                     0 0
cgroup2  /sys/fs/cgroup      cgroup2  defaults                      0 0
EOF
mkdir -p "$st/etc/vmtest-dev"
ln -s /proc/self/fd "$st/etc/vmtest-dev/fd"
for i in 0:stdin 1:stdout 2:stderr; do ln -s "/proc/self/fd/${i%:*}" "$st/etc/vmtest-dev/${i#*:}"; done
chmod 1777 "$st/tmp"
{
	printf 'REPO=%q\nVMTEST_KERNEL=%q\nMODE=%q\nRUN_CMD=%q\n' "$repo" "$flavour" "$mode" "$run_cmd"
	printf 'MODULES=(%s)\n' "${modules[*]@Q}"
	printf 'BATS_ARGS=(%s)\n' "${abs_bats[*]@Q}"
} >"$st/etc/vmtest.conf"
if [ ${#modules[@]} -gt 0 ]; then
	mkdir -p "$st/lib/modules/$kver"
	cp "$kdir/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$st/lib/modules/$kver/" 2>/dev/null || true
	{ modprobe -d "$kdir" -S "$kver" --show-depends -a "${modules[@]}" 2>"$run/modprobe.err" || true; } |
		awk '$1 == "insmod" { print $2 }' | sort -u | while read -r ko; do
		rel=${ko#"$kdir"/}
		mkdir -p "$st/$(dirname "$rel")"
		case $ko in
		*.xz) xz -dc "$ko" >"$st/${rel%.xz}" ;;
		*.zst) zstd -dcq "$ko" >"$st/${rel%.zst}" ;;
		*.gz) gzip -dc "$ko" >"$st/${rel%.gz}" ;;
		*) cp "$ko" "$st/$rel" ;;
		esac
	done
	[ -s "$run/modprobe.err" ] && log "modprobe: $(cat "$run/modprobe.err")"
	depmod -b "$st" "$kver"
fi
# /lib is a link to usr/lib on a merged-/usr host: stage into the real path.
if [ -L /lib ] && [ -d "$st/lib" ]; then
	mkdir -p "$st/usr"
	mv "$st/lib" "$st/usr/lib"
fi
(cd "$st" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) >"$run/stage.cpio"

cat "$syscpio" "$run/repo.cpio" "$run/stage.cpio" >"$run/initramfs.cpio"
rm -f "$run/repo.cpio" "$run/stage.cpio"
log "initramfs $(($(stat -c %s "$run/initramfs.cpio") >> 20)) MiB built in $(since "$t_build") s"

# ------------------------------------------------------------------- boot
console=$cache/console-$flavour.log
quiet=quiet
[ "$verbose" = 1 ] && quiet=
append="console=ttyS0 panic=-1 $quiet ${VMTEST_APPEND-}"
# thread=single: one host thread runs both vCPUs in turn. With a thread
# per vCPU (the default), the 6.1 guest livelocked now and then when a
# BPF link was released while the other vCPU ran the tracepoint being
# unpatched: the releasing CPU waited in text_poke_bp_batch() for the
# other, which kept re-entering the int3 handler (console: soft lockup,
# dbtrace in tracepoint_probe_unregister, the load in asm_exc_int3).
pin=()
[ -z "${VMTEST_HOST_CPUS:-}" ] || pin=(taskset -c "$VMTEST_HOST_CPUS")
qemu=("${pin[@]}" qemu-system-x86_64 -accel tcg,thread=single -cpu max -smp "${VMTEST_SMP:-2}" -m 2G
	-nographic -nodefaults -no-user-config -no-reboot
	-kernel "$kimage" -initrd "$run/initramfs.cpio" -append "$append")

if [ "$mode" = shell ]; then
	log "booting $kver; the guest's shell is on this terminal (Ctrl-A x quits qemu)"
	"${qemu[@]}" -serial mon:stdio -serial null
	exit 0
fi

log "booting $kver ($(basename "$kimage")), timeout ${timeout} s; console in ${console#"$repo"/}"
# -v: the console goes to stderr as well, with the kernel's full log.
con=$console
if [ "$verbose" = 1 ]; then
	con=$run/console.fifo
	mkfifo "$con"
	tee "$console" <"$con" >&2 &
fi

t0=$(now)
t_boot='' t_suite='' t_end='' rc=''
pass=0 fail=0 skip=0
set +e
timeout -k 10 "$timeout" "${qemu[@]}" -serial "file:$con" -serial stdio </dev/null |
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case $line in
		'##vmtest## boot '*)
			t_boot=$(since "$t0")
			log "guest up after $t_boot s (kernel ${line#'##vmtest## boot '})"
			;;
		'##vmtest## suite') t_suite=$(now) ;;
		'##vmtest## exit '*)
			rc=${line#'##vmtest## exit '}
			t_end=$(now)
			;;
		*)
			printf '%s\n' "$line"
			case $line in
			'ok '*' # skip'* | 'ok '*' # SKIP'*) skip=$((skip + 1)) ;;
			'ok '*) pass=$((pass + 1)) ;;
			'not ok '*) fail=$((fail + 1)) ;;
			esac
			;;
		esac
	done
qemu_rc=${PIPESTATUS[0]}
set -e
if [ "$verbose" = 1 ]; then
	: 1<>"$con" # tee still waits for a writer if qemu never opened the fifo
	wait
fi

if [ -n "$t_suite" ] && [ -n "$t_end" ]; then
	log "suite ran in $(awk -v a="$t_suite" -v b="$t_end" 'BEGIN{printf "%.1f", b-a}') s (boot ${t_boot:-?} s, total $(since "$t0") s)"
fi
[ "$mode" = run ] || echo "vmtest: $pass passed, $fail failed, $skip skipped"

if [ -z "$rc" ]; then
	elapsed=$(since "$t0")
	if [ "${elapsed%.*}" -ge "$timeout" ]; then
		log "FAIL: no result from the guest within ${timeout} s"
	elif [ "$qemu_rc" = 0 ]; then
		log "FAIL: the guest stopped after $elapsed s without a result (kernel panic?)"
	else
		log "FAIL: qemu exited with status $qemu_rc after $elapsed s, no result from the guest"
	fi
	# From the first sign of a kernel crash if there is one, else the end.
	first=$(grep -n -m 1 -E 'Kernel panic|BUG:|Oops|general protection|Call Trace' "$console" | cut -d: -f1 || true)
	if [ -n "$first" ]; then
		log "${console#"$repo"/} from line $((first > 3 ? first - 3 : 1)):"
		tail -n +"$((first > 3 ? first - 3 : 1))" "$console" | head -n 40 | awk '{ print "  | " $0 }' >&2
	else
		log "last lines of ${console#"$repo"/}:"
		tail -n 30 "$console" | awk '{ print "  | " $0 }' >&2
	fi
	exit 2
fi
[ "$mode" != run ] || exit "$rc"
[ "$rc" = 0 ] || exit 1
exit 0
