"""Um Krone und Kragen as a game pack: the table, the store, the camera's meaning, the panel."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from ukukkit import ANN_EQUALS, GAME, lines

from pi.detector import RollDetector
from rules.actions import Fix, Rolled, Seen
from rules.dice import Die, Roll
from rules.errors import UsageError
from rules.games import GAMES, game_pack
from rules.record import replay
from rules.store import EventStore
from rules.table import Table
from rules.ukuk.actions import Bid, Buy, Pass, SetAside, parse_action
from vision.reading import DieReading
from vision.strip import AsideStrip

PACK = game_pack("ukuk")


def roll(text: str) -> Roll:
    return Roll.parse(text, None)


def state_after(text_lines: list[str]):
    return replay(PACK, text_lines).state


def test_the_pack_is_known_by_its_id():
    assert "ukuk" in GAMES and PACK.id == "ukuk"
    assert PACK.title["de"] == "Um Krone und Kragen"
    assert PACK.dice.count is None and not PACK.dice.colored


def test_a_whole_game_through_the_table_survives_a_restart(tmp_path):
    table = Table(EventStore.in_dir(tmp_path), PACK)
    for line in lines(GAME):
        table.act(table.parse(line))
    before = table.pack.view(table.record, "en")
    again = Table(EventStore.in_dir(tmp_path), game_pack("ukuk"))
    assert again.problem is None
    assert again.pack.view(again.record, "en") == before
    for line in lines(ANN_EQUALS):
        again.act(again.parse(line))
    assert again.state.over and "Ann wins" in again.state.last
    games = again.store.games()
    assert games[0].game == "ukuk"


def test_the_first_picture_of_a_turn_is_the_throw():
    s = state_after(["players Ann Ben"])
    assert PACK.dice_in_play(s) == 3
    assert PACK.seen(s, Seen(roll("1 3 6"))) == Rolled(roll("1 3 6"))
    assert PACK.seen(s, Seen(roll("1 3"))) is None  # a die is missing: wait


def test_dice_moved_to_the_strip_are_set_aside_and_the_rest_thrown():
    s = state_after(["players Ann Ben", "roll 1 3 3"])
    # the 3s moved to the strip; the 1 still lies in play
    assert PACK.seen(s, Seen(roll("1"), aside=roll("3 3"))) == SetAside((3, 3))
    # the same picture once they are set aside: nothing new
    s2 = PACK.apply(s, SetAside((3, 3)))
    assert PACK.seen(s2, Seen(roll("1"), aside=roll("3 3"))) is None
    # the 1 thrown again
    assert PACK.seen(s2, Seen(roll("5"), aside=roll("3 3"))) == Rolled(roll("5"))
    # both in one picture: set aside, then the throw
    assert PACK.seen(s, Seen(roll("6"), aside=roll("3 3"))) == (SetAside((3, 3)),
                                                                Rolled(roll("6")))


def test_without_a_strip_dice_out_of_view_are_set_aside():
    s = state_after(["players Ann Ben", "roll 1 3 3"])
    assert PACK.seen(s, Seen(roll("3 1 3"))) is None  # nothing changed
    assert PACK.seen(s, Seen(roll("3 1"))) == SetAside((3,))
    assert PACK.seen(s, Seen(roll("1"))) == SetAside((3, 3))
    s2 = PACK.apply(s, SetAside((3, 3)))
    assert PACK.seen(s2, Seen(roll("4"))) == Rolled(roll("4"))
    # a throw before any die was set aside is not taken; a die the game does not know
    # (a misread) is not guessed either
    assert PACK.seen(s, Seen(roll("2 4 6"))) is None
    assert PACK.seen(s, Seen(roll("1 5"))) is None


def test_a_second_reading_corrects_the_game_in_one_fix():
    s = state_after(["players Ann Ben", "roll 1 3 3", "aside 3"])
    assert PACK.seen(s, Seen(roll("5 3"), reread=True, aside=roll("3"))) == Fix(
        ((1, Die(5)),))
    assert PACK.seen(s, Seen(roll("1 3"), reread=True, aside=roll("4"))) == Fix(
        ((3, Die(4)),))
    assert PACK.seen(s, Seen(roll("3 1"), reread=True, aside=roll("3"))) is None
    assert PACK.seen(s, Seen(roll("3 1 1"), reread=True)) is None  # wrong number of dice


def test_the_table_applies_both_actions_of_one_picture():
    table = Table(EventStore(None), PACK)
    table.act(table.parse("players Ann Ben"))
    table.saw(Seen(roll("1 3 3")))
    table.saw(Seen(roll("2"), aside=roll("3 3")))
    assert [str(a) for a in table.record.actions] == ["roll 1 3 3", "aside 3 3", "roll 2"]


def test_panel_lights_and_confirm():
    s = state_after(lines(GAME)[:lines(GAME).index("use wachmann")])  # five 2s set aside
    lights = PACK.lights(s)
    assert lights.rolls_used == 1 and lights.slots == (1, 2, 3, 4, 5) and not lights.penalty
    assert PACK.buys(s)[0] in ("hofdame", "ritter")  # row III first
    assert PACK.take_in(s, 1) == Buy(PACK.buys(s)[0])
    s = state_after(["players Ann Ben", "roll 1 2 4", "aside 1 2 4"])
    assert PACK.take_in(s, 1) == Buy("hofnarr")
    final = state_after([*lines(GAME), "roll 6 6 1 2 4", "aside 6 6 1 2 4"])
    assert PACK.take_in(final, 1) == Bid() and PACK.lights(final).penalty
    s = state_after(["players Ann Ben", "roll 1 2 4", "aside 1 2 4"])
    nothing = replace(s, left=(0,) * len(s.left))  # the court is empty
    assert PACK.buys(nothing) == () and PACK.take_in(nothing, 1) == Pass()
    assert PACK.lights(nothing).penalty and PACK.lights(nothing).slots == ()


def test_parse_reads_back_every_line_of_the_game():
    for line in lines(GAME):
        assert str(PACK.parse_action(line)) == str(parse_action(line))


def test_the_table_chooses_its_game_and_keeps_the_choice(tmp_path):
    store = EventStore.in_dir(tmp_path)
    table = Table(store, game_pack("kotd"))
    table.act(table.parse("players Ann Ben"))
    kotd_game = table.game_id
    table.act(table.parse("game ukuk"))
    assert table.pack.id == "ukuk" and table.record is None
    assert table.snapshot.view("en")["game"] == "ukuk"
    assert store.setting("game") == "ukuk"
    table.act(table.parse("players Cem Dora"))
    table.act(table.parse("roll 1 2 3"))
    table.act(table.parse("game kotd"))  # back: the King of the Dice game is resumed
    assert table.pack.id == "kotd" and table.game_id == kotd_game
    table.act(table.parse("game ukuk"))
    assert table.state.dice.active == (1, 2, 3)
    with pytest.raises(UsageError, match="unknown game 'chess'"):
        table.act(table.parse("game chess"))


def test_the_strip_splits_a_settled_picture():
    frames = [np.full((400, 400, 3), v, np.uint8) for v in (0, 200)]
    readings = [DieReading(v, None, (60.0 * v, y), (), 0.9, 30.0)
                for v, y in ((1, 100), (2, 120), (3, 350), (4, 360))]
    detector = RollDetector(lambda _f, _n, _l: readings, dice=None, settle_seconds=0.2,
                            stable_reads=1, strip=lambda: AsideStrip("bottom", 0.25))
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)
    throw = detector.feed(frames[1], 0.4)
    assert throw is not None
    assert throw.roll.values == (1, 2) and throw.aside is not None
    assert sorted(throw.aside.values) == [3, 4]


def test_history_tells_and_stats_count_ukuk_games(tmp_path):
    from web import create_app

    table = Table(EventStore.in_dir(tmp_path), game_pack("kotd"))
    table.act(table.parse("game ukuk"))
    for line in [*lines(GAME), *lines(ANN_EQUALS)]:
        table.act(table.parse(line))
    client = create_app(table, None, "t").test_client()
    events = client.get("/api/history").get_json()["events"]
    assert events[0]["said"] == "New game: Ann, Ben"
    assert events[1]["said"] == "Ann throws 2 4 6"
    said = [e["said"] for e in events]
    assert "Ben uses the Hofnarr: 1 → 3" in said
    assert "Ann uses the Wachmann: → 2" in said
    assert any(x.startswith("Ann buys the König and gets the Königin") for x in said)
    assert "Ann holds the King and wins" in events[-1]["said"]
    german = client.get("/api/history?lang=de").get_json()["events"]
    assert german[1]["said"] == "Ann würfelt 2 4 6"
    assert "Ann hat den König und gewinnt" in german[-1]["said"]
    stats = client.get("/api/stats").get_json()
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert ann["games"] == 1 and ann["wins"] == 1
    assert stats["games"][0]["game"] == "ukuk" and stats["games"][0]["winners"] == ["Ann"]
    client.post("/api/action", json={"action": "undo"}, headers={"X-Table-Token": "t"})
    assert client.get("/api/history").get_json()["events"][-1]["said"].startswith(
        "Taken back: Ann bids 7 × 3")


def test_the_strip_setting_is_checked_in_one_line(tmp_path):
    from pi.config import ConfigError, load_config

    assert load_config(data_dir=tmp_path, strip="bottom:0.3").strip == "bottom:0.3"
    with pytest.raises(ConfigError, match="strip: the strip's side is one of"):
        load_config(data_dir=tmp_path, strip="middle:0.2")
