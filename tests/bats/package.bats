#!/usr/bin/env bats
# The Debian package (make deb): what it holds, lintian, and a clean
# Debian 12 root to install it into: a debootstrap'd tree
# (build/pkgtest/base, made once, about 250 MB), seen anew by each test
# through an overlay. There `dbtrace probes` runs, `systemd-analyze
# verify` checks the unit, systemd itself boots (systemd-nspawn: the
# tests' machine need not run systemd) and starts dbtrace-exporter, which
# answers a scrape on the host's loopback; `dpkg -r` and `-P` leave
# nothing behind. scripts/setup.sh --deb installs the tools.

load helpers/common
bats_require_minimum_version 1.5.0

BASE="$REPO/build/pkgtest/base"
VERSION="$(cat "$REPO/VERSION")"
ARCH="$(dpkg --print-architecture)"
DEB="$REPO/build/deb/dbtrace_${VERSION}_${ARCH}.deb"

need_tools() {
	local t
	for t in dpkg-buildpackage dh lintian debootstrap systemd-nspawn systemd-analyze; do
		command -v "$t" >/dev/null || {
			echo "$t not found: scripts/setup.sh --deb installs it (make test does)" >&2
			return 1
		}
	done
}

setup_file() {
	need_tools
	# the package of the tree as it is, by Debian's own tools
	(cd "$REPO" && make deb >"$BATS_FILE_TMPDIR/make-deb.log" 2>&1) || {
		tail -30 "$BATS_FILE_TMPDIR/make-deb.log" >&2
		return 1
	}
	# a minimal Debian 12 with systemd, man-db (for the unit's
	# Documentation= check) and the libraries the package depends on,
	# so that dpkg -i needs no network
	if [ ! -e "$BASE/.dbtrace-base" ]; then
		rm -rf "$BASE"
		debootstrap --variant=minbase \
			--include=systemd,systemd-sysv,dbus,man-db,$(dpkg-deb -f "$DEB" Depends |
				sed 's/ *([^)]*)//g; s/, */,/g') \
			bookworm "$BASE" http://deb.debian.org/debian >"$BATS_FILE_TMPDIR/debootstrap.log" 2>&1 || {
			tail -20 "$BATS_FILE_TMPDIR/debootstrap.log" >&2
			return 1
		}
		touch "$BASE/.dbtrace-base"
	fi
}

setup() {
	make_scratch
	ROOT="$SCRATCH/root"
	mkdir -p "$ROOT" "$SCRATCH/upper" "$SCRATCH/work"
	mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$SCRATCH/upper,workdir=$SCRATCH/work" "$ROOT"
	cp "$DEB" "$ROOT/tmp/"
	NSPAWN_PID=
}

teardown() {
	if [ -n "$NSPAWN_PID" ]; then
		kill "$NSPAWN_PID" 2>/dev/null
		wait "$NSPAWN_PID" 2>/dev/null
	fi
	umount -R "$ROOT/sys" "$ROOT/proc" 2>/dev/null
	umount "$ROOT" 2>/dev/null
	remove_scratch
}

# in_root CMD...: CMD in the clean root, with /proc and /sys
in_root() {
	mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
	mountpoint -q "$ROOT/sys" || mount --rbind /sys "$ROOT/sys"
	chroot "$ROOT" "$@"
}

install_deb() {
	in_root dpkg -i "/tmp/$(basename "$DEB")"
}

