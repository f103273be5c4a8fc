#!/usr/bin/env python3
"""Many short-lived service ports, for serve.bats: N listeners on
loopback, one request and reply on each, then all closed. Each makes two
keys of dbtrace's net family (the port as server, and as the service port
its client reached), so N = 200 asks for 400 port slots, more than the
kernel side's 256.

usage: port_churn.py N     prints "ports=N first=P last=P"."""
import socket
import sys

n = int(sys.argv[1])
ports = []
for _ in range(n):
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(4)
    c = socket.create_connection(ls.getsockname())
    s, _ = ls.accept()
    c.sendall(b"ping")
    assert s.recv(4) == b"ping"
    s.sendall(b"pong")
    assert c.recv(4) == b"pong"
    ports.append(ls.getsockname()[1])
    for x in (c, s, ls):
        x.close()
print("ports=%d first=%d last=%d" % (len(ports), ports[0], ports[-1]), flush=True)
