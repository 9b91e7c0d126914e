"""The game file, round three (issue 47, items 4-7): the table always starts, notices a
deleted journal, keeps the main file close behind, and answers a full card consistently.

Through ``kotd serve`` as a real process where the table's behaviour is the point (it
comes up, says the problem in words with what to do, recovers by itself, loses nothing
acknowledged); through the store and the table in one process where the moment matters
(a card that fills at exactly one write).
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from conftest import KOTD
from served import DB, Served, needs_root, no_traceback, resumed, small_disk, stored, wait_for

from rules.games import game_pack
from rules.store import EventStore, SaveError
from rules.table import VERSION_BLOCK, Table

GAME = ["players Ann Ben", "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g"]
SUM10 = "roll 1r 1g 1b 2r 2g 3b"


def play(server: Served, *lines: str) -> None:
    for line in lines:
        status, body = server.act(line)
        assert status == 200, body


# ---- item 5: the table always starts ------------------------------------------------------

def _folder(path: Path) -> None:
    path.mkdir()


def _pipe(path: Path) -> None:
    os.mkfifo(path)


def _dev_null(path: Path) -> None:
    path.symlink_to("/dev/null")


@pytest.mark.parametrize(("spoil", "words"), [
    (_folder, ["is a folder", "move that folder away"]),
    (_pipe, ["is a pipe", "delete it"]),
    (_dev_null, ["a device", "delete it"]),
])
def test_the_table_starts_whatever_stands_at_the_game_file(tmp_path: Path, spoil,
                                                           words: list[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    spoil(data / DB)
    with Served(data) as server:
        storage = server.state()["storage"]
        assert storage["ok"] is False
        for word in words:
            assert word in storage["message"], storage
        status, body = server.act("players Ann Ben")  # refused, nothing pretended
        assert status == 503 and words[0] in body["error"]
        # what to do: done; the table saves again by itself, no restart
        target = data / DB
        if target.is_dir() and not target.is_symlink():
            target.rmdir()
        else:
            target.unlink()
        wait_for(lambda: server.state()["storage"]["ok"], seconds=15, what="saving again")
        play(server, *GAME)
    status, log = server.stop()
    assert status == 0
    no_traceback(log)
    if spoil is not _folder:  # the file made again is the same whatever stood there
        assert resumed(data) == GAME
        return
    with Served(data) as again:  # a restart reads it and has nothing to complain of
        assert stored(again) == GAME
        assert again.state()["storage"] == {"ok": True, "message": ""}


def test_a_table_that_starts_without_its_file_resumes_the_stored_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Served(data) as server:
        play(server, *GAME, SUM10)
    kept = tmp_path / "kept.sqlite3"
    (data / DB).rename(kept)
    (data / DB).mkdir()  # a folder where the file was
    with Served(data) as server:
        assert server.state()["phase"] == "none" and not server.state()["storage"]["ok"]
        version = server.state()["version"]
        (data / DB).rmdir()
        kept.rename(data / DB)  # the file is back: its game is played on
        wait_for(lambda: server.state()["storage"]["ok"], seconds=15, what="file used")
        state = server.state()
        assert state["phase"] == "rolling" and state["version"] > version
        assert stored(server) == [*GAME, SUM10]
        play(server, "claim 2")
    assert resumed(data) == [*GAME, SUM10, "claim 2"]


@needs_root
def test_the_table_starts_on_a_read_only_card(tmp_path: Path) -> None:
    card = tmp_path / "card"
    with small_disk(card, "4m"):
        data = card / "data"
        with Served(data) as server:
            play(server, *GAME)
        subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True, timeout=30)
        with Served(data) as server:
            storage = server.state()["storage"]
            assert storage["ok"] is False and "read-only" in storage["message"]
            assert server.act("players Cem Dan")[0] == 503  # nothing pretended stored
            subprocess.run(["mount", "-o", "remount,rw", str(card)], check=True, timeout=30)
            wait_for(lambda: server.state()["storage"]["ok"], seconds=15, what="writable")
            assert stored(server) == GAME  # the stored game is back, nothing lost
            play(server, SUM10)
        status, log = server.stop()
        no_traceback(log)
        assert "Traceback" not in log and status == 0


def test_doctor_words_what_stands_at_the_game_file_and_never_waits(tmp_path: Path) -> None:
    for spoil, words in ((_pipe, "is a pipe"), (_folder, "is a folder"),
                         (_dev_null, "a device")):
        data = tmp_path / spoil.__name__
        data.mkdir()
        spoil(data / DB)
        done = subprocess.run([KOTD, "doctor", "--quick", "--data-dir", str(data),
                               "--pins", "mock"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        line = next(x for x in done.stdout.splitlines() if "game file" in x and "FAIL" in x)
        assert words in line and "disk I/O error" not in done.stdout
        assert "Traceback" not in done.stderr


# ---- item 4: a deleted journal ------------------------------------------------------------

def test_a_deleted_journal_is_noticed_and_nothing_acknowledged_is_lost(tmp_path: Path
                                                                      ) -> None:
    data = tmp_path / "data"
    server = Served(data)
    try:
        play(server, *GAME)
        for suffix in ("-wal", "-shm"):
            Path(f"{data / DB}{suffix}").unlink()
        play(server, SUM10, "claim 2")  # acknowledged: they must survive a kill -9
        wait_for(lambda: "journal" in server.state()["storage"]["message"], seconds=15,
                 what="the page told")
        assert server.state()["storage"]["ok"] is True
        play(server, "undo")
    finally:
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(10)
        server.stop()
    with Served(data) as again:
        assert stored(again) == [*GAME, SUM10, "claim 2", "undo"]


def test_the_main_file_keeps_up_with_the_journal(tmp_path: Path) -> None:
    """After a check, the main file alone (no -wal) holds every action: a lost journal
    costs at most the last few seconds."""
    store = EventStore(tmp_path / DB)
    table = Table(store, game_pack("kotd"))
    for line in GAME:
        table.act(table.parse(line))
    store.check()
    alone = tmp_path / "alone.sqlite3"
    shutil.copyfile(tmp_path / DB, alone)  # the main file only, as after losing the journal
    with sqlite3.connect(alone) as db:
        assert [a for (a,) in db.execute("SELECT action FROM events ORDER BY seq")] == GAME
    store.close()


# ---- item 6: a damaged file's banner --------------------------------------------------------

def test_a_damaged_files_banner_is_one_sentence_and_doctor_has_the_details(tmp_path: Path
                                                                          ) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = sqlite3.connect(data / DB)
    db.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT, players TEXT);"
                     "CREATE TABLE events (game_id INTEGER, seq INTEGER, at TEXT, "
                     "action TEXT, PRIMARY KEY (game_id, seq));")
    db.executemany("INSERT INTO events VALUES (1, ?, '2026-01-01', ?)",
                   [(i, f"roll {i}" * 40) for i in range(400)])
    db.commit()
    db.close()
    raw = bytearray((data / DB).read_bytes())
    raw[4096:40960] = os.urandom(36864)  # many torn pages: quick_check says a lot
    (data / DB).write_bytes(bytes(raw))
    store = EventStore.in_dir(data)
    assert store.set_aside is not None
    assert "\n" not in store.notice and len(store.notice) < 200
    assert "kotd doctor" in store.notice and store.details
    store.close()
    done = subprocess.run([KOTD, "doctor", "--quick", "--data-dir", str(data), "--pins",
                           "mock"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert store.set_aside.name in done.stdout
    details = [x for x in done.stdout.splitlines() if f"{store.set_aside.name}:" in x]
    assert details and len(details[0]) < 600  # a few lines of SQLite's words, not 98


# ---- item 7: a card that fills at a version boundary -----------------------------------------

class FillingCard(EventStore):
    """A real store whose card fills after ``room`` more writes (each one is a page the
    card takes or refuses); ``room`` None: never full."""

    room: int | None = None

    def _write(self, work):  # type: ignore[no-untyped-def]
        if self.room is not None:
            if self.room <= 0:
                raise SaveError("the card is full (make room on it)")
            self.room -= 1
        return super()._write(work)


def test_a_card_that_fills_at_the_version_boundary_answers_consistently(tmp_path: Path
                                                                       ) -> None:
    store = FillingCard(tmp_path / DB)
    table = Table(store, game_pack("kotd"))
    for line in GAME:
        table.act(table.parse(line))
    while table.version + 1 < table._ceiling:  # the next version needs a new ceiling
        table.report_eye(type(table.snapshot.eye)(message=f"v{table.version}"))
    before = [e.action for e in table.history()]
    store.room = 1  # room for exactly one more write: the ceiling's or the action's
    with pytest.raises(SaveError):
        table.act_once(table.parse(SUM10), "phone-1")
    assert [e.action for e in table.history()] == before  # refused: nothing stored
    assert table.state.rolls_used == 0 and store.find_action("phone-1") is None
    store.room = None  # room again: the retry is applied, once, and the game has it
    snapshot, repeated = table.act_once(table.parse(SUM10), "phone-1")
    assert not repeated and snapshot.state.rolls_used == 1
    assert table.act_once(table.parse(SUM10), "phone-1")[1] is True
    reopened = Table(EventStore(tmp_path / DB), game_pack("kotd"))
    assert reopened.state == table.state
    assert reopened.version > table.version >= VERSION_BLOCK
