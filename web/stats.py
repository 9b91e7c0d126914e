"""Stats and exports over every stored game, without replaying every game per request.

A stored game's standings change only when an action is added to it, so each game is
replayed once per number of stored actions and language and its summary kept
(:class:`Summaries`); a request then costs one query of the games' list and dictionary
look-ups, and the stats document itself is rendered once per change of that list. Exports
are streamed game by game (nothing is built whole in memory) and at most
:data:`EXPORTS_AT_ONCE` run at once; more get 503 with ``Retry-After``, so downloads
cannot take every thread from the phones and the actions.
"""

from __future__ import annotations

import csv
import io
import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

from rules.store import GameInfo

EXPORTS_AT_ONCE = 2
"""Exports (CSV or JSON) streamed at the same time; more are asked to come back."""

EXPORT_FIELDS = ("game_id", "game", "started", "finished", "player", "place", "total",
                 "citizens", "villages", "fairies", "fairy_points", "penalties", "dragons",
                 "minus")

Summary = dict[str, Any]


class Summaries:
    """Each stored game's standings, kept per (game, stored actions, language)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one replay at a time (and never under the table's)
        self._known: dict[tuple[int, str], tuple[int, Summary | None]] = {}
        self._stats: dict[tuple[str, str], tuple[tuple[tuple[int, int], ...], bytes]] = {}
        self.exports = threading.BoundedSemaphore(EXPORTS_AT_ONCE)

    def finished(self, table: Any, lang: str) -> list[Summary]:
        """Every stored game with its standings (as far as it went), oldest first."""
        out = []
        for info in reversed(table.games()):
            summary = self.summary(table, info, lang)
            if summary is not None:
                out.append(summary)
        return out

    def summary(self, table: Any, info: GameInfo, lang: str) -> Summary | None:
        """One game's standings, replayed only if actions were stored since last time."""
        known = self._known.get((info.id, lang))
        if known is not None and known[0] == info.events:
            return known[1]
        with self._lock:
            known = self._known.get((info.id, lang))
            if known is not None and known[0] == info.events:
                return known[1]
            summary = _summarise(table, info, lang)
            self._known[(info.id, lang)] = (info.events, summary)
            return summary

    def stats_json(self, table: Any, lang: str, game: str) -> bytes:
        """The ``/api/stats`` document of one game (a best score means nothing across two
        games), rendered once per change of its stored games."""
        infos = [g for g in table.games() if g.game == game]
        key = tuple((g.id, g.events) for g in infos)
        cached = self._stats.get((lang, game))
        if cached is not None and cached[0] == key:
            return cached[1]
        games = [s for s in (self.summary(table, info, lang) for info in reversed(infos))
                 if s is not None]
        text = json.dumps({"game": game, **stats(games)}, ensure_ascii=False).encode()
        self._stats[(lang, game)] = (key, text)
        return text


def _summarise(table: Any, info: GameInfo, lang: str) -> Summary | None:
    record, problem = table.past(info.id)
    if record is None:
        return None
    view = record.pack.view(record, lang)
    over = bool(view.get("over"))
    events = table.history(info.id) if over else []
    return {"id": info.id, "game": info.game, "started": info.started, "over": over,
            "finished": events[-1].at if events else "",  # when the last move ended it
            "problem": problem,
            "players": [p["name"] for p in view.get("players", [])],
            "scores": view.get("scores", [])}


def stats(games: list[Summary]) -> dict[str, Any]:
    """Per player the games played, the wins (finished games, shared victories count) and
    the best total of a finished game; and each game's winners and totals."""
    players: dict[str, dict[str, Any]] = {}
    for g in games:
        for score in g["scores"]:
            p = players.setdefault(score["player"], {"name": score["player"], "games": 0,
                                                     "wins": 0, "best": None})
            p["games"] += 1
            if g["over"]:
                p["wins"] += score.get("place") == 1
                total = score.get("total")
                if isinstance(total, int) and (p["best"] is None or total > p["best"]):
                    p["best"] = total
    ranked = sorted(players.values(), key=lambda p: (-p["wins"], -(p["best"] or -999),
                                                     p["name"].casefold()))
    return {"players": ranked, "games": [
        {k: g[k] for k in ("id", "game", "started", "over", "players")} |
        {"winners": [s["player"] for s in g["scores"] if g["over"] and s.get("place") == 1],
         "totals": {s["player"]: s.get("total") for s in g["scores"]}} for g in games]}


def csv_lines(games: list[Summary]) -> Iterator[str]:
    """The CSV export, a line at a time: one line per player per stored game."""
    out = io.StringIO()
    writer = csv.DictWriter(out, EXPORT_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for g in games:
        for score in g["scores"]:
            writer.writerow({**score, "game_id": g["id"], "game": g["game"],
                             "started": g["started"], "finished": g["finished"]})
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


def json_pieces(games: list[Summary], events: Callable[[Summary], list[dict[str, Any]]]
                ) -> Iterator[str]:
    """The JSON export ``{"games": [...]}``, a game at a time, each with its actions."""
    yield '{"games":['
    for n, g in enumerate(games):
        yield ("," if n else "") + json.dumps({**g, "events": events(g)}, ensure_ascii=False)
    yield "]}"


class Gated:
    """An export's pieces that free their place among :data:`EXPORTS_AT_ONCE` when the
    server closes the response (finished, or the download cut short)."""

    def __init__(self, pieces: Iterator[str], gate: threading.BoundedSemaphore) -> None:
        self._pieces = pieces
        self._gate: threading.BoundedSemaphore | None = gate

    def __iter__(self) -> Gated:
        return self

    def __next__(self) -> str:
        return next(self._pieces)

    def close(self) -> None:
        gate, self._gate = self._gate, None
        if gate is not None:
            gate.release()
