"""The JSON the page renders: the table view, the camera's status and the versions."""

from __future__ import annotations

from typing import Any

from rules.cards import Box
from rules.store import Event
from rules.view import table_view
from web.eye import eye_status, eye_version

NO_GAME_PHASE = "none"


def versions(table: Any) -> tuple[int, int]:
    return table.referee.version, eye_version(table.eye)


def build_state(table: Any, lang: str) -> dict[str, Any]:
    """``table_view`` of the current game (or ``phase: "none"``) + eye + versions."""
    referee = table.referee
    for _ in range(3):  # read a version and the record that goes with it
        version = referee.version
        record, game_id = referee.record, referee.game_id
        if referee.version == version:
            break
    if record is None:
        view: dict[str, Any] = {"phase": NO_GAME_PHASE, "players": [], "row": [],
                                "scores": [], "actions": [], "can_undo": False,
                                "question": None, "dice": None, "over": False}
    else:
        view = table_view(record, lang)
    return {
        **view,
        "game_id": game_id,
        "version": version,
        "eye": {**eye_status(table.eye), "version": eye_version(table.eye)},
        "advice": table.advisor is not None,
        "lang": lang,
    }


def card_catalogue(box: Box, lang: str) -> dict[str, Any]:
    """Every card of the box with its name and label in ``lang`` (for pickers and kingdoms)."""
    cards = {}
    for card in box:
        cards[card.id] = {
            "id": card.id, "kind": card.kind, "points": card.points,
            "village": card.village, "effect": card.effect,
            "name": card.name.get(lang) or card.name["en"],
            "label": card.describe(lang),
            "rule": card.requirement.describe(lang) if card.requirement else None,
        }
    kinds: dict[str, str] = {}
    for card in box.citizens:
        kinds.setdefault(card.kind, card.name.get(lang) or card.name["en"])
    return {"lang": lang, "cards": cards, "kinds": kinds, "rolls": box.rolls,
            "row_size": box.row_size, "dice": box.dice}


def event_dict(event: Event) -> dict[str, Any]:
    return {"seq": event.seq, "at": event.at, "action": event.action}
