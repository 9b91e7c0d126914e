"""The event store: every game's actions in a SQLite file that survives a power cut.

One row per action, appended in its own transaction; the file runs in WAL mode with
``synchronous=FULL``, so a committed action is on disk before the call returns. Killing the
process at any moment loses at most the action being written. Undo is itself an action
(the log is append-only), so past games keep their whole history. Each game names the game
pack it is played with (``kotd``); the table's version counter keeps a ceiling here so that
versions keep rising across restarts.

The file lives on an SD card that will one day fail, and the store says so instead of
failing obscurely:

* a file SQLite finds damaged (or one of another program) is kept aside at start under a
  dated name (``kotd.sqlite3.damaged-20261123-101500``) and a new one is started
  (:attr:`EventStore.set_aside`, :attr:`EventStore.notice`);
* a write that fails (the card full, read-only or failing) raises :class:`SaveError` and
  leaves nothing half done; :attr:`EventStore.problem` says why until a write succeeds
  again (:meth:`EventStore.check` tries one);
* a file deleted while the game runs is noticed (before each write and by ``check``) and
  written again from the open database; a file replaced by another one is not
  overwritten: saving stops and says so.

Each action may carry an id (a phone's retry after a lost reply sends the same one):
:meth:`EventStore.find_action` finds an id already stored, so it is applied once.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

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
SET_ASIDE = ".damaged-"
"""A damaged game file is kept as ``kotd.sqlite3.damaged-YYYYMMDD-HHMMSS``."""

# the columns a game file must have (older files lack ``games.game`` and
# ``events.action_id``: they are added)
REQUIRED = {"games": {"id", "started", "players"},
            "events": {"game_id", "seq", "at", "action"}}

MAX_ACTION_ID = 64
"""An action id is 1-64 characters: letters, digits, ``-``, ``_``, ``.`` and ``:``."""

log = logging.getLogger("kotd.store")
T = TypeVar("T")


class SaveError(Exception):
    """The game file cannot be written now: the card is full, read-only or failing, or the
    file was replaced. Nothing was stored and the game in memory is unchanged. Not a
    user's mistake and not a bug: the table says so and saving resumes when it can."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"the game cannot be saved: {reason}")


def _try_writing(folder: Path) -> int | None:
    """Write and remove a small file in ``folder``: None if that works, else the errno
    (EROFS: the card was turned read-only, ENOSPC: it is full)."""
    probe = folder / ".kotd-write-test"
    try:
        with probe.open("wb") as out:
            out.write(b"\0" * 4096)
            out.flush()
            os.fsync(out.fileno())
    except OSError as err:
        return err.errno
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


class _Damaged(Exception):
    """The file at the path is no sound game file (SQLite says so, or its tables differ)."""


