"""Fault injection on the game file, through ``kotd serve`` as a real process.

The Pi writes to an SD card that will one day fail. Whatever happens to the file, the
assistant keeps the game it has, tells the table in plain words (the page's ``storage``
status, the reply to the action, the log) and recovers by itself when it can:

* a damaged file at start is kept aside under a dated name and a new one is started;
* a full card or one the kernel turned read-only: 503 "the game cannot be saved", the
  game unchanged, and saving resumes when space returns;
* the file deleted while playing is noticed and written again from the open game;
* an action sent twice with the same id (a retry after a lost reply) is applied once.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from served import (
    DB,
    Served,
    break_card,
    failing_card,
    fill,
    needs_root,
    no_traceback,
    resumed,
    small_disk,
    stored,
    wait_for,
)

from rules.store import SaveError

GAME = ["players Ann Ben", "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g"]
SUM10 = "roll 1r 1g 1b 2r 2g 3b"  # the hypnotist (slot 2) and the orc (slot 4) fit


def play(server: Served, *lines: str) -> dict:
    body: dict = {}
    for line in lines:
        status, body = server.act(line)
        assert status == 200, body
    return body


def set_aside(data: Path) -> list[Path]:
    return sorted(data.glob(f"{DB}.damaged-*"))


def intact(path: Path) -> bool:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# ---- a damaged file at start ------------------------------------------------------------

def _garbage(data: Path) -> None:
    (data / DB).write_bytes(os.urandom(64 * 1024))


def _torn_pages(data: Path) -> None:
    """A real game file with two pages overwritten (a torn write on a worn card)."""
    db = sqlite3.connect(data / DB)
    db.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT, players TEXT);"
                     "CREATE TABLE events (game_id INTEGER, seq INTEGER, at TEXT, "
                     "action TEXT, PRIMARY KEY (game_id, seq));")
    db.execute("INSERT INTO games VALUES (1, '2026-01-01', 'players Ann Ben')")
    db.executemany("INSERT INTO events VALUES (1, ?, '2026-01-01', ?)",
                   [(i, f"roll {i}" * 40) for i in range(400)])
    db.commit()
    db.close()
    raw = bytearray((data / DB).read_bytes())
    raw[4096:12288] = os.urandom(8192)
    (data / DB).write_bytes(bytes(raw))


def _foreign(data: Path) -> None:
    """A SQLite file of something else (no ``id`` column where the store expects one)."""
    with sqlite3.connect(data / DB) as db:
        db.executescript("CREATE TABLE games (name TEXT); CREATE TABLE events (x, y);"
                         "INSERT INTO games VALUES ('chess');")


@pytest.mark.parametrize("damage", [_garbage, _torn_pages, _foreign])
def test_a_damaged_game_file_is_set_aside_and_a_new_one_started(tmp_path: Path,
                                                                damage) -> None:
    data = tmp_path / "data"
    data.mkdir()
    damage(data)
    original = (data / DB).read_bytes()
    with Served(data) as server:
        state = server.state()
        kept = set_aside(data)
        assert len(kept) == 1 and kept[0].read_bytes() == original
        assert state["storage"]["ok"] is True
        assert kept[0].name in state["storage"]["message"]
        assert state["phase"] == "none"
        play(server, *GAME)
    status, log = server.stop()
    assert status == 0
    assert kept[0].name in log
    no_traceback(log)
    assert intact(data / DB)
    if damage is not _garbage:  # the new file is made alike whatever the damage was
        assert resumed(data) == GAME
        return
    with Served(data) as again:  # the new file is the game now; nothing more is set aside
        assert stored(again) == GAME
        assert set_aside(data) == kept
        assert kept[0].name not in again.state()["storage"]["message"]


# ---- a full card ------------------------------------------------------------------------

@needs_root
def test_a_full_card_refuses_to_save_says_so_and_recovers(tmp_path: Path) -> None:
    """The card fills up: the first action the game file has no room for is refused in plain
    words, and nothing is lost; saving resumes when space returns. (SQLite's journal may
    still have room when the card fills: after the table's checkpoint it is written again
    from its start, so an action or two may still be saved before one is refused.)"""
    with small_disk(tmp_path / "card", "2m") as card:
        data = card / "data"
        data.mkdir()
        with Served(data) as server:
            before = play(server, *GAME)
            filler = fill(card)
            saved: list[str] = []
            for line in [SUM10, "undo"] * 40:  # each one written, none changes the next
                status, body = server.act(line)
                if status != 200:
                    break
                saved.append(line)
            assert status == 503, body
            assert "cannot be saved" in body["error"] and "full" in body["error"]
            state = server.state()
            assert stored(server) == [*GAME, *saved]  # the game is kept
            assert state["rolls_used"] == (1 if saved[-1:] == [SUM10] else 0)
            assert state["version"] > before["version"]  # phones hear of the problem
            assert state["storage"]["ok"] is False and "full" in state["storage"]["message"]
            filler.unlink()                                    # space returns
            wait_for(lambda: server.state()["storage"]["ok"], what="saving to resume")
            after = play(server, line)
            assert after["storage"]["ok"] is True
        status, log = server.stop()
        assert status == 0
        no_traceback(log)
        assert "cannot be saved" in log
        with Served(data) as again:
            assert stored(again) == [*GAME, *saved, line]


# ---- a card the kernel turned read-only -------------------------------------------------

@needs_root
def test_a_card_turned_read_only_refuses_to_save_in_plain_words(tmp_path: Path) -> None:
    with failing_card(tmp_path / "card") as (card, device):
        data = card / "data"
        data.mkdir()
        with Served(data) as server:
            before = play(server, *GAME)
            break_card(device)
            for _ in range(2):  # and again: each try says the same, nothing is half done
                status, body = server.act(SUM10)
                assert status == 503, body
                assert "cannot be saved" in body["error"] and "read-only" in body["error"]
            state = server.state()
            assert state["rolls_used"] == 0 and stored(server) == GAME
            assert state["storage"]["ok"] is False and state["version"] > before["version"]
            assert "read-only" in state["storage"]["message"]
        status, log = server.stop()
        assert status == 0
        no_traceback(log)
        assert "read-only" in log and "cannot rollback" not in log


# ---- the file deleted while playing -----------------------------------------------------

@pytest.mark.parametrize("names", [[DB], [DB, f"{DB}-wal", f"{DB}-shm"]])
def test_the_game_file_deleted_while_playing_is_written_again(tmp_path: Path,
                                                              names: list[str]) -> None:
    data = tmp_path / "data"
    with Served(data) as server:
        play(server, *GAME, SUM10)
        for name in names:
            (data / name).unlink(missing_ok=True)
        play(server, "claim 2")  # acknowledged: it must survive a restart
        state = server.state()
        assert "deleted" in state["storage"]["message"]
        assert (data / DB).exists()
    status, log = server.stop()
    assert status == 0 and "deleted" in log
    no_traceback(log)
    assert intact(data / DB)
    with Served(data) as again:
        assert stored(again) == [*GAME, SUM10, "claim 2"]


def test_a_deleted_file_is_noticed_without_waiting_for_an_action(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Served(data) as server:
        play(server, *GAME)
        (data / DB).unlink()
        wait_for(lambda: "deleted" in server.state()["storage"]["message"], seconds=15,
                 what="the page told")
        assert (data / DB).exists()  # written again, without an action
    assert resumed(data) == GAME


# ---- a retry after a lost reply ---------------------------------------------------------

def test_an_action_sent_twice_with_one_id_is_applied_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Served(data) as server:
        play(server, *GAME)
        first = server.act(SUM10, id="phone-1-0001")
        assert first[0] == 200
        again = server.act(SUM10, id="phone-1-0001")  # the reply was lost; the phone retries
        assert again[0] == 200 and again[1].get("repeated") is True
        assert again[1]["rolls_used"] == first[1]["rolls_used"] == 1  # not rolled twice
        status, body = server.act("claim 2", id="phone-1-0001")  # one id, another action
        assert status == 409 and "already" in body["error"]
        status, body = server.act("claim 2", id="x" * 200)
        assert status == 400 and "id" in body["error"]
        assert stored(server) == [*GAME, SUM10]
    with Served(data) as restarted:  # ids are kept in the game file: a retry after a restart
        status, body = restarted.act(SUM10, id="phone-1-0001")
        assert status == 200 and body.get("repeated") is True
        assert stored(restarted) == [*GAME, SUM10]


# ---- the panel's status LED ---------------------------------------------------------------

def test_the_status_led_flashes_while_the_game_cannot_be_saved(tmp_path: Path) -> None:
    """In one process with mock pins: the SQLite file may not grow (a full card at the
    file's level), an action is refused, the LED flashes; room again, it is steady."""
    from gpiozero.pins.mock import MockFactory

    from pi.config import Config
    from pi.serve import Assistant
    from pi.simtray import SimulatedTray

    factory = MockFactory()
    config = Config(data_dir=tmp_path, source="sim", host="127.0.0.1", port=0, token="t",
                    pin_factory="mock")
    assistant = Assistant(config, source=SimulatedTray(seed=3), pin_factory=factory)
    try:
        table = assistant.table
        for line in GAME:
            table.act(table.parse(line))
        led = assistant.panel.status_led
        assistant.eye.start()
        wait_for(lambda: led.is_lit and led._blink_thread is None, what="a steady LED")
        db = table.store._db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        refused = 0
        for _ in range(40):
            try:
                table.act(table.parse(SUM10))
                table.act(table.parse("undo"))
            except SaveError:
                refused += 1
                break
        assert refused and table.snapshot.storage.ok is False
        assert led._blink_thread is not None  # flashing
        db.execute("PRAGMA max_page_count = 1000000")
        table.check_storage()
        assert table.snapshot.storage.ok is True
        wait_for(lambda: led.is_lit and led._blink_thread is None, what="steady again")
    finally:
        assistant.stop()
        factory.reset()


@needs_root
def test_kotd_play_on_a_full_card_says_so_in_one_line(tmp_path: Path) -> None:
    import subprocess

    from served import KOTD

    with small_disk(tmp_path / "card", "1m") as card:
        script = tmp_path / "game.txt"
        script.write_text("\n".join([*GAME, SUM10]) + "\n", encoding="utf-8")
        first = subprocess.run([KOTD, "play", "--data-dir", str(card), "--script",
                                "/dev/null"], capture_output=True, text=True,
                               timeout=60)  # the game file exists, then the card is full
        assert "Traceback" not in first.stderr
        fill(card)
        done = subprocess.run([KOTD, "play", "--data-dir", str(card), "--script", str(script)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode in (1, 2), done.stderr
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
        assert lines[0].startswith("kotd: error: ") and "the card is full" in lines[0]
