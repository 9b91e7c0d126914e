"""The action vocabulary: one line per action, shared by scripts, the page and the buttons.

::

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

Every action has a canonical text form (``str(action)``) that :func:`parse_action` reads
back; the event store keeps exactly that text.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Die, Roll, RollSyntaxError
from rules.names import PlayerNameError, player_name


class ActionSyntaxError(ValueError):
    """An action line could not be read; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Players:
    """Start a new game with these players, in seating order; the first starts."""

    names: tuple[str, ...]

    def __str__(self) -> str:
        return "players " + " ".join(self.names)


@dataclass(frozen=True, slots=True)
class Row:
    """The first citizens laid face-up under the villages, left to right."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "row " + " ".join(self.cards)


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice were thrown and read (by the camera or by hand)."""

    roll: Roll

    def __str__(self) -> str:
        return f"roll {self.roll}"


@dataclass(frozen=True, slots=True)
class Fix:
    """A die of the current roll corrected by hand: ``position`` is 1-based."""

    position: int
    die: Die

    def __str__(self) -> str:
        return f"fix {self.position} {self.die}"


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

    def __str__(self) -> str:
        return (f"claim {self.slot}" + ("" if self.village else " no-village")
                + ("" if self.bonus else " no-bonus"))


@dataclass(frozen=True, slots=True)
class Give:
    """The dragon just taken goes to this player."""

    player: str

    def __str__(self) -> str:
        return f"give {self.player}"


@dataclass(frozen=True, slots=True)
class Penalty:
    """Nothing was satisfied: the player takes the top penalty card, worth ``points`` (< 0)."""

    points: int

    def __str__(self) -> str:
        return f"penalty {self.points}"


@dataclass(frozen=True, slots=True)
class Draw:
    """The next citizen turned up from the face-down pile into the row."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last action that is still in effect."""

    def __str__(self) -> str:
        return "undo"


Action = Players | Row | Rolled | Fix | Claim | Give | Penalty | Draw | Undo

USAGE = {
    "players": "players NAME NAME [NAME ...]",
    "row": "row CARD CARD CARD CARD CARD",
    "roll": "roll DIE DIE DIE DIE DIE DIE (e.g. roll 4r 4g 4b 1r 2g 6b)",
    "fix": "fix POSITION DIE (e.g. fix 3 5b)",
    "claim": "claim SLOT [no-village] [no-bonus] (slot 1-5)",
    "give": "give PLAYER",
    "penalty": "penalty POINTS (e.g. penalty -2)",
    "draw": "draw CARD",
    "undo": "undo",
}


def _int(word: str, what: str, usage: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ActionSyntaxError(f"{what} must be a whole number, not {word!r}; usage: {usage}")\
            from None


def _name(word: str) -> str:
    try:
        return player_name(word)
    except PlayerNameError as err:
        raise ActionSyntaxError(str(err)) from None


def parse_action(line: str, dice: int | None = 6) -> Action:
    """Read one action line (case-insensitive verb). Raises ActionSyntaxError with usage."""
    words = line.split()
    if not words:
        raise ActionSyntaxError("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb not in USAGE:
        raise ActionSyntaxError(
            f"unknown action {words[0]!r} (known: {', '.join(USAGE)})"
        )
    usage = USAGE[verb]

    def need(n: int | None = None, at_least: int = 0) -> None:
        if (n is not None and len(args) != n) or len(args) < at_least:
            raise ActionSyntaxError(f"{verb}: wrong number of words; usage: {usage}")

    if verb == "players":
        need(at_least=1)
        return Players(tuple(_name(a) for a in args))
    if verb == "row":
        need(at_least=1)
        return Row(tuple(a.lower() for a in args))
    if verb == "roll":
        try:
            return Rolled(Roll.parse(" ".join(args), dice))
        except RollSyntaxError as err:
            raise ActionSyntaxError(f"roll: {err}") from None
    if verb == "fix":
        need(2)
        position = _int(args[0], "the die position", usage)
        try:
            die = Die.parse(args[1])
        except ValueError as err:
            raise ActionSyntaxError(f"fix: {err}") from None
        return Fix(position, die)
    if verb == "claim":
        need(at_least=1)
        options = {a.lower() for a in args[1:]}
        if not options <= {"no-village", "no-bonus"} or len(options) != len(args) - 1:
            raise ActionSyntaxError(f"claim: unknown option(s) {' '.join(args[1:])!r}; "
                                    f"usage: {usage}")
        return Claim(_int(args[0], "the slot", usage), "no-village" not in options,
                     "no-bonus" not in options)
    if verb == "give":
        need(1)
        return Give(_name(args[0]))
    if verb == "penalty":
        need(1)
        points = _int(args[0].replace("−", "-"), "the penalty", usage)
        return Penalty(-abs(points))
    if verb == "draw":
        need(1)
        return Draw(args[0].lower())
    need(0)
    return Undo()
