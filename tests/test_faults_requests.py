"""Fault injection over HTTP: what a stranger on the table's network can send.

No request, however odd, gets a 500 or a traceback; every refusal under ``/api`` is JSON
with a message for a person; a refused request changes nothing; a body larger than an
action is refused before it is read or spooled, with or without the token.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webkit import START, TOKEN, FakeEye, new_table

from rules.names import INVISIBLE, PlayerNameError, player_name
from rules.table import Table
from web import create_app
from web.guard import MAX_BODY_BYTES
from web.server import make_server

AUTH = {"X-Table-Token": TOKEN}


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return new_table(tmp_path, *START)


@pytest.fixture
def app(table: Table) -> Flask:
    return create_app(table, FakeEye(), TOKEN)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def refused(response, status: int, *words: str) -> str:
    """The JSON error message of a refusal with ``status`` that names ``words``."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    message = response.get_json()["error"]
    assert "Traceback" not in message and "File \"" not in message
    for word in words:
        assert word in message, (word, message)
    return message


# ---- the three 500s and the HTML 404 the review found ----------------------------------

@pytest.mark.parametrize("depth", [2000, 100_000])
def test_deeply_nested_json_is_a_bad_request_not_a_crash(client: FlaskClient,
                                                         table: Table,
                                                         depth: int) -> None:
    body = "[" * depth + "]" * depth
    response = client.post("/api/action", data=body, content_type="application/json",
                           headers=AUTH)
    assert response.status_code in (400, 413)
    refused(response, response.status_code)
    response = client.post("/api/action", data='{"action": ' + "[" * 1500 + "]" * 1500 + "}",
                           content_type="application/json", headers=AUTH)
    refused(response, 400, "JSON")
    assert table.version == 2


@pytest.mark.parametrize("game_id", ["99999999999999999999", str(2**63), str(2**63 - 1),
                                     "0", "12345678901234567890123456789"])
def test_a_game_id_beyond_sqlite_is_simply_not_there(client: FlaskClient,
                                                     game_id: str) -> None:
    refused(client.get(f"/api/games/{game_id}"), 404, f"no game {game_id}")


@pytest.mark.parametrize("path", ["/api", "/api/", "/api/nothing", "/api/games/x",
                                  "/api/games/-1"])
def test_every_api_404_is_json(client: FlaskClient, path: str) -> None:
    refused(client.get(path), 404, "no such API route")


def test_pages_still_answer_in_html(client: FlaskClient) -> None:
    response = client.get("/nothing-here")
    assert response.status_code == 404 and response.mimetype == "text/html"


# ---- bodies -----------------------------------------------------------------------------

@pytest.mark.parametrize("headers", [AUTH, {}])
def test_a_body_larger_than_an_action_is_refused_with_or_without_token(
        client: FlaskClient, table: Table, headers: dict) -> None:
    body = json.dumps({"action": "undo", "pad": "x" * (MAX_BODY_BYTES + 1)})
    response = client.post("/api/action", data=body, content_type="application/json",
                           headers=headers)
    refused(response, 413, "too large")
    form = {"action": "undo", "pad": "x" * (MAX_BODY_BYTES + 1)}
    refused(client.post("/api/action", data=form, headers=headers), 413, "too large")
    assert table.version == 2


def test_an_ordinary_action_still_fits(client: FlaskClient, table: Table) -> None:
    response = client.post("/api/action", json={"action": "roll 1r 1g 1b 2r 2g 3b"},
                           headers=AUTH)
    assert response.status_code == 200 and table.version == 3


