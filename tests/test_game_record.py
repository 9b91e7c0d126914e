"""Undo, refusals that change nothing, and the invariants, on random legal games."""

from __future__ import annotations

import random

import pytest
from conftest import play
from gamebot import choose
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Players, Undo
from rules.errors import ActionSyntaxError, KotdError, RuleError
from rules.games import game_pack
from rules.kotd.actions import parse_action
from rules.kotd.game import invariant_problems
from rules.record import GameRecord, replay
from rules.store import EventStore
from rules.table import Table

GAME = game_pack("kotd")

ILLEGAL = ["claim 5", "claim 9", "roll 1 2 3 4 5 6", "give Ann", "penalty -4", "draw orc-3",
           "fix 9 1r", "fix 1 3g", "row orc-3 orc-4 elf-4 elf-5 elf-6", "undo"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 5), steps=st.integers(5, 120),
       data=st.data())
def test_undo_returns_the_previous_state_and_no_card_is_held_twice(seed, players, steps, data):
    rng = random.Random(seed)
    record = replay(GAME, ["players " + " ".join(f"P{i}" for i in range(players))])
    for _ in range(steps):
        if record.state.phase == "over":
            break
        before = record
        try_illegal = data.draw(st.booleans(), label="try an action that may be illegal")
        line = (data.draw(st.sampled_from(ILLEGAL), label="line") if try_illegal
                else choose(record.state, rng))
        try:
            after = record.act(parse_action(line))
        except (RuleError, ActionSyntaxError):
            assert try_illegal, f"the bot's legal move {line!r} was refused"
            assert record is before  # refused: nothing changed
            continue
        if line == "undo":
            assert after.state == before.states[-2]
            record = after
            continue
        assert invariant_problems(after.state) == [], line
        undone = after.act(Undo())
        assert undone.state == record.state and undone.actions == record.actions
        record = after
    # and undo all the way back to the start of the game
    while record.actions:
        record = record.act(Undo())
    assert record.state.phase == "setup"
    with pytest.raises(RuleError, match="nothing to undo"):
        record.act(Undo())


def test_refused_actions_leave_the_store_and_state_unchanged(tmp_path) -> None:
    referee = Table(EventStore.in_dir(tmp_path), game_pack("kotd"))
    with pytest.raises(RuleError, match="no game yet"):
        play(referee, "roll 1 2 3 4 5 6")
    play(referee, "players Ann Ben", "row orc-3 elf-4 dwarf-3x1 gnome-3green fairy-2r2g")
    before = (referee.record, len(referee.history()))
    for line in ["claim 1", "roll 1 2 3", "jump 3", "fix 1 3g", "give Ben"]:
        with pytest.raises(KotdError):
            play(referee, line)
    assert (referee.record, len(referee.history())) == before


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("jump 3", "unknown action 'jump'"),
        ("claim two", "the slot must be a whole number"),
        ("claim", "usage: claim SLOT"),
        ("fix 3", "usage: fix POSITION DIE"),
        ("fix 3 9r", "value must be 1-6"),
        ("roll 1 2 3 4 5", "a roll needs 6 dice, got 5"),
        ("players Ann Ben<script>", "player name"),
        ("undo now", "wrong number of words"),
        ("claim 2 nothing", "unknown option"),
        ("claim 2 no-village no-village", "unknown option"),
    ],
)
def test_action_syntax_errors_say_what_is_expected(line, message) -> None:
    with pytest.raises(ActionSyntaxError, match=message):
        parse_action(line)


def test_canonical_text_round_trips() -> None:
    for line in ["players Ann Ben", "row orc-3 elf-4", "roll 4r 4g 4b 1r 2g 6b", "fix 3 5b",
                 "claim 2", "claim 2 no-village", "claim 3 no-village no-bonus", "give Ben",
                 "penalty -2", "draw orc-2+2", "undo"]:
        assert str(parse_action(line)) == line
    assert str(parse_action("PENALTY 2")) == "penalty -2"


@pytest.mark.parametrize("players", [["Ann"], ["A", "B", "C", "D", "E", "F"], ["Ann", "ann"]])
def test_player_count_and_names(players) -> None:
    with pytest.raises(RuleError):
        GameRecord.start(game_pack("kotd"), Players(tuple(players)))
