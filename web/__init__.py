"""The phone page: a Flask app built by :func:`create_app`.

The app is handed the table (a :class:`web.ports.TableService`: the game and its
snapshots), the camera side (a :class:`web.ports.TableEye`, or None) and the table's
token; it touches no hardware and starts no thread, here or at import. Areas are
blueprints: ``pages`` (the HTML skeletons), ``api`` (JSON, actions and the live stream).
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask, Response

from web import api, guard, pages
from web.context import Shared
from web.ports import TableEye, TableService

DEFAULTS: dict[str, Any] = {
    "HEARTBEAT_SECONDS": 15.0,  # SSE comment line, keeps proxies and phones talking
    "LIVE_POLL_SECONDS": 0.25,  # how often a stream looks for a gone client
    "LIVE_MAX_SECONDS": 600.0,  # a stream ends after this; EventSource reconnects at once
    # at most this many streams at once; a new one ends the oldest (most likely a phone
    # that vanished without hanging up). None: no limit; make_server sets it from threads.
    "LIVE_MAX_STREAMS": None,
    # at most this many streams from one address (a phone reloading briefly holds two); a
    # new one beyond ends that address's oldest, so one visitor cannot push phones off
    "LIVE_STREAMS_PER_ADDRESS": 4,
    "PUBLIC_URL": None,  # "http://192.168.1.20:8000/" or a function giving it: the QR's target
    "MAX_ACTION_CHARS": 200,
}


def create_app(table: TableService, eye: TableEye | None = None, token: str | None = None, *,
               config: dict[str, Any] | None = None) -> Flask:
    """Build the page for one table. ``token`` None: a fresh random one (``app.config``)."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    if config:
        app.config.update(config)
    guard.install(app)  # body limit, JSON that cannot crash the parser
    table_token = token or secrets.token_urlsafe(16)
    app.config["TABLE_TOKEN"] = table_token
    app.extensions["kotd"] = Shared(table, eye, table_token)

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    pages.register_errors(app)

    @app.after_request
    def _headers(response: Response) -> Response:
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
