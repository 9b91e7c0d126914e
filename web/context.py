"""What one app's blueprints share: the table, the camera side, the token, the live streams."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import Flask

from web.ports import TableEye, TableService


@dataclass
class Shared:
    """What the blueprints share: the table, the camera side, the token, the streams."""

    table: TableService
    eye: TableEye | None
    token: str
    stopping: threading.Event = field(default_factory=threading.Event)
    _streams: list[threading.Event] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self, limit: int | None) -> threading.Event:
        """Register a live stream; the returned event is set when it must end."""
        ended = threading.Event()
        with self._lock:
            self._streams.append(ended)
            while limit and len(self._streams) > limit:
                self._streams.pop(0).set()
        return ended

    def close_stream(self, ended: threading.Event) -> None:
        with self._lock:
            if ended in self._streams:
                self._streams.remove(ended)

    @property
    def live_streams(self) -> int:
        with self._lock:
            return len(self._streams)


def shared(app: Flask) -> Shared:
    """The table, eye and streams of an app made by :func:`create_app`."""
    found: Shared = app.extensions["kotd"]
    return found


def stop_streams(app: Flask) -> None:
    """End every live stream soon (the server is shutting down)."""
    shared(app).stopping.set()
