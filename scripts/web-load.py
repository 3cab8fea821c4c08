#!/usr/bin/env python3
"""Load test of `stakeraid web`: many analysis streams at once, then stopped.

Starts the real binary on a free loopback port, opens CLIENTS analysis
streams at the same moment on random positions (too deep to finish), and
holds them for DURATION seconds while sampling the server's memory, CPU
time and threads. Then half the clients close their connection abruptly
(an RST) and the other half ask POST /api/stop and read to `done`. It
checks that the stopped searches stop: the server's CPU time stays still
once the last client has gone, and every search place can be taken again.
Prints a summary; exits 1 on failure.

    scripts/web-load.py [--binary target/release/stakeraid] [--clients 50]
                        [--duration 60] [--size 5,6]

Standard library only; loopback only; at most 200 clients and 600 s of
hold, and a watchdog ends the run (and the server) if it overstays.
"""
import argparse
import http.client
import json
import math
import os
import socket
import struct
import subprocess
import sys
import threading
import time

# Empty cells a search must face to outlast the hold: a full alpha-beta
# solve of 22 empty cells takes minutes of a whole core here, and each
# stream gets a share of a core.
FILL = 0.1
# Generous bounds for a loaded 2-core machine: past them a step failed.
STEP_TIMEOUT = 30.0
# The server's CPU time may grow this much (seconds) over QUIET seconds
# after the last client has gone; a search left running burns about 1 s
# each second.
QUIET = 3.0
QUIET_CPU = 0.1
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- the server and its /proc ------------------------------------------------

class Server:
    """The binary on port 0, ended (by its own pid) when the run ends."""

    def __init__(self, binary, searches, max_time):
        self.cmd = [binary, "web", "--port", "0", "--searches", str(searches),
                    "--max-time", str(max_time)]
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL)
        line = self.proc.stdout.readline().decode().strip()
        prefix = "http://127.0.0.1:"
        if not line.startswith(prefix):
            self.stop()
            raise SystemExit(f"web-load: unexpected first line {line!r}")
        self.port = int(line[len(prefix):].rstrip("/"))
        self.pid = self.proc.pid

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def proc_stat_fields(path):
    """The fields of a /proc stat file after the command name, which may
    hold spaces and parentheses: [0] is the state, [11] utime, [12] stime."""
    with open(path) as f:
        text = f.read()
    return text[text.rindex(")") + 2:].split()


def cpu_seconds(pid):
    fields = proc_stat_fields(f"/proc/{pid}/stat")
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def status_numbers(pid):
    """VmRSS in MiB and the thread count."""
    rss, threads = 0.0, 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


def running_threads(pid):
    """The ids of the server's threads that are running, runnable or in an
    uninterruptible wait (a fresh table's page faults, under many threads,
    wait on the process's memory map): a searching thread always is one of
    these, an idle one sleeps."""
    tids = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            if proc_stat_fields(f"/proc/{pid}/task/{tid}/stat")[0] in ("R", "D"):
                tids.add(int(tid))
        except (OSError, ValueError):
            pass  # the thread ended between the listing and the read
    return tids


