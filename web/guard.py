"""What a stranger on the table's network may send, and how it is refused.

The page listens on every address of the Pi (phones must reach it), so anyone on the same
network can send it anything. These are the app's limits, installed by :func:`install`:

* a request body is at most ``MAX_BODY_BYTES`` (an action is one short line): a larger
  one gets 413 before anything is read, whether or not it carries the token;
* JSON nested too deeply to parse is a bad request (400), not a crash;
* JSON text holding a lone surrogate (``"\\ud800"``: half of a character, no text at
  all) is a bad request (400, ``usage.not_unicode``) before any route sees it, so no
  name, action or colour can carry one into the game file or a reply;
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

from rules.errors import UsageError
from web.i18n import api_lang, say_error

MAX_BODY_BYTES = 4096
"""The largest request body the app reads: an action line is at most 200 characters."""

TOO_LARGE = f"the request is too large: at most {MAX_BODY_BYTES} bytes (one action line)"


class NotUnicode(ValueError):
    """JSON text that holds a lone surrogate: not text any person typed."""


def _lone_surrogate(value: Any) -> bool:
    """Whether a parsed JSON value holds a string (or a key) with a lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= ch <= "\udfff" for ch in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class TableJSON(DefaultJSONProvider):
    """Flask's JSON with the page's settings; JSON too deep to parse is a ValueError (so
    ``get_json`` treats it as any other malformed body), and so is a lone surrogate
    (:class:`NotUnicode`)."""

    sort_keys = False
    ensure_ascii = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            value = super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        if _lone_surrogate(value):
            raise NotUnicode("the request holds a lone surrogate (\\ud800-\\udfff), which "
                             "is no character: send the text as typed")
        return value


def _not_unicode() -> Any:
    """400 for a JSON body with a lone surrogate (None for any other body)."""
    if request.method != "POST" or not request.is_json:
        return None
    try:
        request.json_module.loads(request.get_data(cache=True))
    except NotUnicode as err:
        refusal = UsageError("not_unicode", "{why}", why=str(err))
        lang = api_lang(request)
        return jsonify({**refusal.to_dict(), "english": refusal.message,
                        "error": say_error(refusal.code, refusal.params, refusal.message,
                                           lang)}), 400
    except ValueError:
        return None  # any other malformed body: the route says what it wants
    return None


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
        return _not_unicode()

    @app.errorhandler(413)
    def _too_large(err: Any = None) -> Any:
        limit = app.config["MAX_CONTENT_LENGTH"]
        return jsonify(error=TOO_LARGE.replace(str(MAX_BODY_BYTES), str(limit))), 413
