"""Fault injection on the live page: fifty phones at once, and a stranger who floods it.

``kotd serve`` runs as a real process with its real server settings. Each phone comes
from its own loopback address (127.0.0.2, 127.0.0.3, ...), as phones on the Wi-Fi do.
Fifty phones stay connected for the whole window (no stream is ended to make room for
another, so no phone's "reconnecting" badge flickers) and every phone receives every
version of the game. A stranger opening stream after stream from one address only ends
his own older streams, and disturbs no phone. (The full minute is
``benchmarks/bench_live.py --clients 50 --seconds 60``; its figures are in BENCHMARKS.md.)
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from pathlib import Path

from served import Served, wait_for

GAME = ["players Ann Ben", "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g"]
ROLLS = ["roll 1r 1g 1b 2r 2g 3b", "undo"]  # legal forever: a roll, then taken back


class Phone(threading.Thread):
    """One phone's live stream from its own address: every version it received, and
    whether the server ended its stream."""

    def __init__(self, port: int, address: str, path: str = "/api/live") -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                               source_address=(address, 0))
        self.conn.request("GET", path)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.versions: list[int] = []
        self.ended = False
        self.seen = threading.Condition()

    def run(self) -> None:
        if self.status != 200:
            return
        data: list[str] = []
        try:
            while True:
                raw = self.response.fp.readline()
                if not raw:
                    self.ended = True
                    return
                line = raw.decode()
                if line.startswith("data:"):
                    data.append(line[5:])
                elif line == "\n" and data:
                    version = json.loads("".join(data))["version"]
                    data = []
                    with self.seen:
                        self.versions.append(version)
                        self.seen.notify_all()
        except (OSError, ValueError):
            return

    def wait_for(self, version: int, seconds: float) -> bool:
        """Whether this version (or a later one) arrived within ``seconds``."""
        with self.seen:
            return self.seen.wait_for(
                lambda: bool(self.versions) and self.versions[-1] >= version, seconds)

    def hang_up(self) -> None:
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def test_fifty_phones_stay_live_and_get_every_version(tmp_path: Path) -> None:
    with Served(tmp_path / "data") as server:
        for line in GAME:
            assert server.act(line)[0] == 200
        first = server.state()["version"]
        phones = [Phone(server.port, f"127.0.0.{2 + i}") for i in range(50)]
        assert [p.status for p in phones] == [200] * 50
        for phone in phones:
            phone.start()
        for phone in phones:
            assert phone.wait_for(first, 15), "a phone never got the table"
        posted = []
        for i in range(24):  # about six seconds of play, an action every quarter second
            status, body = server.act(ROLLS[i % 2])
            assert status == 200, body
            posted.append(body["version"])
            time.sleep(0.25)
        for phone in phones:
            assert phone.wait_for(posted[-1], 10)
        missing = {i: sorted(set(posted) - set(p.versions)) for i, p in enumerate(phones)}
        assert not any(missing.values()), missing
        assert all(p.versions == sorted(set(p.versions)) for p in phones)  # in order, once
        assert not any(p.ended for p in phones)  # nobody was pushed off: no flicker
        for phone in phones:
            phone.hang_up()


def test_a_stranger_flooding_the_stream_disturbs_no_phone(tmp_path: Path) -> None:
    with Served(tmp_path / "data") as server:
        for line in GAME:
            assert server.act(line)[0] == 200
        phones = [Phone(server.port, f"127.0.0.{2 + i}") for i in range(3)]
        for phone in phones:
            phone.start()
        flood: list[Phone] = []
        refused = 0
        for _ in range(80):  # more than threads, more than one address may hold
            try:
                flood.append(Phone(server.port, "127.0.0.99"))
            except OSError:  # past the per-address limit the server closes at once
                refused += 1
                continue
            flood[-1].start()
        assert refused > 0
        # only the stranger's newest few streams stay open: the older ones were ended
        wait_for(lambda: sum(not s.ended for s in flood) <= 4, what="the flood to be cut")
        status, body = server.act(ROLLS[0])
        assert status == 200
        for phone in phones:
            assert phone.wait_for(body["version"], 10)
            assert not phone.ended
        for stream in flood + phones:
            stream.hang_up()
