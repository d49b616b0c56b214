#!/usr/bin/env python3
"""Soak test for fmtd: mixed well-formed load, hostile clients and reloads against one daemon for N minutes.

Run through Tests/Soak/soak.sh, which builds the daemon. Reports requests served, errors (must be 0 for well-formed
requests), RSS over time and open file descriptors at the start and the end (must be equal). Python 3 stdlib only.
"""
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

REQUESTS = [
    {"op": "ping"},
    {"op": "date", "date": "1990-11-29", "locale": "nl-BE", "style": "long", "yearShared": True},
    {"op": "date", "date": "--02-29", "locale": "en-FR"},
    {"op": "address", "locale": "de-AT", "address": {"country": "NL", "name": "Jan Jansen", "street": "Damrak",
                                                     "houseNumber": "1", "postalCode": "1012 LG", "city": "Amsterdam"}},
    {"op": "addressFormat", "country": "DE", "locale": "nl"},
    {"op": "phone", "number": "+31 20 123 4567", "viewerRegion": "NL"},
    {"op": "phone", "number": "(650) 253-0000", "defaultRegion": "US", "viewerRegion": "DE"},
    {"op": "sort", "locale": "de-u-co-phonebk", "names": ["Müller", "Muff", "Mueller", "Zoë", "van Dijk"]},
    {"op": "plural", "locale": "nl", "count": 1},
    {"op": "message", "key": "contacts.details_updated", "locale": "de", "args": {"name": "Anna", "count": 3}},
    {"op": "language", "locale": "en-FR"},
    {"op": "info"},
]


class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.served = 0
        self.errors = []
        self.hostile = {}

    def add_served(self, count):
        with self.lock:
            self.served += count

    def add_error(self, text):
        with self.lock:
            if len(self.errors) < 20:
                self.errors.append(text)
            else:
                self.errors.append("...")
                del self.errors[20:]

    def add_hostile(self, name):
        with self.lock:
            self.hostile[name] = self.hostile.get(name, 0) + 1


def connect(path, timeout=10):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(path)
    return sock


def read_lines(sock, count, buffer=b""):
    lines = []
    while len(lines) < count:
        newline = buffer.find(b"\n")
        if newline >= 0:
            lines.append(buffer[:newline])
            buffer = buffer[newline + 1:]
            continue
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by fmtd")
        buffer += chunk
    return lines, buffer


def well_formed_client(path, stop, counters, seed):
    """Pipelines batches of mixed requests and checks every answer: ok, and its own id back, in order."""
    rng = random.Random(seed)
    next_id = 0
    while not stop.is_set():
        try:
            sock = connect(path)
            buffer = b""
            for _ in range(rng.randint(20, 200)):
                if stop.is_set():
                    break
                batch = []
                for _ in range(rng.randint(1, 16)):
                    request = dict(rng.choice(REQUESTS))
                    request["id"] = next_id
                    next_id += 1
                    batch.append(request)
                sock.sendall(b"".join(json.dumps(r).encode() + b"\n" for r in batch))
                lines, buffer = read_lines(sock, len(batch), buffer)
                for request, line in zip(batch, lines):
                    response = json.loads(line)
                    if response.get("ok") is not True or response.get("id") != request["id"]:
                        counters.add_error(f"{request} -> {line[:200]!r}")
                counters.add_served(len(batch))
            sock.close()
        except Exception as error:  # noqa: BLE001 - any failure of a well-formed client is an error
            counters.add_error(f"well-formed client: {error!r}")
            time.sleep(0.1)


