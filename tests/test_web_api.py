"""The page's JSON API through Flask's test client: every route and every refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webkit import NOTHING, START, SUM10, TOKEN, FakeEye, new_app, new_table

from rules.table import Table
from web import create_app
from web.ports import TableEye

AUTH = {"X-Table-Token": TOKEN}


def act(client: FlaskClient, line: str, **kw):
    return client.post("/api/action", json={"action": line}, headers=AUTH, **kw)


def test_the_fake_eye_is_a_table_eye(eye: FakeEye) -> None:
    assert isinstance(eye, TableEye)


def test_a_token_is_made_when_none_is_given(table: Table) -> None:
    a, b = create_app(table), create_app(table)
    assert len(a.config["TABLE_TOKEN"]) >= 16
    assert a.config["TABLE_TOKEN"] != b.config["TABLE_TOKEN"]


def test_state_is_the_table_view_with_eye_and_version(client: FlaskClient) -> None:
    # version 2 after the two START actions, 3 once the eye reported its status
    state = client.get("/api/state").get_json()
    assert state["phase"] == "rolling" and state["current_player"] == "Ann"
    assert [s["card"]["id"] for s in state["row"]][:2] == ["snob-even", "hypnotist"]
    assert state["eye"]["camera"] == "simulated" and state["eye"]["dice_seen"] == 6
    assert state["version"] == 3 and state["can_act"] is False and state["advice"] is False
    assert client.get("/api/state", headers=AUTH).get_json()["can_act"] is True


def test_state_speaks_german(client: FlaskClient) -> None:
    state = client.get("/api/state?lang=de").get_json()
    assert state["lang"] == "de"
    assert state["row"][1]["card"]["label"].startswith("Der Hypnotiseur")
    assert state["row"][0]["village"]["name"] == "Stadt"
    state = client.get("/api/state", headers={"Accept-Language": "de-DE,de;q=0.9"}).get_json()
    assert state["lang"] == "de"
    assert client.get("/api/state?lang=xx").get_json()["lang"] == "en"


def test_state_without_a_game(tmp_path: Path) -> None:
    client = new_app(new_table(tmp_path)).test_client()
    state = client.get("/api/state").get_json()
    assert state["phase"] == "none" and state["players"] == [] and state["game_id"] is None
    assert state["eye"]["camera"] == "none"


def test_cards_catalogue(client: FlaskClient) -> None:
    cat = client.get("/api/cards?lang=de").get_json()
    assert len(cat["cards"]) == 65
    assert cat["cards"]["dragon-25"]["name"] == "Drache"
    assert cat["cards"]["penalty-1a"]["name"] == "Strafkarte"
    assert cat["kinds"]["dwarf"] == "Mürrischer Zwerg"


def test_an_action_changes_the_game_and_returns_the_new_state(
        client: FlaskClient, table: Table) -> None:
    response = act(client, SUM10)
    assert response.status_code == 200
    state = response.get_json()
    assert state["done"] == SUM10 and state["claimable"] == [2, 4, 5]
    assert state["version"] == table.version == 4
    assert act(client, "claim 2").get_json()["question"]["ask"] == "draw"
    assert table.record is not None
    assert table.record.state.kingdoms[0][0] == "hypnotist"


def test_an_action_by_form_field_and_by_query_token(client: FlaskClient, table: Table) -> None:
    response = client.post(f"/api/action?token={TOKEN}", data={"action": SUM10})
    assert response.status_code == 200
    response = client.post("/api/action", data={"action": "undo", "token": TOKEN})
    assert response.status_code == 200 and table.version == 5
    assert table.record is not None and table.record.state.roll is None


@pytest.mark.parametrize("headers", [{}, {"X-Table-Token": "wrong"}, {"X-Table-Token": ""}])
def test_an_action_without_the_token_is_refused_and_changes_nothing(
        client: FlaskClient, table: Table, headers: dict) -> None:
    before = (table.version, table.record)
    response = client.post("/api/action", json={"action": SUM10}, headers=headers)
    assert response.status_code == 403
    assert "token" in response.get_json()["error"]
    assert (table.version, table.record) == before


def test_a_token_in_a_cookie_is_not_enough(client: FlaskClient, table: Table) -> None:
    client.set_cookie("token", TOKEN)
    client.set_cookie("X-Table-Token", TOKEN)
    assert client.post("/api/action", json={"action": SUM10}).status_code == 403
    assert table.version == 3


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"data": "not json", "content_type": "application/json"}, "send JSON"),
    ({"json": ["claim 2"]}, "send JSON"),
    ({"json": {}}, "must be an action line"),
    ({"json": {"action": 3}}, "must be an action line"),
    ({"json": {"action": "   "}}, "must be an action line"),
    ({"json": {"action": "x" * 201}}, "at most 200"),
    ({"json": {"action": "undo\nundo"}}, "one action at a time"),
    ({}, "send JSON"),
    ({"json": {"action": "dance 3"}}, "unknown action 'dance'"),
    ({"json": {"action": "claim two"}}, "must be a whole number"),
    ({"json": {"action": "roll 7r 1g 1b 2r 2g 3b"}}, "roll:"),
    ({"json": {"action": "claim 2"}}, "roll the dice first"),
    ({"json": {"action": "draw orc-4"}}, "cannot draw a card now"),
    ({"json": {"action": "row orc-3 elf-4 dwarf-3x1 gnome-3green hypnotist"}}, "row"),
])
def test_bad_requests_get_400_with_a_message_and_change_nothing(
        client: FlaskClient, table: Table, kwargs: dict, message: str) -> None:
    before = (table.version, table.record, len(table.history()))
    response = client.post("/api/action", headers=AUTH, **kwargs)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert message in response.get_json()["error"]
    assert (table.version, table.record, len(table.history())) == before


def test_illegal_moves_carry_the_referees_message(client: FlaskClient, table: Table) -> None:
    assert act(client, NOTHING).status_code == 200
    response = act(client, "claim 1")
    assert response.status_code == 400 and "does not satisfy" in response.get_json()["error"]
    response = act(client, "penalty -9")
    assert response.status_code == 400
    assert act(client, "penalty -2").status_code == 200
    response = act(client, "draw ork-4")
    assert response.status_code == 400 and "did you mean orc-4" in response.get_json()["error"]


def test_undo_through_the_api(client: FlaskClient, table: Table) -> None:
    act(client, SUM10)
    state = act(client, "undo").get_json()
    assert state["dice"] is None and state["rolls_used"] == 0


def test_a_new_game_through_the_api(client: FlaskClient, table: Table) -> None:
    old = table.game_id
    state = act(client, "players Cem Dan Eve").get_json()
    assert state["phase"] == "setup" and state["question"]["ask"] == "row"
    assert len(state["question"]["choices"]) == 40 and state["game_id"] != old
    assert act(client, "players Solo").status_code == 400


def test_history_and_games(client: FlaskClient, table: Table) -> None:
    act(client, SUM10)
    hist = client.get("/api/history").get_json()
    assert hist["game_id"] == table.game_id
    assert [e["action"] for e in hist["events"]] == [*START, SUM10]
    assert all(e["at"] for e in hist["events"])
    first = table.game_id
    act(client, "players Cem Dan")
    games = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in games] == [table.game_id, first]
    assert games[1]["players"] == ["Ann", "Ben"] and games[1]["events"] == 3
    assert games[0]["current"] and not games[1]["current"]
    past = client.get(f"/api/games/{first}?lang=de").get_json()
    assert past["view"]["dice"]["text"] == "1r 1g 1b 2r 2g 3b" and len(past["events"]) == 3
    assert client.get("/api/games/999").status_code == 404
    assert "no game 999" in client.get("/api/games/999").get_json()["error"]
    assert client.get("/api/games/abc").status_code == 404


def test_history_without_a_game(tmp_path: Path) -> None:
    client = new_app(new_table(tmp_path)).test_client()
    assert client.get("/api/history").get_json() == {"game_id": None, "events": []}
    assert client.get("/api/games").get_json() == {"games": []}


def test_camera_picture(client: FlaskClient, eye: FakeEye) -> None:
    response = client.get("/api/camera.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.data == eye.jpeg
    eye.jpeg = None
    response = client.get("/api/camera.jpg")
    assert response.status_code == 404 and "no camera picture yet" in response.get_json()["error"]


def test_no_camera(tmp_path: Path) -> None:
    client = new_app(new_table(tmp_path, *START)).test_client()
    assert client.get("/api/camera.jpg").status_code == 404
    assert client.post("/api/reread", headers=AUTH).status_code == 404


def test_reread_needs_the_token(client: FlaskClient, eye: FakeEye) -> None:
    assert client.post("/api/reread").status_code == 403 and eye.rereads == 0
    response = client.post("/api/reread", headers=AUTH)
    assert response.status_code == 200 and eye.rereads == 1


def test_throw_only_for_a_simulated_tray_and_with_the_token(tmp_path: Path) -> None:
    class Tray(FakeEye):
        throws = 0

        def throw(self) -> bool:
            self.throws += 1
            return True

    tray = Tray()
    client = new_app(new_table(tmp_path, *START), tray).test_client()
    assert client.post("/api/throw").status_code == 403 and tray.throws == 0
    assert client.post("/api/throw", headers=AUTH).status_code == 200 and tray.throws == 1
    real = new_app(new_table(tmp_path / "b", *START), FakeEye("ok")).test_client()
    response = real.post("/api/throw", headers=AUTH)
    assert response.status_code == 404 and "simulated tray" in response.get_json()["error"]


def test_the_eyes_status_reaches_the_page_through_the_table(tmp_path: Path) -> None:
    eye = FakeEye()
    table = new_table(tmp_path, *START)
    client = new_app(table, eye).test_client()
    before = client.get("/api/state").get_json()
    eye.set(camera="lost", message="camera thread died")
    state = client.get("/api/state").get_json()
    assert state["eye"]["camera"] == "lost" and "camera thread died" in state["eye"]["message"]
    assert state["version"] == before["version"] + 1 == state["eye"]["version"]
    eye.set(camera="lost", message="camera thread died")  # the same status: no new version
    assert client.get("/api/state").get_json()["version"] == state["version"]


def test_advice_only_with_an_advisor(client: FlaskClient, tmp_path: Path) -> None:
    assert client.get("/api/advice").status_code == 404
    assert client.get("/api/state").get_json()["advice"] is False
    app = new_app(new_table(tmp_path, *START, SUM10, advice=True))
    with_advice = app.test_client()
    assert with_advice.get("/api/state").get_json()["advice"] is True
    advice = with_advice.get("/api/advice").get_json()["advice"]
    assert advice["dice"] == SUM10.removeprefix("roll ") and advice["rolls_left"] == 2
    assert [c["id"] for c in advice["cards"]][:2] == ["snob-even", "hypnotist"]


def test_advice_without_a_game_or_a_roll_and_a_failing_advisor_is_a_bug(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    client = new_app(new_table(tmp_path / "a", advice=True)).test_client()
    assert client.get("/api/advice").status_code == 404
    table = new_table(tmp_path / "b", *START, advice=True)
    client = new_app(table).test_client()
    assert client.get("/api/advice").get_json() == {"advice": None}  # no roll yet

    def broken(state: object) -> None:
        raise RuntimeError("advisor bug")

    monkeypatch.setattr(table.pack, "advise", broken)
    response = client.get("/api/advice")
    assert response.status_code == 500 and response.get_json()["error"]


def test_unknown_api_routes_and_methods_are_json(client: FlaskClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and "no such API route" in response.get_json()["error"]
    response = client.get("/api/action")
    assert response.status_code == 405 and "GET is not allowed" in response.get_json()["error"]
    assert client.post("/api/state", headers=AUTH).status_code == 405


def test_live_once_sends_the_state(client: FlaskClient) -> None:
    response = client.get("/api/live?once=1&lang=de")
    assert response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    assert text.startswith("retry: 1000\n\n")
    assert "event: state\n" in text and '"lang":"de"' in text and "id: 3\n" in text


def test_live_stream_sends_changes_and_heartbeats(app: Flask, table: Table,
                                                  eye: FakeEye) -> None:
    app.config.update(HEARTBEAT_SECONDS=0.05, LIVE_POLL_SECONDS=0.02, LIVE_MAX_SECONDS=0.5)
    response = app.test_client().get("/api/live")
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    assert b'"version":3' in next(chunks)
    assert next(chunks) == b": heartbeat\n\n"
    table.act(table.parse(SUM10))
    assert b'"version":4' in next(chunks)
    eye.set(seeing="moving")
    chunk = next(chunks)
    assert b'"seeing":"moving"' in chunk and b'"version":5' in chunk
    rest = list(chunks)  # ends by itself after LIVE_MAX_SECONDS
    assert all(c == b": heartbeat\n\n" for c in rest)


WORDS = ["players", "row", "roll", "fix", "claim", "give", "penalty", "draw", "undo",
         "Ann", "Ben", "1", "2", "6", "-2", "5b", "4r", "orc-3", "dragon-25", "elf-4", "x"]


def test_any_line_is_either_played_or_refused_with_nothing_changed(tmp_path: Path) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    table = new_table(tmp_path, *START)
    client = new_app(table).test_client()
    lines = st.one_of(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join),
        st.text(max_size=40),
    )

    @settings(max_examples=150, deadline=None)
    @given(lines)
    def check(line: str) -> None:
        before = (table.version, table.record, len(table.history()))
        response = client.post("/api/action", json={"action": line}, headers=AUTH)
        body = response.get_json()
        assert response.status_code in (200, 400), (line, body)
        if response.status_code == 400:
            assert body["error"]
            assert (table.version, table.record, len(table.history())) == before
        else:
            assert body["version"] == table.version == before[0] + 1

    check()
