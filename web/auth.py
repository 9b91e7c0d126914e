"""Who may act: anyone may watch; actions need the table's token.

The token arrives in the ``X-Table-Token`` header (what the page sends), a ``?token=``
query argument (the QR code's link) or a ``token`` form field. Never a cookie, so a
page elsewhere cannot act through a phone's browser.
"""

from __future__ import annotations

import secrets
from functools import wraps
from typing import Any

from flask import current_app, jsonify, request

HEADER = "X-Table-Token"


def offered_token() -> str:
    token = request.headers.get(HEADER) or request.args.get("token") or ""
    if not token and request.mimetype in ("application/x-www-form-urlencoded",
                                          "multipart/form-data"):
        token = request.form.get("token", "")
    return token


def has_token() -> bool:
    """Whether this request carries the table's token (constant-time comparison)."""
    offered = offered_token()
    expected = current_app.config["TABLE_TOKEN"]
    return bool(offered) and secrets.compare_digest(offered.encode(), expected.encode())


REFUSED = ("this table's token is needed to act: open the page from the QR code "
           "(its link carries the token)")


def token_required(view: Any) -> Any:
    """Refuse with 403 JSON, before anything is read or changed, without the token."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not has_token():
            return jsonify(error=REFUSED), 403
        return view(*args, **kwargs)

    return guarded
