"""The action words of Um Krone und Kragen, beside the shared ``players``, ``roll``,
``fix``, ``undo``::

    players Ann Ben Cem          a new game, in seating order (2-5); Ann starts
    roll 1 3 3 6                 the dice thrown, as they lie (every die not set aside)
    aside 3 3 3                  set these active dice aside (at least one after a throw)
    use handwerker               use a court card: the Handwerker brings in a 1
    use edelmann 1 1 -> 3 3      ... the Edelmann adds 2 to two active 1s
    use hofnarr 4 -> 6           ... the Hofnarr's die was thrown again and shows 6
    use koenigin -> 5            ... the Königin brings in a die showing 5
    fix 3 5                      die 3 (active dice first, then set-aside ones) is a 5
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
from typing import ClassVar

from rules.actions import Action, Fix, Players, Rolled, Undo, need, parse_line, vocabulary
from rules.errors import ActionSyntaxError

Values = tuple[int, ...]

ARROWS = ("->", "→", "to")


def _values_text(values: Values) -> str:
    return " ".join(str(v) for v in values)


def _words(args: list[str]) -> list[str]:
    """Arguments with commas and arrows written without spaces split apart."""
    return " ".join(args).replace(",", " ").replace("→", " -> ").split()


def _die(word: str, verb: str) -> int:
    if len(word) != 1 or word not in "123456":
        raise ActionSyntaxError("die", "{verb}: {word!r} is not a die; a die is a number 1-6",
                                verb=verb, word=word)
    return int(word)


def _dice(words: list[str], verb: str) -> Values:
    return tuple(_die(w, verb) for w in words)


@dataclass(frozen=True, slots=True)
class SetAside:
    """These active dice are set aside; they count for the result and change no more."""

    values: Values
    verb: ClassVar[str] = "aside"
    usage: ClassVar[str] = "aside DIE [DIE ...] (e.g. aside 3 3)"

    def __str__(self) -> str:
        return f"aside {_values_text(self.values)}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> SetAside:
        words = _words(args)
        need(cls.verb, cls.usage, words, at_least=1)
        return cls(_dice(words, cls.verb))


@dataclass(frozen=True, slots=True)
class UseCard:
    """A court card's ability: the active dice ``before`` now show ``after`` (new dice
    have no ``before``); ``after`` None leaves it to the rule (``use hofdame 2 3``)."""

    card: str
    before: Values
    after: Values | None = None
    verb: ClassVar[str] = "use"
    usage: ClassVar[str] = "use CARD [DIE ...] [-> DIE ...] (e.g. use edelmann 1 1 -> 3 3)"

    def __str__(self) -> str:
        text = f"use {self.card}"
        if self.before:
            text += " " + _values_text(self.before)
        if self.after is not None:
            text += " -> " + _values_text(self.after)
        return text

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> UseCard:
        words = [w.lower() for w in _words(args)]
        need(cls.verb, cls.usage, words, at_least=1)
        card, rest = words[0], words[1:]
        arrows = [i for i, w in enumerate(rest) if w in ARROWS]
        if len(arrows) > 1:
            raise ActionSyntaxError("arrows", "use: one arrow at most; usage: {usage}",
                                    usage=cls.usage)
        if arrows:
            at = arrows[0]
            return cls(card, _dice(rest[:at], cls.verb), _dice(rest[at + 1:], cls.verb))
        return cls(card, _dice(rest, cls.verb))


@dataclass(frozen=True, slots=True)
class Buy:
    """Every die is set aside: the player buys this court card with the result."""

    card: str
    verb: ClassVar[str] = "buy"
    usage: ClassVar[str] = "buy CARD (e.g. buy ritter)"

    def __str__(self) -> str:
        return f"buy {self.card}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Buy:
        need(cls.verb, cls.usage, args, n=1)
        return cls(args[0].lower())


@dataclass(frozen=True, slots=True)
class Pass:
    """Every die is set aside: the turn ends without buying."""

    verb: ClassVar[str] = "pass"
    usage: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Pass:
        need(cls.verb, cls.usage, args, n=0)
        return cls()


@dataclass(frozen=True, slots=True)
class Bid:
    """The final round: every die is set aside; the result's largest group is the bid."""

    verb: ClassVar[str] = "bid"
    usage: ClassVar[str] = "bid"

    def __str__(self) -> str:
        return "bid"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Bid:
        need(cls.verb, cls.usage, args, n=0)
        return cls()


VERBS = vocabulary(Players, Rolled, SetAside, UseCard, Fix, Buy, Pass, Bid, Undo)
"""Um Krone und Kragen's verbs, in the order its usage lists them."""

__all__ = ["Action", "Bid", "Buy", "Fix", "Pass", "Players", "Rolled", "SetAside", "Undo",
           "UseCard", "parse_action"]


def parse_action(line: str) -> Action:
    """Read one Um Krone und Kragen action line (any number of dice a roll)."""
    return parse_line(line, VERBS, None)
