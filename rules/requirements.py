"""Dice requirements: what a citizen card asks of a roll, and one engine that judges it.

Every requirement is a small immutable value with a JSON form (``to_dict``/``from_dict``,
field names as in the card data). ``evaluate(roll)`` returns a :class:`Verdict`:

* ``satisfied``: does the roll meet the requirement;
* ``witness``: 0-based indices of the dice that meet it (the page highlights them). For a
  satisfied requirement those dice *alone* satisfy it; for a near miss they are the dice
  that already count towards the best way to meet it;
* ``missing``: how many dice would have to show something else to meet it (0 when met).

All counts are "at least": four 6s satisfy "three 6s".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rules.dice import DICE_PER_ROLL, Color, Roll

VALUES = (1, 2, 3, 4, 5, 6)


class RequirementError(ValueError):
    """A requirement in the data or a request is malformed."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's answer for one requirement and one roll."""

    satisfied: bool
    witness: tuple[int, ...]
    missing: int

    def to_dict(self) -> dict[str, Any]:
        return {"satisfied": self.satisfied, "witness": list(self.witness), "missing": self.missing}


def _verdict(witness: Sequence[int], missing: int) -> Verdict:
    return Verdict(missing == 0, tuple(sorted(witness)), missing)


def _indices_where(roll: Roll, pred: Any) -> list[int]:
    return [i for i, d in enumerate(roll) if pred(d)]


def _check_count(count: Any, low: int = 1, high: int = DICE_PER_ROLL) -> int:
    if not isinstance(count, int) or isinstance(count, bool) or not low <= count <= high:
        raise RequirementError(f"count must be a whole number {low}-{high}, not {count!r}")
    return count


def _check_color(color: Any) -> Color:
    try:
        return Color(color)
    except ValueError:
        raise RequirementError(f"colour must be red, green or blue, not {color!r}") from None


class Requirement:
    """Base of all requirement kinds; see the module docstring."""

    type: ClassVar[str]

    def evaluate(self, roll: Roll) -> Verdict:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self, lang: str = "en") -> str:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Parity(Requirement):
    """All six dice show even numbers, or all six show odd numbers (rich snob)."""

    parity: Literal["even", "odd"]
    count: int = DICE_PER_ROLL
    type: ClassVar[str] = "parity"

    def __post_init__(self) -> None:
        if self.parity not in ("even", "odd"):
            raise RequirementError(f"parity must be 'even' or 'odd', not {self.parity!r}")
        _check_count(self.count)

    def evaluate(self, roll: Roll) -> Verdict:
        rest = 0 if self.parity == "even" else 1
        hits = _indices_where(roll, lambda d: d.value % 2 == rest)
        return _verdict(hits, max(0, self.count - len(hits)))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "parity": self.parity}
        if self.count != DICE_PER_ROLL:
            d["count"] = self.count
        return d

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return f"alle {self.count} Würfel {'gerade' if self.parity == 'even' else 'ungerade'}"
        return f"all {self.count} dice {self.parity}"


@dataclass(frozen=True, slots=True)
class Run(Requirement):
    """``length`` dice show consecutive values, e.g. 2-3-4-5 (arrogant elf)."""

    length: int
    type: ClassVar[str] = "run"

    def __post_init__(self) -> None:
        _check_count(self.length, 2, 6)

    def evaluate(self, roll: Roll) -> Verdict:
        first_die = {}
        for i, d in enumerate(roll):
            first_die.setdefault(d.value, i)
        best: list[int] = []
        for start in range(1, 8 - self.length):
            have = [first_die[v] for v in range(start, start + self.length) if v in first_die]
            if len(have) > len(best):
                best = have
        return _verdict(best, self.length - len(best))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "length": self.length}

    def describe(self, lang: str = "en") -> str:
        return f"Straße aus {self.length}" if lang == "de" else f"run of {self.length}"


@dataclass(frozen=True, slots=True)
class Value(Requirement):
    """At least ``count`` dice show ``value`` (grumpy dwarf)."""

    value: int
    count: int
    type: ClassVar[str] = "value"

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise RequirementError(f"value must be 1-6, not {self.value!r}")
        _check_count(self.count)

    def evaluate(self, roll: Roll) -> Verdict:
        hits = _indices_where(roll, lambda d: d.value == self.value)[: self.count]
        return _verdict(hits, self.count - len(hits))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value, "count": self.count}

    def describe(self, lang: str = "en") -> str:
        return f"{self.count} × {self.value}"


