"""The event store: every game's actions in a SQLite file that survives a power cut.

One row per action, appended in its own transaction; the file runs in WAL mode with
``synchronous=FULL``, so a committed action is on disk before the call returns. Killing the
process at any moment loses at most the action being written. Undo is itself an action
(the log is append-only), so past games keep their whole history.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    at      TEXT NOT NULL,
    action  TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
DB_NAME = "kotd.sqlite3"


@dataclass(frozen=True, slots=True)
class Event:
    """One stored action of one game."""

    game_id: int
    seq: int
    at: str
    action: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    started: str
    players: str
    events: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class EventStore:
    """Append-only storage of game actions; ``path`` None keeps everything in memory."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        target = ":memory:" if self.path is None else str(self.path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as err:
            raise OSError(f"{target}: cannot open the game file: {err}") from None

    @classmethod
    def in_dir(cls, data_dir: str | Path) -> EventStore:
        return cls(Path(data_dir) / DB_NAME)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def new_game(self, players_line: str) -> int:
        """Start a game whose first action is ``players ...``; returns its id."""
        with self._lock:
            now = _now()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute("INSERT INTO games (started, players) VALUES (?, ?)",
                                       (now, players_line))
                game_id = int(cur.lastrowid or 0)
                self._db.execute("INSERT INTO events VALUES (?, 0, ?, ?)",
                                 (game_id, now, players_line))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return game_id

    def append(self, game_id: int, action: str) -> Event:
        """Store one action of a game, in a transaction of its own."""
        with self._lock:
            now = _now()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                (seq,) = self._db.execute(
                    "SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE game_id = ?", (game_id,)
                ).fetchone()
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?)",
                                 (game_id, seq, now, action))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return Event(game_id, seq, now, action)

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, seq, at, action FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [Event(*r) for r in rows]

    def games(self) -> list[GameInfo]:
        """Every game in the file, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.started, g.players, COUNT(e.seq) FROM games g "
                "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC"
            ).fetchall()
        return [GameInfo(*r) for r in rows]

    def latest_game(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return row[0]
