#!/bin/bash
# make demo: a throwaway PostgreSQL under pgbench with one bad setting from
# the field, an oversized client pool for the CPUs the server may use: the
# server bound to one CPU (taskset, as a cpuset or a container's CPU quota
# would) and sixteen pgbench clients, each with its own backend process,
# all runnable at once. dbtrace top runs on it; everything the demo starts
# is stopped and removed on exit, however it ends.
#
#   scripts/demo.sh [dbtrace top options]   e.g. --batch -d 10, --view classes
#
# Needs root and PostgreSQL 15 (scripts/setup.sh --test).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
PGT="$REPO/scripts/pg_throwaway.sh"
CLIENTS=16
[ "$(id -u)" = 0 ] || { echo "demo: run as root (sudo make demo)" >&2; exit 1; }
[ -x "$REPO/build/dbtrace" ] || { echo "demo: build dbtrace first (make)" >&2; exit 1; }

PG_DIR= PGB=
cleanup() {
	if [ -n "$PGB" ]; then
		kill "$PGB" 2>/dev/null || true
		wait "$PGB" 2>/dev/null || true
	fi
	[ -n "$PG_DIR" ] && "$PGT" stop "$PG_DIR"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "demo: starting a throwaway PostgreSQL (initdb in /tmp, a private port)..." >&2
read -r PG_DIR PG_PORT PG_PID PG_USER < <("$PGT" start)
[ -n "$PG_PID" ] || exit 1
# the last CPU this shell may use: the server's only one
cpu="$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' | tail -1 | sed 's/.*-//')"
# the postmaster and the processes it already forked (checkpointer,
# walwriter, ...); backends inherit it as they are forked
for p in "$PG_PID" $(pgrep -P "$PG_PID"); do
	taskset -apc "$cpu" "$p" >/dev/null
done
echo "demo: postmaster $PG_PID on port $PG_PORT, bound to CPU $cpu; pgbench select-only," \
	"$CLIENTS clients (the bad setting: more busy connections than the server's CPUs)" >&2
# setpriv execs pgbench: $! is its pid (runuser needs PAM, and forks)
setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups -- /usr/lib/postgresql/15/bin/pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres \
	-n -S -c "$CLIENTS" -j 2 -T 3600 postgres >/dev/null 2>&1 &
PGB=$!
sleep 1   # the clients connect
"$REPO/build/dbtrace" top --port "$PG_PORT" "$@"