_COLOR_NAMES_DE = {Color.RED: "rot", Color.GREEN: "grün", Color.BLUE: "blau"}


def _color_name(color: Color, lang: str) -> str:
    return _COLOR_NAMES_DE[color] if lang == "de" else color.value


@dataclass(frozen=True, slots=True)
class ColorCount(Requirement):
    """At least ``count`` dice show a face of ``color`` (crazy gnome)."""

    color: Color
    count: int
    type: ClassVar[str] = "color"

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", _check_color(self.color))
        _check_count(self.count)

    def evaluate(self, roll: Roll) -> Verdict:
        hits = _indices_where(roll, lambda d: d.color is self.color)[: self.count]
        return _verdict(hits, self.count - len(hits))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "color": self.color.value, "count": self.count}

    def describe(self, lang: str = "en") -> str:
        return f"{self.count} × {_color_name(self.color, lang)}"


@dataclass(frozen=True, slots=True)
class SameColor(Requirement):
    """At least ``count`` dice show the same colour, any one colour (mushroom goblin)."""

    count: int
    type: ClassVar[str] = "same_color"

    def __post_init__(self) -> None:
        _check_count(self.count)

    def evaluate(self, roll: Roll) -> Verdict:
        best: list[int] = []
        for color in Color:
            hits = _indices_where(roll, lambda d, c=color: d.color is c)[: self.count]
            if len(hits) > len(best):
                best = hits
        return _verdict(best, self.count - len(best))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "count": self.count}

    def describe(self, lang: str = "en") -> str:
        return f"{self.count} × gleiche Farbe" if lang == "de" else f"{self.count} × one colour"


@dataclass(frozen=True, slots=True)
class Colors(Requirement):
    """At least so many dice of each listed colour, e.g. 3 red and 2 blue (fairy, apprentice)."""

    counts: tuple[tuple[Color, int], ...]
    type: ClassVar[str] = "colors"

    def __post_init__(self) -> None:
        if not self.counts:
            raise RequirementError("colors needs at least one colour count")
        checked = tuple((_check_color(c), _check_count(n)) for c, n in self.counts)
        if len({c for c, _ in checked}) != len(checked):
            raise RequirementError("colors lists a colour twice")
        if sum(n for _, n in checked) > DICE_PER_ROLL:
            raise RequirementError(f"colors asks for more than {DICE_PER_ROLL} dice")
        object.__setattr__(self, "counts", checked)

    def evaluate(self, roll: Roll) -> Verdict:
        witness: list[int] = []
        missing = 0
        for color, count in self.counts:
            hits = _indices_where(roll, lambda d, c=color: d.color is c)[:count]
            witness += hits
            missing += count - len(hits)
        return _verdict(witness, missing)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "counts": {c.value: n for c, n in self.counts}}

    def describe(self, lang: str = "en") -> str:
        joiner = " + "
        return joiner.join(f"{n} × {_color_name(c, lang)}" for c, n in self.counts)


@dataclass(frozen=True, slots=True)
class Groups(Requirement):
    """Groups of equal values, each group a different number (cuddly orc).

    ``sizes`` ``[3, 2]`` is "three of one number and two of another"; a larger group
    serves a smaller one (3+3 meets 3+2, four of a kind meets three of a kind).
    """

    sizes: tuple[int, ...]
    type: ClassVar[str] = "groups"

    def __post_init__(self) -> None:
        if not self.sizes:
            raise RequirementError("groups needs at least one group size")
        sizes = tuple(sorted((_check_count(s) for s in self.sizes), reverse=True))
        if sum(sizes) > DICE_PER_ROLL:
            raise RequirementError(f"groups asks for more than {DICE_PER_ROLL} dice")
        object.__setattr__(self, "sizes", sizes)

    def evaluate(self, roll: Roll) -> Verdict:
        by_value: dict[int, list[int]] = {}
        for i, d in enumerate(roll):
            by_value.setdefault(d.value, []).append(i)
        # Give the largest group the number shown most often, the next group the next, and
        # so on (ties to the higher number). Deficits max(0, size - count) are convex, so
        # matching sizes and counts in the same order needs the fewest changed dice.
        ranked = sorted(by_value, key=lambda v: (len(by_value[v]), v), reverse=True)
        best: list[int] = []
        best_missing = 0
        for size, v in zip(self.sizes, ranked + [0] * len(self.sizes), strict=False):
            hits = by_value.get(v, [])[:size]
            best += hits
            best_missing += size - len(hits)
        return _verdict(best, best_missing)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "sizes": list(self.sizes)}

    def describe(self, lang: str = "en") -> str:
        if self.sizes == (1,) * len(self.sizes):  # pragma: no cover - no such card
            return "any dice"
        word = "gleiche" if lang == "de" else "of a kind"
        if len(self.sizes) == 1:
            return f"{self.sizes[0]} {word}"
        return " + ".join(str(s) for s in self.sizes) + f" ({word})"


