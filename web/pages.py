"""The pages: skeletons that the page's script fills from ``/api/state``.

``/`` the table, ``/scores`` the scoreboard, ``/setup`` players and cards, ``/history``
the game so far and past games; ``/qr.svg`` the QR code of the page with the token.
"""

from __future__ import annotations

import io
import socket
from typing import Any
from urllib.parse import urlencode, urlsplit

import segno
from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from web.auth import REFUSED, has_token
from web.guard import is_api
from web.i18n import LANG_COOKIE, LANGS, STRINGS, pick_lang

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
               static_url_path="/static")

PAGES = {  # endpoint: (path, title key)
    "table": ("/", "nav_table"),
    "scores": ("/scores", "nav_scores"),
    "setup": ("/setup", "nav_setup"),
    "history": ("/history", "nav_history"),
}


def _page(name: str) -> Response:
    lang = pick_lang(request)
    strings = STRINGS[lang]
    nav = [{"href": path, "label": strings[key], "current": page == name, "id": page}
           for page, (path, key) in PAGES.items()]
    langs = [{"code": code, "href": f"?lang={code}", "current": code == lang}
             for code in LANGS]
    html = render_template(f"{name}.html", page=name, lang=lang, strings=strings, nav=nav,
                           langs=langs, title=strings[PAGES[name][1]])
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    if request.args.get("lang") in LANGS:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.get("/")
def table() -> Response:
    return _page("table")


@bp.get("/scores")
def scores() -> Response:
    return _page("scores")


@bp.get("/setup")
def setup() -> Response:
    return _page("setup")


@bp.get("/history")
def history() -> Response:
    return _page("history")


def _lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def page_url() -> str:
    """The table page's address for phones: PUBLIC_URL (a string, or a function asked each
    time, so a hotspot started later is in the code), else this request's host (a loopback
    host is replaced by the machine's address on the network)."""
    public = current_app.config.get("PUBLIC_URL")
    if callable(public):
        public = public()
    if isinstance(public, str) and public:
        return public.rstrip("/") + "/"
    base = request.host_url
    parts = urlsplit(base)
    if parts.hostname in ("localhost", "127.0.0.1", "::1"):
        lan = _lan_address()
        if lan:
            port = f":{parts.port}" if parts.port else ""
            base = f"{parts.scheme}://{lan}{port}/"
    return base


def qr_svg(text: str) -> bytes:
    """A standalone SVG image (black on white, quiet zone) of ``text`` as a QR code."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=8, border=4, dark="#000",
                                     light="#fff", xmldecl=False, title="QR")
    return out.getvalue()


@bp.get("/qr.svg")
def qr() -> Any:
    """The page's link with the token, as a QR code; only for a request with the token."""
    if not has_token():
        return jsonify(error=REFUSED), 403
    url = page_url() + "?" + urlencode({"token": current_app.config["TABLE_TOKEN"]})
    try:
        picture = qr_svg(url)
    except segno.DataOverflowError:  # a Host header of kilobytes: no QR code holds it
        return jsonify(error="the page's address (the request's Host) is too long for a QR "
                             "code: open the page by the table's address"), 400
    return Response(picture, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


INTERNAL = "internal error: the assistant has logged it; the game is kept"


def register_errors(app: Flask) -> None:
    """JSON errors under /api (and for /qr.svg); a plain page elsewhere. An unexpected
    failure is a 500 whose reply names no internals (Flask logs its traceback)."""

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> Any:
        if is_api(request.path):
            message = {404: f"no such API route: {request.path}",
                       405: f"{request.method} is not allowed on {request.path}",
                       500: INTERNAL}.get(err.code or 0, err.description or err.name)
            return jsonify(error=message), err.code
        return Response(f"<!doctype html><title>{err.code}</title>"
                        f"<h1>{err.code} {err.name}</h1><p><a href='/'>King of the Dice</a>",
                        status=err.code, mimetype="text/html")
