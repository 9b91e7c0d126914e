"""The event store: every game's actions in a SQLite file that survives a power cut.

One row per action, appended in its own transaction; the file runs in WAL mode with
``synchronous=FULL``, so a committed action is on disk before the call returns. Killing the
process at any moment loses at most the action being written. Undo is itself an action
(the log is append-only), so past games keep their whole history. Each game names the game
pack it is played with (``kotd``); the table's version counter keeps a ceiling here so that
versions keep rising across restarts.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rules.errors import GameFileError

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
CREATE TABLE IF NOT EXISTS colors (
    player TEXT PRIMARY KEY,
    color  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
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
    """One stored game: its id, when it started, its ``players`` line, how many events
    it has and the pack it is played with."""

    id: int
    started: str
    players: str
    events: int
    game: str = "kotd"


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
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            if "game" not in columns:  # a file from before there were game packs
                self._db.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL "
                                 "DEFAULT 'kotd'")
        except sqlite3.DatabaseError as err:
            raise GameFileError("cannot_open", "{path}: cannot open the game file: {why}",
                                path=target, why=str(err)) from None

    @classmethod
    def in_dir(cls, data_dir: str | Path) -> EventStore:
        return cls(Path(data_dir) / DB_NAME)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def new_game(self, players_line: str, game: str = "kotd") -> int:
        """Start a game of pack ``game`` whose first action is ``players ...``; its id."""
        with self._lock:
            now = _now()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "INSERT INTO games (started, players, game) VALUES (?, ?, ?)",
                    (now, players_line, game))
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

    def colors(self) -> dict[str, str]:
        """Each player's colour, by name (chosen at setup, kept across games)."""
        with self._lock:
            rows = self._db.execute("SELECT player, color FROM colors").fetchall()
        return {str(name): str(color) for name, color in rows}

    def set_colors(self, colors: dict[str, str]) -> None:
        """Remember these players' colours (one transaction)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT OR REPLACE INTO colors VALUES (?, ?)",
                                     sorted(colors.items()))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

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
                "SELECT g.id, g.started, g.players, COUNT(e.seq), g.game FROM games g "
                "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC"
            ).fetchall()
        return [GameInfo(*r) for r in rows]

    def game(self, game_id: int) -> GameInfo | None:
        """One stored game, or None."""
        return next((g for g in self.games() if g.id == game_id), None)

    def latest_game(self, game: str | None = None) -> int | None:
        """The newest game (of pack ``game``, if given), or None."""
        with self._lock:
            if game is None:
                row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
            else:
                row = self._db.execute("SELECT MAX(id) FROM games WHERE game = ?",
                                       (game,)).fetchone()
        return None if row[0] is None else int(row[0])

    def setting(self, key: str) -> str | None:
        """A table setting kept in the game file (``game``: the game the table plays)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?",
                                   ("setting." + key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET "
                             "value = excluded.value", ("setting." + key, value))

    def version_ceiling(self) -> int:
        """Every table version handed out so far is below this (0 for a new file)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return 0 if row is None else int(row[0])

    def raise_version_ceiling(self, ceiling: int) -> None:
        """Promise that versions up to ``ceiling`` may be handed out (stored at once)."""
        with self._lock:
            self._db.execute("INSERT INTO meta VALUES ('version', ?) ON CONFLICT(key) DO "
                             "UPDATE SET value = MAX(value, excluded.value)", (ceiling,))
