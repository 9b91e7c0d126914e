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
    _streams: list[tuple[str, threading.Event]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self, limit: int | None, address: str = "",
                    per_address: int | None = None) -> threading.Event:
        """Register a live stream from ``address``; the returned event is set when it must
        end. Past ``per_address`` streams from one address, that address's oldest stream
        ends (a phone that reconnected, or one visitor opening stream after stream: the
        other phones are not touched); past ``limit`` in all, the oldest stream ends."""
        ended = threading.Event()
        with self._lock:
            self._streams.append((address, ended))
            if per_address:
                mine = [entry for entry in self._streams if entry[0] == address]
                for entry in mine[:-per_address]:
                    self._streams.remove(entry)
                    entry[1].set()
            while limit and len(self._streams) > limit:
                self._streams.pop(0)[1].set()
        return ended

    def close_stream(self, ended: threading.Event) -> None:
        with self._lock:
            self._streams = [entry for entry in self._streams if entry[1] is not ended]

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
