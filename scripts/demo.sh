#!/bin/bash
# make demo: a throwaway PostgreSQL under pgbench with one bad setting from
# the field, an oversized client pool (four clients per CPU, each with its
# own backend process, all runnable at once), and `dbtrace top` on it.
# Everything it starts is stopped and removed on exit, however it ends.
#
#   scripts/demo.sh [dbtrace top options]   e.g. --batch -d 10, --view classes
#
# Needs root and PostgreSQL 15 (scripts/setup.sh --test).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
PGT="$REPO/scripts/pg_throwaway.sh"
[ "$(id -u)" = 0 ] || { echo "demo: run as root (sudo make demo)" >&2; exit 1; }
[ -x "$REPO/build/dbtrace" ] || { echo "demo: build dbtrace first (make)" >&2; exit 1; }

PG_DIR= PGB=
cleanup() {
	[ -n "$PGB" ] && kill "$PGB" 2>/dev/null && wait "$PGB" 2>/dev/null
	[ -n "$PG_DIR" ] && "$PGT" stop "$PG_DIR"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "demo: starting a throwaway PostgreSQL (initdb in /tmp, a private port)..." >&2
read -r PG_DIR PG_PORT PG_PID PG_USER < <("$PGT" start)
[ -n "$PG_PID" ] || exit 1
ncpus="$(nproc)"
clients=$((4 * ncpus))
[ "$clients" -gt 180 ] && clients=180
echo "demo: postmaster $PG_PID on port $PG_PORT; pgbench select-only with $clients clients" \
	"on $ncpus CPUs (the bad setting: an oversized client pool)" >&2
runuser -u "$PG_USER" -- /usr/lib/postgresql/15/bin/pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -S -c "$clients" -j "$ncpus" -T 3600 \
	postgres >/dev/null 2>&1 &
PGB=$!
sleep 1   # the clients connect
"$REPO/build/dbtrace" top --port "$PG_PORT" "$@"
