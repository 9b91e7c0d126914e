"""The action words of Um Krone und Kragen: one line per action.

::

    players Ann Ben Cem          a new game, in seating order (2-5); Ann starts
    roll 1 3 3 6                 the dice thrown, as they lie (all dice not set aside)
    aside 3 3 3                  set these active dice aside (at least one after a roll)
    use handwerker               use a court card: the Handwerker brings in a 1
    use edelmann 1 1 -> 3 3      ... the Edelmann adds 2 to two active 1s
    use hofnarr 4 -> 6           ... the Hofnarr's die was thrown again and shows 6
    use koenigin -> 5            ... the Königin brings in a die showing 5
    fix 3 -> 5                   a die was misread: the active 3 is really a 5
    buy ritter                   every die is set aside: buy this court card
    pass                         every die is set aside: end the turn without buying
    bid                          final round: every die is set aside; this is the bid
    undo                         take back the last action

A ``use`` names the active dice the card takes before ``->`` and what they show after it;
where the rule decides the result (``use hofdame 2 3`` is ``2 3 -> 3 4``) the part after
the arrow may be left out. Every action has a canonical text form (``str(action)``) that
:func:`parse_action` reads back; the event store keeps exactly that text.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import Players, Undo
from rules.actions import player_name as _name
from rules.errors import ActionSyntaxError

Values = tuple[int, ...]


def _values_text(values: Values) -> str:
    return " ".join(str(v) for v in values)


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice were thrown: their values, as they lie."""

    values: Values

    def __str__(self) -> str:
        return f"roll {_values_text(self.values)}"


@dataclass(frozen=True, slots=True)
class SetAside:
    """These active dice are set aside; they count for the result and change no more."""

    values: Values

    def __str__(self) -> str:
        return f"aside {_values_text(self.values)}"


@dataclass(frozen=True, slots=True)
class UseCard:
    """A court card's ability: the active dice ``before`` now show ``after`` (new dice
    have no ``before``); ``after`` None leaves it to the rule (``use hofdame 2 3``)."""

    card: str
    before: Values
    after: Values | None = None

    def __str__(self) -> str:
        text = f"use {self.card}"
        if self.before:
            text += " " + _values_text(self.before)
        if self.after is not None:
            text += " -> " + _values_text(self.after)
        return text


@dataclass(frozen=True, slots=True)
class Fix:
    """A die was misread: an active die (or, if none shows it, a set-aside die) showing
    ``was`` really shows ``really``."""

    was: int
    really: int

    def __str__(self) -> str:
        return f"fix {self.was} -> {self.really}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Every die is set aside: the player buys this court card with the result."""

    card: str

    def __str__(self) -> str:
        return f"buy {self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Every die is set aside: the turn ends without buying."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid:
    """The final round: every die is set aside; the result's largest group is the bid."""

    def __str__(self) -> str:
        return "bid"


Action = Players | Rolled | SetAside | UseCard | Fix | Buy | Pass | Bid | Undo

USAGE = {
    "players": "players NAME NAME [NAME ...]",
    "roll": "roll DIE DIE ... (values 1-6, e.g. roll 1 3 3 6)",
    "aside": "aside DIE [DIE ...] (e.g. aside 3 3)",
    "use": "use CARD [DIE ...] [-> DIE ...] (e.g. use edelmann 1 1 -> 3 3)",
    "fix": "fix DIE -> DIE (e.g. fix 3 -> 5)",
    "buy": "buy CARD (e.g. buy ritter)",
    "pass": "pass",
    "bid": "bid",
    "undo": "undo",
}

ARROWS = ("->", "→", "to")


def _die(word: str, verb: str) -> int:
    if len(word) != 1 or word not in "123456":
        raise ActionSyntaxError(f"{verb}: {word!r} is not a die; a die is a number 1-6")
    return int(word)


def _dice(words: list[str], verb: str) -> Values:
    return tuple(_die(w, verb) for w in words)


def parse_action(line: str) -> Action:
    """Read one action line (case-insensitive verb). Raises ActionSyntaxError with usage."""
    words = line.replace(",", " ").replace("→", " -> ").split()
    if not words:
        raise ActionSyntaxError("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb not in USAGE:
        raise ActionSyntaxError(f"unknown action {words[0]!r} (known: {', '.join(USAGE)})")
    usage = USAGE[verb]

    def wrong() -> ActionSyntaxError:
        return ActionSyntaxError(f"{verb}: wrong number of words; usage: {usage}")

    if verb == "players":
        if not args:
            raise wrong()
        return Players(tuple(_name(a) for a in args))
    if verb in ("roll", "aside"):
        if not args:
            raise wrong()
        values = _dice(args, verb)
        return Rolled(values) if verb == "roll" else SetAside(values)
    if verb == "use":
        if not args:
            raise wrong()
        card, rest = args[0].lower(), [a.lower() for a in args[1:]]
        arrows = [i for i, w in enumerate(rest) if w in ARROWS]
        if len(arrows) > 1:
            raise ActionSyntaxError(f"use: one arrow at most; usage: {usage}")
        if arrows:
            at = arrows[0]
            return UseCard(card, _dice(rest[:at], verb), _dice(rest[at + 1:], verb))
        return UseCard(card, _dice(rest, verb))
    if verb == "fix":
        rest = [a for a in args if a.lower() not in ARROWS]
        if len(rest) != 2:
            raise wrong()
        return Fix(_die(rest[0], verb), _die(rest[1], verb))
    if verb == "buy":
        if len(args) != 1:
            raise wrong()
        return Buy(args[0].lower())
    if args:
        raise wrong()
    if verb == "pass":
        return Pass()
    return Bid() if verb == "bid" else Undo()
