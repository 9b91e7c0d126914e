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

import re
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from rules.actions import player_name
from rules.dice import Die
from rules.errors import KotdError, UsageError
from rules.games import GAMES
from rules.store import MAX_ACTION_ID, Event, SaveError, valid_action_id
from rules.table import ActionIdReused, Snapshot
from web.auth import has_token, token_required
from web.context import shared
from web.i18n import api_lang, say_error
from web.stats import Gated, csv_lines, json_pieces

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


def _refused(err: KotdError) -> tuple[Response, int]:
    """A user's mistake: 400 with the message in the request's language (English when the
    code has no translation), its code, its params and the English text."""
    lang = api_lang(request)
    return jsonify({**err.to_dict(), "error": say_error(err.code, err.params, err.message, lang),
                    "english": err.message}), 400


def _state(snapshot: Snapshot, **extra: Any) -> Response:
    """The snapshot's document in the request's language (rendered once, shared)."""
    return Response(snapshot.json(api_lang(request), **extra), mimetype="application/json")


@bp.get("/state")
def state() -> Any:
    return _state(shared(current_app).table.snapshot, can_act=has_token())


@bp.get("/cards")
def cards() -> Any:
    return jsonify(shared(current_app).table.pack.catalogue(api_lang(request)))


def _action_line() -> tuple[str, str | None]:
    """The action words and the action's id (None if it has none) from a JSON body
    ``{"action": ..., "id": ...}`` or form fields (UsageError)."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise UsageError("body", 'send JSON like {{"action": "claim 2"}}')
        line, action_id = body.get("action"), body.get("id")
    elif request.form:
        line, action_id = request.form.get("action"), request.form.get("id")
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
    if action_id is not None and not (isinstance(action_id, str)
                                      and valid_action_id(action_id)):
        raise UsageError("bad_id", '"id" must be 1-{most} letters, digits or -_.: (the same '
                         'id for a retry of the same action)', most=MAX_ACTION_ID)
    return line.strip(), action_id


@bp.post("/action")
@token_required
def action() -> Any:
    table = shared(current_app).table
    try:
        line, action_id = _action_line()
        snapshot, repeated = table.act_once(table.parse(line), action_id)
    except ActionIdReused as err:
        return jsonify(err.to_dict()), 409
    except KotdError as err:
        return _refused(err)
    except SaveError as err:  # the card is full or read-only: the game is kept, unchanged
        return jsonify(error=str(err), code="store.cannot_save"), 503
    extra = {"repeated": True} if repeated else {}
    return _state(snapshot, can_act=True, done=line, **extra)


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
    per_address = app.config["LIVE_STREAMS_PER_ADDRESS"]
    address = request.remote_addr or ""

    player = has_token()  # a player's phone: never pushed off by a spectator's

    def stream() -> Iterator[str]:
        ended = context.open_stream(limit, address, per_address, player)
        try:
            yield from _events(ended)
        finally:
            context.close_stream(ended)

    def _events(ended: Any) -> Iterator[str]:
        started = last_write = time.monotonic()
        sent: int | None = None
        snapshot = table.snapshot
        if ended.is_set():  # no room left (every stream a player's): one state, ask later
            yield (f"retry: 15000\nid: {snapshot.version}\nevent: state\n"
                   f"data: {snapshot.json(lang)}\n\n")
            return
        yield "retry: 1000\n\n"
        while not (context.stopping.is_set() or ended.is_set()):
            now = time.monotonic()
            if now - started > lifetime or (disconnected is not None and disconnected()):
                return
            if snapshot.version != sent:
                # every change since the last one sent, in order (a slow phone misses none)
                for each in [snapshot] if sent is None else table.since(sent) or [snapshot]:
                    sent = each.version
                    yield (f"id: {each.version}\nevent: state\n"
                           f"data: {each.json(lang)}\n\n")
                last_write = now
                if once:
                    return
            elif now - last_write >= heartbeat:
                last_write = now
                yield ": heartbeat\n\n"
            # wakes at once on a change; every `poll` s to notice a gone client
            snapshot = table.wait(snapshot.version if sent is None else sent, poll)

    return Response(stream(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def event_dict(event: Event, said: str | None = None) -> dict[str, Any]:
    found = {"seq": event.seq, "at": event.at, "action": event.action}
    return found if said is None else {**found, "said": said}


def told(events: list[Event], game: str, lang: str) -> list[dict[str, Any]]:
    """Stored events with the sentence each one says for players."""
    from rules.games import game_pack

    pack = game_pack(game)
    sentences = pack.narrate([e.action for e in events], lang)
    return [event_dict(e, sentences[i] if i < len(sentences) else None)
            for i, e in enumerate(events)]


@bp.get("/history")
def history() -> Any:
    table = shared(current_app).table
    return jsonify(game_id=table.game_id,
                   events=told(table.history(), table.pack.id, api_lang(request)))


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True) if request.is_json else None
    if not isinstance(body, dict):
        raise UsageError("body", "send a JSON object")
    return body


@bp.post("/held")
@token_required
def held() -> Any:
    """The roll the table holds for checking: ``{"confirm": true}`` lets it count as read,
    ``{"fix": "3 5b"}`` corrects die 3 (it counts once no die is left to check)."""
    table = shared(current_app).table
    try:
        body = _body()
        if body.get("confirm") is True:
            snapshot = table.confirm_held()
        elif isinstance(body.get("fix"), str):
            words = body["fix"].split()
            if len(words) != 2 or not words[0].isdigit():
                raise UsageError("fix_held", 'a correction is "POSITION DIE", e.g. "3 5b"')
            snapshot = table.fix_held(int(words[0]), Die.parse(words[1]))
        else:
            raise UsageError("held", 'send {{"confirm": true}} or {{"fix": "3 5b"}}')
    except KotdError as err:
        return _refused(err)
    except ValueError as err:  # a die that is no die
        return _error(str(err), 400)
    return _state(snapshot, can_act=True)


COLOR = re.compile(r"#[0-9a-fA-F]{6}")


@bp.post("/colors")
@token_required
def colors() -> Any:
    """Players' colours, ``{"colors": {"Ann": "#e53935"}}``: kept by name across games."""
    table = shared(current_app).table
    try:
        given = _body().get("colors")
        if (not isinstance(given, dict) or len(given) > 12 or not all(
                isinstance(k, str) and 0 < len(k) <= 40 and isinstance(v, str)
                and COLOR.fullmatch(v) for k, v in given.items())):
            raise UsageError("colors", 'send {{"colors": {{"Ann": "#e53935"}}}} (up to 12 '
                             "players, colours as #rrggbb)")
        # names as the game keeps them: nothing hidden (a NUL, a direction override)
        chosen = {player_name(k): v.lower() for k, v in given.items()}
    except KotdError as err:
        return _refused(err)
    return _state(table.set_colors(chosen), can_act=True)


