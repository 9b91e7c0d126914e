"""The table as data: one JSON-able picture of a game for the CLI, the page and the panel.

Nothing here decides a rule; it reads the state and reports what the rules say about it.
"""

from __future__ import annotations

from typing import Any

from rules.dice import Roll, haba_roll_clash, haba_roll_problem
from rules.kotd.cards import Box
from rules.kotd.game import GameState
from rules.kotd.score import ranking, score_kingdom
from rules.kotd.words import ending, said
from rules.record import GameRecord


def _clash(roll: Roll) -> dict[str, Any] | None:
    """The HABA pair a misread roll puts on three dice, for the page to say in its words."""
    clash = haba_roll_clash(roll)
    return None if clash is None else {"pair": clash[0], "dice": list(clash[1])}


def scores(state: GameState) -> list[dict[str, Any]]:
    """Each player's score now (or at the end), ranked, with the tie-break shown."""
    per_player = [score_kingdom(p, pile, state.box)
                  for p, pile in zip(state.players, state.kingdoms, strict=True)]
    return [s.to_dict() for s in ranking(per_player)]


def _row(state: GameState, lang: str) -> list[dict[str, Any]]:
    box = state.box
    claimable = set(state.claimable_slots())
    row = []
    for slot, (cid, stack) in enumerate(zip(state.row, state.villages, strict=True), start=1):
        village_color = box.village_colors_by_slot[slot - 1]
        top = box.card(stack[0]) if stack else None
        entry: dict[str, Any] = {
            "slot": slot,
            "village": {"color": village_color, "top": top.id if top else None,
                        "points": top.points if top else None, "left": len(stack),
                        "name": box.village_stack(village_color)[0].name.get(lang)},
            "card": None,
        }
        if cid is not None:
            card = box.card(cid)
            info = card.to_dict()
            info["label"] = card.describe(lang)
            info["village_match"] = bool(top and card.village == village_color)
            if state.roll is not None and state.phase == "rolling":
                info.update(card.check(state.roll).to_dict())
                info["satisfied"] = slot in claimable
            entry["card"] = info
        row.append(entry)
    return row


def _question(state: GameState) -> dict[str, Any] | None:
    """What the assistant needs a player to tell it next."""
    if state.phase == "setup":
        return {"ask": "row", "count": state.box.row_size,
                "choices": [c.id for c in state.cards_in_pile()]}
    if state.phase == "give":
        return {"ask": "give", "dragon": state.dragons_to_give[0],
                "choices": [p for i, p in enumerate(state.players) if i != state.current]}
    if state.phase == "draw":
        empty = [i for i, c in enumerate(state.row, start=1) if c is None]
        return {"ask": "draw", "slots": empty, "choices": [c.id for c in state.cards_in_pile()]}
    if state.phase == "rolling" and state.rolls_left == 0 and _nothing_fits(state):
        return {"ask": "penalty", "choices": list(state.penalty_values_left())}
    return None  # while rolls remain the player rolls on: stopping early is not a question


def _nothing_fits(state: GameState) -> bool:
    """A roll is on the table and it satisfies no face-up citizen."""
    return state.phase == "rolling" and state.roll is not None and not state.claimable_slots()


def penalty_choices(state: GameState) -> list[int] | None:
    """The penalty values a player may stop with now (nothing fits), else None."""
    return list(state.penalty_values_left()) if _nothing_fits(state) else None


def table_view(record: GameRecord[GameState], lang: str = "en") -> dict[str, Any]:
    """The whole table: players, row, dice, turn, question, scores, last action."""
    s = record.state
    players = []
    for i, (name, pile) in enumerate(zip(s.players, s.kingdoms, strict=True)):
        players.append({
            "name": name, "current": i == s.current, "kingdom": list(pile),
            "top": pile[-1] if pile else None,
        })
    return {
        "game": "kotd",
        "phase": s.phase,
        "turn": s.turn,
        "current_player": s.current_player,
        "players": players,
        "row": _row(s, lang),
        "dice": None if s.roll is None else {
            "text": str(s.roll),
            "dice": [{"value": d.value, "color": d.color.value if d.color else None}
                     for d in s.roll],
            "sum": s.roll.total,
            "warning": haba_roll_problem(s.roll),
            "clash": _clash(s.roll),
        },
        "rolls_used": s.rolls_used,
        "max_rolls": s.max_rolls,
        "claimable": list(s.claimable_slots()),
        "question": _question(s),
        "penalty_choices": penalty_choices(s),
        "draw_pile": s.draw_pile_size,
        "penalty_pile": len(s.penalty_pile),
        "extra_turn": s.extra_turn,
        "last": s.last,
        "over": s.phase == "over",
        "ended_by": ending(s.ended_by, lang),
        "last_said": (said(record.states[-2], record.actions[-1], s, lang)
                      if record.actions else None),
        "scores": scores(s),
        "actions": [str(a) for a in record.actions],
        "can_undo": bool(record.actions),
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
