"""How fast the live page follows the game: ten phones on the stream, an action a second.

Run: ``.venv/bin/python benchmarks/bench_live.py [--seconds 60] [--clients 10]``.

Starts the page's waitress server in a child process on loopback (an in-memory game, no
camera), opens ``--clients`` Server-Sent-Events streams, then plays
legal actions through ``POST /api/action`` every 0.5-1 s for ``--seconds``. For every
action and every client it measures the time from just before the POST is sent to the
moment that client has read the state carrying the action's version. Prints the median,
95th percentile and maximum, and how many updates were missed. Loopback only; every loop
is bounded by time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token"
PLAYERS = "players Ann Ben Cem Dan"


def serve(port: int, threads: int) -> None:
    """Child process: the real app and server, an in-memory game, until killed."""
    sys.path.insert(0, str(ROOT))
    from rules.games import game_pack
    from rules.store import EventStore
    from rules.table import Table
    from web import create_app
    from web.server import make_server

    server = make_server(create_app(Table(EventStore(None), game_pack("kotd")), None, TOKEN),
                         port=port, threads=threads)
    print(server.port, flush=True)
    server.run()


class Phone(threading.Thread):
    """One live client: records when each version's state arrived (monotonic clock)."""

    def __init__(self, port: int, stop: threading.Event, address: str = "127.0.0.1") -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                               source_address=(address, 0))
        self.ended = False  # the server ended the stream (pushed off for another)
        self.conn.request("GET", "/api/live")
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.arrived: dict[int, float] = {}
        self.stop = stop
        self.heartbeats = 0

    def run(self) -> None:
        data: list[str] = []
        try:
            while not self.stop.is_set():
                raw = self.response.fp.readline()
                if not raw:
                    self.ended = not self.stop.is_set()
                    return
                line = raw.decode()
                if line.startswith("data:"):
                    data.append(line[5:])
                elif line.startswith(":"):
                    self.heartbeats += 1
                elif line == "\n" and data:
                    state = json.loads("".join(data))
                    self.arrived.setdefault(state["version"], time.monotonic())
                    data = []
        except OSError:
            return


def post(conn: http.client.HTTPConnection, line: str) -> dict[str, Any]:
    conn.request("POST", "/api/action", body=json.dumps({"action": line}),
                 headers={"Content-Type": "application/json", "X-Table-Token": TOKEN})
    response = conn.getresponse()
    body: dict[str, Any] = json.loads(response.read())
    if response.status != 200:
        raise RuntimeError(f"{line!r} refused: {body}")
    return body


def next_action(state: dict[str, Any], rng: random.Random) -> str:
    """A legal action: roll, claim what fits, give, draw, take the penalty; new games."""
    q = state.get("question") or {}
    choices: list[str] = q.get("choices", [])
    if state["phase"] in ("none", "over"):
        return PLAYERS
    if q.get("ask") == "row":
        return "row " + " ".join(rng.sample(choices, q["count"]))
    if q.get("ask") == "draw":
        return "draw " + rng.choice(choices)
    if q.get("ask") == "give":
        return "give " + rng.choice(choices)
    if state["claimable"]:
        return f"claim {rng.choice(state['claimable'])}"
    if state["dice"] is not None and state["rolls_used"] >= state["max_rolls"]:
        return f"penalty {q['choices'][0]}"
    dice = " ".join(f"{rng.randint(1, 6)}{rng.choice('rgb')}" for _ in range(6))
    return f"roll {dice}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--threads", type=int, default=64,
                        help="waitress threads (kotd serve's default: 64)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.threads)
        return 0

    child = subprocess.Popen([sys.executable, __file__, "--serve", "0",
                              "--threads", str(args.threads)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        stop = threading.Event()
        # each phone from its own loopback address, as phones on the Wi-Fi are
        phones = [Phone(port, stop, f"127.0.{1 + i // 250}.{2 + i % 250}")
                  for i in range(args.clients)]
        cpu_before, rss_before = _usage(child.pid)
        for phone in phones:
            phone.start()
        time.sleep(0.5)
        rng = random.Random(args.seed)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/state")
        state = json.loads(conn.getresponse().read())
        sent: dict[int, float] = {}
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            line = next_action(state, rng)
            t0 = time.monotonic()
            state = post(conn, line)
            sent[state["version"]] = t0
            time.sleep(rng.uniform(0.5, 1.0))
        time.sleep(1.0)  # the last action's updates
        cpu_after, rss_after = _usage(child.pid)
        ended = sum(phone.ended for phone in phones)
        stop.set()
        latencies, missed = [], 0
        for phone in phones:
            for version, t0 in sent.items():
                arrived = phone.arrived.get(version)
                if arrived is None:
                    missed += 1
                else:
                    latencies.append((arrived - t0) * 1000)
        conn.close()
    finally:
        child.terminate()
        child.wait(10)
    print(f"live page: {args.clients} SSE clients, {len(sent)} actions over "
          f"{args.seconds:.0f} s, {len(latencies)} updates received, {missed} missed")
    if latencies:
        print(f"update latency (action POST sent -> client has the new state): "
              f"median {statistics.median(latencies):.1f} ms, "
              f"p95 {percentile(latencies, 95):.1f} ms, max {max(latencies):.1f} ms")
    busy = (cpu_after - cpu_before) / (args.seconds + 1.0) * 100
    print(f"server ({args.threads} threads): {ended} streams ended by the server (pushed "
          f"off), CPU {busy:.1f}% of one core, memory {rss_before / 1e6:.0f} MB with the "
          f"phones connected -> {rss_after / 1e6:.0f} MB at the end")
    return 0 if missed == 0 and ended == 0 else 1


def _usage(pid: int) -> tuple[float, int]:
    """CPU seconds and resident bytes of process ``pid`` (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


if __name__ == "__main__":
    sys.exit(main())
