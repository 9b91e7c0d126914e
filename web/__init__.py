"""The phone page: a Flask app built by :func:`create_app`.

The app is handed the game (a :class:`rules.referee.Referee`), the camera side (a
:class:`web.eye.TableEye`, or None) and the table's token; it touches no hardware and
starts no thread, here or at import. Areas are blueprints: ``pages`` (the HTML
skeletons), ``api`` (JSON, actions and the live stream).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask

from rules.referee import Referee
from web import guard
from web.eye import TableEye

DEFAULTS: dict[str, Any] = {
    "HEARTBEAT_SECONDS": 15.0,  # SSE comment line, keeps proxies and phones talking
    "LIVE_POLL_SECONDS": 0.25,  # how often a stream looks at the eye and the client
    "LIVE_MAX_SECONDS": 600.0,  # a stream ends after this; EventSource reconnects at once
    # at most this many streams at once; a new one ends the oldest (most likely a phone
    # that vanished without hanging up). None: no limit; make_server sets it from threads.
    "LIVE_MAX_STREAMS": None,
    "PUBLIC_URL": None,  # "http://192.168.1.20:8000/" or a function giving it: the QR's target
    "MAX_ACTION_CHARS": 200,
}


@dataclass
class Table:
    """What the blueprints share: the game, the camera side, the token, the advisor."""

    referee: Referee
    eye: TableEye | None
    token: str
    advisor: Callable[[Any], Any] | None = None
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


def create_app(referee: Referee, eye: TableEye | None = None, token: str | None = None, *,
               advisor: Callable[[Any], Any] | None = None,
               config: dict[str, Any] | None = None) -> Flask:
    """Build the page for one table. ``token`` None: a fresh random one (``app.config``)."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    if config:
        app.config.update(config)
    guard.install(app)  # body limit, JSON that cannot crash the parser
    table_token = token or secrets.token_urlsafe(16)
    app.config["TABLE_TOKEN"] = table_token
    app.extensions["kotd"] = Table(referee, eye, table_token, advisor)

    from web import api, pages

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    pages.register_errors(app)

    @app.after_request
    def _headers(response):  # type: ignore[no-untyped-def]
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault(
            "Content-Security-Policy",
            # media-src data: is NoSleep.js's tiny muted video (screen kept awake over http)
            "default-src 'self'; img-src 'self' data:; media-src 'self' data:; "
            "style-src 'self'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        )
        return response

    return app


def table_of(app: Flask) -> Table:
    return app.extensions["kotd"]


def stop_streams(app: Flask) -> None:
    """End every live stream soon (the server is shutting down)."""
    table_of(app).stopping.set()
