#!/bin/bash
# A throwaway MariaDB server for `make bench`, never the system's: a data
# directory made by mariadb-install-db in a mktemp -d directory, mariadbd
# running as the mysql user on a private port of 127.0.0.1 with its socket
# in that directory, a sysbench database with sysbench's tables prepared.
# Modelled on pg_throwaway.sh.
#
#   mariadb_throwaway.sh start       prints DIR PORT PID (mariadbd's pid)
#   mariadb_throwaway.sh stop DIR    stops that server and removes DIR
#
#   SYSBENCH_TABLES=4 SYSBENCH_TABLE_SIZE=10000   what `sysbench prepare`
#                                    makes (a run must pass the same)
#
# Runs as root (setpriv). --no-defaults everywhere: nothing of
# /etc/mysql (the system server's socket, /var/lib/mysql) is read, and
# only the server started in DIR is stopped, by the pid this script wrote
# there. sysbench connects as sbtest/sbtest over TCP; root can log in on
# DIR/mysqld.sock (unix_socket authentication).
set -euo pipefail

MARIADBD=/usr/sbin/mariadbd
TABLES="${SYSBENCH_TABLES:-4}"
TABLE_SIZE="${SYSBENCH_TABLE_SIZE:-10000}"
MYUSER=mysql

as_user() {
	local u="$1"
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups -- "$@"
}

# Below the ephemeral range (32768 on Linux by default): a port that a
# client's connection holds as its local end does not show as listening
# but still makes the bind fail.
free_port() {
	local p low
	read -r low _ </proc/sys/net/ipv4/ip_local_port_range
	[ "$low" -gt 20100 ] || low=60100
	for p in $(shuf -i 20000-$((low - 1)) -n 50); do
		if ! ss -Htan "sport = :$p" | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	echo "mariadb_throwaway: no free port" >&2
	return 1
}

# running and not a zombie
alive() {
	local state
	state="$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# The pid this script started in DIR, if it is still that mariadbd (its
# command line names DIR): a recycled pid is never signalled.
server_pid() {   # DIR
	local pid
	pid="$(cat "$1/pid" 2>/dev/null)" || return 1
	[[ "$pid" =~ ^[0-9]+$ ]] && alive "$pid" || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "--datadir=$1/data" || return 1
	echo "$pid"
}

stop() {
	local dir="$1" pid sig
	case "$dir" in /tmp/dbtrace-mariadb.*) ;; *) echo "mariadb_throwaway: not a throwaway dir: $dir" >&2; return 1 ;; esac
	# TERM (innodb_fast_shutdown=2: no flushing, a throwaway), KILL
	# after 10 s
	if pid="$(server_pid "$dir")"; then
		for sig in TERM KILL; do
			kill -"$sig" "$pid" 2>/dev/null || break
			for _ in $(seq 100); do alive "$pid" || break 2; sleep 0.1; done
		done
	fi
	rm -rf "$dir"
}

# dies half-way (a failed step, INT, TERM): what was started goes
DIR=
abort() {
	[ -z "$DIR" ] || stop "$DIR"
	DIR=
}

# a client (mariadb, mariadb-admin) as root on DIR's socket; --no-defaults
# has to come first
sql() {   # CLIENT ARGS...
	local client="$1"
	shift
	"$client" --no-defaults -S "$DIR/mysqld.sock" -u root "$@"
}

# the server's log, then its first error as the last line (what a caller
# shows as the reason)
server_failed() {
	cat "$DIR/server.log" >&2
	echo "mariadb_throwaway: mariadbd exited: $(grep -m 1 -F '[ERROR]' "$DIR/server.log" | cut -d ' ' -f 4- || echo "see its log")" >&2
}

start() {
	local port pid
	[ "$(id -u)" = 0 ] || { echo "mariadb_throwaway: run as root" >&2; return 1; }
	for b in "$MARIADBD" mariadb-install-db mariadb mariadb-admin sysbench; do
		command -v "$b" >/dev/null ||
			{ echo "mariadb_throwaway: $(basename "$b") not installed: scripts/setup.sh --bench installs it" >&2; return 1; }
	done
	id -u "$MYUSER" >/dev/null 2>&1 || { echo "mariadb_throwaway: no $MYUSER user (mariadb-server creates it)" >&2; return 1; }
	trap abort EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	DIR="$(mktemp -d /tmp/dbtrace-mariadb.XXXXXX)"
	chmod 755 "$DIR"
	chown "$MYUSER:" "$DIR"
	if ! as_user "$MYUSER" mariadb-install-db --no-defaults --datadir="$DIR/data" \
		--auth-root-authentication-method=socket --skip-test-db >"$DIR/install.log" 2>&1; then
		cat "$DIR/install.log" >&2
		return 1
	fi
	port="$(free_port)"
	# its own session: a Ctrl-C at the terminal does not reach it; whoever
	# started it stops it (stop DIR). setsid and setpriv exec: $! is
	# mariadbd's pid. Durability off: a throwaway, and the disk is not
	# what is measured.
	setsid setpriv --reuid="$MYUSER" --regid="$(id -g "$MYUSER")" --clear-groups -- \
		"$MARIADBD" --no-defaults --datadir="$DIR/data" --socket="$DIR/mysqld.sock" \
		--pid-file="$DIR/mariadbd.pid" --log-error="$DIR/server.log" \
		--bind-address=127.0.0.1 --port="$port" --skip-name-resolve \
		--max-connections=200 --innodb-buffer-pool-size=128M --innodb-flush-log-at-trx-commit=0 \
		--innodb-doublewrite=0 --innodb-fast-shutdown=2 --skip-log-bin \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	echo "$pid" >"$DIR/pid"
	for _ in $(seq 600); do
		alive "$pid" || { server_failed; return 1; }
		sql mariadb-admin ping >/dev/null 2>&1 && break
		sleep 0.1
	done
	sql mariadb-admin ping >/dev/null 2>&1 || { echo "mariadb_throwaway: server not up after 60 s" >&2; return 1; }
	sql mariadb -e "CREATE DATABASE sbtest; CREATE USER sbtest@'127.0.0.1' IDENTIFIED BY 'sbtest';
		GRANT ALL ON sbtest.* TO sbtest@'127.0.0.1';"
	if ! sysbench oltp_read_only --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$port" \
		--mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest \
		--tables="$TABLES" --table-size="$TABLE_SIZE" prepare >"$DIR/prepare.log" 2>&1; then
		cat "$DIR/prepare.log" >&2
		return 1
	fi
	echo "$DIR $port $pid"
	DIR=
}

case "${1:-}" in
start) start ;;
stop) stop "${2:?usage: mariadb_throwaway.sh stop DIR}" ;;
*) echo "usage: mariadb_throwaway.sh start | stop DIR" >&2; exit 2 ;;
esac