def hostile_episode(path, rng, counters):
    """One misbehaving client of a random kind; each expects the daemon to survive it, not to answer nicely."""
    kind = rng.choice(["random", "utf8", "huge", "nesting", "nul", "half", "reset", "burst", "unread", "slowloris",
                       "numbers", "marks", "unread-many", "busy", "joined", "accept-language"])
    counters.add_hostile(kind)
    try:
        if kind == "random":
            with connect(path) as sock:
                sock.sendall(bytes(rng.getrandbits(8) for _ in range(20000)) + b"\n")
                time.sleep(0.2)
        elif kind == "utf8":
            with connect(path) as sock:
                sock.sendall(b'{"op":"ping","id":"\xc3\x28\xed\xa0\x80\xf8\x88"}\n' * 50)
                read_lines(sock, 50)
        elif kind == "huge":
            with connect(path) as sock:
                sock.sendall(b'{"op":"ping","pad":"' + b"x" * 1048576 + b'"}\n{"op":"ping"}\n')
                read_lines(sock, 2)
        elif kind == "nesting":
            with connect(path) as sock:
                sock.sendall(b'{"op":"ping","x":' + b"[" * 60000 + b"]" * 60000 + b"}\n")
                read_lines(sock, 1)
        elif kind == "nul":
            with connect(path) as sock:
                sock.sendall(b'{"op":"ping"}\x00\n\x00\x00\n{"op":\x00"ping"}\n')
                read_lines(sock, 3)
        elif kind == "half":
            for _ in range(50):
                with connect(path) as sock:
                    sock.sendall(b'{"op":"date","date":"1990-')
        elif kind == "reset":
            sock = connect(path)
            sock.sendall(b'{"op":"info"}\n' * 3000)
            sock.recv(100)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        elif kind == "burst":
            socks = []
            for _ in range(500):
                socks.append(connect(path))
            for sock in socks:
                sock.sendall(b'{"op":"ping"}\n')
            for sock in socks:
                read_lines(sock, 1)
                sock.close()
        elif kind == "unread":
            sock = connect(path)
            sock.setblocking(False)
            try:
                for _ in range(100):
                    sock.send(b'{"op":"info"}\n' * 2000)
            except BlockingIOError:
                pass
            time.sleep(2)
            sock.close()
        elif kind == "slowloris":
            socks = [connect(path) for _ in range(20)]
            line = b'{"op":"ping","id":"slow"}\n'
            for byte in line:
                for sock in socks:
                    sock.sendall(bytes([byte]))
                time.sleep(0.1)
            for sock in socks:
                read_lines(sock, 1)
                sock.close()
        elif kind == "numbers":
            with connect(path) as sock:
                sock.sendall(b'{"op":"plural","locale":"en","count":1e999999,"id":-1e-999999}\n'
                             b'{"op":"ping","id":123456789012345678901234567890}\n')
                read_lines(sock, 2)
        elif kind == "marks":
            # Combining marks: 15,000 pairs after one starter (refused: not Stream-Safe), then text at the limit
            # (30 marks per starter) in the member names, op, locale, key and sort names of 64 KB lines.
            unbounded = "a" + "\u0301\u0316" * 15000
            segment = "a" + "\u0301\u0316" * 15
            filled = segment * 1000
            lines = [{"op": "ping", unbounded: 1}, {"op": unbounded}, {"op": "ping", filled: 1}, {"op": filled},
                     {"op": "date", "date": "--11-29", "locale": filled}, {"op": "message", "key": filled},
                     {"op": "sort", "locale": "de", "names": ["b", filled]}]
            with connect(path, timeout=30) as sock:
                sock.sendall(b"".join(json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines))
                read_lines(sock, len(lines))
        elif kind == "unread-many":
            # Many connections that each queue answers and never read: the shared output budget pauses them, so
            # memory stays bounded and the well-formed clients keep their round trips.
            socks = [connect(path) for _ in range(200)]
            for sock in socks:
                sock.setblocking(False)
                try:
                    sock.send(b'{"op":"info"}\n' * 1000)
                except BlockingIOError:
                    pass
            time.sleep(1)
            for sock in socks:
                sock.close()
        elif kind == "busy":
            # Peers pipelining the costliest small requests (a decimal-string plural count), reading their answers:
            # each gets its time slice, not the loop.
            socks = [connect(path, timeout=30) for _ in range(20)]
            batch = b'{"op":"plural","locale":"pl","count":"1.5"}\n' * 2000
            for sock in socks:
                sock.sendall(batch)
            for sock in socks:
                read_lines(sock, 2000)
                sock.close()
        elif kind == "joined":
            # Address values joining one long cluster (a ZWJ emoji chain, a virama chain) are refused before any
            # walk over them; a long run of no-break spaces is served.
            lines = [{"op": "address", "address": {"country": "NL", "city": "\U0001F468" + "\u200D\U0001F468" * 4000}},
                     {"op": "address", "address": {"country": "IN", "city": "\u0915" + "\u094D\u0915" * 6000}},
                     {"op": "address", "address": {"country": "NL", "city": "a" + "\u00A0" * 20000 + "b"}}]
            with connect(path, timeout=30) as sock:
                sock.sendall(b"".join(json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines))
                read_lines(sock, len(lines))
        elif kind == "accept-language":
            # The longest priority lists allowed, of languages the daemon lacks, so every entry is read each time.
            value = ",".join(f"x{chr(97 + i % 26)}-Latn-{100 + i}-u-co-phonebk;q=0.{i % 9 + 1}" for i in range(32))
            line = json.dumps({"op": "language", "tag": value}).encode() + b"\n"
            with connect(path, timeout=30) as sock:
                sock.sendall(line * 500)
                read_lines(sock, 500)
    except OSError as error:
        counters.add_hostile(f"{kind} ({type(error).__name__})")


