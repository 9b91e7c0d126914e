"""Shared pieces of the web tests: a fake camera side and a game in a temporary store."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from rules.referee import Referee
from rules.store import EventStore

TOKEN = "test-table-token"
START = [
    "players Ann Ben",
    "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g",
]
SUM10 = "roll 1r 1g 1b 2r 2g 3b"  # the hypnotist (sum ≤ 12) and the orc (3 of a kind) fit
NOTHING = "roll 1r 2r 4r 6r 3r 1b"  # fits none of the START row


class FakeEye:
    """A TableEye with a status you can set and a picture you can change."""

    def __init__(self, camera: str = "simulated", jpeg: bytes | None = b"\xff\xd8fake\xff\xd9"):
        self.version = 0
        self._status: dict[str, Any] = {"camera": camera, "seeing": "still", "dice_seen": 6,
                                        "message": ""}
        self.jpeg = jpeg
        self.rereads = 0
        self._lock = threading.Lock()

    def status(self) -> dict[str, Any]:
        with self._lock:
            return dict(self._status)

    def set(self, **changes: Any) -> None:
        with self._lock:
            self._status.update(changes)
            self.version += 1

    def annotated_jpeg(self) -> bytes | None:
        return self.jpeg

    def reread(self) -> None:
        self.rereads += 1


def new_referee(tmp_path: Path, *lines: str) -> Referee:
    referee = Referee(EventStore(tmp_path / "kotd.sqlite3"))
    for line in lines:
        referee.act(line)
    return referee