def _raw(port: int, head: bytes, body: bytes = b"", wait: float = 5.0) -> tuple[int, bytes]:
    """Send raw bytes; the status and body of the reply, read as soon as it comes."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(head + body)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        header, _, rest = data.partition(b"\r\n\r\n")
        status = int(header.split(b" ", 2)[1])
        return status, rest


def test_the_server_refuses_a_huge_body_before_it_arrives(app: Flask,
                                                          table: Table) -> None:
    """300 MB declared, nothing sent: the answer comes at once, so nothing is spooled."""
    with make_server(app, threads=4) as server:
        for token in (b"", b"X-Table-Token: " + TOKEN.encode() + b"\r\n"):
            head = (b"POST /api/action HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\n" + token + b"Content-Length: 300000000\r\n\r\n")
            started = time.monotonic()
            status, _ = _raw(server.port, head)
            assert status == 413
            assert time.monotonic() - started < 2
        # sent in chunks without a length, the body is cut off at the server's limit too
        head = (b"POST /api/action HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n" % 65536 + b"[" * 65536 + b"\r\n"
        status, _ = _raw(server.port, head, chunk * 3)
        assert status == 413
        # a body between the app's limit and the server's is refused by the app, in JSON
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("POST", "/api/action", body=b"{" + b" " * 20_000 + b"}",
                     headers={"Content-Type": "application/json", **AUTH})
        response = conn.getresponse()
        assert response.status == 413
        assert "too large" in json.loads(response.read())["error"]
        conn.close()
    assert table.version == 2


# ---- names ------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "words"), [
    ("players Ann Ann\u3164", ["invisible"]),          # Hangul filler: "Ann" twice on screen
    ("players Ann Ann\u200b", ["invisible"]),          # zero-width space
    ("players Ann \u2060Ann", ["invisible"]),          # word joiner
    ("players Ann Ann\u2800", ["invisible"]),          # blank braille cell
    ("players Ann An\u00adn", ["invisible"]),          # soft hyphen
    ("players Ann \u0410nn", ["alphabets"]),           # Cyrillic A + Latin "nn"
    ("players Ann Ben\u202e", ["invisible"]),          # right-to-left override
    ("players Ann \uff21nn", ["different name"]),      # full-width Ａnn is Ann
    ("players Ann ann", ["different name"]),
])
def test_names_that_look_alike_or_hide_characters_are_refused(
        client: FlaskClient, table: Table, line: str, words: list[str]) -> None:
    refused(client.post("/api/action", json={"action": line}, headers=AUTH), 400, *words)
    assert table.version == 2 and table.record.state.players == ("Ann", "Ben")


def test_names_are_stored_in_one_written_form(client: FlaskClient, table: Table) -> None:
    response = client.post("/api/action", json={"action": "players \uff22en Zoe\u0308 Jürgen"},
                           headers=AUTH)
    assert response.status_code == 200
    assert table.record.state.players == ("Ben", "Zoë", "Jürgen")
    assert table.history()[0].action == "players Ben Zoë Jürgen"


_ALLOWED = st.text(st.characters(categories=("Lu", "Ll")), min_size=1, max_size=8)
_HIDDEN = st.one_of(
    st.sampled_from(sorted(INVISIBLE)),
    st.characters(categories=("Cf", "Cc", "Zs", "Co")),
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(name=_ALLOWED, hidden=_HIDDEN, where=st.integers(0, 8))
def test_no_hidden_character_survives_anywhere_in_a_name(name: str, hidden: str,
                                                         where: int) -> None:
    try:
        clean = player_name(name)
    except PlayerNameError:
        return  # e.g. letters of two alphabets: refused anyway
    spot = min(where, len(name))
    with pytest.raises(PlayerNameError):
        player_name(name[:spot] + hidden + name[spot:])
    assert player_name(clean) == clean  # normalising twice changes nothing


# ---- anything at all --------------------------------------------------------------------

ROUTES = ["/", "/scores", "/setup", "/history", "/qr.svg", "/static/app.js", "/api",
          "/api/state", "/api/action", "/api/live?once=1", "/api/cards", "/api/history",
          "/api/games", "/api/games/1", "/api/camera.jpg", "/api/reread", "/api/throw",
          "/api/advice"]
_TEXT = st.text(max_size=40)
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | _TEXT,
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["action", "token", "x"]) | _TEXT,
                                       inner, max_size=4), max_leaves=12)
_BODY = st.one_of(
    st.none(),
    st.binary(max_size=300),
    _JSON.map(lambda v: json.dumps(v).encode()),
    st.builds(lambda a: json.dumps({"action": a}).encode(), _TEXT),
)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]),
       route=st.sampled_from(ROUTES), tail=st.sampled_from(["", "/", "/x", "/%ff", "/9" * 30]),
       query=st.dictionaries(st.sampled_from(["lang", "token", "once", "x"]), _TEXT,
                             max_size=3),
       body=_BODY, content_type=st.sampled_from([
           "application/json", "application/x-www-form-urlencoded", "multipart/form-data",
           "text/plain", "application/json; charset=latin-1", ""]),
       token=st.booleans())
def test_no_request_gets_a_500(app: Flask, method: str, route: str, tail: str, query: dict,
                               body: bytes | None, content_type: str, token: bool) -> None:
    client = app.test_client()
    path = route.partition("?")[0]
    if route.startswith("/api/live"):
        query = {**query, "once": "1"}  # one state and end: a test must not stream forever
        tail = ""
    response = client.open(path + tail, method=method, query_string=query, data=body,
                           content_type=content_type or None,
                           headers=AUTH if token else {})
    try:
        assert response.status_code < 500, response.get_data(as_text=True)[:300]
        if response.status_code >= 400 and (path + tail).startswith("/api") \
                and method != "HEAD":
            assert response.mimetype == "application/json"
            assert isinstance(response.get_json()["error"], str)
    finally:
        response.close()