def hostile_clients(path, stop, counters, seed):
    rng = random.Random(seed)
    while not stop.is_set():
        hostile_episode(path, rng, counters)
        stop.wait(rng.uniform(0.2, 1.0))


def flip(link, target):
    """Points the symlink at target atomically (a new link renamed over the old one)."""
    temporary = link + ".new"
    os.symlink(target, temporary)
    os.replace(temporary, link)


def flipper_thread(link, first, second, stop, flips):
    """Swaps the data symlink between the two sets every 2 ms until stopped."""
    while not stop.is_set():
        flips[0] += 1
        flip(link, second if flips[0] % 2 else first)
        time.sleep(0.002)


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


ADDRESS_FORMAT = b'{"op":"addressFormat","country":"NL","locale":"en"}\n'


def make_second_data_set(first, second):
    """A copy of the data whose labels and layouts both differ, so a response that mixes the two is visible."""
    shutil.copytree(first, second)
    labels = os.path.join(second, "translations", "en.json")
    table = json.load(open(labels, encoding="utf-8"))
    table["address.field.city"] = "Town"
    json.dump(table, open(labels, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    formats_path = os.path.join(second, "address-formats.json")
    formats = json.load(open(formats_path, encoding="utf-8"))
    nl = formats["formats"]["NL"]
    nl["lines"] = [line for line in nl["lines"] if line != "{extra}"] + ["{extra}"]
    json.dump(formats, open(formats_path, "w", encoding="utf-8"), ensure_ascii=False, indent=1)


def generation_checker(path, stop, counters, answers):
    """Asks for NL's format over and over: every answer must be one data set's, never a mix of both."""
    while not stop.is_set():
        try:
            with connect(path) as sock:
                buffer = b""
                for _ in range(200):
                    sock.sendall(ADDRESS_FORMAT * 8)
                    lines, buffer = read_lines(sock, 8, buffer)
                    for line in lines:
                        if line not in answers:
                            counters.add_error(f"mixed generation: {line[:300]!r}")
                    counters.add_served(8)
        except Exception as error:  # noqa: BLE001 - any failure of a well-formed client is an error
            counters.add_error(f"generation checker: {error!r}")
            time.sleep(0.1)


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def stats(path):
    with connect(path) as sock:
        sock.sendall(b'{"op":"stats"}\n')
        lines, _ = read_lines(sock, 1)
        return json.loads(lines[0])


def main():
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    fmtd = sys.argv[2]
    data = sys.argv[3]
    workdir = tempfile.mkdtemp(prefix="fmtd-soak-")
    data_a = os.path.join(workdir, "data-a")
    data_b = os.path.join(workdir, "data-b")
    shutil.copytree(data, data_a)
    make_second_data_set(data_a, data_b)
    # The daemon reads its data through a symlink that the soak flips between the two sets during reloads.
    data_copy = os.path.join(workdir, "data")
    os.symlink(data_a, data_copy)
    path = os.path.join(workdir, "fmtd.sock")
    log = open(os.path.join(workdir, "fmtd.log"), "w")
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    daemon = subprocess.Popen([fmtd, "--socket", path, "--data-dir", data_copy, "--config-dir", workdir + "/etc",
                               "--log-level", "notice"], stderr=log, stdout=subprocess.DEVNULL, env=env)
    try:
        for _ in range(200):
            try:
                stats(path)
                break
            except OSError:
                time.sleep(0.05)
        time.sleep(0.5)
        answers = set()
        for target in (data_b, data_a):
            flip(data_copy, target)
            daemon.send_signal(signal.SIGHUP)
            time.sleep(1)
            with connect(path) as sock:
                sock.sendall(ADDRESS_FORMAT)
                answers.add(read_lines(sock, 1)[0][0])
        if len(answers) != 2:
            raise SystemExit(f"soak: the two data sets answer alike: {answers}")
        # The baseline is taken as the end's is: no client connected and no reload running.
        while stats(path)["connections"]["open"] > 1:
            time.sleep(0.1)
        time.sleep(1)
        fds_start = open_fds(daemon.pid)
        rss_start = resident_kib(daemon.pid)
        counters = Counters()
        stop = threading.Event()
        threads = [threading.Thread(target=well_formed_client, args=(path, stop, counters, seed)) for seed in range(4)]
        threads.append(threading.Thread(target=hostile_clients, args=(path, stop, counters, 99)))
        threads.append(threading.Thread(target=generation_checker, args=(path, stop, counters, answers)))
        for thread in threads:
            thread.start()

        duration = minutes * 60
        started = time.monotonic()
        samples = []
        reloads_sent = 0
        broken_reloads = 0
        next_reload = started + 5
        next_broken = started + 30
        next_flip = started + 1
        flip_reloads = 0
        flips = [0]
        flipper = threading.Thread(target=flipper_thread, args=(data_copy, data_a, data_b, stop, flips))
        flipper.start()
        threads.append(flipper)
        next_sample = started
        while time.monotonic() - started < duration:
            now = time.monotonic()
            if daemon.poll() is not None:
                counters.add_error(f"fmtd exited with {daemon.returncode}")
                break
            if now >= next_reload:
                daemon.send_signal(signal.SIGHUP)
                reloads_sent += 1
                next_reload = now + 5
            if now >= next_flip:
                # Reload while the flipper swaps the data directory's symlink: a generation reads one set only.
                daemon.send_signal(signal.SIGHUP)
                flip_reloads += 1
                next_flip = now + 0.25
            if now >= next_broken:
                # A corrupt file at reload: the reload fails and the old data keeps serving the load.
                target = os.path.join(data_a, "address-formats.json")
                original = open(target, "rb").read()
                open(target, "wb").write(original[: len(original) // 2])
                daemon.send_signal(signal.SIGHUP)
                time.sleep(0.5)
                open(target, "wb").write(original)
                broken_reloads += 1
                next_broken = now + 30
            if now >= next_sample:
                current = stats(path)
                samples.append((round(now - started), resident_kib(daemon.pid), open_fds(daemon.pid),
                                counters.served, current["connections"]["open"]))
                next_sample = now + max(5, duration / 24)
            time.sleep(0.1)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and stats(path)["connections"]["open"] > 1:
            time.sleep(0.1)
        time.sleep(1)
        final = stats(path)
        # The daemon closes the stats connection a moment after answering; give it that moment.
        deadline = time.monotonic() + 5
        fds_end = open_fds(daemon.pid)
        while fds_end != fds_start and time.monotonic() < deadline:
            time.sleep(0.1)
            fds_end = open_fds(daemon.pid)
        rss_end = resident_kib(daemon.pid)
        elapsed = time.monotonic() - started

        print(f"soak: {elapsed:.0f} s, fmtd {fmtd}")
        print(f"  well-formed requests served: {counters.served} ({counters.served / elapsed:.0f}/s), "
              f"errors: {len(counters.errors)}")
        for error in counters.errors[:10]:
            print(f"    {error}")
        print(f"  hostile episodes: {sum(counters.hostile.values())} "
              + ", ".join(f"{k} {v}" for k, v in sorted(counters.hostile.items())))
        reloads = final["reloads"]
        print(f"  reloads: {reloads_sent} SIGHUP + {flip_reloads} while the data symlink flipped {flips[0]} times + {broken_reloads} with a corrupt file; "
              f"ok {reloads['ok']}, failed {reloads['failed']}, generation {reloads['generation']}")
        print(f"  daemon totals: {final['requests']['total']} requests, {final['requests']['errors']} errors "
              f"(hostile ones included), connections {final['connections']}")
        print(f"  latency: {final['latency']}")
        print("  t(s)   RSS(KiB)  fds  served  open")
        for sample in samples:
            print("  %4d  %9d  %3d  %6d  %4d" % sample)
        print(f"  RSS: {rss_start} KiB at start, {rss_end} KiB at end, max {max(s[1] for s in samples)} KiB")
        print(f"  fds: {fds_start} at start, {fds_end} at end")
        failed = bool(counters.errors) or fds_start != fds_end or daemon.poll() is not None
        print("soak: " + ("FAILED" if failed else "ok"))
        return 1 if failed else 0
    finally:
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                daemon.kill()
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
