"""What one app's blueprints share: the table, the camera side, the token, the live streams."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import Flask

from web.ports import TableEye, TableService
from web.stats import Summaries


@dataclass
class Shared:
    """What the blueprints share: the table, the camera side, the token, the streams."""

    table: TableService
    eye: TableEye | None
    token: str
    stopping: threading.Event = field(default_factory=threading.Event)
    summaries: Summaries = field(default_factory=Summaries)  # stats without replays
    _streams: list[tuple[str, threading.Event, bool]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self, limit: int | None, address: str = "",
                    per_address: int | None = None, player: bool = False
                    ) -> threading.Event:
        """Register a live stream from ``address``; the returned event is set when it must
        end. Past ``per_address`` streams from one address, that address's oldest stream
        ends (a phone that reconnected, or one visitor opening stream after stream: the
        other phones are not touched). Past ``limit`` in all, the oldest spectator's
        stream ends; a ``player``'s stream (the request carried the table's token) gives
        way only to another player's, so a spectator arriving when every stream is a
        player's gets an ended stream (its page polls)."""
        ended = threading.Event()
        with self._lock:
            self._streams.append((address, ended, player))
            if per_address:
                mine = [entry for entry in self._streams if entry[0] == address]
                for entry in mine[:-per_address]:
                    self._streams.remove(entry)
                    entry[1].set()
            while limit and len(self._streams) > limit:
                gives_way = next((entry for entry in self._streams if not entry[2]),
                                 self._streams[0])
                self._streams.remove(gives_way)
                gives_way[1].set()
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
