"""``kotd backup`` and ``kotd restore``: the game file copied with SQLite's backup API.

The game file is a live SQLite database in WAL mode: copying the file while the assistant
writes can give a torn copy (the newest actions sit in the ``-wal`` file). SQLite's online
backup copies a consistent snapshot page by page, so a backup is safe while the assistant
runs. A restore replaces the game file with a backup; it refuses while the assistant
answers (it would keep its own open file) and first saves the current file as a backup.
"""

from __future__ import annotations

import argparse
import sqlite3
from datetime import datetime
from pathlib import Path

from pi.config import Config
from rules.errors import UsageError

REQUIRED_TABLES = {"games", "events"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("backup", help="copy the game file (safe while the assistant runs)")
    p.add_argument("out", nargs="?", type=Path,
                   help="file or folder (default: DATA_DIR/backups/kotd-DATE.sqlite3)")
    p.add_argument("--data-dir", metavar="DIR", help="the assistant's data directory")
    p.set_defaults(handler=cmd_backup)
    p = sub.add_parser("restore", help="put a backup back as the game file (assistant stopped)")
    p.add_argument("backup", type=Path, help="a file written by 'kotd backup'")
    p.add_argument("--data-dir", metavar="DIR", help="the assistant's data directory")
    p.add_argument("--port", type=int, help="the assistant's port (default: the config's)")
    p.set_defaults(handler=cmd_restore)


def _stamp(now: datetime | None = None) -> str:
    return (now or datetime.now()).strftime("%Y%m%d-%H%M%S")


def check_game_file(path: Path) -> int:
    """The number of games in ``path``, or :class:`UsageError` if it is no sound game file."""
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = db.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if result != "ok":
                raise UsageError(f"{path}: the file is damaged ({result})")
            if not REQUIRED_TABLES.issubset(tables):
                raise UsageError(f"{path}: not a kotd game file (no games/events tables)")
            return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.DatabaseError as err:
        raise UsageError(f"{path}: not a kotd game file ({err})") from None


def backup(source: Path, target: Path) -> int:
    """Copy the game file ``source`` to ``target`` (a new file) with SQLite's backup API."""
    if not source.is_file():
        raise UsageError(f"{source}: there is no game file yet (nothing to back up)")
    if target.exists():
        raise UsageError(f"{target} exists already: choose another name")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=10)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dst.close()
    except sqlite3.DatabaseError as err:
        partial.unlink(missing_ok=True)
        raise UsageError(f"{source}: cannot back up: {err}") from None
    finally:
        src.close()
    games = check_game_file(partial)
    partial.rename(target)
    return games


def restore(backup_file: Path, game_file: Path, keep_dir: Path) -> Path | None:
    """Replace ``game_file`` by ``backup_file``; the old one is first saved into ``keep_dir``.

    Returns where the old game file was saved (None if there was none).
    """
    check_game_file(backup_file)
    saved = None
    if game_file.exists():
        saved = keep_dir / f"kotd-before-restore-{_stamp()}.sqlite3"
        backup(game_file, saved)
    src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(game_file)
        try:
            src.backup(dst)   # writes through the game file's own journal: all or nothing
        finally:
            dst.close()
    finally:
        src.close()
    return saved


def _config(args: argparse.Namespace) -> Config:
    from pi.config import load_config

    return load_config(None, data_dir=args.data_dir)


def cmd_backup(args: argparse.Namespace) -> int:
    from rules.store import DB_NAME

    config = _config(args)
    out = args.out or config.data_dir / "backups"
    if out.is_dir() or args.out is None:
        out = out / f"kotd-{_stamp()}.sqlite3"
    games = backup(config.data_dir / DB_NAME, out)
    print(f"backed up {games} games to {out}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from pi.doctor import fetch_state
    from rules.store import DB_NAME

    config = _config(args)
    port = args.port or config.port
    if fetch_state(port) is not None:
        raise UsageError(f"the assistant is running (port {port} answers): stop it first: "
                       "sudo systemctl stop kotd")
    games = check_game_file(args.backup)
    saved = restore(args.backup, config.data_dir / DB_NAME, config.data_dir / "backups")
    if saved is not None:
        print(f"the game file before the restore is kept in {saved}")
    print(f"restored {games} games from {args.backup}; start the assistant again")
    return 0
