"""The JSON API behind the page: state, actions (the words of ``kotd play``), live stream.

Every refusal is JSON ``{"error": message}``: 400 for a bad request or a move the rules
refuse (the referee's own message), 403 without the table's token, 404 for what is not
there. A refused request changes nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from rules.actions import ActionSyntaxError
from rules.game import RuleError
from rules.view import table_view
from web import table_of
from web.auth import has_token, token_required
from web.i18n import api_lang
from web.state import build_state, card_catalogue, event_dict, versions

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


@bp.get("/state")
def state() -> Any:
    table = table_of(current_app)
    return jsonify({**build_state(table, api_lang(request)), "can_act": has_token()})


@bp.get("/cards")
def cards() -> Any:
    return jsonify(card_catalogue(table_of(current_app).referee.box, api_lang(request)))


def _action_line() -> str:
    """The action words from a JSON body ``{"action": ...}`` or a form field; ValueError."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise ValueError('send JSON like {"action": "claim 2"}')
        line = body.get("action")
    elif request.form:
        line = request.form.get("action")
    else:
        raise ValueError('send JSON like {"action": "claim 2"} (or a form field "action")')
    if not isinstance(line, str) or not line.strip():
        raise ValueError('"action" must be an action line, e.g. "claim 2"')
    if len(line) > current_app.config["MAX_ACTION_CHARS"]:
        raise ValueError(f"an action is at most {current_app.config['MAX_ACTION_CHARS']} "
                         "characters")
    if "\n" in line.strip() or "\r" in line:
        raise ValueError("one action at a time: no line breaks")
    return line.strip()


@bp.post("/action")
@token_required
def action() -> Any:
    table = table_of(current_app)
    try:
        line = _action_line()
    except ValueError as err:
        return _error(str(err), 400)
    try:
        table.referee.act(line)
    except (ActionSyntaxError, RuleError, ValueError) as err:
        return _error(str(err), 400)
    except KeyError as err:  # an unknown card id, with close matches
        return _error(str(err.args[0]) if err.args else "unknown name", 400)
    return jsonify({**build_state(table, api_lang(request)), "can_act": True, "done": line})


@bp.get("/live")
def live() -> Response:
    """Server-Sent Events: ``event: state`` whenever the game or the camera changes."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    table = table_of(app)
    lang = api_lang(request)
    disconnected = request.environ.get("waitress.client_disconnected")
    heartbeat = float(app.config["HEARTBEAT_SECONDS"])
    poll = float(app.config["LIVE_POLL_SECONDS"])
    lifetime = float(app.config["LIVE_MAX_SECONDS"])
    once = request.args.get("once") == "1"  # one state and end: for tests and simple clients

    limit = app.config["LIVE_MAX_STREAMS"]

    def stream() -> Iterator[str]:
        ended = table.open_stream(limit)
        try:
            yield from _events(ended)
        finally:
            table.close_stream(ended)

    def _events(ended: Any) -> Iterator[str]:
        started = last_write = time.monotonic()
        sent: tuple[int, int] | None = None
        yield "retry: 1000\n\n"
        while not (table.stopping.is_set() or ended.is_set()):
            now = time.monotonic()
            if now - started > lifetime or (disconnected is not None and disconnected()):
                return
            current = versions(table)
            if current != sent:
                payload = json.dumps(build_state(table, lang), ensure_ascii=False,
                                     separators=(",", ":"))
                sent = current
                last_write = now
                yield f"id: {current[0]}.{current[1]}\nevent: state\ndata: {payload}\n\n"
                if once:
                    return
            elif now - last_write >= heartbeat:
                last_write = now
                yield ": heartbeat\n\n"
            # wakes at once on an action; every `poll` s for the eye and a gone client
            table.referee.wait_for_change(current[0], poll)

    return Response(stream(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/history")
def history() -> Any:
    referee = table_of(current_app).referee
    return jsonify(game_id=referee.game_id,
                   events=[event_dict(e) for e in referee.history()])


@bp.get("/games")
def games() -> Any:
    referee = table_of(current_app).referee
    return jsonify(games=[
        {"id": g.id, "started": g.started, "players": g.players.removeprefix("players ").split(),
         "events": g.events, "current": g.id == referee.game_id}
        for g in referee.store.games()])


MAX_GAME_ID = 2**63 - 1  # SQLite's largest integer: no game id lies beyond it


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Any:
    referee = table_of(current_app).referee
    events = referee.history(game_id) if game_id <= MAX_GAME_ID else []
    record = referee.past_record(game_id) if events else None
    if record is None:
        return _error(f"there is no game {game_id}", 404)
    return jsonify(id=game_id, current=game_id == referee.game_id,
                   view=table_view(record, api_lang(request)),
                   events=[event_dict(e) for e in events])


@bp.get("/camera.jpg")
def camera() -> Any:
    eye = table_of(current_app).eye
    if eye is None:
        return _error("no camera at this table", 404)
    picture = eye.annotated_jpeg()
    if not picture:
        return _error("no camera picture yet", 404)
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/reread")
@token_required
def reread() -> Any:
    eye = table_of(current_app).eye
    if eye is None:
        return _error("no camera at this table", 404)
    eye.reread()
    return jsonify(ok=True)


@bp.post("/throw")
@token_required
def throw() -> Any:
    """Throw the dice of the simulated tray (demo without a camera)."""
    eye = table_of(current_app).eye
    thrower = getattr(eye, "throw", None)
    if thrower is None or not thrower():
        return _error("only a simulated tray can be thrown from the page", 404)
    return jsonify(ok=True)


@bp.get("/advice")
def advice() -> Any:
    table = table_of(current_app)
    if table.advisor is None:
        return _error("no advisor at this table", 404)
    record = table.referee.record
    if record is None:
        return _error("no game yet", 404)
    try:
        result = table.advisor(record)
    except Exception as err:  # the advisor's trouble is not the page's
        current_app.logger.exception("advisor failed")
        return _error(f"no advice now: {err}", 500)
    return jsonify(advice=result)


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers.setdefault("Cache-Control", "no-store")
    return response
