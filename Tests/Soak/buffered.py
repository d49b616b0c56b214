#!/usr/bin/env python3
"""Issue 20 item 13's measurement: many connections each holding an unfinished line just under --max-line.

Usage: buffered.py FMTD [CONNECTIONS] [LINE_BYTES] [extra fmtd arguments...]
Starts FMTD on a private socket with the repository's data, opens CONNECTIONS connections (default 4000), sends each
LINE_BYTES (default 65530) of a line with no newline, then reports the daemon's RSS before and after and what `stats`
says about buffered input. Finishes every line and checks each is answered (one thread per connection, as a send can block
while the daemon is at its cap). Python 3 stdlib only.
"""
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

fmtd = sys.argv[1]
connections = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
line_bytes = int(sys.argv[3]) if len(sys.argv) > 3 else 65530
extra = sys.argv[4:]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")
directory = tempfile.mkdtemp(prefix="fmtd-buf-", dir="/tmp")
path = os.path.join(directory, "fmtd.sock")
daemon = subprocess.Popen([fmtd, "--socket", path, "--data-dir", data, "--config-dir", directory,
                           "--max-connections-per-uid", str(connections + 10),
                           "--max-connections", str(connections + 10)] + extra, stderr=subprocess.DEVNULL)


def rss_mb():
    with open(f"/proc/{daemon.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


def request(sock, obj):
    sock.sendall((json.dumps(obj) + "\n").encode())
    buffer = b""
    while not buffer.endswith(b"\n"):
        buffer += sock.recv(1 << 20)
    return json.loads(buffer)


for _ in range(200):
    try:
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(path)
        break
    except OSError:
        time.sleep(0.05)
request(probe, {"op": "ping"})
before = rss_mb()
prefix = b'{"op":"ping","id":%d,"pad":"'
release = threading.Event()
answers = [False] * connections


def hold_then_finish(index):
    try:
        hold_then_finish_unguarded(index)
    except OSError as error:
        print(f"connection {index}: {error}", file=sys.stderr)


def hold_then_finish_unguarded(index):
    # Blocks while the daemon, at its cap, leaves the rest of this line in the kernel.
    client = socket.socket(socket.AF_UNIX)
    client.connect(path)
    head = prefix % index
    client.sendall(head + b"x" * (line_bytes - len(head)))
    release.wait()
    client.sendall(b'"}\n')
    client.settimeout(120)
    buffer = b""
    while not buffer.endswith(b"\n"):
        buffer += client.recv(65536)
    answers[index] = json.loads(buffer).get("id") == index
    client.close()


threading.stack_size(256 * 1024)
threads = [threading.Thread(target=hold_then_finish, args=(index,)) for index in range(connections)]
for thread in threads:
    thread.start()
time.sleep(3)
stats = request(probe, {"op": "stats"})["connections"]
held = rss_mb()
started = time.time()
release.set()
for thread in threads:
    thread.join()
answered = sum(answers)
finished = time.time() - started
print(json.dumps({
    "connections": connections, "lineBytes": line_bytes, "arguments": extra,
    "rssBeforeMB": round(before, 1), "rssHeldMB": round(held, 1),
    "bufferedBytes": stats["bufferedBytes"], "bufferedLimit": stats["bufferedLimit"],
    "bufferedPauses": stats["bufferedPauses"], "answered": answered, "secondsToAnswerAll": round(finished, 2),
}))
daemon.terminate()
daemon.wait()
sys.exit(0 if answered == connections else 1)
