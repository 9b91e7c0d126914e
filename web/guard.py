"""What a stranger on the table's network may send, and how it is refused.

The page listens on every address of the Pi (phones must reach it), so anyone on the same
network can send it anything. These are the app's limits, installed by :func:`install`:

* a request body is at most ``MAX_BODY_BYTES`` (an action is one short line): a larger
  one gets 413 before anything is read, whether or not it carries the token;
* JSON nested too deeply to parse is a bad request (400), not a crash;
* every error under ``/api`` is JSON ``{"error": ...}`` with its status
  (``web.pages.register_errors``), including an unexpected failure: 500, logged with its
  traceback, the reply names no internals.

The waitress server caps bodies too (``web.server.SERVER_OPTIONS``), a little above this
limit, so an oversized body is refused while its headers arrive and never reaches a
temporary file.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from flask.json.provider import DefaultJSONProvider

MAX_BODY_BYTES = 4096
"""The largest request body the app reads: an action line is at most 200 characters."""

TOO_LARGE = f"the request is too large: at most {MAX_BODY_BYTES} bytes (one action line)"


class TableJSON(DefaultJSONProvider):
    """Flask's JSON with the page's settings; JSON too deep to parse is a ValueError (so
    ``get_json`` treats it as any other malformed body)."""

    sort_keys = False
    ensure_ascii = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def is_api(path: str) -> bool:
    """Whether ``path`` answers in JSON: the API (``/api`` and below) and the QR code."""
    return path == "/api" or path.startswith("/api/") or path == "/qr.svg"


def install(app: Flask) -> None:
    """Put the limits above on ``app`` (called by ``create_app``)."""
    app.json = TableJSON(app)
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]
    app.config["MAX_FORM_PARTS"] = 20

    @app.before_request
    def _body_limit() -> Any:
        # refuse by the declared length at once, before the token or the body is looked at
        length = request.content_length
        if length is not None and length > app.config["MAX_CONTENT_LENGTH"]:
            return _too_large()
        return None

    @app.errorhandler(413)
    def _too_large(err: Any = None) -> Any:
        limit = app.config["MAX_CONTENT_LENGTH"]
        return jsonify(error=TOO_LARGE.replace(str(MAX_BODY_BYTES), str(limit))), 413
