"""Um Krone und Kragen in words: each move as a sentence for the players, English or German.

``said(before, action, after, lang)`` tells what ``action`` did ("Ann uses the Edelmann:
1 1 → 3 3"); :func:`narrate` tells a whole stored game line by line. Card names are the
court's (German, the game's own words); nothing here decides a rule, it reads two states.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.actions import Action, Fix, Rolled
from rules.story import tell
from rules.ukuk.actions import Bid, Buy, Pass, SetAside, UseCard, parse_action
from rules.ukuk.court import Court
from rules.ukuk.game import GameState, apply, new_game

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "players": "New game: {players}",
        "rolled": "{player} throws {dice}",
        "aside": "{player} sets {dice} aside",
        "use": "{player} uses the {card}: {change}",
        "fix": "Dice corrected: {dice}",
        "buy": "{player} buys the {card}",
        "king": "{player} buys the {card} and gets the Königin: the final round follows "
                "this round",
        "pass": "{player} ends the turn without buying",
        "bid": "{player} bids {count} × {number}",
        "undo": "Taken back: {what}",
        "final": "The final round begins",
        "wins": "{player} holds the King and wins",
    },
    "de": {
        "players": "Neues Spiel: {players}",
        "rolled": "{player} würfelt {dice}",
        "aside": "{player} legt {dice} heraus",
        "use": "{player} setzt {card} ein: {change}",
        "fix": "Würfel korrigiert: {dice}",
        "buy": "{player} nimmt {card}",
        "king": "{player} nimmt {card} und bekommt die Königin: nach dieser Runde kommt "
                "die Finalrunde",
        "pass": "{player} beendet den Zug ohne Kauf",
        "bid": "{player} bietet {count} × {number}",
        "undo": "Zurückgenommen: {what}",
        "final": "Die Finalrunde beginnt",
        "wins": "{player} hat den König und gewinnt",
    },
}


def _dice(values: Iterable[int]) -> str:
    return " ".join(str(v) for v in values)


def said(before: GameState, action: Action, after: GameState, lang: str = "en") -> str:
    """What ``action`` did, taking ``before`` to ``after``, as one sentence."""
    w = WORDS.get(lang, WORDS["en"])
    court = before.court
    player = before.current_player if not before.over else ""
    text: str
    match action:
        case Rolled():
            text = w["rolled"].format(player=player, dice=_dice(action.roll.values))
        case SetAside():
            text = w["aside"].format(player=player, dice=_dice(action.values))
        case UseCard():
            card = court.card(action.card)
            was, now = card.ability.complete(action.before, action.after)
            change = f"{_dice(was)} → {_dice(now)}" if was else f"→ {_dice(now)}"
            text = w["use"].format(player=player, card=card.label("de"), change=change)
        case Fix():
            text = w["fix"].format(dice=", ".join(f"{p} → {d}" for p, d in action.dice))
        case Buy():
            card = court.card(action.card)
            key = "king" if card.id == court.king and before.king_owner is None else "buy"
            text = w[key].format(player=player, card=card.label("de"))
        case Pass():
            text = w["pass"].format(player=player)
        case Bid():
            throw = after.throws[-1]
            text = w["bid"].format(player=player, count=throw.count, number=throw.number)
        case _:
            text = str(action)
    if after.final and not before.final:
        text += "; " + w["final"][0].lower() + w["final"][1:]
    if after.over and not before.over:
        holder = after.holder()
        if holder is not None:
            text += "; " + w["wins"].format(player=after.players[holder])
    return text


def narrate(court: Court, lines: list[str], lang: str = "en") -> list[str]:
    """A stored game's lines as sentences; an ``undo`` says what it took back, and a line
    the rules refuse ends the story there (:func:`rules.story.tell`)."""
    return tell(lines, parse_action, lambda names: new_game(names, court), apply, said,
                WORDS.get(lang, WORDS["en"]), lang)
