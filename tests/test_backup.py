"""``kotd backup`` / ``kotd restore``: SQLite's backup API on a live WAL game file."""

from __future__ import annotations

import http.server
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from pi.backup import backup, check_game_file, restore
from pi.cli import main
from rules.errors import UsageError as CliError
from rules.store import DB_NAME, EventStore


def _events(path: Path) -> list[tuple[int, int]]:
    """The actions after each game's players line (seq 0)."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT game_id, seq FROM events WHERE seq > 0 "
                          "ORDER BY game_id, seq").fetchall()
    finally:
        db.close()


def _contiguous(rows: list[tuple[int, int]]) -> bool:
    by_game: dict[int, list[int]] = {}
    for game, seq in rows:
        by_game.setdefault(game, []).append(seq)
    return all(seqs == list(range(seqs[0], seqs[0] + len(seqs))) for seqs in by_game.values())


def test_a_backup_sees_what_a_file_copy_of_a_live_wal_file_misses(tmp_path: Path) -> None:
    store = EventStore.in_dir(tmp_path / "data")
    game = store.new_game("Ann Ben")
    for i in range(5):
        store.append(game, f"penalty -{i + 1}")
    live = tmp_path / "data" / DB_NAME
    shutil.copy(live, tmp_path / "copied.sqlite3")       # the newest actions are in -wal
    assert backup(live, tmp_path / "backup.sqlite3") == 1
    store.close()
    assert len(_events(tmp_path / "backup.sqlite3")) == 5
    try:
        copied: int | None = len(_events(tmp_path / "copied.sqlite3"))
    except sqlite3.OperationalError:  # even the tables are still only in the -wal file
        copied = None
    assert copied is None or copied < 5
    assert not Path(str(tmp_path / "backup.sqlite3") + "-wal").exists()


def test_backups_taken_while_actions_are_written_are_whole(tmp_path: Path) -> None:
    store = EventStore.in_dir(tmp_path)
    game = store.new_game("Ann Ben")
    done = threading.Event()

    def write() -> None:
        for i in range(300):
            store.append(game, f"penalty -{i % 5 + 1}")
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    counts = []
    for n in range(6):
        out = tmp_path / f"b{n}.sqlite3"
        backup(tmp_path / DB_NAME, out)
        rows = _events(out)
        assert _contiguous(rows) and check_game_file(out) == 1
        counts.append(len(rows))
    writer.join()
    store.close()
    assert counts == sorted(counts) and counts[-1] <= 300
    assert len(_events(tmp_path / DB_NAME)) == 300


def test_restore_puts_the_backup_back_and_keeps_the_old_file(tmp_path: Path) -> None:
    store = EventStore.in_dir(tmp_path)
    game = store.new_game("Ann Ben")
    store.append(game, "penalty -1")
    store.close()
    backup(tmp_path / DB_NAME, tmp_path / "saved.sqlite3")
    store = EventStore.in_dir(tmp_path)
    store.append(game, "penalty -2")
    store.new_game("Cid Dora")
    store.close()
    kept = restore(tmp_path / "saved.sqlite3", tmp_path / DB_NAME, tmp_path / "backups")
    assert _events(tmp_path / DB_NAME) == [(1, 1)]
    assert kept is not None and check_game_file(kept) == 2 and len(_events(kept)) == 2
    store = EventStore.in_dir(tmp_path)        # the assistant opens the restored file
    assert len(store.games()) == 1
    store.close()


def test_bad_files_are_refused_in_one_line(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CliError, match="not a kotd game file"):
        check_game_file(junk)
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(CliError, match="no games/events"):
        check_game_file(other)
    assert main(["restore", str(junk), "--data-dir", str(tmp_path / "d"), "--port", "1"]) == 2
    assert main(["backup", "--data-dir", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "not a kotd game file" in err[0]
    assert "no game file yet" in err[1]
    assert not (tmp_path / "d" / DB_NAME).exists()


def test_the_commands_and_the_running_assistant(tmp_path: Path, capsys) -> None:
    store = EventStore.in_dir(tmp_path)
    store.new_game("Ann Ben")
    store.close()
    assert main(["backup", "--data-dir", str(tmp_path)]) == 0
    (made,) = (tmp_path / "backups").glob("kotd-*.sqlite3")
    assert f"backed up 1 games to {made}" in capsys.readouterr().out
    assert main(["backup", str(made), "--data-dir", str(tmp_path)]) == 2   # exists: refused

    class State(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"phase": "rolling"}')

        def log_message(self, *args) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), State)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        status = main(["restore", str(made), "--data-dir", str(tmp_path),
                       "--port", str(server.server_address[1])])
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert status == 2 and "stop it first" in capsys.readouterr().err
