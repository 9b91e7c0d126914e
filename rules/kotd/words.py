"""King of the Dice in words: each move as a sentence for the players, in English or German.

``said(before, action, after, lang)`` tells what ``action`` did ("Ben takes the Cuddly orc
(3 of a kind) and the Orc village (2)"); :func:`narrate` tells a whole stored game line by
line (an ``undo`` says what it took back); :func:`ending` says why a game ended. Card names
come from the card data; nothing here decides a rule, it reads two states.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rules.actions import Action, Fix, Players, Rolled, Undo
from rules.errors import KotdError
from rules.kotd.actions import Claim, Draw, Give, Penalty, Row
from rules.kotd.cards import Box, Card, bare_name
from rules.kotd.game import GameState

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "players": "New game: {players}",
        "row": "The first row is laid out",
        "rolled": "{player}: roll {n} of {most}, sum {sum}",
        "fix": "Die {position} corrected to {die}",
        "claim": "{player} takes {cards}",
        "give": "{player} gives the {dragon} to {to}",
        "penalty": "{player} takes a penalty card ({points}); {card} leaves the row",
        "draw": "{card} comes into slot {slot}",
        "undo": "Taken back: {what}",
        "and": "and",
        "village": "the {name} ({points})",
        "card": "the {name} ({rule})",
        "ended_village": "the last {color} village card was taken",
        "ended_penalties": "the last penalty card was taken",
        "ended_citizens": "the last citizen was drawn",
        "yellow": "yellow", "brown": "brown", "blue": "blue", "green": "green",
        "purple": "purple", "red": "red",
    },
    "de": {
        "players": "Neues Spiel: {players}",
        "row": "Die erste Auslage liegt",
        "rolled": "{player}: Wurf {n} von {most}, Summe {sum}",
        "fix": "Würfel {position} korrigiert auf {die}",
        "claim": "{player} nimmt: {cards}",
        "give": "{player} verschenkt: {dragon} an {to}",
        "penalty": "{player} nimmt eine Strafkarte ({points}); {card} verlässt die Auslage",
        "draw": "{card} kommt auf Platz {slot}",
        "undo": "Zurückgenommen: {what}",
        "and": "und",
        "village": "{name} ({points})",
        "card": "{name} ({rule})",
        "ended_village": "die letzte {color} Ortskarte wurde genommen",
        "ended_penalties": "die letzte Strafkarte wurde genommen",
        "ended_citizens": "der letzte Bürger wurde aufgedeckt",
        "yellow": "gelbe", "brown": "braune", "blue": "blaue", "green": "grüne",
        "purple": "lila", "red": "rote",
    },
}
COLOR_LETTERS = {"en": {"r": "red", "g": "green", "b": "blue"},
                 "de": {"r": "rot", "g": "grün", "b": "blau"}}


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _name(card: Card, lang: str) -> str:
    """The name as sentences use it: without a printed article ("the {name}" brings one)."""
    return bare_name(card, lang)


def _card(box: Box, cid: str, lang: str) -> str:
    card = box.card(cid)
    if card.kind == "village":
        return _w(lang)["village"].format(name=_name(card, lang), points=card.points)
    if card.requirement is None:
        return _name(card, lang)
    return _w(lang)["card"].format(name=_name(card, lang), rule=card.requirement.describe(lang))


def _die(text: str, lang: str) -> str:
    """``"5b"`` as ``"5 blue"``."""
    value, color = text[:-1], text[-1:]
    if color in COLOR_LETTERS["en"]:
        return f"{value} {COLOR_LETTERS.get(lang, COLOR_LETTERS['en'])[color]}"
    return text


def said(before: GameState, action: Action, after: GameState, lang: str = "en") -> str:
    """What ``action`` did, turning ``before`` into ``after``, as a sentence in ``lang``."""
    w, box = _w(lang), before.box
    player = before.current_player
    if isinstance(action, Row):
        return w["row"]
    if isinstance(action, Rolled):
        return w["rolled"].format(player=player, n=after.rolls_used, most=after.max_rolls,
                                  sum=action.roll.total)
    if isinstance(action, Fix):
        return "; ".join(w["fix"].format(position=p, die=_die(str(d), lang))
                         for p, d in action.dice)
    if isinstance(action, Claim):
        gained = after.kingdoms[before.current][len(before.kingdoms[before.current]):]
        taken = [*gained] + [d for d in after.dragons_to_give
                                        if d not in before.dragons_to_give]
        citizens = [c for c in taken if box.card(c).kind != "village"]
        villages = [c for c in taken if box.card(c).kind == "village"]
        names = [_card(box, c, lang) for c in citizens + villages]
        cards = names[0] if len(names) == 1 else (
            ", ".join(names[:-1]) + f" {w['and']} " + names[-1])
        return w["claim"].format(player=player, cards=cards)
    if isinstance(action, Give):
        dragon = before.dragons_to_give[0]
        card = box.card(dragon)
        return w["give"].format(player=player, to=action.player,
                                dragon=f"{_name(card, lang)} ({card.points})")
    if isinstance(action, Penalty):
        discarded = before.row[-1]
        return w["penalty"].format(player=player, points=action.points,
                                   card=_name(box.card(discarded), lang) if discarded else "–")
    if isinstance(action, Draw):
        slot = after.row.index(action.card) + 1 if action.card in after.row else 1
        return w["draw"].format(card=_card(box, action.card, lang), slot=slot)
    return str(action)


def narrate(pack: Any, lines: Iterable[str], lang: str = "en") -> list[str]:
    """Every stored line of a game as a sentence; a line the rules refuse is shown as is
    (a stored game is read, never changed here)."""
    out: list[str] = []
    record = None
    done: list[str] = []  # sentences of the actions still in effect (for undo)
    for line in lines:
        try:
            action = pack.parse_action(line)
            if isinstance(action, Players):
                from rules.record import GameRecord

                record = GameRecord.start(pack, action)
                done = []
                out.append(_w(lang)["players"].format(players=", ".join(action.names)))
                continue
            if record is None:
                out.append(line)
                continue
            if isinstance(action, Undo):
                record = record.act(action)
                out.append(_w(lang)["undo"].format(what=done.pop() if done else line))
                continue
            after = record.act(action)
            sentence = said(record.state, action, after.state, lang)
            record = after
            done.append(sentence)
            out.append(sentence)
        except (KotdError, KeyError, IndexError):
            out.append(line)
    return out


_ENDED = [(re.compile(r"the last (\w+) village card was taken"), "ended_village"),
          (re.compile(r"the last penalty card was taken"), "ended_penalties"),
          (re.compile(r"the last citizen was drawn"), "ended_citizens")]


def ending(ended_by: str | None, lang: str = "en") -> str | None:
    """Why the game ended (the rules' words, :attr:`GameState.ended_by`) in ``lang``."""
    if ended_by is None:
        return None
    w = _w(lang)
    for pattern, key in _ENDED:
        found = pattern.fullmatch(ended_by)
        if found:
            color = w.get(found.group(1), found.group(1)) if found.groups() else ""
            return w[key].format(color=color)
    return ended_by
