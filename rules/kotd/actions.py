"""King of the Dice's own actions, beside the shared ``players``, ``roll``, ``fix``, ``undo``::

    players Ann Ben Cem                               a new game, in seating order (2-5)
    row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g the first five citizens, left to right
    roll 4r 4g 4b 1r 2g 6b                            the dice as they lie after a throw
    fix 3 5b                                          die 3 is really a blue 5
    claim 2                                           take the citizen in slot 2 (1-5)
    claim 2 no-village                                ... but leave its village card
    claim 2 no-bonus                                  a hypnotist without the bonus card
    give Ben                                          give the dragon just taken to Ben
    penalty -2                                        take the top penalty card, worth -2
    draw orc-2+2                                      the citizen turned up from the pile
    undo                                              take back the last action
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import (
    Action,
    Fix,
    Players,
    Rolled,
    Undo,
    need,
    parse_line,
    player_name,
    vocabulary,
    whole_number,
)
from rules.errors import ActionSyntaxError


@dataclass(frozen=True, slots=True)
class Row:
    """The first citizens laid face-up under the villages, left to right."""

    cards: tuple[str, ...]
    verb: ClassVar[str] = "row"
    usage: ClassVar[str] = "row CARD CARD CARD CARD CARD"

    def __str__(self) -> str:
        return "row " + " ".join(self.cards)

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Row:
        need(cls.verb, cls.usage, args, at_least=1)
        return cls(tuple(a.lower() for a in args))


@dataclass(frozen=True, slots=True)
class Claim:
    """The player takes the citizen in ``slot`` (1-based, left to right).

    The rules say the player *may* take the matching village card and the hypnotist's
    bonus card; ``village=False`` / ``bonus=False`` leave them (``no-village``,
    ``no-bonus``), e.g. so as not to end the game by taking the last village card.
    """

    slot: int
    village: bool = True
    bonus: bool = True
    verb: ClassVar[str] = "claim"
    usage: ClassVar[str] = "claim SLOT [no-village] [no-bonus] (slot 1-5)"

    def __str__(self) -> str:
        return (f"claim {self.slot}" + ("" if self.village else " no-village")
                + ("" if self.bonus else " no-bonus"))

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Claim:
        need(cls.verb, cls.usage, args, at_least=1)
        options = {a.lower() for a in args[1:]}
        if not options <= {"no-village", "no-bonus"} or len(options) != len(args) - 1:
            raise ActionSyntaxError("claim_option", "claim: unknown option(s) {options!r}; "
                                    "usage: {usage}", options=" ".join(args[1:]),
                                    usage=cls.usage)
        return cls(whole_number(args[0], "the slot", cls.usage), "no-village" not in options,
                   "no-bonus" not in options)


@dataclass(frozen=True, slots=True)
class Give:
    """The dragon just taken goes to this player."""

    player: str
    verb: ClassVar[str] = "give"
    usage: ClassVar[str] = "give PLAYER"

    def __str__(self) -> str:
        return f"give {self.player}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Give:
        need(cls.verb, cls.usage, args, n=1)
        return cls(player_name(args[0]))


@dataclass(frozen=True, slots=True)
class Penalty:
    """Nothing was satisfied: the player takes the top penalty card, worth ``points`` (< 0)."""

    points: int
    verb: ClassVar[str] = "penalty"
    usage: ClassVar[str] = "penalty POINTS (e.g. penalty -2)"

    def __str__(self) -> str:
        return f"penalty {self.points}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Penalty:
        need(cls.verb, cls.usage, args, n=1)
        return cls(-abs(whole_number(args[0].replace("−", "-"), "the penalty", cls.usage)))


@dataclass(frozen=True, slots=True)
class Draw:
    """The next citizen turned up from the face-down pile into the row."""

    card: str
    verb: ClassVar[str] = "draw"
    usage: ClassVar[str] = "draw CARD"

    def __str__(self) -> str:
        return f"draw {self.card}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Draw:
        need(cls.verb, cls.usage, args, n=1)
        return cls(args[0].lower())


KotdAction = Players | Row | Rolled | Fix | Claim | Give | Penalty | Draw | Undo

VERBS = vocabulary(Players, Row, Rolled, Fix, Claim, Give, Penalty, Draw, Undo)
"""Every verb of King of the Dice, in the order the usage lists them."""


def parse_action(line: str, dice: int | None = 6) -> Action:
    """Read one King of the Dice action line; :class:`ActionSyntaxError` with the usage."""
    return parse_line(line, VERBS, dice)
