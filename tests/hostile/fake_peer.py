#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tests/hostile/fake_peer.py — a hostile eel-bench peer over the out-of-band
# channel (userlib/core/oob.c), standard library only, for tests/hostile/peer_*.sh.
#
#   fake_peer.py server PORT CASE   a fake softnic server: completes the hello
#       (echoing the client's, so the protocol version always matches) and the
#       connection exchange (echoing the client's boot id), then names a
#       hostile wire object: small (a 4 KiB object), owner (the wire's size,
#       owned by nobody), symlink (to /etc/passwd), fifo, dir, outside
#       ("../../etc/passwd"), badhdr (the wire's size, ring offsets past it).
#   fake_peer.py client PORT CASE   a fake client of a real softnic server:
#       timeout (a plan with timeout 0xffffffff, then silence), hugemem
#       (sizes 1<<24, flood_bytes 1<<31), keys (prints the server's rkeys and
#       any pointer-like word in its hello and connection reply), noattach
#       (prints the wire's name and never attaches: the server's window).
import os, socket, struct, sys, time

MAGIC = 0x4f4c4545
HELLO, CONN, ATTACHED, WIRE = 1, 2, 3, 4        # oob.c, eel.c, backend_softnic.c
PLAN, WINDOWS = 0x100, 0x101                     # bench/bench.h (EEL_OOB_USER + n)
MAX_FRAME = 40 + 4096 + 4                        # engine_max_frame at mtu 4096
SLOT = (16 + MAX_FRAME + 63) & ~63
WIRE_SIZE = 4096 + 2 * (64 + 256 * SLOT)         # shm_wire_size
CONN_OLD = 124                                   # sn_conn before OOB_PROTO 3 (the name inside)


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError("peer closed")
        b += c
    return b


def recv_msg(s):
    magic, typ, _, ln = struct.unpack("<IHHI", recv_exact(s, 12))
    if magic != MAGIC:
        raise ValueError("not eel's framing")
    return typ, recv_exact(s, ln)


def send_msg(s, typ, body=b""):
    s.sendall(struct.pack("<IHHI", MAGIC, typ, 0, len(body)) + body)


def wait_close(s, limit):
    """Seconds until the peer closes (or limit)."""
    t0 = time.monotonic()
    s.settimeout(limit)
    try:
        while s.recv(4096):
            pass
    except (socket.timeout, ConnectionError):
        pass
    return time.monotonic() - t0


def plant(case, nonce):
    # the name the client asked for: its nonce (the last 8 bytes of its
    # connection information), so the client's own checks of the object run
    name = "/eel-wire-%016x" % nonce
    path = "/dev/shm" + name
    if case == "small":
        with open(path, "wb") as f:
            f.write(b"\0" * 4096)
    elif case in ("owner", "badhdr"):
        with open(path, "wb") as f:
            hdr = struct.pack("<IIIIIiiIQQ", 0x45524957, 2, 256, SLOT, MAX_FRAME, 1, 0, 0, 1 << 40, 1 << 41)
            f.write(hdr + b"\0" * (WIRE_SIZE - len(hdr)))
        if case == "owner":
            os.chown(path, 65534, 65534)
    elif case == "symlink":
        os.symlink("/etc/passwd", path)
    elif case == "fifo":
        os.mkfifo(path, 0o600)
    elif case == "dir":
        os.mkdir(path)
    elif case == "outside":
        return "../../etc/passwd", None
    else:
        sys.exit("unknown case " + case)
    return name, path


def unplant(path):
    if path and os.path.lexists(path):
        (os.rmdir if os.path.isdir(path) and not os.path.islink(path) else os.unlink)(path)


def fake_server(port, case):
    name, path = None, None
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(1)
    ls.settimeout(20)
    try:
        s, _ = ls.accept()
        s.settimeout(20)
        typ, hello = recv_msg(s)
        send_msg(s, HELLO, hello)                 # its own hello back: same version, same protocol
        typ, conn = recv_msg(s)
        name, path = plant(case, struct.unpack("<Q", conn[-8:])[0])
        nm = name.encode()[:63].ljust(64, b"\0")
        if len(conn) == CONN_OLD:                 # the name inside the connection info
            send_msg(s, CONN, conn[:60] + nm)
        else:
            send_msg(s, CONN, conn)
            send_msg(s, WIRE, nm)
        wait_close(s, 20)
    finally:
        unplant(path)


def plan(tests=1, sizes=(8,), flood_bytes=16 << 20, timeout_ms=3000):
    sz = list(sizes) + [0] * (32 - len(sizes))
    dp = [1] + [0] * 15
    bulk = [8] + [0] * 31
    # bench/plan.h, PLAN_VERSION 4: ... bulk_reps, then the sweep (nsweep, its sizes, sweep_iters,
    # sweep_msgs: no sizes, perftest's counts), then budget_ms, sig_point_ms, sig_max_m (0: none)
    return struct.pack("<11I32I16I8I32II I32I2I 3I", 4, tests, 100, 1, 0, 10000, flood_bytes, 1, 0, len(sizes), 1,
                       *sz, *dp, 2000, 1, 1, 0, 8, timeout_ms, 500, 1, *bulk, 3, 0, *([0] * 32), 1000, 5000, 0, 0, 0)


def pointers(b):
    """8-byte words that look like user-space addresses of x86-64 Linux (not
    text: a boot id or a wire name's hex digits can look like one)."""
    text = lambda w: all(c == 0 or 0x20 <= c < 0x7F for c in w)
    return [hex(v) for w, (v,) in ((b[i:i + 8], struct.unpack_from("<Q", b, i)) for i in range(0, len(b) - 7, 8))
            if 0x550000000000 <= v < 0x800000000000 and not text(w)]


def fake_client(port, case):
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    typ, hello = recv_msg(s)
    send_msg(s, HELLO, hello)
    typ, conn = recv_msg(s)
    send_msg(s, CONN, conn)                      # the server's own info: same machine, same mtu
    replies = hello + conn
    if len(conn) != CONN_OLD:
        typ, wire = recv_msg(s)
        replies += wire
    if case == "noattach":
        name = (conn[60:] if len(conn) == CONN_OLD else wire).split(b"\0")[0].decode()
        print("wire " + name, flush=True)
        wait_close(s, 30)
        return
    send_msg(s, ATTACHED)                        # never mapped: the name is the server's to remove
    if case == "timeout":
        send_msg(s, PLAN, plan(timeout_ms=0xFFFFFFFF))
        print("server closed after %.1f s" % wait_close(s, 30))
    elif case == "hugemem":
        send_msg(s, PLAN, plan(tests=2, sizes=(1 << 24,), flood_bytes=1 << 31))
        print("server closed after %.1f s" % wait_close(s, 30))
    elif case == "keys":
        send_msg(s, PLAN, plan())
        typ, win = recv_msg(s)
        keys = [struct.unpack_from("<QQI", win, 24 * i)[2] for i in range(len(win) // 24)]
        print("rkeys " + " ".join("%08x" % k for k in keys))
        print("pointers in hello/connection reply: " + (" ".join(pointers(replies)) or "none"))
    else:
        sys.exit("unknown case " + case)


if __name__ == "__main__":
    role, port, case = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    (fake_server if role == "server" else fake_client)(port, case)