@test "make deb: dbtrace_VERSION_ARCH.deb holds the binary, man page, completion, unit and defaults; lintian finds no error" {
	run -0 dpkg-deb -c "$DEB"
	local f
	for f in ./usr/sbin/dbtrace ./usr/share/man/man8/dbtrace.8.gz \
		./usr/share/bash-completion/completions/dbtrace \
		./lib/systemd/system/dbtrace-exporter.service ./etc/default/dbtrace; do
		printf '%s\n' "${lines[@]}" | awk '{ print $6 }' | grep -qx -- "$f" || { echo "missing $f"; false; }
	done
	[ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION" ]
	dpkg-deb -f "$DEB" Depends | grep -q libbpf1
	# /etc/default/dbtrace is a conffile: an administrator's address survives upgrades
	dpkg-deb -e "$DEB" "$SCRATCH/control"
	grep -qx /etc/default/dbtrace "$SCRATCH/control/conffiles"
	# --pedantic: every tag shown; only errors fail
	run lintian --pedantic --display-info "$DEB" "${DEB%.deb}.buildinfo"
	echo "$output"
	! printf '%s\n' "${lines[@]}" | grep -E '^E: '
}

@test "the package installs into a clean Debian 12 root, dbtrace probes runs from it, systemd-analyze verify passes there" {
	run -0 install_deb
	echo "$output"
	# flock: probes loads every family's programs
	run -0 in_root dbtrace probes
	echo "$output"
	[[ "${lines[0]}" == "FAMILY "* ]]
	printf '%s\n' "${lines[@]}" | grep -qE "^sched +$(expected_path sched) "
	run -0 in_root dbtrace version
	[[ "$output" == *"$VERSION"* ]]
	# the man page answers man (the unit's Documentation=) and verify is silent
	in_root man -w dbtrace
	run -0 in_root systemd-analyze verify dbtrace-exporter.service
	echo "verify: ${output:-(nothing to say)}"
	[ -z "$output" ]
	# the listen address comes from /etc/default/dbtrace
	grep -qx 'DBTRACE_LISTEN=127.0.0.1:9464' "$ROOT/etc/default/dbtrace"
}

@test "dbtrace-exporter starts under systemd in the clean root, hardened as its unit says, and answers a scrape" {
	local port pid i
	port="$(free_port)"
	run -0 install_deb
	sed -i "s/^DBTRACE_LISTEN=.*/DBTRACE_LISTEN=127.0.0.1:$port/" "$ROOT/etc/default/dbtrace"
	# not enabled on install: the administrator says when
	! [ -e "$ROOT/etc/systemd/system/multi-user.target.wants/dbtrace-exporter.service" ]
	in_root systemctl enable dbtrace-exporter.service 2>&1 | grep -v 'Failed to open system bus'
	umount -R "$ROOT/sys" "$ROOT/proc"
	# systemd as the root's PID 1, on the host's network; the container
	# may hold every capability (the unit bounds its own) and call bpf.
	# The host need not run systemd: no scope asked of it (--keep-unit),
	# and nspawn's /run/systemd/nspawn a tmpfs, as under systemd, in a
	# mount namespace of its own (nspawn will not clean a disk directory)
	mkdir -p /run/systemd/nspawn
	unshare -m sh -c 'mount -t tmpfs tmpfs /run/systemd/nspawn && exec "$@"' sh \
		systemd-nspawn -D "$ROOT" --boot --register=no --keep-unit --capability=all \
		--system-call-filter='bpf perf_event_open' --console=pipe >"$SCRATCH/boot.log" 2>&1 &
	NSPAWN_PID=$!
	for ((i = 0; i < 600; i++)); do
		python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())' \
			"http://127.0.0.1:$port/metrics" >"$SCRATCH/metrics" 2>/dev/null && break
		kill -0 "$NSPAWN_PID" 2>/dev/null || break
		sleep 0.1
	done
	grep -E 'dbtrace-exporter|dbtrace' "$SCRATCH/boot.log" || true
	grep -q "^dbtrace_build_info{version=\"$VERSION\"" "$SCRATCH/metrics" || {
		tail -40 "$SCRATCH/boot.log"
		false
	}
	grep -c '^dbtrace_probe_info' "$SCRATCH/metrics"
	[ "$(grep -c '^dbtrace_probe_info{family="[a-z]*",attach="[a-z_+]*"} 1' "$SCRATCH/metrics")" -eq 5 ]
	# the service's process: started by the container's systemd, with the
	# unit's capabilities and no way to gain more
	pid="$(pgrep -f "^/usr/sbin/dbtrace serve --listen 127.0.0.1:$port")"
	[ -n "$pid" ]
	grep -E '^(CapBnd|CapEff|NoNewPrivs)' "/proc/$pid/status"
	# CAP_DAC_READ_SEARCH 2, CAP_SYS_PTRACE 19, CAP_SYS_ADMIN 21,
	# CAP_SYS_RESOURCE 24, CAP_SYSLOG 34, CAP_PERFMON 38, CAP_BPF 39: the
	# unit's set, less what the container itself was not given
	local init unit=$((0xc401280004)) box got
	init="$(pgrep -P "$NSPAWN_PID" | head -1)"
	box=$((0x$(awk '/^CapBnd:/ { print $2 }' "/proc/$init/status")))
	got=$((0x$(awk '/^CapBnd:/ { print $2 }' "/proc/$pid/status")))
	printf 'unit %x, container %x, service %x; the container lacks %x of the unit'"'"'s\n' \
		"$unit" "$box" "$got" $((unit & ~box))
	[ "$got" -eq $((unit & box)) ]
	[ "$(awk '/^NoNewPrivs:/ { print $2 }' "/proc/$pid/status")" = 1 ]
	# ProtectSystem=strict: in its mount namespace the file system is
	# read-only, where the container's own /etc is not
	run nsenter -t "$pid" -m touch /etc/dbtrace-write-test
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Read-only file system"* ]]
	nsenter -t "$init" -m touch /etc/dbtrace-write-test
	# and systemd in the container says the same: the unit is active, the
	# system has no failed unit
	run -0 nsenter -t "$init" -a systemctl is-active dbtrace-exporter.service
	[ "$output" = active ]
	nsenter -t "$init" -a systemctl show -p MainPID,NRestarts dbtrace-exporter.service
	[ "$(nsenter -t "$init" -a systemctl show -p NRestarts --value dbtrace-exporter.service)" = 0 ]
	run nsenter -t "$init" -a systemctl list-units --failed --plain --no-legend
	echo "failed units: ${output:-none}"
	[ -z "$output" ]
}

