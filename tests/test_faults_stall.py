"""Nothing stalls the table (issue 47, items 1-3): slow or idle connections from a stranger,
expensive public routes, spectators crowding the live streams.

Over a real waitress server on loopback, bounded in count and time. Speed is measured in
``benchmarks/bench_stall.py``; these tests assert behaviour: the phones are answered while
a stranger holds connections, a request that never finishes arriving is cut, stats and
exports say exactly what a replay of every game says, and a player's stream stays.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from pathlib import Path

import pytest
from webkit import START, SUM10, TOKEN, new_app, new_table

from rules.table import Table
from web.context import Shared
from web.server import make_server
from web.stats import stats as stats_of

STRANGER = "127.0.0.2"  # loopback, another address: a stranger on the Wi-Fi


def slow_socket(port: int, source: str) -> socket.socket | None:
    """A connection from ``source`` that starts a request and never finishes it."""
    sock = socket.socket()
    sock.settimeout(2)
    try:
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
    except OSError:
        sock.close()
        return None
    return sock


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def phone_state(port: int, timeout: float = 3.0) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/api/state")
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return new_table(tmp_path, *START)


def test_a_stranger_holding_connections_does_not_stall_the_phones(table: Table) -> None:
    app = new_app(table)
    with make_server(app, threads=8, per_address=10, request_seconds=30) as server:
        slow = [s for s in (slow_socket(server.port, STRANGER) for _ in range(40)) if s]
        try:
            time.sleep(0.5)
            cut = [s for s in slow if closed_by_server(s, 0.2)]
            assert len(cut) >= 25  # beyond 10 from one address: closed as they arrive
            for _ in range(10):
                assert phone_state(server.port) == 200
        finally:
            for s in slow:
                s.close()


def test_a_request_that_never_finishes_arriving_is_cut(table: Table) -> None:
    app = new_app(table)
    with make_server(app, threads=4, request_seconds=1, cleanup_interval=1) as server:
        sock = slow_socket(server.port, STRANGER)
        assert sock is not None
        try:
            cut_at = None
            start = time.monotonic()
            for _ in range(8):  # a header line every half second: never idle, never done
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Slow: 1\r\n")
                if closed_by_server(sock, 0.5):
                    cut_at = time.monotonic() - start
                    break
            assert cut_at is not None and cut_at < 4.5
        finally:
            sock.close()
        assert phone_state(server.port) == 200


def test_a_live_stream_is_not_cut_as_a_slow_request(table: Table) -> None:
    app = new_app(table, config={"HEARTBEAT_SECONDS": 0.5})
    with make_server(app, threads=4, request_seconds=1, cleanup_interval=1) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/live")
        response = conn.getresponse()
        assert response.status == 200
        end = time.monotonic() + 3.5
        heartbeats = 0
        while time.monotonic() < end:
            heartbeats += b"heartbeat" in response.fp.readline()
        assert heartbeats >= 3  # still streaming after three request deadlines
        conn.close()


# ---- item 3: players' streams stay ----------------------------------------------------------

def test_a_players_stream_never_gives_way_to_a_spectators() -> None:
    shared = Shared(table=None, eye=None, token="t")  # type: ignore[arg-type]
    ann = shared.open_stream(3, "10.0.0.1", 4, player=True)
    ben = shared.open_stream(3, "10.0.0.2", 4, player=True)
    spectators = [shared.open_stream(3, f"10.0.1.{n}", 4) for n in range(80)]
    assert not ann.is_set() and not ben.is_set()
    assert sum(not s.is_set() for s in spectators) == 1  # the newest spectator has the room
    cem = shared.open_stream(3, "10.0.0.3", 4, player=True)  # a third player: a spectator goes
    assert not (ann.is_set() or ben.is_set() or cem.is_set())
    late = shared.open_stream(3, "10.0.1.200", 4)  # every stream a player's: none for it
    assert late.is_set() and shared.live_streams == 3


def test_the_page_sends_its_token_with_its_live_stream() -> None:
    script = (Path(__file__).parents[1] / "web/static/app.js").read_text()
    assert '"&token=" + encodeURIComponent(K.token)' in script


# ---- item 2: stats and exports without replaying per request --------------------------------

GAMES = 12


@pytest.fixture
def many(tmp_path: Path) -> Table:
    """A table with ``GAMES`` stored games (some finished or nearly), each a few actions."""
    table = new_table(tmp_path, *START)
    for n in range(GAMES - 1):
        names = ("Ann", "Ben") if n % 2 else ("Cem", "Dan", "Eva")
        table.act(table.parse("players " + " ".join(names)))
        for line in [*START[1:], SUM10]:
            table.act(table.parse(line))
    return table


def replayed(table: Table, lang: str = "en") -> list[dict]:
    """The oracle: every stored game replayed now."""
    out = []
    for info in reversed(table.games()):
        record, problem = table.past(info.id)
        assert record is not None
        view = record.pack.view(record, lang)
        over = bool(view.get("over"))
        out.append({"id": info.id, "game": info.game, "started": info.started, "over": over,
                    "finished": table.history(info.id)[-1].at if over else "",
                    "problem": problem,
                    "players": [p["name"] for p in view["players"]],
                    "scores": view["scores"]})
    return out


def test_stats_are_what_a_replay_of_every_game_says_and_follow_new_actions(many: Table
                                                                          ) -> None:
    client = new_app(many).test_client()
    assert client.get("/api/stats").get_json() == json.loads(json.dumps(
        {"game": "kotd", **stats_of(replayed(many))}))
    many.act(many.parse("claim 2"))  # the current game changes: its summary follows
    fresh = client.get("/api/stats").get_json()
    assert fresh == json.loads(json.dumps({"game": "kotd", **stats_of(replayed(many))}))
    assert client.get("/api/stats?game=ukuk").get_json()["players"] == []  # per game
    assert client.get("/api/stats?game=nope").status_code == 400
    assert fresh["games"][-1]["totals"] != {}


def test_stats_replay_each_game_once(many: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    client = new_app(many).test_client()
    calls: list[int] = []
    past = many.past
    monkeypatch.setattr(many, "past", lambda game_id: calls.append(game_id) or past(game_id))
    for _ in range(5):
        assert client.get("/api/stats").status_code == 200
    assert sorted(calls) == sorted(g.id for g in many.games())  # once each, not five times
    many.act(many.parse("claim 2"))
    client.get("/api/stats")
    assert len(calls) == GAMES + 1  # only the game that changed


def test_exports_stream_what_a_replay_says(many: Table) -> None:
    client = new_app(many).test_client()
    response = client.get("/api/export.json", buffered=False)
    assert response.is_streamed  # sent game by game, never built whole
    body = json.loads(b"".join(response.response))
    response.close()
    assert [{k: v for k, v in g.items() if k != "events"} for g in body["games"]] == \
        json.loads(json.dumps(replayed(many)))
    assert [e["action"] for e in body["games"][0]["events"]] == \
        [e.action for e in many.history(body["games"][0]["id"])]
    csv = client.get("/api/export.csv").get_data(as_text=True).splitlines()
    assert csv[0].startswith("game_id,game,started,finished,player")
    assert len(csv) == 1 + sum(len(g["scores"]) for g in replayed(many))


def test_at_most_two_exports_at_once(many: Table) -> None:
    client = new_app(many).test_client()
    first = client.get("/api/export.json", buffered=False)
    second = client.get("/api/export.csv", buffered=False)
    third = client.get("/api/export.csv")
    assert third.status_code == 503 and third.headers["Retry-After"]
    first.close()
    second.close()
    assert client.get("/api/export.csv").status_code == 200  # their places are free again


def test_an_action_is_answered_while_stats_are_asked_in_parallel(many: Table) -> None:
    app = new_app(many)
    with make_server(app, threads=16) as server:
        def ask() -> None:
            for _ in range(3):
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                conn.request("GET", "/api/stats")
                conn.getresponse().read()
                conn.close()
        askers = [threading.Thread(target=ask) for _ in range(12)]
        for t in askers:
            t.start()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("POST", "/api/action", body=json.dumps({"action": "claim 2"}),
                     headers={"Content-Type": "application/json", "X-Table-Token": TOKEN})
        assert conn.getresponse().status == 200
        conn.close()
        for t in askers:
            t.join(60)
