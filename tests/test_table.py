"""The table service: one place the game changes, one versioned snapshot per change."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import KOTD, play

from rules.actions import Fix, Rolled, Seen
from rules.dice import Die, Roll
from rules.errors import ActionSyntaxError, KotdError, RuleError, UnknownCardError
from rules.games import game_pack
from rules.store import EventStore
from rules.table import EyeStatus, Table

START = ["players Ann Ben", "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g"]


def new_table(path: Path | None = None) -> Table:
    return Table(EventStore(path), game_pack("kotd"))


def test_every_change_is_one_snapshot_with_the_next_version() -> None:
    table = new_table()
    seen: list[int] = []
    table.subscribe(lambda snapshot: seen.append(snapshot.version))
    first = table.version
    play(table, *START)
    table.report_eye(EyeStatus("ok", "sim", "moving"))
    table.report_eye(EyeStatus("ok", "sim", "moving"))  # unchanged: nothing published
    with pytest.raises(RuleError):
        play(table, "claim 1")  # refused: nothing published
    assert seen == [first + 1, first + 2, first + 3]
    assert table.snapshot.eye_version == first + 3


def test_a_snapshot_is_rendered_once_per_language_for_every_reader(monkeypatch) -> None:
    table = new_table()
    play(table, *START)
    pack = table.pack
    renders: list[str] = []
    real = pack.view

    def counting(record, lang):  # type: ignore[no-untyped-def]
        renders.append(lang)
        return real(record, lang)

    monkeypatch.setattr(pack, "view", counting)
    snapshot = play(table, "roll 4r 4g 4b 1r 2g 6b")
    texts = []

    def reader(lang: str) -> None:
        for _ in range(20):
            texts.append(snapshot.json(lang))

    threads = [threading.Thread(target=reader, args=(lang,)) for lang in ("en", "de") * 5]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(renders) == ["de", "en"]
    assert len(set(texts)) == 2
    state = json.loads(snapshot.json("de", can_act=True))
    assert state["lang"] == "de" and state["can_act"] is True
    assert state["version"] == snapshot.version and state["claimable"] == [2, 5]


def test_the_version_keeps_rising_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "kotd.sqlite3"
    table = new_table(path)
    play(table, *START)
    for status in ("moving", "settled", "moving"):
        table.report_eye(EyeStatus("ok", "sim", status))
    last = table.version
    table.store.close()
    again = new_table(path)
    assert again.version > last and again.record == table.record
    play(again, "roll 4r 4g 4b 1r 2g 6b")
    again.store.close()
    third = new_table(path)
    assert third.version > again.version


def test_a_second_reading_is_one_fix_and_one_undo() -> None:
    table = new_table()
    play(table, *START)
    table.saw(Seen(Roll.parse("4r 4g 4b 1r 2g 6b"), (0.9,) * 6))
    assert table.record.actions[-1] == Rolled(Roll.parse("4r 4g 4b 1r 2g 6b"))
    snapshot = table.saw(Seen(Roll.parse("4r 4g 3b 1r 2g 5b"), (0.9,) * 6, reread=True))
    assert snapshot.record.actions[-1] == Fix(((3, Die.parse("3b")), (6, Die.parse("5b"))))
    assert str(snapshot.record.actions[-1]) == "fix 3 3b 6 5b"
    assert table.history()[-1].action == "fix 3 3b 6 5b"
    assert table.state.rolls_used == 1 and str(table.state.roll) == "4r 4g 3b 1r 2g 5b"
    version = table.version
    # the same dice read again: nothing to change, nothing published
    assert table.saw(Seen(Roll.parse("4r 4g 3b 1r 2g 5b"), reread=True)).version == version
    play(table, "undo")
    assert str(table.state.roll) == "4r 4g 4b 1r 2g 6b"  # one undo takes the whole re-read
    # a second reading with no roll on the table is the turn's roll
    play(table, "undo")
    table.saw(Seen(Roll.parse("1r 1g 1b 2r 2g 3b"), reread=True))
    assert table.state.rolls_used == 1 and table.record.actions[-1].verb == "roll"


def test_the_camera_seeing_a_roll_with_no_game_is_refused() -> None:
    table = new_table()
    with pytest.raises(RuleError, match="no game yet"):
        table.saw(Seen(Roll.parse("4r 4g 4b 1r 2g 6b")))


def _store_game(path: Path, lines: list[str]) -> None:
    store = EventStore(path)
    game = store.new_game(lines[0])
    for line in lines[1:]:
        store.append(game, line)
    store.close()


def test_a_stored_game_that_no_longer_replays_is_reported_not_changed(tmp_path: Path) -> None:
    path = tmp_path / "kotd.sqlite3"
    # as if written by other rules: the claim is not allowed by these
    lines = [*START, "roll 1r 1g 1b 2r 2g 3b", "claim 3", "draw orc-4"]
    _store_game(path, lines)
    table = new_table(path)
    assert table.problem is not None
    assert "event 3 'claim 3'" in table.problem
    assert "does not satisfy the Arrogant elf" in table.problem
    assert table.record is not None and table.record.actions[-1].verb == "roll"
    state = json.loads(table.snapshot.json("en"))
    assert state["problem"] == table.problem and state["rolls_used"] == 1
    with pytest.raises(RuleError, match="cannot go on") as err:
        play(table, "claim 1")
    assert err.value.code == "rule.game_stopped"
    assert [e.action for e in table.history()] == lines  # nothing was added or dropped
    play(table, "players Cem Dan")  # a new game is fine
    assert table.problem is None and table.state.players == ("Cem", "Dan")
    record, problem = table.past(1)
    assert record is not None and problem is not None and "claim 3" in problem


def test_kotd_play_reports_a_stored_game_it_cannot_replay(tmp_path: Path) -> None:
    _store_game(tmp_path / "kotd.sqlite3", [*START, "roll 1 2 3"])
    out = subprocess.run([KOTD, "play", "--data-dir", str(tmp_path), "--script", "/dev/null"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "event 2 'roll 1 2 3'" in out.stderr and "a roll needs 6 dice" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_game_file_from_before_packs_opens_as_king_of_the_dice(tmp_path: Path) -> None:
    path = tmp_path / "kotd.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT NOT NULL, players TEXT NOT NULL);
        CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL,
                             action TEXT NOT NULL, PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES (1, '2025-01-01', 'players Ann Ben');
        INSERT INTO events VALUES (1, 0, '2025-01-01', 'players Ann Ben');
    """)
    db.commit()
    db.close()
    table = new_table(path)
    assert table.problem is None and table.state.players == ("Ann", "Ben")
    assert table.games()[0].game == "kotd"


