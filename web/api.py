"""The JSON API behind the page: state, actions (the words of ``kotd play``), live stream.

Every refusal is JSON ``{"error": message}``: 400 for a bad request or a move the rules
refuse (with the error's stable ``code`` and ``params`` beside the English message, so the
page can say it in its own language), 403 without the table's token, 404 for what is not
there. A refused request changes nothing. Anything else that goes wrong is a bug: 500,
logged with its traceback.

The state, the action's reply and the live stream all send the table's one snapshot,
rendered once per language and shared by every phone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from rules.errors import KotdError, UsageError
from rules.store import Event
from rules.table import Snapshot
from web.auth import has_token, token_required
from web.context import shared
from web.i18n import api_lang

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


def _refused(err: KotdError) -> tuple[Response, int]:
    """A user's mistake: 400 with the message, its code and params."""
    return jsonify(err.to_dict()), 400


def _state(snapshot: Snapshot, **extra: Any) -> Response:
    """The snapshot's document in the request's language (rendered once, shared)."""
    return Response(snapshot.json(api_lang(request), **extra), mimetype="application/json")


@bp.get("/state")
def state() -> Any:
    return _state(shared(current_app).table.snapshot, can_act=has_token())


@bp.get("/cards")
def cards() -> Any:
    return jsonify(shared(current_app).table.pack.catalogue(api_lang(request)))


def _action_line() -> str:
    """The action words from a JSON body ``{"action": ...}`` or a form field (UsageError)."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise UsageError("body", 'send JSON like {{"action": "claim 2"}}')
        line = body.get("action")
    elif request.form:
        line = request.form.get("action")
    else:
        raise UsageError("body", 'send JSON like {{"action": "claim 2"}} (or a form field '
                         '"action")')
    if not isinstance(line, str) or not line.strip():
        raise UsageError("no_action", '"action" must be an action line, e.g. "claim 2"')
    if len(line) > current_app.config["MAX_ACTION_CHARS"]:
        raise UsageError("long_action", "an action is at most {most} characters",
                         most=current_app.config["MAX_ACTION_CHARS"])
    if "\n" in line.strip() or "\r" in line:
        raise UsageError("lines", "one action at a time: no line breaks")
    return line.strip()


@bp.post("/action")
@token_required
def action() -> Any:
    table = shared(current_app).table
    try:
        line = _action_line()
        snapshot = table.act(table.parse(line))
    except KotdError as err:
        return _refused(err)
    return _state(snapshot, can_act=True, done=line)


@bp.get("/live")
def live() -> Response:
    """Server-Sent Events: ``event: state`` with each new snapshot of the table (an action,
    a new camera status); the snapshot's text is rendered once and shared by every stream."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    context = shared(app)
    table = context.table
    lang = api_lang(request)
    disconnected = request.environ.get("waitress.client_disconnected")
    heartbeat = float(app.config["HEARTBEAT_SECONDS"])
    poll = float(app.config["LIVE_POLL_SECONDS"])
    lifetime = float(app.config["LIVE_MAX_SECONDS"])
    once = request.args.get("once") == "1"  # one state and end: for tests and simple clients

    limit = app.config["LIVE_MAX_STREAMS"]

    def stream() -> Iterator[str]:
        ended = context.open_stream(limit)
        try:
            yield from _events(ended)
        finally:
            context.close_stream(ended)

    def _events(ended: Any) -> Iterator[str]:
        started = last_write = time.monotonic()
        sent: int | None = None
        snapshot = table.snapshot
        yield "retry: 1000\n\n"
        while not (context.stopping.is_set() or ended.is_set()):
            now = time.monotonic()
            if now - started > lifetime or (disconnected is not None and disconnected()):
                return
            if snapshot.version != sent:
                sent = snapshot.version
                last_write = now
                yield (f"id: {snapshot.version}\nevent: state\n"
                       f"data: {snapshot.json(lang)}\n\n")
                if once:
                    return
            elif now - last_write >= heartbeat:
                last_write = now
                yield ": heartbeat\n\n"
            # wakes at once on a change; every `poll` s to notice a gone client
            snapshot = table.wait(snapshot.version, poll)

    return Response(stream(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def event_dict(event: Event) -> dict[str, Any]:
    return {"seq": event.seq, "at": event.at, "action": event.action}


@bp.get("/history")
def history() -> Any:
    table = shared(current_app).table
    return jsonify(game_id=table.game_id, events=[event_dict(e) for e in table.history()])


@bp.get("/games")
def games() -> Any:
    table = shared(current_app).table
    return jsonify(games=[
        {"id": g.id, "started": g.started, "players": g.players.removeprefix("players ").split(),
         "events": g.events, "game": g.game, "current": g.id == table.game_id}
        for g in table.games()])


MAX_GAME_ID = 2**63 - 1  # SQLite's largest integer: no game id lies beyond it


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Any:
    table = shared(current_app).table
    record, problem = table.past(game_id) if game_id <= MAX_GAME_ID else (None, None)
    if record is None:
        if problem:
            return _error(f"game {game_id}: {problem}", 404)
        return _error(f"there is no game {game_id}", 404)
    return jsonify(id=game_id, current=game_id == table.game_id,
                   view=record.pack.view(record, api_lang(request)), problem=problem,
                   events=[event_dict(e) for e in table.history(game_id)])


@bp.get("/camera.jpg")
def camera() -> Any:
    eye = shared(current_app).eye
    if eye is None:
        return _error("no camera at this table", 404)
    picture = eye.annotated_jpeg()
    if not picture:
        return _error("no camera picture yet", 404)
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/reread")
@token_required
def reread() -> Any:
    eye = shared(current_app).eye
    if eye is None:
        return _error("no camera at this table", 404)
    eye.reread()
    return jsonify(ok=True)


@bp.post("/throw")
@token_required
def throw() -> Any:
    """Throw the dice of the simulated tray (demo without a camera)."""
    eye = shared(current_app).eye
    if eye is None or not eye.throw():
        return _error("only a simulated tray can be thrown from the page", 404)
    return jsonify(ok=True)


@bp.get("/advice")
def advice() -> Any:
    table = shared(current_app).table
    if not table.snapshot.advice:
        return _error("no advisor at this table", 404)
    if table.snapshot.record is None:
        return _error("no game yet", 404)
    return jsonify(advice=table.advise())


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers.setdefault("Cache-Control", "no-store")
    return response
