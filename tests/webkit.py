"""Shared pieces of the web tests: a fake camera side and a game in a temporary store."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Flask

from rules.games import game_pack
from rules.store import EventStore
from rules.table import EyeStatus, Table
from web import create_app

TOKEN = "test-table-token"
START = [
    "players Ann Ben",
    "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g",
]
SUM10 = "roll 1r 1g 1b 2r 2g 3b"  # the hypnotist (sum ≤ 12) and the orc (3 of a kind) fit
NOTHING = "roll 1r 2r 4r 6r 3r 1b"  # fits none of the START row


class FakeEye:
    """A TableEye whose status you can set (it reports it to its table, as the real eye
    does) and whose picture you can change."""

    def __init__(self, camera: str = "simulated", jpeg: bytes | None = b"\xff\xd8fake\xff\xd9"):
        self.status = EyeStatus(camera, "fake", "still", 6, (), "")  # type: ignore[arg-type]
        self.jpeg = jpeg
        self.rereads = 0
        self.table: Table | None = None
        self._lock = threading.Lock()

    def attach(self, table: Table) -> FakeEye:
        self.table = table
        table.report_eye(self.status)
        return self

    def set(self, **changes: Any) -> None:
        with self._lock:
            self.status = replace(self.status, **changes)
        if self.table is not None:
            self.table.report_eye(self.status)

    def annotated_jpeg(self) -> bytes | None:
        return self.jpeg

    def reread(self) -> None:
        self.rereads += 1

    def throw(self) -> bool:
        return False


def new_table(tmp_path: Path, *lines: str, advice: bool = False) -> Table:
    """A King of the Dice table on a game file in ``tmp_path``, with ``lines`` played."""
    table = Table(EventStore(tmp_path / "kotd.sqlite3"), game_pack("kotd"), advice=advice)
    for line in lines:
        table.act(table.parse(line))
    return table


def new_app(table: Table, eye: FakeEye | None = None, token: str | None = TOKEN,
            **kw: Any) -> Flask:
    """The page for ``table``, with ``eye`` reporting to it."""
    if eye is not None:
        eye.attach(table)
    return create_app(table, eye, token, **kw)
