"""Dice and rolls: what the camera reads and the rules engine judges.

A die reading is a value 1-6 and the colour of the face it shows (``red``, ``green``,
``blue``), or no colour for an ordinary die. A roll is the dice on the table, in the
order they were read. The text form used everywhere (CLI, tests, logs, scripts) is one
token per die separated by spaces: ``"3r 3g 5b 1r 6g 2b"``; a bare digit is a die with
no colour (``"3 3 5 1 6 2"``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import RollSyntaxError


class Color(StrEnum):
    """The colour of a HABA die face (the face background, not the pips)."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        return self.value[0]

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        return _BY_LETTER[letter.lower()]


_BY_LETTER = {c.value[0]: c for c in Color}


@dataclass(frozen=True, slots=True)
class Die:
    """One die as it lies: its value (1-6) and its face colour (``None`` for ordinary dice)."""

    value: int
    color: Color | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or not 1 <= self.value <= 6:
            raise ValueError(f"die value must be 1-6, not {self.value!r}")

    def __str__(self) -> str:
        return f"{self.value}{self.color.letter if self.color else ''}"

    @classmethod
    def parse(cls, token: str) -> Die:
        """Read one die token: ``"4"``, ``"4r"``, ``"4g"``, ``"4b"`` (case-insensitive)."""
        t = token.strip().lower()
        if not t:
            raise RollSyntaxError("empty_die", "empty die")
        if not t[0].isdigit():
            raise RollSyntaxError("die_start", "{token!r} must start with a value 1-6",
                                  token=token)
        if len(t) > 2 or (len(t) == 2 and t[1] not in _BY_LETTER):
            if len(t) >= 2 and t[1].isdigit():
                raise RollSyntaxError("die_value", "{token!r}: value must be 1-6", token=token)
            raise RollSyntaxError("die_color", "{token!r}: colour must be r, g or b",
                                  token=token)
        value = int(t[0])
        if not 1 <= value <= 6:
            raise RollSyntaxError("die_value", "{token!r}: value must be 1-6", token=token)
        return cls(value, Color.from_letter(t[1]) if len(t) == 2 else None)


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice on the table after a throw, in reading order."""

    dice: tuple[Die, ...]

    def __iter__(self) -> Iterator[Die]:
        return iter(self.dice)

    def __len__(self) -> int:
        return len(self.dice)

    def __getitem__(self, index: int) -> Die:
        return self.dice[index]

    def __str__(self) -> str:
        return " ".join(str(d) for d in self.dice)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)

    @property
    def total(self) -> int:
        return sum(d.value for d in self.dice)

    def subset(self, indices: Sequence[int]) -> Roll:
        """The roll made of only the dice at ``indices`` (e.g. a witness)."""
        return Roll(tuple(self.dice[i] for i in indices))

    def replace(self, index: int, die: Die) -> Roll:
        """This roll with the die at ``index`` (0-based) replaced, e.g. a hand correction."""
        if not 0 <= index < len(self.dice):
            raise IndexError(f"there is no die {index + 1}; the roll has {len(self.dice)} dice")
        return Roll((*self.dice[:index], die, *self.dice[index + 1:]))

    @classmethod
    def of(cls, dice: Sequence[Die]) -> Roll:
        return cls(tuple(dice))

    @classmethod
    def parse(cls, text: str, count: int | None = None) -> Roll:
        """Read a roll from its text form.

        ``count`` is the number of dice the game needs (six in King of the Dice); ``None``
        accepts any number. Errors name the offending token and its 1-based position.
        """
        tokens = text.replace(",", " ").split()
        dice = []
        for position, token in enumerate(tokens, start=1):
            try:
                dice.append(Die.parse(token))
            except RollSyntaxError as err:
                raise err.within("die {position} ", position=position) from None
        if count is not None and len(dice) != count:
            raise RollSyntaxError("count", "a roll needs {count} dice, got {got} in {text!r}",
                                  count=count, got=len(dice), text=text.strip())
        if not dice:
            raise RollSyntaxError("empty", "a roll needs at least one die")
        return cls(tuple(dice))


# The HABA dice come in three pairs with different colour layouts (value -> face colour).
# Opposite faces (1/6, 2/5, 3/4) share a colour.
HABA_LAYOUTS: dict[str, dict[int, Color]] = {
    "A": {1: Color.GREEN, 2: Color.RED, 3: Color.BLUE, 4: Color.BLUE, 5: Color.RED, 6: Color.GREEN},
    "B": {1: Color.BLUE, 2: Color.GREEN, 3: Color.RED, 4: Color.RED, 5: Color.GREEN, 6: Color.BLUE},
    "C": {1: Color.RED, 2: Color.BLUE, 3: Color.GREEN, 4: Color.GREEN, 5: Color.BLUE, 6: Color.RED},
}
"""Face colour of each value for the three HABA dice pairs (two dice of each pair)."""


@dataclass(frozen=True, slots=True)
class DiceLook:
    """What coloured dice look like to a camera: each face colour's paint and the pips'
    colour, ``#rrggbb`` under white light (sRGB, as a camera sees them). A game pack hands
    it to the dice reader through its :class:`rules.pack.DiceSpec`."""

    paint: Mapping[Color, str]
    pips: str


HABA_LOOK = DiceLook({Color.RED: "#c42a30", Color.GREEN: "#2e9640", Color.BLUE: "#1c5cb0"},
                     "#eedeb2")
"""HABA's wooden dice: each face painted one colour, the pips left a light cream."""


def haba_pair(die: Die) -> str | None:
    """Which HABA pair (``"A"``, ``"B"``, ``"C"``) a coloured die belongs to; None if unknown.

    Each value shows a different colour on each pair, so value and colour name the pair.
    """
    if die.color is None:
        return None
    for name, layout in HABA_LAYOUTS.items():
        if layout[die.value] is die.color:
            return name
    return None  # pragma: no cover - every (value, colour) belongs to exactly one pair


def haba_roll_clash(roll: Roll) -> tuple[str, tuple[int, ...]] | None:
    """The HABA pair that ``roll`` puts on three or more dice, with those dice (1-based),
    or None: one box has only two dice of each pair, so such a reading is a misread."""
    seen: dict[str, list[int]] = {}
    for position, die in enumerate(roll, start=1):
        pair = haba_pair(die)
        if pair is not None:
            seen.setdefault(pair, []).append(position)
    for pair, positions in sorted(seen.items()):
        if len(positions) > 2:
            return pair, tuple(positions)
    return None


def haba_roll_problem(roll: Roll) -> str | None:
    """Why ``roll`` cannot come from one box of HABA dice (two dice per pair), or None.

    A reading that puts three dice in the same pair is certainly a misread.
    """
    clash = haba_roll_clash(roll)
    if clash is None:
        return None
    pair, positions = clash
    dice = ", ".join(str(p) for p in positions)
    return f"dice {dice} would all be from HABA pair {pair}, which has only two dice"
