#!/usr/bin/env bash
# Installs every build and test dependency from Debian's packages.
# Idempotent and quick when everything is already there, so `make run` and
# `make test` can call it every time. `--test` (make test) adds the big
# tools only the integration tests use; `--bench` (make bench) adds the
# benchmark's anchors and database servers that nothing else needs;
# `--deb` (make deb, and make test for package.bats) Debian's packaging
# tools.
set -euo pipefail

PACKAGES=(
	# build: BPF side
	clang llvm bpftool libbpf-dev
	# build: user side
	gcc make pkg-config libelf-dev zlib1g-dev libncurses-dev libjson-c-dev libmnl-dev
	libmicrohttpd-dev
	# tests
	libcmocka-dev bats jq python3 python3-jsonschema iproute2 procps
	# make fuzz and fuzz-smoke (part of make test): libFuzzer and the
	# sanitizers' runtimes for clang
	libclang-rt-dev
	# benchmark anchors, and the accuracy tests' references (softirqs, runqlat)
	libbpf-tools
)

for arg in "$@"; do
	case "$arg" in
	# serve.bats: promtool and a real Prometheus server (22.5 MB download,
	# 332 MB installed with its web UI's JavaScript); report.bats: headless
	# Chromium (124 MB download, 412 MB installed).
	--test) PACKAGES+=(prometheus chromium)
		# postgres.bats and make demo: PostgreSQL 15 with pgbench (Debian 12
		# ships pgbench in postgresql-15, not in postgresql-contrib). The
		# package creates and starts a system cluster; the tests never
		# touch it (scripts/pg_throwaway.sh runs its own).
		PACKAGES+=(postgresql) ;;
	# bench/run.sh's anchors besides libbpf-tools: bpftrace (a runqlat-like
	# script) and perf (`perf record -a`); its database loads: sysbench
	# against MariaDB (scripts/mariadb_throwaway.sh), pgbench against
	# PostgreSQL 15 (scripts/pg_throwaway.sh). Both server packages set up
	# a system instance; the bench never touches it, it runs throwaway
	# servers of its own.
	--bench) PACKAGES+=(bpftrace linux-perf mariadb-server sysbench postgresql) ;;
	# make deb: dpkg-buildpackage and debhelper (debian/); package.bats:
	# lintian, debootstrap for a clean root to install into, systemd-nspawn
	# to boot it with systemd and start the exporter's unit there (the
	# tests' machine need not run systemd), bash-completion to try the
	# completion with
	--deb) PACKAGES+=(dpkg-dev debhelper fakeroot lintian debootstrap systemd-container
		bash-completion) ;;
	*) echo "usage: setup.sh [--test] [--bench] [--deb]" >&2; exit 2 ;;
	esac
done

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then SUDO=sudo; else
		echo "setup: need root to install: ${missing[*]}" >&2; exit 1
	fi
else
	SUDO=
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
