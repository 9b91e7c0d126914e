"""Bad input, round three (issue 47): odd text in requests, odd files on the command line,
names that split, hide or pass for another.

Every case ends in a refusal a person can read: over HTTP a 400 with JSON (never a 500,
nothing logged as a traceback, the game and its stored history unchanged); on the command
line one ``kotd: ...`` line and exit status 2, in a real process that must not hang.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from pathlib import Path

import pytest
from conftest import KOTD
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from webkit import START, TOKEN

from rules.actions import Players, parse_line, vocabulary
from rules.errors import ActionSyntaxError
from rules.names import MAX_MARKS, PlayerNameError, look_alike, player_name
from rules.table import Table

AUTH = {"X-Table-Token": TOKEN, "Content-Type": "application/json"}


def unchanged(table: Table, version: int) -> None:
    assert table.version == version
    assert [e.action for e in table.history()] == START


# ---- item 8: a lone surrogate, a Host header no QR code holds -----------------------------

SURROGATE = '"\\ud800"'  # JSON text: the escape of half a character


@pytest.mark.parametrize(("route", "body"), [
    ("/api/action", '{"action": "players Ann ' + SURROGATE[1:] + "}"),
    ("/api/action", '{"action": "claim 2", "id": ' + SURROGATE + "}"),
    ("/api/action", '{' + SURROGATE + ': "claim 2"}'),
    ("/api/held", '{"fix": ' + SURROGATE + "}"),
    ("/api/held", '{"confirm": true, "x": [' + SURROGATE + "]}"),
    ("/api/colors", '{"colors": {' + SURROGATE + ': "#e53935"}}'),
    ("/api/colors", '{"colors": {"Ann": ' + SURROGATE + "}}"),
])
def test_a_lone_surrogate_is_a_bad_request(client: FlaskClient, table: Table, route: str,
                                           body: str, caplog: pytest.LogCaptureFixture
                                           ) -> None:
    version = table.version
    with caplog.at_level(logging.ERROR):
        response = client.post(route, data=body.encode(), headers=AUTH)
    assert response.status_code == 400, response.get_data(as_text=True)
    reply = response.get_json()
    assert reply["code"] == "usage.not_unicode" and "surrogate" in reply["error"]
    assert not [r for r in caplog.records if r.exc_info]  # nothing logged as a crash
    unchanged(table, version)


def test_a_surrogate_pair_is_an_ordinary_character(client: FlaskClient) -> None:
    # an emoji written as its escaped pair is text like any other: refused as no name,
    # but as a name (400 action.name), not as broken text
    response = client.post("/api/action", data=b'{"action": "players Ann \\ud83d\\ude00"}',
                           headers=AUTH)
    assert response.status_code == 400
    assert response.get_json()["code"] == "action.name"


def test_the_german_refusal_of_a_surrogate(client: FlaskClient) -> None:
    response = client.post("/api/action?lang=de", data=b'{"action": "\\udfff"}', headers=AUTH)
    assert response.status_code == 400
    assert "Surrogat" in response.get_json()["error"]


def test_a_host_header_too_long_for_a_qr_code_is_refused(client: FlaskClient) -> None:
    host = ".".join(["table"] * 500) + ":8000"  # 3 kB of valid host name
    response = client.get("/qr.svg", headers={"X-Table-Token": TOKEN, "Host": host})
    assert response.status_code == 400
    assert "too long for a QR code" in response.get_json()["error"]
    odd = client.get("/qr.svg", headers={"X-Table-Token": TOKEN, "Host": "a" * 2500})
    assert odd.status_code == 400 and odd.mimetype == "application/json"
    ok = client.get("/qr.svg", headers={"X-Table-Token": TOKEN, "Host": "kotd.local:8000"})
    assert ok.status_code == 200 and ok.mimetype == "image/svg+xml"


# ---- item 10: names ---------------------------------------------------------------------

VERBS = vocabulary(Players)


@pytest.mark.parametrize("space", ["\u00a0", "\u2009", "\u3000", "\t", "\u202f", "\u2007"])
def test_a_space_inside_a_name_never_makes_two_players(client: FlaskClient, table: Table,
                                                       space: str) -> None:
    version = table.version
    response = client.post("/api/action",
                           data=json.dumps({"action": f"players Ann{space}Marie Ben"}),
                           headers=AUTH)
    assert response.status_code == 400
    reply = response.get_json()
    assert reply["code"] == "action.name_space" and "one word" in reply["error"]
    unchanged(table, version)


def test_ordinary_spaces_still_separate_players() -> None:
    assert parse_line("players  Ann   Ben ", VERBS) == Players(("Ann", "Ben"))


@pytest.mark.parametrize(("line", "code", "words"), [
    ("players coe \u0441\u043e\u0435", "action.look_alike", ["look alike"]),  # Cyrillic сое
    ("players Paul PauI", "action.look_alike", ["look alike"]),              # capital i
    ("players .. Ann", "action.name", ["letter or a digit"]),
    ("players - Ann", "action.name", ["letter or a digit"]),
    ("players Ann '-.", "action.name", ["letter or a digit"]),
    ("players A" + "\u0301" * 19 + " Ben", "action.name", ["accents"]),
    ("players Ann Ben\u0000", "action.name", ["invisible"]),
])
def test_names_that_pass_for_another_or_for_nothing_are_refused(
        client: FlaskClient, table: Table, line: str, code: str, words: list[str]) -> None:
    version = table.version
    response = client.post("/api/action", data=json.dumps({"action": line}), headers=AUTH)
    assert response.status_code == 400, response.get_data(as_text=True)
    reply = response.get_json()
    assert reply["code"] == code, reply
    for word in words:
        assert word in reply["error"]
    unchanged(table, version)


@pytest.mark.parametrize("names", [("Ann", "Ben", "Cem"), ("Zoë", "Jan", "Jon"),
                                   ("Mia", "Mila", "Leo", "Lea"), ("Nguyễn", "Tran"),
                                   ("\u092a\u094d\u0930\u093f\u092f\u093e", "Ann")])
def test_ordinary_names_are_kept(names: tuple[str, ...]) -> None:
    assert look_alike(names) is None
    assert parse_line("players " + " ".join(names), VERBS) == Players(
        tuple(player_name(n) for n in names))


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(categories=("Mn",)), min_size=MAX_MARKS + 1, max_size=30))
def test_a_letter_under_more_accents_than_allowed_is_refused(marks: str) -> None:
    with pytest.raises(PlayerNameError):
        player_name("A" + marks)


@pytest.mark.parametrize("name", ["Ben\u202e", "Ann\u0000", "An\u200bn", "Ben\u2066x"])
def test_colour_names_hold_nothing_hidden(client: FlaskClient, table: Table,
                                          name: str) -> None:
    version = table.version
    response = client.post("/api/colors", data=json.dumps({"colors": {name: "#e53935"}}),
                           headers=AUTH)
    assert response.status_code == 400
    assert response.get_json()["code"] == "action.name"
    assert table.version == version and table.store.colors() == {}


def test_colour_names_are_kept_in_the_names_written_form(client: FlaskClient,
                                                         table: Table) -> None:
    response = client.post("/api/colors", data=json.dumps({"colors": {"\uff21nn": "#E53935"}}),
                           headers=AUTH)
    assert response.status_code == 200
    assert table.store.colors() == {"Ann": "#e53935"}


def test_a_space_error_names_the_word_that_holds_it() -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        parse_line("players Ben Ann\u00a0Marie", VERBS)
    assert "Ann\\xa0Marie" in str(caught.value) and "U+00A0" in str(caught.value)


# ---- item 9: the command line: one line, exit 2, never a hang ----------------------------

def kotd(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KOTD, *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, cwd=cwd)


def one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    assert lines[0].startswith("kotd: "), lines
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    """A folder with a plain file, a pipe nobody writes to and a binary file."""
    (tmp_path / "afile").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "bin.toml").write_bytes(b"\x00\xff\xfe\x80 binary")
    (tmp_path / "game.txt").write_text("players Ann Ben\n")
    return tmp_path


SERVE = ("serve", "--source", "sim", "--pins", "mock", "--port", "8999")


@pytest.mark.parametrize(("args", "words"), [
    (("play", "--script", "game.txt", "--data-dir", "afile"), ["afile", "not a folder"]),
    (("play", "--script", "game.txt", "--data-dir", "/proc/nope"), ["/proc/nope"]),
    (("serve", "--config", "/dev/zero"), ["/dev/zero", "larger than"]),
    (("serve", "--config", "bin.toml"), ["bin.toml", "UTF-8"]),
    (("serve", "--config", "fifo"), ["fifo", "a pipe"]),
    (("serve", "--host", "999.1.1.1"), ["999.1.1.1"]),
    ((*SERVE, "--data-dir", "/proc/nope"), ["/proc/nope"]),
    ((*SERVE, "--data-dir", "afile"), ["afile", "not a folder"]),
    (("read", "fifo"), ["fifo", "a pipe"]),
    (("play", "--script", "fifo"), ["fifo", "a pipe"]),
])
def test_the_command_line_refuses_in_one_line(odd: Path, args: tuple[str, ...],
                                              words: list[str]) -> None:
    one_line(kotd(*args, cwd=odd), *words)