class Sampler(threading.Thread):
    """Every 0.1 s, which server threads run; every second, RSS, CPU time
    and threads."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.samples = []  # (t, rss MiB, cpu s, threads)
        self.running = []  # (t, set of running thread ids)
        self.lock = threading.Lock()
        self.done = threading.Event()

    def run(self):
        tick = 0
        while not self.done.is_set():
            try:
                now = time.monotonic()
                tids = running_threads(self.pid)
                with self.lock:
                    self.running.append((now, tids))
                if tick % 10 == 0:
                    rss, threads = status_numbers(self.pid)
                    self.samples.append((now, rss, cpu_seconds(self.pid), threads))
            except OSError:
                return  # the server is gone
            tick += 1
            self.done.wait(0.1)

    def searching_at(self, t):
        """Threads running in at least 80% of the samples of the 2 s before
        `t`: the searches (a tokio worker runs now and then, not always)."""
        with self.lock:
            window = [tids for at, tids in self.running if t - 2 <= at <= t]
        counts = {}
        for tids in window:
            for tid in tids:
                counts[tid] = counts.get(tid, 0) + 1
        return {tid for tid, n in counts.items() if n >= 0.8 * len(window)}

    def ended_after(self, tids, t0):
        """For each of `tids` not running in the last second, how long after
        `t0` it was first seen not running for good."""
        with self.lock:
            after = [(at, ts) for at, ts in self.running if at >= t0]
        if not after:
            return {}
        now = after[-1][0]
        ends = {}
        for tid in tids:
            last = max((at for at, ts in after if tid in ts), default=t0)
            if last < now - 1.0:
                ends[tid] = min(at for at, ts in after if at > last) - t0
        return ends


# --- HTTP on loopback ---------------------------------------------------------

def get_json(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=STEP_TIMEOUT)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def post(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=STEP_TIMEOUT)
    try:
        conn.request("POST", path)
        resp = conn.getresponse()
        return resp.status, resp.read().decode()
    finally:
        conn.close()


def encode(text):
    safe = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    return "".join(chr(b) if b in safe else f"%{b:02X}" for b in text.encode())


class Stream:
    """One analysis stream over HTTP/1.0 (the body ends with the
    connection), read with short timeouts so its owner can act between
    messages. Messages are events and the server's keep-alive comments."""

    def __init__(self, port, query):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=STEP_TIMEOUT)
        self.sock.sendall(f"GET /api/analyse?{query} HTTP/1.0\r\n"
                          f"Host: 127.0.0.1:{port}\r\n\r\n".encode())
        self.buf = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split()[1]) if head and len(head.split()) > 1 else 0
        self.sock.settimeout(0.25)

    def _until(self, sep):
        while sep not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        part, self.buf = self.buf.split(sep, 1)
        return part

    def next(self):
        """(name, data) of the next message, name None for a comment; None
        at the end of the stream; "wait" if nothing came for 0.25 s."""
        try:
            raw = self._until(b"\n\n")
        except socket.timeout:
            return "wait"
        if raw is None:
            return None
        name, data = None, ""
        for line in raw.decode().split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
        return name, (json.loads(data) if data else None)

    def abort(self):
        """Closes with an RST, as a killed tab or a dropped network does."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def close(self):
        self.sock.close()


# --- the clients ----------------------------------------------------------------

class Client(threading.Thread):
    """One stream: its latencies, the gaps between messages while it
    searches, and how its search was ended (`action`: close or stop)."""

    def __init__(self, port, query, barrier, deadline):
        super().__init__(daemon=True)
        self.port, self.query, self.barrier, self.deadline = port, query, barrier, deadline
        self.action = None  # set by the main thread: "close" or "stop"
        self.status = 0
        self.id = None
        self.to_start = self.to_depth = None
        self.depths = 0
        self.gaps = []
        self.ended_early = False
        self.error = None
        self.acted_at = self.done_at = None
        self.done = None
        self.stop_status = None

    def run(self):
        try:
            self.barrier.wait()
            t0 = time.monotonic()
            stream = Stream(self.port, self.query)
            self.status = stream.status
            if stream.status != 200:
                stream.close()
                return
            self.read(stream, t0)
        except Exception as e:  # noqa: BLE001 - every failure is reported
            self.error = f"{type(e).__name__}: {e}"

    def read(self, stream, t0):
        last = None
        while time.monotonic() < self.deadline:
            # A stream not started yet has no id to stop: it is closed.
            if self.action == "close" or (self.action == "stop" and self.id is None):
                self.acted_at = time.monotonic()
                stream.abort()
                return
            if self.action == "stop" and self.acted_at is None:
                self.acted_at = time.monotonic()
                self.stop_status, _ = post(self.port, f"/api/stop?id={self.id}")
            msg = stream.next()
            if msg == "wait":
                continue
            now = time.monotonic()
            if msg is None:
                self.error = "the stream ended without done"
                return
            if last is not None and self.acted_at is None:
                self.gaps.append(now - last)
            last = now
            if self.on_message(*msg, now, t0):
                stream.close()
                return
        self.error = "no done before the deadline"

    def on_message(self, name, data, now, t0):
        """Records one message; True at the end of the stream."""
        if name == "start":
            self.id = data["id"]
            self.to_start = now - t0
        elif name == "depth":
            self.depths += 1
            if self.to_depth is None:
                self.to_depth = now - t0
        elif name in ("done", "error"):
            self.done_at, self.done = now, data
            self.ended_early = self.acted_at is None
            if name == "error":
                self.error = f"error event {data}"
            return True
        return False


# --- the run ----------------------------------------------------------------------

def percentiles(values, scale=1.0):
    if not values:
        return "n/a"
    v = sorted(values)

    def rank(p):  # nearest rank
        return v[max(0, math.ceil(p / 100 * len(v)) - 1)] * scale
    return f"p50 {rank(50):.3g}  p95 {rank(95):.3g}  max {v[-1] * scale:.3g}"


def positions(port, sizes, count):
    """Count random positions, the sizes in turn, each its own seed."""
    grids = []
    for i in range(count):
        size = sizes[i % len(sizes)]
        status, view = get_json(port, f"/api/random?size={size}&seed={i + 1}&fill={FILL}")
        if status != 200:
            raise SystemExit(f"web-load: /api/random answered {status}: {view}")
        grids.append(view["grid"])
    return grids


def query_of(grid, time_ms):
    return f"grid={encode(json.dumps(grid))}&mode=ALPHABETA&time_ms={time_ms}"


def wait_all(clients, deadline):
    for c in clients:
        c.join(max(0.0, deadline - time.monotonic()))


def places_free(port, grids, time_ms):
    """Opens one stream per place at once, deep ones, and counts those
    that start (all places held together), then stops them all."""
    barrier = threading.Barrier(len(grids))
    deadline = time.monotonic() + 3 * STEP_TIMEOUT
    clients = [Client(port, query_of(g, time_ms), barrier, deadline) for g in grids]
    for c in clients:
        c.start()
    started_by = time.monotonic() + STEP_TIMEOUT
    while time.monotonic() < started_by and any(
            c.is_alive() and c.id is None for c in clients):
        time.sleep(0.05)
    started = sum(c.id is not None for c in clients)
    for c in clients:
        c.action = "stop"
    wait_all(clients, deadline)
    return started


def hold(port, grids, duration, time_ms):
    """The clients, searching together for `duration` seconds."""
    barrier = threading.Barrier(len(grids) + 1)
    deadline = time.monotonic() + duration + 4 * STEP_TIMEOUT
    clients = [Client(port, query_of(g, time_ms), barrier, deadline) for g in grids]
    for c in clients:
        c.start()
    barrier.wait()
    time.sleep(duration)
    return clients


def end_by_close(closers, sampler):
    """Closes half the streams; returns how long after the close each of
    their searches was seen ending (by its thread), and the count of
    searches that were running."""
    t0 = time.monotonic()
    searching = sampler.searching_at(t0)
    for c in closers:
        c.action = "close"
    wait_all(closers, t0 + STEP_TIMEOUT)
    ends = {}
    while time.monotonic() < t0 + STEP_TIMEOUT:
        ends = sampler.ended_after(searching, t0)
        if len(ends) >= len(closers):
            break
        time.sleep(0.2)
    return sorted(ends.values()), len(searching)


def end_by_stop(stoppers):
    for c in stoppers:
        c.action = "stop"
    wait_all(stoppers, time.monotonic() + STEP_TIMEOUT)
    return [c.done_at - c.acted_at for c in stoppers
            if c.done_at is not None and c.acted_at is not None]


def run(args):
    searches = args.clients
    max_time = max(120, 2 * args.duration)
    time_ms = max_time * 1000
    server = Server(os.path.abspath(args.binary), searches, max_time)
    watchdog = threading.Timer(args.duration + 12 * STEP_TIMEOUT, overstay, [server])
    watchdog.daemon = True
    watchdog.start()
    try:
        return measure(args, server, time_ms, max_time)
    finally:
        server.stop()
        watchdog.cancel()


def overstay(server):
    print("web-load: the run overstayed its bound; ending it", file=sys.stderr)
    server.stop()
    os._exit(1)


def measure(args, server, time_ms, max_time):
    sampler = Sampler(server.pid)
    sampler.start()
    grids = positions(server.port, args.size, args.clients)
    cpu_open = cpu_seconds(server.pid)
    clients = hold(server.port, grids, args.duration, time_ms)
    started = [c for c in clients if c.id is not None]
    cpu_hold = cpu_seconds(server.pid) - cpu_open
    closers, stoppers = started[0::2], started[1::2]
    close_ends, searching = end_by_close(closers, sampler)
    stop_ends = end_by_stop(stoppers)
    wait_all(clients, time.monotonic() + STEP_TIMEOUT)

    cpu_gone = cpu_seconds(server.pid)
    time.sleep(QUIET)
    cpu_quiet = cpu_seconds(server.pid) - cpu_gone
    free = places_free(server.port, grids, time_ms)
    time.sleep(1.5)  # a last RSS sample after the searches
    sampler.done.set()
    sampler.join()
    return report(args, server, max_time, clients, sampler, {
        "cpu_hold": cpu_hold, "closers": closers,
        "stoppers": stoppers, "close_ends": close_ends, "searching": searching,
        "stop_ends": stop_ends, "cpu_quiet": cpu_quiet, "free": free})


def report(args, server, max_time, clients, sampler, r):
    n = len(clients)
    started = [c for c in clients if c.id is not None]
    refused = [c for c in clients if c.status not in (0, 200)]
    failed = [c for c in clients if c.error]
    early = [c for c in clients if c.ended_early]
    stopped_ok = [c for c in r["stoppers"]
                  if c.done and c.done.get("stopped") and c.stop_status == 200]
    rss = [s[1] for s in sampler.samples]
    threads = [s[3] for s in sampler.samples]
    gaps = [g for c in clients for g in c.gaps]
    depths = sorted(c.depths for c in started)
    hold_s = r["cpu_hold"]
    checks = [
        (len(started) == n, f"streams started {len(started)}/{n}"),
        (not early, f"searches ended before the hold: {len(early)}"),
        (len(r["close_ends"]) >= len(r["closers"]),
         f"closed streams' searches seen ending: {len(r['close_ends'])}/{len(r['closers'])}"),
        (len(stopped_ok) == len(r["stoppers"]),
         f"stopped streams answered done (stopped): {len(stopped_ok)}/{len(r['stoppers'])}"),
        (r["cpu_quiet"] < QUIET_CPU,
         f"server CPU in the {QUIET:.0f} s after the last client left: "
         f"{r['cpu_quiet']:.2f} s (limit {QUIET_CPU})"),
        (r["free"] == n, f"places free again: {r['free']}/{n} new streams started at once"),
    ]
    ok = all(passed for passed, _ in checks)
    sizes = ",".join(f"{s}x{s}" for s in args.size)
    lines = [
        f"command: {' '.join(server.cmd)}",
        f"clients {n}, hold {args.duration} s, boards {sizes} (fill {FILL}), "
        f"ALPHABETA to the end, time_ms {max_time * 1000}",
        f"streams: started {len(started)}, refused {len(refused)}, failed {len(failed)}, "
        f"ended early {len(early)}",
        f"latency to start (ms):       {percentiles([c.to_start for c in started], 1000)}",
        f"latency to first depth (ms): "
        f"{percentiles([c.to_depth for c in started if c.to_depth is not None], 1000)}",
        f"gaps between messages while searching (s, events and the 1 s keep-alives): "
        f"{percentiles(gaps)}",
        f"depths completed per stream: min {depths[0] if depths else 0}, "
        f"median {depths[len(depths) // 2] if depths else 0}, max {depths[-1] if depths else 0}",
        f"server RSS (MiB): start {rss[0]:.1f}, peak {max(rss):.1f}, final {rss[-1]:.1f}"
        if rss else "server RSS: no samples",
        f"server threads: peak {max(threads) if threads else 0}, "
        f"final {threads[-1] if threads else 0}",
        f"server CPU over the hold: {hold_s:.1f} s ({hold_s / max(args.duration, 1):.2f} cores)",
        f"ended by close ({len(r['closers'])}, RST): search thread seen ending, s after "
        f"the closes began (all within 0.25 s): {percentiles(r['close_ends'])} "
        f"({r['searching']} searching threads before)",
        f"ended by /api/stop ({len(r['stoppers'])}): done after (s) {percentiles(r['stop_ends'])}",
    ]
    lines += [("ok    " if passed else "FAIL  ") + text for passed, text in checks]
    lines.append("result: " + ("PASS" if ok else "FAIL"))
    for c in failed[:5]:
        lines.append(f"  a failed stream: {c.error}")
    print("\n".join(lines))
    return 0 if ok else 1


def sizes(text):
    try:
        values = [int(s) for s in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("a comma list of board sizes, e.g. 5,6")
    if not values or any(not 5 <= v <= 26 for v in values):
        raise argparse.ArgumentTypeError(
            "sizes from 5 to 26: a smaller board's search ends before the hold does")
    return values


def bounded(low, high):
    def parse(text):
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}")
        return value
    return parse


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/stakeraid")
    ap.add_argument("--clients", type=bounded(2, 200), default=50,
                    help="concurrent streams (the server gets as many places)")
    ap.add_argument("--duration", type=bounded(1, 600), default=60,
                    help="seconds the streams search together")
    ap.add_argument("--size", type=sizes, default=[5, 6],
                    help="board sizes, taken in turn (default 5,6)")
    sys.exit(run(ap.parse_args()))


if __name__ == "__main__":
    main()