def valid_action_id(action_id: str) -> bool:
    """Whether ``action_id`` is a usable id (see :data:`MAX_ACTION_ID`)."""
    return (0 < len(action_id) <= MAX_ACTION_ID and action_id.isascii()
            and all(ch.isalnum() or ch in "-_.:" for ch in action_id))


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
        self.set_aside: Path | None = None
        self.notice = ""  # what the table should know about the file (stays until restart)
        self.problem: str | None = None  # why saving fails now (None: it works)
        self._identity: tuple[int, int] | None = None
        self._lock = threading.Lock()
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._open()
        except _Damaged as err:
            self._put_aside(str(err))
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        target = ":memory:" if self.path is None else str(self.path)
        try:
            db = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as err:
            raise GameFileError("cannot_open", "{path}: cannot open the game file: {why}",
                                path=target, why=str(err)) from None
        try:
            tables = {name: {row[1] for row in db.execute(f"PRAGMA table_info({name})")}
                      for name in REQUIRED}
            for name, columns in tables.items():
                if columns and not REQUIRED[name] <= columns:
                    raise _Damaged(f"its table '{name}' is not a kotd game's")
            if any(tables.values()):
                result = db.execute("PRAGMA quick_check").fetchone()[0]
                if result != "ok":
                    raise _Damaged(result)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            if "game" not in columns:  # a file from before there were game packs
                db.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'kotd'")
            columns = {row[1] for row in db.execute("PRAGMA table_info(events)")}
            if "action_id" not in columns:  # a file from before actions had ids
                db.execute("ALTER TABLE events ADD COLUMN action_id TEXT")
            db.execute("CREATE UNIQUE INDEX IF NOT EXISTS events_action_id ON events "
                       "(action_id) WHERE action_id IS NOT NULL")
        except _Damaged:
            db.close()
            raise
        except sqlite3.DatabaseError as err:
            db.close()
            code = getattr(err, "sqlite_errorcode", 0) & 0xFF
            if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                raise _Damaged(str(err)) from None
            why = self._save_error(err).reason if self.path is not None else str(err)
            raise GameFileError("cannot_open", "{path}: cannot open the game file: {why}",
                                path=target, why=why) from None
        self._identity = self._stat()
        return db

    def _stat(self) -> tuple[int, int] | None:
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def _put_aside(self, why: str) -> None:
        """Keep the damaged file (and its -wal/-shm) under a dated name; say so."""
        assert self.path is not None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        kept = self.path.with_name(f"{self.path.name}{SET_ASIDE}{stamp}")
        n = 1
        while kept.exists():
            n += 1
            kept = self.path.with_name(f"{self.path.name}{SET_ASIDE}{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                part.rename(f"{kept}{suffix}")
        self.set_aside = kept
        self.notice = (f"the game file was damaged ({why}); it is kept as {kept.name} and a "
                       "new one was started")
        log.warning("game file %s: %s", self.path, self.notice)

    @classmethod
    def in_dir(cls, data_dir: str | Path) -> EventStore:
        return cls(Path(data_dir) / DB_NAME)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---- writing, and what can go wrong with it ------------------------------------------

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one write transaction (the store's lock held): all or nothing.

        The file is checked first (deleted: written again; replaced: SaveError); a failed
        write raises SaveError naming the reason and records it in :attr:`problem`."""
        self._keep_file()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = work(self._db)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite may have rolled back already
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError):
            raise  # a bug, not the card
        except sqlite3.DatabaseError as err:  # full, read-only, I/O error, torn pages
            failed = self._save_error(err)
            if self.problem != str(failed):
                log.error("%s (%s)", failed, err)
            self.problem = str(failed)
            raise failed from None
        if self.problem is not None:
            log.warning("the game is saved again")
            self.problem = None
        return result

    def _save_error(self, err: sqlite3.Error) -> SaveError:
        """What a failed write means for the table, in the words of an SD card."""
        code = getattr(err, "sqlite_errorcode", 0) & 0xFF
        probe = _try_writing(self.path.parent) if self.path is not None else None
        if code == sqlite3.SQLITE_READONLY or probe == errno.EROFS:
            return SaveError("the card is read-only (check or replace it)", str(err))
        if code == sqlite3.SQLITE_FULL or probe in (errno.ENOSPC, errno.EDQUOT):
            return SaveError("the card is full (make room on it)", str(err))
        return SaveError(f"the card is failing ({err})", str(err))

    def _keep_file(self) -> None:
        """Before a write: the file must still be the one this store opened."""
        if self.path is None or self._identity is None:
            return
        now = self._stat()
        if now == self._identity:
            if self.problem and self.problem.startswith("the game cannot be saved: the game "
                                                        "file was replaced"):
                self.problem = None
            return
        if now is not None:  # someone put another file there: do not overwrite it
            failed = SaveError("the game file was replaced by another one; restart the "
                               "assistant to use it")
            if self.problem != str(failed):
                log.error("%s: %s", self.path, failed)
            self.problem = str(failed)
            raise failed
        self._rewrite()

    def _rewrite(self) -> None:
        """The file was deleted: write the open database to the path again."""
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_name(self.path.name + ".rewriting")
        fresh.unlink(missing_ok=True)
        try:
            copy = sqlite3.connect(fresh)
            try:
                self._db.backup(copy)
            finally:
                copy.close()
        except sqlite3.Error as err:
            fresh.unlink(missing_ok=True)
            raise self._save_error(err) from None
        self._db.close()  # the deleted file (and its -wal, -shm: SQLite removes them)
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        os.replace(fresh, self.path)
        self._db = self._open()
        self.notice = ("the game file had been deleted while playing; it was written again "
                       "from the game in memory")
        log.warning("%s: %s", self.path, self.notice)

    def check(self) -> str | None:
        """Look after the file now (a deleted one is written again) and, while saving
        fails, try a write; returns :attr:`problem` (None: saving works)."""
        with self._lock:
            with contextlib.suppress(SaveError):
                self._write(lambda db: db.execute(
                    "INSERT INTO meta VALUES ('checked', 0) ON CONFLICT(key) DO UPDATE SET "
                    "value = value + 1") if self.problem else None)
            return self.problem

    def new_game(self, players_line: str, game: str = "kotd",
                 action_id: str | None = None) -> int:
        """Start a game of pack ``game`` whose first action is ``players ...``; its id."""
        now = _now()

        def work(db: sqlite3.Connection) -> int:
            cur = db.execute("INSERT INTO games (started, players, game) VALUES (?, ?, ?)",
                             (now, players_line, game))
            game_id = int(cur.lastrowid or 0)
            db.execute("INSERT INTO events (game_id, seq, at, action, action_id) "
                       "VALUES (?, 0, ?, ?, ?)", (game_id, now, players_line, action_id))
            return game_id

        with self._lock:
            return self._write(work)

    def append(self, game_id: int, action: str, action_id: str | None = None) -> Event:
        """Store one action of a game, in a transaction of its own (SaveError if it
        cannot be written; nothing is then stored)."""
        now = _now()

        def work(db: sqlite3.Connection) -> Event:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute("INSERT INTO events (game_id, seq, at, action, action_id) "
                       "VALUES (?, ?, ?, ?, ?)", (game_id, seq, now, action, action_id))
            return Event(game_id, seq, now, action)

        with self._lock:
            return self._write(work)

    def find_action(self, action_id: str) -> Event | None:
        """The stored action with this id, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT game_id, seq, at, action FROM events WHERE action_id = ?",
                (action_id,)).fetchone()
        return None if row is None else Event(*row)

    def colors(self) -> dict[str, str]:
        """Each player's colour, by name (chosen at setup, kept across games)."""
        with self._lock:
            rows = self._db.execute("SELECT player, color FROM colors").fetchall()
        return {str(name): str(color) for name, color in rows}

    def set_colors(self, colors: dict[str, str]) -> None:
        """Remember these players' colours (one transaction; SaveError if it cannot be
        written)."""
        with self._lock:
            self._write(lambda db: db.executemany(
                "INSERT OR REPLACE INTO colors VALUES (?, ?)", sorted(colors.items())))

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
        """Keep a setting of the table (SaveError if it cannot be written)."""
        with self._lock:
            self._write(lambda db: db.execute(
                "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET "
                "value = excluded.value", ("setting." + key, value)))

    def version_ceiling(self) -> int:
        """Every table version handed out so far is below this (0 for a new file)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return 0 if row is None else int(row[0])

    def raise_version_ceiling(self, ceiling: int) -> None:
        """Promise that versions up to ``ceiling`` may be handed out (stored at once)."""
        with self._lock:
            self._write(lambda db: db.execute(
                "INSERT INTO meta VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET "
                "value = MAX(value, excluded.value)", (ceiling,)))