@dataclass(frozen=True, slots=True)
class SumAtMost(Requirement):
    """The sum of all dice is at most ``total`` (hypnotist)."""

    total: int
    type: ClassVar[str] = "sum_at_most"

    def __post_init__(self) -> None:
        _check_count(self.total, 1, 6 * DICE_PER_ROLL)

    def evaluate(self, roll: Roll) -> Verdict:
        excess = roll.total - self.total
        missing = 0
        for v in sorted(roll.values, reverse=True):  # turn the highest dice into 1s
            if excess <= 0:
                break
            excess -= v - 1
            missing += 1
        if excess > 0:
            missing = len(roll) + 1  # pragma: no cover - unreachable for totals >= n dice
        return _verdict(range(len(roll)), missing)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "total": self.total}

    def describe(self, lang: str = "en") -> str:
        return f"Summe ≤ {self.total}" if lang == "de" else f"sum ≤ {self.total}"


@dataclass(frozen=True, slots=True)
class SumAtLeast(Requirement):
    """The sum of all dice is at least ``total`` (dragon)."""

    total: int
    type: ClassVar[str] = "sum_at_least"

    def __post_init__(self) -> None:
        _check_count(self.total, 1, 6 * DICE_PER_ROLL)

    def evaluate(self, roll: Roll) -> Verdict:
        shortfall = self.total - roll.total
        missing = 0
        for v in sorted(roll.values):  # turn the lowest dice into 6s
            if shortfall <= 0:
                break
            shortfall -= 6 - v
            missing += 1
        if shortfall > 0:
            missing += -(-shortfall // 5)  # dice the roll lacks, each at most a 6
        return _verdict(range(len(roll)), missing)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "total": self.total}

    def describe(self, lang: str = "en") -> str:
        return f"Summe ≥ {self.total}" if lang == "de" else f"sum ≥ {self.total}"


KINDS: dict[str, type[Requirement]] = {
    k.type: k for k in (Parity, Run, Value, ColorCount, SameColor, Colors, Groups,
                        SumAtMost, SumAtLeast)
}


def _fields(data: Mapping[str, Any], *names: str, optional: tuple[str, ...] = ()) -> None:
    extra = set(data) - {"type", *names, *optional}
    if extra:
        raise RequirementError(f"{data['type']} has unknown field(s) {', '.join(sorted(extra))}")
    lacking = [n for n in names if n not in data]
    if lacking:
        raise RequirementError(f"{data['type']} needs field(s) {', '.join(lacking)}")


def from_dict(data: Mapping[str, Any]) -> Requirement:
    """Build a requirement from its JSON/TOML form, e.g. ``{"type": "run", "length": 4}``."""
    if not isinstance(data, Mapping) or "type" not in data:
        raise RequirementError(f"a requirement needs a 'type', got {data!r}")
    kind = data["type"]
    if kind not in KINDS:
        raise RequirementError(
            f"unknown requirement type {kind!r} (known: {', '.join(sorted(KINDS))})"
        )
    if kind == "parity":
        _fields(data, "parity", optional=("count",))
        return Parity(data["parity"], data.get("count", DICE_PER_ROLL))
    if kind == "run":
        _fields(data, "length")
        return Run(data["length"])
    if kind == "value":
        _fields(data, "value", "count")
        return Value(data["value"], data["count"])
    if kind == "color":
        _fields(data, "color", "count")
        return ColorCount(data["color"], data["count"])
    if kind == "same_color":
        _fields(data, "count")
        return SameColor(data["count"])
    if kind == "colors":
        _fields(data, "counts")
        counts = data["counts"]
        if not isinstance(counts, Mapping):
            raise RequirementError("colors.counts must be a table of colour = count")
        return Colors(tuple(counts.items()))
    if kind == "groups":
        _fields(data, "sizes")
        if not isinstance(data["sizes"], Sequence):
            raise RequirementError("groups.sizes must be a list of group sizes")
        return Groups(tuple(data["sizes"]))
    if kind == "sum_at_most":
        _fields(data, "total")
        return SumAtMost(data["total"])
    _fields(data, "total")
    return SumAtLeast(data["total"])
