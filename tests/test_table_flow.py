"""The turn's flow over the API: no penalty question while rolls remain, rolls held while a
question is open or a die is unsure, the referee's words in the page's language, colours,
stats and export across games."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from webkit import TOKEN, new_app, new_table

from rules.actions import Seen
from rules.dice import Roll
from rules.table import Table

ROW = "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g"
NOTHING = "1r 2r 4r 6r 3r 1b"  # fits none of ROW
FITS = "1r 1g 1b 2r 2g 3b"  # the hypnotist (sum ≤ 12), the orc and the fairy fit
AUTH = {"X-Table-Token": TOKEN}


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return new_table(tmp_path, "players Ann Ben", ROW)


@pytest.fixture
def client(table: Table) -> FlaskClient:
    return new_app(table).test_client()


def post(client: FlaskClient, line: str, lang: str = "en") -> tuple[int, dict]:
    r = client.post(f"/api/action?lang={lang}", json={"action": line}, headers=AUTH)
    return r.status_code, r.get_json()


def seen(roll: str, *unsure: int) -> Seen:
    return Seen(Roll.parse(roll), unsure=tuple(unsure))


def test_no_penalty_question_while_rolls_remain(client: FlaskClient) -> None:
    status, state = post(client, "roll " + NOTHING)
    assert status == 200 and state["rolls_used"] == 1 and state["claimable"] == []
    assert state["question"] is None  # the player rolls on; stopping early is a choice
    assert state["penalty_choices"] == [-1, -2, -3, -4]
    post(client, "roll " + NOTHING)
    status, state = post(client, "roll " + NOTHING)  # no roll left: now it is a question
    assert state["question"] == {"ask": "penalty", "choices": [-1, -2, -3, -4]}


def test_a_penalty_is_still_accepted_while_rolls_remain(client: FlaskClient) -> None:
    post(client, "roll " + NOTHING)
    status, state = post(client, "penalty -2")
    assert status == 200 and state["question"]["ask"] == "draw"
    assert state["last_said"] == "Ann takes a penalty card (-2); Busy fairy leaves the row"


def test_a_throw_during_the_draw_becomes_the_next_players_roll(table: Table,
                                                               client: FlaskClient) -> None:
    post(client, "roll " + FITS)
    status, state = post(client, "claim 4")  # the orc: the row must be refilled
    assert state["question"]["ask"] == "draw"
    table.saw(seen("6r 6g 6b 5r 5g 4b"))  # Ben throws while Ann enters the drawn card
    state = client.get("/api/state").get_json()
    assert state["held"]["why"] == "question" and state["held"]["player"] == "Ben"
    assert state["phase"] == "draw" and state["dice"]["text"] == FITS  # the game waits
    status, state = post(client, "draw elf-4")
    assert status == 200 and state["current_player"] == "Ben"
    assert state["dice"]["text"] == "6r 6g 6b 5r 5g 4b" and state["rolls_used"] == 1
    assert state["held"] is None
    events = [e["action"] for e in client.get("/api/history").get_json()["events"]]
    assert events[-2:] == ["draw elf-4", "roll 6r 6g 6b 5r 5g 4b"]  # stored as one roll


def test_a_throw_while_the_dragon_is_given_waits_for_the_draw_too(table: Table) -> None:
    for line in ["roll " + FITS, "claim 2"]:  # the hypnotist and the gnome: two draws
        table.act(table.parse(line))
    table.act(table.parse("draw dragon-25"))
    table.saw(seen("1b 2b 3g 4g 5r 6r"))  # thrown during the second draw: held
    assert table.snapshot.held is not None and table.state.phase == "draw"
    table.act(table.parse("draw orc-4"))
    assert str(table.state.roll) == "1b 2b 3g 4g 5r 6r" and table.state.current == 1


def test_a_throw_held_after_an_extra_turn_is_the_same_players(tmp_path: Path) -> None:
    """The pack says who throws next (``progress``): after the apprentice, the same player."""
    table = new_table(tmp_path, "players Ann Ben",
                      "row apprentice-3r3b hypnotist gnome-3green orc-3 fairy-2r2g")
    table.act(table.parse("roll 6r 6b 5r 5b 4r 4b"))  # three red, three blue
    table.act(table.parse("claim 1"))  # the apprentice: the row must be refilled
    table.saw(seen("6r 6g 6b 5r 5g 4b"))  # thrown while the card is drawn
    held = table.snapshot.held
    assert held is not None and held.why == "question" and held.player == "Ann"
    table.act(table.parse("draw elf-4"))
    assert table.state.current_player == "Ann" and str(table.state.roll) == "6r 6g 6b 5r 5g 4b"


def test_a_held_roll_does_not_go_to_the_player_an_undo_brings_back(table: Table) -> None:
    table.act(table.parse("roll " + FITS))
    table.act(table.parse("claim 4"))
    table.saw(seen("6r 6g 6b 5r 5g 4b"))
    table.act(table.parse("undo"))  # back to Ann's roll: the throw was Ben's
    assert str(table.state.roll) == FITS and table.snapshot.held is not None
    table.act(table.parse("claim 4"))
    table.act(table.parse("draw elf-4"))
    assert str(table.state.roll) == "6r 6g 6b 5r 5g 4b" and table.state.current == 1


def test_a_roll_with_an_unsure_die_waits_for_the_table(table: Table,
                                                       client: FlaskClient) -> None:
    table.saw(seen(FITS, 3))
    state = client.get("/api/state").get_json()
    assert state["held"] == {"why": "check", "player": "Ann", "text": FITS,
                             "dice": state["held"]["dice"], "unsure": [3], "unsure_why": {}}
    assert state["dice"] is None and state["rolls_used"] == 0  # not in the game yet
    r = client.post("/api/held", json={"confirm": True})
    assert r.status_code == 403  # only the table
    r = client.post("/api/held", json={"fix": "3 5b"}, headers=AUTH)
    state = r.get_json()
    assert r.status_code == 200 and state["held"] is None
    assert state["dice"]["text"] == "1r 1g 5b 2r 2g 3b" and state["rolls_used"] == 1
    assert len(table.record.actions) == 2  # row + one roll: a single action


def test_confirming_a_held_roll_and_refusals(table: Table, client: FlaskClient) -> None:
    r = client.post("/api/held?lang=de", json={"confirm": True}, headers=AUTH)
    assert r.status_code == 400 and r.get_json()["code"] == "rule.no_held_roll"
    assert r.get_json()["error"] == "Es wartet kein Wurf auf eine Prüfung."
    table.saw(seen(FITS, 2, 5))
    r = client.post("/api/held", json={"fix": "2 1g"}, headers=AUTH)
    assert r.get_json()["held"]["unsure"] == [5]  # one die still to check
    r = client.post("/api/held", json={"confirm": True}, headers=AUTH)
    assert r.get_json()["dice"]["text"] == FITS and r.get_json()["held"] is None
    assert client.post("/api/held", json={"fix": "nine"}, headers=AUTH).status_code == 400


def test_why_the_camera_doubts_a_die_is_held_with_it_until_the_die_is_checked(
        table: Table, client: FlaskClient) -> None:
    """The camera says why it doubts each unsure die; the page gets it by position, and a
    die corrected by the table takes its doubt with it."""
    table.saw(Seen(Roll.parse(FITS), unsure=(2, 5), why=((2, "side"), (5, "value"))))
    held = client.get("/api/state").get_json()["held"]
    assert held["unsure"] == [2, 5] and held["unsure_why"] == {"2": "side", "5": "value"}
    r = client.post("/api/held", json={"fix": "2 1g"}, headers=AUTH)
    assert r.get_json()["held"]["unsure_why"] == {"5": "value"}


def test_refusals_are_sentences_in_the_pages_language(client: FlaskClient) -> None:
    status, body = post(client, "claim 1", lang="de")
    assert status == 400 and body["code"] == "rule.claim_before_roll"
    assert body["error"] == "Zuerst würfeln: ein Bürger wird mit einem Wurf genommen."
    assert body["english"].startswith("roll the dice first")
    status, body = post(client, "claim 1")
    assert body["error"].startswith("roll the dice first")


def test_what_happened_is_said_in_words(client: FlaskClient) -> None:
    post(client, "roll " + FITS)
    _, state = post(client, "claim 4", lang="de")
    assert state["last_said"] == ("Ann nimmt: Kuscheliger Ork (3 gleiche) und "
                                  "Orkdorf (2)")
    _, state = post(client, "draw elf-4")
    assert state["last_said"] == "the Arrogant elf (run of 4) comes into slot 1"
    events = client.get("/api/history?lang=de").get_json()["events"]
    assert [e["said"] for e in events] == [
        "Neues Spiel: Ann, Ben", "Die erste Auslage liegt", "Ann: Wurf 1 von 3, Summe 10",
        "Ann nimmt: Kuscheliger Ork (3 gleiche) und Orkdorf (2)",
        "Arrogante Elfe (Straße aus 4) kommt auf Platz 1"]
    post(client, "undo")
    events = client.get("/api/history").get_json()["events"]
    assert events[-1]["said"] == "Taken back: the Arrogant elf (run of 4) comes into slot 1"


OVER = ["players Ann Ben", "row snob-even orc-2+2 orc-4 orc-3 fairy-2r2g",
        "roll 4r 4g 4b 4r 1g 2b", "claim 4", "draw elf-4",
        "roll 4r 4g 4b 4r 1g 2b", "claim 4", "draw elf-5",
        "roll 4r 4g 1b 1r 2g 2b", "claim 4"]  # Ann 9, Ben 6


def test_colours_stats_and_export_across_games(tmp_path: Path) -> None:
    table = new_table(tmp_path, *OVER)
    client = new_app(table).test_client()
    state = client.get("/api/state?lang=de").get_json()
    assert state["over"] and state["ended_by"] == "die letzte grüne Ortskarte wurde genommen"
    r = client.post("/api/colors", json={"colors": {"Ann": "#1E88E5"}}, headers=AUTH)
    assert r.status_code == 200
    assert [p.get("color") for p in r.get_json()["players"]] == ["#1e88e5", None]
    assert client.post("/api/colors", json={"colors": {"Ann": "red;"}},
                       headers=AUTH).status_code == 400
    for line in ["players Ben Ann", "row snob-even orc-2+2 orc-4 orc-3 fairy-2r2g"]:
        table.act(table.parse(line))  # a rematch, not finished
    state = client.get("/api/state").get_json()
    assert state["players"][1] == {**state["players"][1], "name": "Ann", "color": "#1e88e5"}
    stats = client.get("/api/stats").get_json()
    assert stats["players"] == [
        {"name": "Ann", "games": 2, "wins": 1, "best": 9},
        {"name": "Ben", "games": 2, "wins": 0, "best": 6}]
    assert [g["winners"] for g in stats["games"]] == [["Ann"], []]
    rows = list(csv.DictReader(io.StringIO(client.get("/api/export.csv").get_data(
        as_text=True))))
    assert sorted((r["game_id"], r["player"], r["total"]) for r in rows) == [
        ("1", "Ann", "9"), ("1", "Ben", "6"), ("2", "Ann", "0"), ("2", "Ben", "0")]
    last = table.history(1)[-1].at  # game 1 ended with its last move; game 2 goes on
    assert {(r["game_id"], r["finished"]) for r in rows} == {("1", last), ("2", "")}
    assert client.get("/api/stats?game=ukuk").get_json()["players"] == []  # not mixed
    exported = client.get("/api/export.json").get_json()["games"]
    assert [len(g["events"]) for g in exported] == [len(OVER), 2]
    assert exported[0]["events"][3]["said"].startswith("Ann takes the Cuddly orc")
