"""Can a stranger stall the table? Slow connections, and crowds on the expensive routes.

Run: ``.venv/bin/python benchmarks/bench_stall.py [--seconds 20] [--slow 300] [--games 100]
[--stats 70] [--old]``.

Loopback only (127.0.0.1 serves; the stranger's sockets come from 127.0.0.2-127.0.0.11,
other loopback addresses, as a stranger's would from another address on the Wi-Fi), and
every loop is bounded by ``--seconds``. The page's real server runs in a child process on
a game file with ``--games`` played games (random legal games, as the live benchmark plays
them). Two parts, each printing its figures:

1. ``--slow`` sockets open a request and send one more header line every 5 s, never
   finishing it; meanwhile a phone (127.0.0.1) asks ``GET /api/state`` every 0.2 s: how
   many were answered within 1 s, median and worst. Also with every slow socket from one
   address.
2. ``--stats`` threads (from the stranger's addresses) ask ``GET /api/stats`` over and
   over; a phone (127.0.0.1) sends an action every 0.5 s: how many were answered within
   1 s, median and worst. Before that, one cold and
   one warm ``/api/stats``, and the two exports, are timed.

``--old`` serves with plain waitress and its settings before issue 47 (connection limit
200, no per-address limit, no request deadline), for comparison; the stats code is this
checkout's either way.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_live import next_action  # noqa: E402

TOKEN = "bench-token"
STRANGERS = [f"127.0.0.{n}" for n in range(2, 12)]
PHONE = "127.0.0.1"


def make_games(data: Path, games: int, seed: int = 47, distinct: int = 20) -> int:
    """``games`` random legal games of King of the Dice stored in ``data``: ``distinct``
    of them played through the table, the rest copies of those (each replays as its
    original does); returns the actions stored."""
    from rules.errors import KotdError
    from rules.games import game_pack
    from rules.store import EventStore
    from rules.table import Table

    rng = random.Random(seed)
    store = EventStore.in_dir(data)
    table = Table(store, game_pack("kotd"))
    played: list[list[str]] = []
    for _ in range(min(games, distinct)):
        table.act(table.parse("players Ann Ben Cem Dan"))
        for _ in range(400):
            state = table.snapshot.view("en")
            if state["phase"] == "over":
                break
            try:
                table.act(table.parse(next_action(state, rng)))
            except KotdError:
                continue
        played.append([e.action for e in table.history()])
    for n in range(games - len(played)):
        lines = played[n % len(played)]
        game_id = store.new_game(lines[0])
        for line in lines[1:]:
            store.append(game_id, line)
    stored = sum(len(played[n % len(played)]) for n in range(games))
    store.close()
    return stored


def serve(data: str, old: bool) -> None:
    """Child process: the real app and server on the game file in ``data``, until killed."""
    from rules.games import game_pack
    from rules.store import EventStore
    from rules.table import Table
    from web import create_app
    from web.server import make_server

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "task queue depth" lines
    app = create_app(Table(EventStore.in_dir(data), game_pack("kotd")), None, TOKEN)
    if old:
        from waitress.server import create_server

        server: Any = create_server(app, host="127.0.0.1", port=0, threads=64,
                                    channel_timeout=60, connection_limit=200,
                                    channel_request_lookahead=4)
        print(server.effective_port, flush=True)
        server.run()
        return
    started = make_server(app, port=0, threads=64)
    print(started.port, flush=True)
    started.run()


def timed_get(port: int, path: str, source: str = PHONE, timeout: float = 10.0
              ) -> float | None:
    """Seconds until the whole reply of ``GET path`` was read; None if it failed."""
    start = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                          source_address=(source, 0))
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        conn.close()
    except OSError:
        return None
    return time.monotonic() - start if response.status == 200 else None


def timed_action(port: int, line: str, timeout: float = 60.0) -> float | None:
    start = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("POST", "/api/action", body=json.dumps({"action": line}),
                     headers={"Content-Type": "application/json", "X-Table-Token": TOKEN})
        response = conn.getresponse()
        response.read()
        conn.close()
    except OSError:
        return None
    return time.monotonic() - start if response.status in (200, 400) else None


def summary(what: str, times: list[float | None], within: float = 1.0) -> None:
    done = [t for t in times if t is not None]
    fast = sum(t <= within for t in done)
    line = f"{what}: {fast}/{len(times)} within {within:.0f} s"
    if done:
        line += (f", median {statistics.median(done) * 1000:.1f} ms, "
                 f"worst {max(done) * 1000:.0f} ms")
    print(line, flush=True)


def slow_sockets(port: int, count: int, sources: list[str], stop: threading.Event,
                 seconds: float) -> dict[str, int]:
    """Open ``count`` slow requests (from ``sources`` in turn); keep each trickling a header
    line every 5 s until ``stop``; reopen a closed one (a stranger tries again)."""
    tally = {"opened": 0, "closed_by_server": 0}
    socks: list[tuple[socket.socket | None, str]] = [(None, sources[n % len(sources)])
                                                     for n in range(count)]
    end = time.monotonic() + seconds
    while not stop.is_set() and time.monotonic() < end:
        for i, (sock, source) in enumerate(socks):
            if sock is None:
                sock = socket.socket()
                sock.settimeout(0.5)
                try:
                    sock.bind((source, 0))
                    sock.connect(("127.0.0.1", port))
                    sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
                    tally["opened"] += 1
                except OSError:
                    sock.close()
                    sock = None
            else:
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    sock.close()
                    sock = None
                    tally["closed_by_server"] += 1
            socks[i] = (sock, source)
        stop.wait(5)
    for sock, _ in socks:
        if sock is not None:
            sock.close()
    return tally


def part_slow(port: int, count: int, sources: list[str], seconds: float) -> None:
    stop = threading.Event()
    tally: dict[str, int] = {}
    stranger = threading.Thread(target=lambda: tally.update(
        slow_sockets(port, count, sources, stop, seconds + 10)), daemon=True)
    stranger.start()
    time.sleep(3)  # the sockets are open
    times: list[float | None] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        times.append(timed_get(port, "/api/state", timeout=5))
        time.sleep(0.2)
    stop.set()
    stranger.join(15)
    summary(f"phone GET /api/state, {count} slow sockets from {len(sources)} address(es)",
            times)
    print(f"  slow sockets opened {tally.get('opened', 0)}, closed by the server "
          f"{tally.get('closed_by_server', 0)}", flush=True)


def part_stats(port: int, askers: int, seconds: float) -> None:
    cold = timed_get(port, "/api/stats", timeout=60)
    warm = timed_get(port, "/api/stats", timeout=60)
    print(f"GET /api/stats cold {cold or 0:.3f} s, warm {warm or 0:.3f} s", flush=True)
    for path in ("/api/export.json", "/api/export.csv"):
        print(f"GET {path} {timed_get(port, path, timeout=60) or 0:.3f} s", flush=True)
    stop = threading.Event()
    answered = [0]

    def ask(source: str) -> None:
        while not stop.is_set():
            if timed_get(port, "/api/stats", source, timeout=60) is not None:
                answered[0] += 1

    threads = [threading.Thread(target=ask, args=(STRANGERS[n % len(STRANGERS)],),
                                daemon=True) for n in range(askers)]
    for t in threads:
        t.start()
    time.sleep(1)
    times: list[float | None] = []
    rng = random.Random(7)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        dice = " ".join(f"{rng.randint(1, 6)}{rng.choice('rgb')}" for _ in range(6))
        times.append(timed_action(port, f"roll {dice}"))  # 200, or 400 when not now
        time.sleep(0.5)
    stop.set()
    for t in threads:
        t.join(60)
    summary(f"action during {askers} parallel /api/stats", times)
    print(f"  stats answered meanwhile: {answered[0]}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--stats", type=int, default=70)
    parser.add_argument("--old", action="store_true")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.old)
        return 0
    args.seconds = min(args.seconds, 120.0)
    args.slow = min(args.slow, 600)
    with tempfile.TemporaryDirectory(prefix="kotd-stall-") as data:
        start = time.monotonic()
        actions = make_games(Path(data), args.games)
        print(f"{args.games} games, {actions} actions stored in "
              f"{time.monotonic() - start:.1f} s", flush=True)
        child = subprocess.Popen([sys.executable, __file__, "--serve", data,
                                  *(["--old"] if args.old else [])],
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            port = int(child.stdout.readline())
            print(f"server: {'plain waitress (before issue 47)' if args.old else 'kotd'}",
                  flush=True)
            part_slow(port, args.slow, STRANGERS, args.seconds)
            part_slow(port, args.slow, STRANGERS[:1], args.seconds)
            part_stats(port, args.stats, args.seconds)
        finally:
            child.kill()
            child.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
