"""The live page over a real waitress server on loopback: two phones see an action at once."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from pathlib import Path

from webkit import START, SUM10, TOKEN, FakeEye, new_app, new_table

from web.server import make_server


class SSEClient:
    """A bare Server-Sent-Events reader on its own thread, recording (time, state)."""

    def __init__(self, port: int, path: str = "/api/live") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", path)
        self.sock = self.conn.sock
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type").startswith("text/event-stream")
        self.states: list[tuple[float, dict]] = []
        self.comments = 0
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event, data = None, []
        try:
            while True:
                raw = self.response.fp.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\n")
                if line.startswith(":"):
                    self.comments += 1
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and event == "state":
                    state = json.loads("\n".join(data))
                    with self.changed:
                        self.states.append((time.monotonic(), state))
                        self.changed.notify_all()
                    event, data = None, []
        except (OSError, ValueError):
            return

    def wait_for_version(self, version: int, timeout: float) -> float | None:
        with self.changed:
            self.changed.wait_for(
                lambda: any(s["version"] >= version for _, s in self.states), timeout)
            return next((t for t, s in self.states if s["version"] >= version), None)

    def close(self) -> None:
        """Hang up as a phone does: the socket goes away (not just this object)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.conn.close()


def post(port: int, line: str, token: str | None = TOKEN) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Table-Token"] = token
    conn.request("POST", "/api/action", body=json.dumps({"action": line}), headers=headers)
    response = conn.getresponse()
    body = json.loads(response.read())
    conn.close()
    return response.status, body


def test_two_phones_see_an_action_within_a_second(tmp_path: Path) -> None:
    table = new_table(tmp_path, *START)
    eye = FakeEye()
    app = new_app(table, eye)  # version 3: the eye reported its status
    with make_server(app, threads=8) as server:
        phones = [SSEClient(server.port), SSEClient(server.port, "/api/live?lang=de")]
        for phone in phones:
            assert phone.wait_for_version(3, 5) is not None
        sent = time.monotonic()
        status, _ = post(server.port, SUM10)
        assert status == 200
        for phone in phones:
            seen = phone.wait_for_version(4, 2)
            assert seen is not None and seen - sent < 1.0
        assert phones[1].states[-1][1]["lang"] == "de"
        # refused actions reach nobody
        assert post(server.port, "claim 3", token=None)[0] == 403
        assert post(server.port, "claim 3")[0] == 400
        # the camera's news travel too
        eye.set(seeing="hand in tray")
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and phones[0].states[-1][1]["eye"]["seeing"] != \
                "hand in tray":
            time.sleep(0.02)
        assert phones[0].states[-1][1]["eye"]["seeing"] == "hand in tray"
        # one version per change, the camera's included; nothing sent twice
        for phone in phones:
            versions = [s["version"] for _, s in phone.states]
            assert versions == sorted(set(versions)) and versions[-1] >= 5
        for phone in phones:
            phone.close()


def test_streams_end_when_the_phone_leaves(tmp_path: Path) -> None:
    app = new_app(new_table(tmp_path, *START))
    with make_server(app, threads=4) as server:
        base = threading.active_count()
        for _ in range(6):  # more streams than threads: only works if closed ones end
            phone = SSEClient(server.port)
            assert phone.wait_for_version(2, 5) is not None
            phone.close()
        last = SSEClient(server.port)
        assert last.wait_for_version(2, 5) is not None
        last.close()
        assert threading.active_count() <= base + 6


def test_closing_the_server_ends_open_streams(tmp_path: Path) -> None:
    app = new_app(new_table(tmp_path, *START))
    server = make_server(app, threads=4).start()
    phone = SSEClient(server.port)
    assert phone.wait_for_version(2, 5) is not None
    started = time.monotonic()
    server.close()
    assert time.monotonic() - started < 3
    phone.thread.join(3)
    assert not phone.thread.is_alive()


def test_the_oldest_stream_gives_way_when_the_limit_is_reached(tmp_path: Path) -> None:
    table = new_table(tmp_path, *START)
    app = new_app(table, config={"LIVE_MAX_STREAMS": 2})
    with make_server(app, threads=4) as server:
        vanished = SSEClient(server.port)  # a phone that never hangs up
        assert vanished.wait_for_version(2, 5) is not None
        second = SSEClient(server.port)
        assert second.wait_for_version(2, 5) is not None
        third = SSEClient(server.port)
        assert third.wait_for_version(2, 5) is not None
        vanished.thread.join(3)
        assert not vanished.thread.is_alive()  # its stream was ended by the server
        assert post(server.port, SUM10)[0] == 200  # threads are left for actions
        assert second.wait_for_version(3, 2) and third.wait_for_version(3, 2)
        assert app.extensions["kotd"].live_streams == 2
        for phone in (second, third):
            phone.close()


def test_the_stream_limit_follows_the_threads() -> None:
    from web.server import live_stream_limit

    assert live_stream_limit(24) == 20
    assert live_stream_limit(8) == 6
    assert live_stream_limit(2) == 1