@test "dpkg -r removes every file it installed but the conffile; dpkg -P that too" {
	local f left=0
	run -0 install_deb
	in_root systemctl enable dbtrace-exporter.service
	in_root dpkg -L dbtrace >"$SCRATCH/files"
	run -0 in_root dpkg -r dbtrace
	echo "$output"
	while read -r f; do
		[ -e "$ROOT$f" ] && [ ! -d "$ROOT$f" ] && [ "$f" != /etc/default/dbtrace ] && { echo "left: $f"; left=1; }
	done <"$SCRATCH/files"
	[ "$left" -eq 0 ]
	[ -e "$ROOT/etc/default/dbtrace" ]
	run -0 in_root dpkg -P dbtrace
	! [ -e "$ROOT/etc/default/dbtrace" ]
	! [ -e "$ROOT/etc/systemd/system/multi-user.target.wants/dbtrace-exporter.service" ]
	# no directory of its own left either
	! [ -e "$ROOT/usr/share/doc/dbtrace" ]
	! [ -e "$ROOT/var/lib/dpkg/info/dbtrace.list" ]
}

# complete WORDS...: what TAB offers after WORDS (the last one being
# completed), one per line, as bash-completion and completion/dbtrace.bash
# in an interactive bash would offer it (compopt's complaint that no
# completion is under way is left out)
complete_words() {
	PATH="$SCRATCH/bin:$PATH" bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_dbtrace; printf "%s\n" "${COMPREPLY[@]}"' _ "$REPO/completion/dbtrace.bash" "$@" 2>/dev/null
}

@test "bash completion offers every subcommand and option of --help, the values of --view and --families, and record's program" {
	mkdir -p "$SCRATCH/bin"
	ln -s "$DBTRACE" "$SCRATCH/bin/dbtrace"
	local want got
	want="$("$DBTRACE" --help | awk '/^Commands:/ { on = 1; next } /^Options:/ { on = 0 } on && /^  [a-z]/ { print $1 }' | sort)"
	got="$(complete_words dbtrace '' | sort)"
	echo "commands: $got"
	[ "$got" = "$want" ]
	echo "$got" | grep -qx record
	# every long option the parser knows
	got="$(complete_words dbtrace capture -- | sort)"
	for want in --interval= --duration= --output= --report= --families= --attach= --listen= --batch --verbose --help; do
		echo "$got" | grep -qx -- "$want" || { echo "no $want in: $got"; false; }
	done
	[ "$(echo "$got" | wc -l)" -eq "$("$DBTRACE" --help | grep -cE '^ +(-[a-z], )?--[a-z]')" ]
	[ "$(complete_words dbtrace top --view '' | sort | paste -sd' ')" = "classes cpus net time" ]
	[ "$(complete_words dbtrace top --families sched,c)" = "sched,clock" ]
	[ "$(complete_words dbtrace serve --group-by c)" = cgroup ]
	# after record's --, the program and then its own arguments
	complete_words dbtrace record -d 5 -- slee | grep -qx sleep
	[ "$(complete_words dbtrace record -- '')" != "" ]
	complete_words dbtrace record '' | grep -qx -- --
	# report takes a capture
	mkdir "$SCRATCH/caps"
	touch "$SCRATCH/caps/run.json" "$SCRATCH/caps/notes.txt"
	cd "$SCRATCH/caps"
	[ "$(complete_words dbtrace report '')" = "run.json" ]
}
