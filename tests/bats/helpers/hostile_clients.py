#!/usr/bin/env python3
"""Hostile HTTP clients for serve.bats: idle connections that never send,
slow-loris clients that trickle a request header a byte at a time, and a
churner that opens and drops connections (half of them with half a
request) as fast as it can.

usage: hostile_clients.py PORT [--idle N] [--loris N] [--churn] [--seconds S]

Prints "ready" once every connection is open, then after S seconds one
line: idle_open=N loris_open=N loris_max_life=SECONDS churned=N."""
import argparse
import socket
import threading
import time

ap = argparse.ArgumentParser()
ap.add_argument("port", type=int)
ap.add_argument("--idle", type=int, default=0)
ap.add_argument("--loris", type=int, default=0)
ap.add_argument("--churn", action="store_true")
ap.add_argument("--seconds", type=float, default=5)
a = ap.parse_args()
addr = ("127.0.0.1", a.port)


def is_open(s):
    """The server has not closed (or reset) this connection."""
    s.setblocking(False)
    try:
        return s.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


idle = [socket.create_connection(addr) for _ in range(a.idle)]
loris = [[socket.create_connection(addr), time.monotonic(), None] for _ in range(a.loris)]
churned = 0
stop = threading.Event()


def churn():
    global churned
    while not stop.is_set():
        try:
            s = socket.create_connection(addr, timeout=1)
            if churned % 2:
                s.send(b"GET /metr")
            s.close()
            churned += 1
        except OSError:
            pass


if a.churn:
    threading.Thread(target=churn, daemon=True).start()
print("ready", flush=True)
header = b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + b"X-a: b\r\n" * 10000
end = time.monotonic() + a.seconds
i = 0
while time.monotonic() < end:
    for c in loris:
        if c[2] is not None:
            continue
        try:
            c[0].send(header[i:i + 1])
        except OSError:
            c[2] = time.monotonic() - c[1]
            continue
        if not is_open(c[0]):
            c[2] = time.monotonic() - c[1]
        c[0].setblocking(True)
    i += 1
    time.sleep(0.2)
stop.set()
lives = [c[2] if c[2] is not None else a.seconds for c in loris]
print("idle_open=%d loris_open=%d loris_max_life=%.1f churned=%d" % (
    sum(is_open(s) for s in idle), sum(c[2] is None for c in loris),
    max(lives) if lives else 0, churned), flush=True)
