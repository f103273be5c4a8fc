# shellcheck shell=bash
# Loads that keep a shaper's queue full, and tc's view of that queue
# (accuracy_net.bats, accuracy_stages.bats).

# udp_flood NS ADDR MBIT SECONDS [STAMPS]: 1000-byte UDP datagrams from
# namespace NS to ADDR:9 at MBIT Mbit/s for SECONDS (a load that does not
# slow down when the qdisc drops, unlike TCP: a shaper's queue then stays
# full). Each carries its send time and its number. With STAMPS, the
# kernel stamps each datagram as it enters the device's qdisc
# (SO_TIMESTAMPING's TX_SCHED, taken beside the net_dev_queue tracepoint)
# and "number ns" lines (CLOCK_REALTIME) go to that file.
udp_flood() {
	ip netns exec "$1" python3 -c '
import socket, struct, sys, time
addr, mbit, secs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
out = open(sys.argv[4], "w") if len(sys.argv) > 4 else None
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
TS = getattr(socket, "SO_TIMESTAMPING", 37)
if out:
    # TX_SCHED | SOFTWARE | OPT_ID (numbered from 0 per datagram) | OPT_TSONLY
    s.setsockopt(socket.SOL_SOCKET, TS, (1 << 8) | (1 << 4) | (1 << 7) | (1 << 11))
def drain():
    while out:
        try:
            _, anc, _, _ = s.recvmsg(64, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        ts = key = None
        for lvl, typ, val in anc:
            if lvl == socket.SOL_SOCKET and typ == TS:
                sec, nsec = struct.unpack_from("qq", val)
                ts = sec * 10**9 + nsec
            elif lvl == socket.SOL_IP and typ == 11:   # IP_RECVERR: sock_extended_err
                _, origin, _, _, _, info, key = struct.unpack_from("IBBBBII", val)
                if origin != 4 or info != 1:           # timestamping, SCM_TSTAMP_SCHED
                    key = None
        if ts is not None and key is not None:
            out.write("%d %d\n" % (key, ts))
per_ms = mbit * 1e6 / 8 / 1000 / 1000
t0 = time.monotonic(); sent = 0
while True:
    t = time.monotonic() - t0
    if t >= secs:
        break
    while sent < t * 1000 * per_ms:
        try:
            # the send time leads the datagram: udp_one_way reads it
            s.sendto(b"%d %d " % (time.time_ns(), sent) + b"x" * 970, (addr, 9))
        except OSError:
            pass
        sent += 1
    drain()
    time.sleep(0.0005)
time.sleep(0.2)
drain()
if out:
    out.close()
print("sent=%d" % sent)' "$2" "$3" "$4" ${5:+"$5"}
}

# tx_backlog NS DEV: the qdisc's backlog in bytes, every 50 ms, while a
# file $SCRATCH/flooding exists.
tx_backlog() {
	while [ -e "$SCRATCH/flooding" ]; do
		# the largest: a 6.1 kernel shows it on tbf's inner bfifo
		tc -n "$1" -s qdisc show dev "$2" | sed -n 's/.*backlog \([0-9]*\)b .*/\1/p' | sort -n | tail -1
		sleep 0.05
	done
}

# backlog_wait_us FILE RATE_MBIT: how long a packet waits behind the
# median of tx_backlog's samples in FILE at the shaper's rate, backlog x 8
# / rate (bytes x 8 / (Mbit/s) = us); says the samples on stderr and
# fails with fewer than 10 of them.
backlog_wait_us() {
	local n backlog
	n="$(wc -l <"$1")"
	# the middle of the flood: the queue fills in its first few ms
	backlog="$(sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
	echo "tc backlog samples: $n, median $backlog bytes" >&2
	[ "$n" -ge 10 ] || return 1
	awk -v b="$backlog" -v r="$2" 'BEGIN { printf "%.1f\n", b * 8 / r }'
}
