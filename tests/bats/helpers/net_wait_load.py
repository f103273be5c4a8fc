#!/usr/bin/env python3
"""Load for net_wait_dominant (tests/bats/time.bats), each side timing itself.

  net_wait_load.py server ADDR PORT SECONDS
      threads: nw_srv answers each 64-byte request at once on the one
      connection it accepts; nw_idle blocks in accept() on PORT+1, where
      nothing connects (a thread waiting on the network that never wakes).
      Prints "listening" once bound, then at the end
      "server requests=N net_pct=X service_p99_us=X": nw_srv's share of
      its wall time (its whole life) blocked in accept() and recv(): the
      time inside each call less what its CPU clock and its run-queue
      clock (/proc/thread-self/schedstat) grew by meanwhile, as
      tests/tools/time_classes.c counts; and the 99th percentile of
      recv's return to send's return.
  net_wait_load.py client ADDR PORT SECONDS
      thread nw_cli sends a request, waits for the reply, again, for
      SECONDS; prints "client requests=N p50_us=X p99_us=X max_us=X":
      send's start to recv's return, per request.

Thread names are set with prctl(PR_SET_NAME) so dbtrace's classes are
the threads' roles.
"""
import ctypes
import socket
import sys
import threading
import time

LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_NAME = 15


def name(n):
    LIBC.prctl(PR_SET_NAME, n.encode(), 0, 0, 0)


def pct(v, p):
    """Nearest rank."""
    v = sorted(v)
    return v[max(0, (p * len(v) + 99) // 100 - 1)] if v else -1


def p99(v):
    return pct(v, 99)


def run_delay():
    with open("/proc/thread-self/schedstat") as f:
        return int(f.read().split()[1]) / 1e9


class Blocked:
    """Time blocked in the calls timed with it."""

    def __init__(self):
        self.s = 0.0

    def begin(self):
        self.t, self.cpu, self.rq = time.monotonic(), time.thread_time(), run_delay()

    def end(self):
        b = (time.monotonic() - self.t) - (time.thread_time() - self.cpu) - (run_delay() - self.rq)
        self.s += max(b, 0.0)


def recv_exact(c, n, blk=None):
    buf = b""
    while len(buf) < n:
        if blk:
            blk.begin()
        d = c.recv(n - len(buf))
        if blk:
            blk.end()
        if not d:
            return None
        buf += d
    return buf


def server(addr, port, secs):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(1)
    idle = socket.socket()
    idle.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    idle.bind((addr, port + 1))
    idle.listen(1)
    out = {}

    def srv():
        name("nw_srv")
        t0, blk, service = time.monotonic(), Blocked(), []
        blk.begin()
        c, _ = ls.accept()
        blk.end()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            req = recv_exact(c, 64, blk)
            b = time.monotonic()
            if req is None:
                break
            c.sendall(req)
            service.append((time.monotonic() - b) * 1e6)
        wall = time.monotonic() - t0
        out["line"] = "server requests=%d net_pct=%.2f service_p99_us=%.1f" % (
            len(service), 100 * blk.s / wall, p99(service))

    def idle_accept():
        name("nw_idle")
        try:
            idle.accept()
        except OSError:
            pass

    t = threading.Thread(target=srv)
    i = threading.Thread(target=idle_accept, daemon=True)
    t.start()
    i.start()
    print("listening", flush=True)
    t.join(secs + 30)
    print(out.get("line", "server requests=0"), flush=True)


def client(addr, port, secs):
    out = {}

    def cli():
        name("nw_cli")
        c = socket.create_connection((addr, port))
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        lat, end, req = [], time.monotonic() + secs, b"q" * 64
        while time.monotonic() < end:
            a = time.monotonic()
            c.sendall(req)
            if recv_exact(c, 64) is None:
                break
            lat.append((time.monotonic() - a) * 1e6)
        c.close()
        out["line"] = "client requests=%d p50_us=%.1f p99_us=%.1f max_us=%.1f" % (
            len(lat), pct(lat, 50), p99(lat), max(lat, default=-1))

    t = threading.Thread(target=cli)
    t.start()
    t.join()
    print(out["line"], flush=True)


if __name__ == "__main__":
    role, addr, port, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    (server if role == "server" else client)(addr, port, secs)
