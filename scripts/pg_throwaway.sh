#!/bin/bash
# A throwaway PostgreSQL cluster for the tests and `make demo`, never the
# system's: initdb as the postgres user in a mktemp -d directory, the
# server on a private port of 127.0.0.1 with its socket in that directory,
# pgbench's tables initialised.
#
#   pg_throwaway.sh start        prints DIR PORT PID USER (the postmaster's
#                                pid, the OS user it runs as)
#   pg_throwaway.sh stop DIR     stops that server and removes DIR
#
# Runs as root (setpriv). Only the server started in DIR is stopped
# (pg_ctl -D DIR/data), so a system cluster is never touched. The server
# runs as the postgres user, or nobody where there is none (the test VM's
# guest); its superuser is "postgres" either way. Locale C: a guest has
# no locales.
set -euo pipefail

BIN=/usr/lib/postgresql/15/bin
PGUSER_OS=postgres
id -u postgres >/dev/null 2>&1 || PGUSER_OS=nobody

# as that user: setpriv, not runuser or su, which need PAM (the guest has none)
as_user() {
	local u="$1"
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups -- "$@"
}

free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 50); do
		if ! ss -Htln "sport = :$p" | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	echo "pg_throwaway: no free port" >&2
	return 1
}

start() {
	local dir port pid
	[ "$(id -u)" = 0 ] || { echo "pg_throwaway: run as root" >&2; return 1; }
	[ -x "$BIN/initdb" ] && [ -x "$BIN/pgbench" ] ||
		{ echo "pg_throwaway: PostgreSQL 15 not installed ($BIN): scripts/setup.sh --test" >&2; return 1; }
	dir="$(mktemp -d /tmp/dbtrace-pg.XXXXXX)"
	chmod 755 "$dir"
	chown "$PGUSER_OS:" "$dir"
	if ! as_user "$PGUSER_OS" "$BIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync \
		--locale=C -E UTF8 \
		>"$dir/initdb.log" 2>&1; then
		cat "$dir/initdb.log" >&2
		rm -rf "$dir"
		return 1
	fi
	port="$(free_port)"
	# fsync off: a throwaway cluster, and the disk is not what is measured
	if ! as_user "$PGUSER_OS" "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
		start >/dev/null 2>&1; then
		cat "$dir/server.log" >&2
		rm -rf "$dir"
		return 1
	fi
	pid="$(head -1 "$dir/data/postmaster.pid")"
	if ! as_user "$PGUSER_OS" "$BIN/pgbench" -i -q -s 1 -h "$dir" -p "$port" -U postgres postgres \
		>"$dir/init.log" 2>&1; then
		cat "$dir/init.log" >&2
		stop "$dir"
		return 1
	fi
	echo "$dir $port $pid $PGUSER_OS"
}

stop() {
	local dir="$1"
	case "$dir" in /tmp/dbtrace-pg.*) ;; *) echo "pg_throwaway: not a throwaway dir: $dir" >&2; return 1 ;; esac
	[ -d "$dir/data" ] && as_user "$(stat -c %U "$dir/data")" "$BIN/pg_ctl" -D "$dir/data" -m immediate -w stop \
		>/dev/null 2>&1 || true
	rm -rf "$dir"
}

case "${1:-}" in
start) start ;;
stop) stop "${2:?usage: pg_throwaway.sh stop DIR}" ;;
*) echo "usage: pg_throwaway.sh start | stop DIR" >&2; exit 2 ;;
esac