def test_errors_carry_a_code_and_params_beside_the_english() -> None:
    table = new_table()
    play(table, *START)
    with pytest.raises(RuleError) as err:
        play(table, "claim 2")
    assert err.value.code == "rule.claim_before_roll"
    with pytest.raises(UnknownCardError) as unknown:
        table.pack.box.card("ork-3")  # type: ignore[attr-defined]
    assert unknown.value.code == "card.unknown_close"
    assert unknown.value.params["id"] == "ork-3" and "orc-3" in unknown.value.params["close"]
    with pytest.raises(ActionSyntaxError) as syntax:
        table.parse("roll 1 2 3 4 5 9")
    assert syntax.value.code == "roll.die_value"
    assert syntax.value.params == {"token": "9", "position": 6}
    assert str(syntax.value) == "roll: die 6 '9': value must be 1-6"
    assert syntax.value.template.format(**syntax.value.params) == str(syntax.value)
    assert syntax.value.to_dict()["code"] == "roll.die_value"
    assert isinstance(syntax.value, KotdError) and not isinstance(syntax.value, ValueError)


def test_a_bug_shows_as_a_bug_with_its_traceback(tmp_path: Path) -> None:
    # a KeyError inside the command is not a user's mistake: no one-line disguise
    script = tmp_path / "bug.py"
    script.write_text(
        "import sys\n"
        "from pi import cli\n"
        "from pi.cli import cards\n"
        "def broken(args):\n"
        "    raise KeyError('a bug')\n"
        "cards.cmd_cards = broken\n"
        "parser_build = cli.build_parser\n"
        "def build():\n"
        "    parser = parser_build()\n"
        "    parser._subparsers._group_actions[0].choices['cards'].set_defaults(handler=broken)\n"
        "    return parser\n"
        "cli.build_parser = build\n"
        "sys.exit(cli.main(['cards']))\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 1 and "Traceback" in out.stderr and "KeyError: 'a bug'" in out.stderr
    out = subprocess.run([KOTD, "check", "--dice", "1 2 3 4 5 6", "--cards", "ork-3"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.startswith("kotd: error: --cards: card 1: ")
    assert "Traceback" not in out.stderr