def _busy() -> tuple[Response, int]:
    response = jsonify(error="the table is busy with other downloads: try again in a minute")
    response.headers["Retry-After"] = "30"
    return response, 503


@bp.get("/stats")
def stats() -> Any:
    """Across the stored games of one game (``?game=``, default the table's): per player
    the games played, the wins (finished games, shared victories count) and the best
    total of a finished game (``web.stats``)."""
    context = shared(current_app)
    game = request.args.get("game") or context.table.pack.id
    if game not in GAMES:
        return _refused(UsageError("unknown_game", "unknown game {game!r} (known: {known})",
                                   game=game, known=", ".join(GAMES)))
    return Response(context.summaries.stats_json(context.table, api_lang(request), game),
                    mimetype="application/json")


@bp.get("/export.csv")
def export_csv() -> Any:
    """One line per player per stored game: the standings, part by part (streamed)."""
    context = shared(current_app)
    if not context.summaries.exports.acquire(blocking=False):
        return _busy()
    try:
        games = context.summaries.finished(context.table, "en")
    except BaseException:
        context.summaries.exports.release()
        raise
    return Response(Gated(csv_lines(games), context.summaries.exports), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=kotd-games.csv"})


@bp.get("/export.json")
def export_json() -> Any:
    """Every stored game: its standings and every action, with its sentence (streamed)."""
    context = shared(current_app)
    table = context.table
    lang = api_lang(request)
    if not context.summaries.exports.acquire(blocking=False):
        return _busy()
    try:
        games = context.summaries.finished(table, lang)
    except BaseException:
        context.summaries.exports.release()
        raise
    pieces = json_pieces(games, lambda g: told(table.history(g["id"]), g["game"], lang))
    return Response(Gated(pieces, context.summaries.exports), mimetype="application/json",
                    headers={"Content-Disposition": "attachment; filename=kotd-games.json"})


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
                   events=told(table.history(game_id), record.pack.id, api_lang(request)))


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


@bp.post("/calibrate")
@token_required
def calibrate() -> Any:
    """Teach the camera the dice colours from the dice lying under it now."""
    eye = shared(current_app).eye
    teach = getattr(eye, "calibrate", None)
    if teach is None:
        refused, _ = _refused(UsageError("no_calibration", "this camera cannot be calibrated "
                                         "from the page"))
        return refused, 404
    try:
        teach()
    except KotdError as err:
        return _refused(err)
    except ValueError as err:  # the palette's own refusal: no dice, a colour missing
        return _refused(UsageError("calibration_failed", "calibration failed: {why}",
                                   why=str(err)))
    return jsonify(ok=True)


def _tray_call(name: str, *args: Any) -> Any:
    """Call the eye's tray method ``name``; a user's mistake is refused in one line."""
    eye = shared(current_app).eye
    method = getattr(eye, name, None)
    if method is None:
        return _error("this camera cannot be calibrated from the page", 404)
    try:
        return method(*args)
    except KotdError as err:
        return _refused(err)


@bp.post("/tray")
@token_required
def mark_tray() -> Any:
    """Read only the tray from now on: ``{"corners": [[x, y] x 4]}``, fractions of the
    picture, in order around the tray (four taps on the live view). Answers how far the
    camera looks from straight down at it (``tilt``, whole degrees) and whether that is
    more than the reader knows (``too_tilted``; :meth:`pi.eye.Eye.mark_tray`)."""
    try:
        corners = _body().get("corners")
    except KotdError as err:
        return _refused(err)
    if not isinstance(corners, list) or len(corners) > 16:
        return _refused(UsageError("tray_body", "send the tray's corners as "
                                   "{{\"corners\": [[x, y], ...]}}, fractions of the picture"))
    done = _tray_call("mark_tray", corners)
    return done if isinstance(done, tuple) else jsonify(ok=True, **done)


@bp.delete("/tray")
@token_required
def clear_tray() -> Any:
    done = _tray_call("clear_tray")
    return done if isinstance(done, tuple) else jsonify(ok=True)


@bp.post("/tray/suggest")
@token_required
def suggest_tray() -> Any:
    """The tray found from its edge in the picture now (fractions), for people to confirm."""
    found = _tray_call("suggest_tray")
    return found if isinstance(found, tuple) and isinstance(found[0], Response) else \
        jsonify(corners=[list(xy) for xy in found])


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


@bp.errorhandler(SaveError)
def _not_saved(err: SaveError) -> tuple[Response, int]:
    """The card is full or read-only: the game is kept, unchanged; every phone is told."""
    return jsonify(error=str(err), code="store.cannot_save"), 503


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers.setdefault("Cache-Control", "no-store")
    return response
