"""A throw of Um Krone und Kragen the camera is unsure of: held, shown, confirmed or fixed,
and dropped the moment anything else enters the game (a reading never enters a turn it
was not thrown in). Decided by the table under its lock, over a real store and the API."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webkit import TOKEN, new_app

from rules.actions import Seen
from rules.dice import Roll
from rules.errors import RuleError
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table

AUTH = {"X-Table-Token": TOKEN}


def ukuk_table(tmp_path: Path, *lines: str) -> Table:
    table = Table(EventStore(tmp_path / "kotd.sqlite3"), game_pack("ukuk"))
    for line in ("players Ann Ben Cem", *lines):
        table.act(table.parse(line))
    return table


def seen(roll: str, *unsure: int) -> Seen:
    return Seen(Roll.parse(roll, None), unsure=tuple(unsure))


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return ukuk_table(tmp_path)


@pytest.fixture
def client(table: Table) -> FlaskClient:
    return new_app(table).test_client()


def test_an_unsure_throw_is_held_and_shown_until_confirmed(table: Table,
                                                            client: FlaskClient) -> None:
    table.saw(seen("6 2 4", 2))
    state = client.get("/api/state").get_json()
    assert state["held"]["why"] == "check" and state["held"]["player"] == "Ann"
    assert [d["value"] for d in state["held"]["dice"]] == [6, 2, 4]
    assert state["held"]["unsure"] == [2]
    assert state["dice"]["throws"] == 0  # not in the game yet
    r = client.post("/api/held", json={"confirm": True}, headers=AUTH)
    state = r.get_json()
    assert r.status_code == 200 and state["held"] is None
    assert state["dice"]["active"] == [6, 2, 4] and state["dice"]["throws"] == 1
    assert [str(a) for a in table.record.actions] == ["roll 6 2 4"]


def test_a_fixed_die_enters_with_the_throw_as_one_action(table: Table,
                                                          client: FlaskClient) -> None:
    table.saw(seen("6 2 4", 2, 3))
    r = client.post("/api/held", json={"fix": "2 3"}, headers=AUTH)
    assert r.get_json()["held"]["unsure"] == [3]  # one die still to check
    r = client.post("/api/held", json={"fix": "3 5"}, headers=AUTH)
    state = r.get_json()
    assert r.status_code == 200 and state["held"] is None
    assert state["dice"]["active"] == [6, 3, 5]
    assert [str(a) for a in table.record.actions] == ["roll 6 3 5"]


def test_a_throw_held_when_the_turn_moves_on_is_dropped_and_never_enters(
        table: Table, client: FlaskClient) -> None:
    table.saw(seen("5 5 5", 1))  # Ann's throw, held; nobody at the table confirms it
    assert table.snapshot.held is not None
    for line in ("roll 1 2 3", "aside 1 2 3", "pass"):  # Ann's turn, typed; then Ben's
        table.act(table.parse(line))
    assert table.snapshot.held is None and table.state.current_player == "Ben"
    r = client.post("/api/held", json={"confirm": True}, headers=AUTH)
    assert r.status_code == 400 and r.get_json()["code"] == "rule.no_held_roll"
    assert table.state.dice.throws == 0  # Ben has not thrown: nothing entered


def test_a_held_first_throw_is_dropped_when_the_throw_is_typed_instead(table: Table) -> None:
    table.saw(seen("6 2 4", 2))
    table.act(table.parse("roll 6 3 4"))  # the table typed the throw itself
    assert table.snapshot.held is None
    with pytest.raises(RuleError, match="no roll waiting"):
        table.confirm_held()
    assert [str(a) for a in table.record.actions] == ["roll 6 3 4"]


MOVES = st.sampled_from(["roll 1 2 3", "aside 1", "aside 2 3", "aside 1 2 3", "pass",
                         "buy hofnarr", "roll 4 4", "aside 4 4", "undo"])


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.lists(MOVES, max_size=6), after=st.lists(MOVES, min_size=1, max_size=4),
       values=st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_a_held_reading_never_enters_after_another_move(tmp_path: Path, before: list[str],
                                                        after: list[str],
                                                        values: list[int]) -> None:
    """Whatever the table does after an unsure reading, once a move has entered the game
    the reading is gone: confirming it is refused and no roll from it is stored."""
    where = Path(tempfile.mkdtemp(dir=tmp_path))
    table = ukuk_table(where)
    for line in before:
        with contextlib.suppress(RuleError):
            table.act(table.parse(line))
    text = " ".join(map(str, values))
    table.saw(seen(text, 1))
    if table.snapshot.held is None:
        return  # the reading meant nothing for this turn
    moved = False
    for line in after:
        try:
            table.act(table.parse(line))
            moved = True
        except RuleError:
            pass
    if not moved:
        return
    assert table.snapshot.held is None
    with pytest.raises(RuleError, match="no roll waiting"):
        table.confirm_held()
