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
  written again from the open database, and so is a deleted journal (``-wal``, ``-shm``:
  the actions not yet copied into the main file live there); a file replaced by another
  one is not overwritten: saving stops and says so;
* the journal is copied into the main file (a checkpoint) by ``check`` whenever something
  was written since, so the main file never lags more than a few seconds behind;
* a store made with ``keep_going=True`` (the table's) starts whatever the game file is: a
  folder, a pipe or a device where the file should be, a card full or read-only. It then
  holds no games, refuses every write (:class:`SaveError` naming the problem and what to
  do) and ``check`` opens the real file as soon as it can (:attr:`EventStore.reopened`).

Each action may carry an id (a phone's retry after a lost reply sends the same one):
:meth:`EventStore.find_action` finds an id already stored, so it is applied once.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import stat
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


def not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be a game file although something is there (a folder, a pipe, a
    device such as a link to /dev/null), in words with what to do; None if it is a
    regular file or nothing. Only looks (``stat``): a pipe is never opened."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"the game file {path} cannot be looked at ({err.strerror}); check the card"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return (f"the game file {path} is a folder, not a file: move that folder away and "
                "the table saves again by itself")
    kind = "a pipe" if stat.S_ISFIFO(mode) else "a device (a link to /dev/null?)" if (
        stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) else "not a file"
    return (f"the game file {path} is {kind}, not a file: delete it (sudo rm {path}) and "
            "the table saves again by itself")


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

    def __init__(self, path: str | Path | None, *, keep_going: bool = False) -> None:
        self.path = None if path is None else Path(path)
        self.set_aside: Path | None = None
        self.notice = ""  # what the table should know about the file (stays until restart)
        self.problem: str | None = None  # why saving fails now (None: it works)
        self.details = ""  # what SQLite said of a damaged file (for the log, kotd doctor)
        self.reopened = 0  # how often the real file was opened after a start without it
        self._identity: tuple[tuple[int, int] | None, ...] = ()
        self._unsaved = False  # written since the last checkpoint
        self._lock = threading.Lock()
        self._stand_in: SaveError | None = None  # the file cannot be used: why
        stand_in: SaveError | None = None
        try:
            self._make_folder()  # GameFileError (no such place, a file in the way) goes up
            self._db = self._open_usable()
        except SaveError as err:
            stand_in = err
        except GameFileError as err:
            if err.code == "store.data_dir" or self.path is None:
                raise
            stand_in = SaveError(str(err.params.get("why") or err))
        if stand_in is not None:
            if not keep_going:
                raise GameFileError("cannot_open", "{path}: cannot open the game file: {why}",
                                    path=str(self.path), why=stand_in.reason) from None
            self._stand_in = stand_in
            self.problem = str(stand_in)
            log.error("%s: %s", self.path, self.problem)
            self._db = self._memory()

    def _make_folder(self) -> None:
        """The data directory exists (made if need be); GameFileError if it cannot be
        (a file in its way, no such place) and SaveError for a full or read-only card."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            if err.errno in (errno.EROFS, errno.ENOSPC, errno.EDQUOT):
                raise SaveError("the card is read-only (check or replace it)"
                                if err.errno == errno.EROFS else
                                "the card is full (make room on it)", str(err)) from None
            why = ("it is a file, not a folder" if err.errno in (errno.EEXIST, errno.ENOTDIR)
                   else err.strerror or str(err))
            raise GameFileError("data_dir", "{path}: cannot use it as the data directory: "
                                "{why}", path=str(self.path.parent), why=why) from None
        if not self.path.parent.is_dir():
            raise GameFileError("data_dir", "{path}: cannot use it as the data directory: "
                                "{why}", path=str(self.path.parent),
                                why="it is a file, not a folder")

    def _open_usable(self) -> sqlite3.Connection:
        """The game file opened (a damaged one kept aside first); SaveError if something
        that is no file stands at its path or the card refuses it."""
        if self.path is not None:
            problem = not_a_file(self.path)
            if problem:
                raise SaveError(problem)
        try:
            return self._open()
        except _Damaged as err:
            self._put_aside(str(err))
            return self._open()

    def _memory(self) -> sqlite3.Connection:
        """An empty stand-in while the real file cannot be used (nothing is written to it)."""
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        db.executescript(SCHEMA)
        db.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'kotd'")
        db.execute("ALTER TABLE events ADD COLUMN action_id TEXT")
        return db

    @property
    def standing_in(self) -> bool:
        """Whether the store holds no real file now (started without one; see check)."""
        return self._stand_in is not None

    def _reopen(self) -> None:
        """Started without the real file: open it now if it can be used."""
        try:
            self._make_folder()
            db = self._open_usable()
        except (GameFileError, SaveError, OSError) as err:
            why = str(err) if isinstance(err, SaveError) else str(SaveError(str(err)))
            if why != self.problem:
                log.error("%s: %s", self.path, why)
                self.problem = why
            return
        self._db.close()
        self._db = db
        self._stand_in = None
        self.problem = None
        self.reopened += 1
        log.warning("%s: the game file can be used again", self.path)

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
            if self.path is not None:
                raise self._save_error(err) from None
            raise GameFileError("cannot_open", "{path}: cannot open the game file: {why}",
                                path=target, why=str(err)) from None
        self._identity = self._stat()
        return db

    def _stat(self) -> tuple[tuple[int, int] | None, ...]:
        """Which files the path and its journal (``-wal``, ``-shm``) are now (device and
        inode; None: not there)."""
        if self.path is None:
            return ()
        found: list[tuple[int, int] | None] = []
        for suffix in ("", "-wal", "-shm"):
            try:
                st = os.stat(f"{self.path}{suffix}")
            except FileNotFoundError:
                found.append(None)
            else:
                found.append((st.st_dev, st.st_ino))
        return tuple(found)

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
        self.details = why
        self.notice = (f"the game file was damaged: it is kept as {kept.name} and a new one "
                       "was started (kotd doctor says more)")
        first = why.splitlines()[:5]
        log.warning("game file %s: %s; SQLite says: %s%s", self.path, self.notice,
                    " / ".join(first), " ..." if len(why.splitlines()) > 5 else "")

    @classmethod
    def in_dir(cls, data_dir: str | Path, *, keep_going: bool = False) -> EventStore:
        return cls(Path(data_dir) / DB_NAME, keep_going=keep_going)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---- writing, and what can go wrong with it ------------------------------------------

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one write transaction (the store's lock held): all or nothing.

        The file is checked first (deleted: written again; replaced: SaveError); a failed
        write raises SaveError naming the reason and records it in :attr:`problem`."""
        if self._stand_in is not None:
            raise SaveError(self.problem.removeprefix("the game cannot be saved: ")
                            if self.problem else self._stand_in.reason)
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
        self._unsaved = True
        if self.problem is not None:
            log.warning("the game is saved again")
            self.problem = None
        return result

    def _checkpoint(self) -> None:
        """Copy the journal into the main file (SQLite's checkpoint), if written since."""
        if not self._unsaved or self.path is None or self._stand_in is not None:
            return
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.DatabaseError as err:
            log.warning("%s: checkpoint failed (%s); the journal keeps the game", self.path,
                        err)
            return
        self._unsaved = False

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
        """Before a write: the file and its journal must still be the ones this store
        opened (a deleted one is written again from the open database)."""
        if self.path is None or not self._identity:
            return
        now = self._stat()
        if now == self._identity:
            if self.problem and self.problem.startswith("the game cannot be saved: the game "
                                                        "file was replaced"):
                self.problem = None
            return
        if now[0] is not None and now[0] != self._identity[0]:
            # someone put another file there: do not overwrite it
            failed = SaveError("the game file was replaced by another one; restart the "
                               "assistant to use it")
            if self.problem != str(failed):
                log.error("%s: %s", self.path, failed)
            self.problem = str(failed)
            raise failed
        lost = now[0] is None or any(was is not None and was != is_now for was, is_now in
                                     zip(self._identity[1:], now[1:], strict=True))
        if lost:
            self._rewrite()
        else:  # the journal was made since the file was opened
            self._identity = now

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
        main_gone = self._stat()[0] is None
        self._db.close()  # the deleted file (and its -wal, -shm: SQLite removes them)
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        os.replace(fresh, self.path)
        self._db = self._open()
        self._unsaved = False
        self.notice = (("the game file had been deleted while playing" if main_gone else
                        "the game file's journal (-wal, -shm) had been deleted while playing")
                       + "; it was written again from the game in memory")
        log.warning("%s: %s", self.path, self.notice)

    def check(self) -> str | None:
        """Look after the file now (a deleted one is written again) and, while saving
        fails, try a write; returns :attr:`problem` (None: saving works)."""
        with self._lock:
            if self._stand_in is not None:
                self._reopen()
                return self.problem
            with contextlib.suppress(SaveError):
                self._write(lambda db: db.execute(
                    "INSERT INTO meta VALUES ('checked', 0) ON CONFLICT(key) DO UPDATE SET "
                    "value = value + 1") if self.problem else None)
            self._checkpoint()
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
        """One stored game, or None (one game's row, not every game's)."""
        with self._lock:
            row = self._db.execute(
                "SELECT g.id, g.started, g.players, COUNT(e.seq), g.game FROM games g "
                "LEFT JOIN events e ON e.game_id = g.id WHERE g.id = ? GROUP BY g.id",
                (game_id,)).fetchone()
        return None if row is None else GameInfo(*row)

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
