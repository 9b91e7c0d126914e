"""Dice requirements: what a citizen card asks of a roll. One class per kind.

Every requirement kind is one class that owns all of its rule: reading its data
(``from_data``, field names as in the card data; :func:`from_dict` finds the class in
:data:`KINDS`), its JSON form (``to_dict``), its words (``describe``), the check with a
witness (``evaluate``) and the advisor's fast form (``meets``: the same rule over whole
tables of dice counts at once). A new kind is one new class added to ``KINDS``.

``evaluate(roll)`` returns a :class:`Verdict`:

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
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from rules.dice import Color, Roll
from rules.errors import DataError

if TYPE_CHECKING:  # NumPy is imported by ``meets``, the advisor's form, where it runs: the
    import numpy as np  # commands that only check or play (kotd check, play, cards) skip it

VALUES = (1, 2, 3, 4, 5, 6)
DICE_PER_ROLL = 6
"""King of the Dice is played with six dice."""
COLOR_INDEX = {Color.RED: 0, Color.GREEN: 1, Color.BLUE: 2}
"""The colours' places in :attr:`DiceCounts.colors`."""


class RequirementError(DataError):
    """A requirement in the data or a request is malformed."""

    family = "requirement"


class DiceCounts(Protocol):
    """Dice counts over a whole table of rolls (the advisor's states), as NumPy arrays of
    one shape: ``values[v-1]`` dice showing v, ``colors[i]`` dice showing colour i (in
    :data:`COLOR_INDEX` order), ``total`` the sum of the dice."""

    @property
    def values(self) -> tuple[np.ndarray, ...]: ...

    @property
    def colors(self) -> tuple[np.ndarray, ...]: ...

    @property
    def total(self) -> np.ndarray: ...


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
        raise RequirementError("count", "count must be a whole number {low}-{high}, not "
                               "{count!r}", low=low, high=high, count=count)
    return count


def _check_color(color: Any) -> Color:
    try:
        return Color(color)
    except ValueError:
        raise RequirementError("color", "colour must be red, green or blue, not {color!r}",
                               color=color) from None


def _fields(data: Mapping[str, Any], names: tuple[str, ...], optional: tuple[str, ...]) -> None:
    extra = set(data) - {"type", *names, *optional}
    if extra:
        raise RequirementError("unknown_field", "{kind} has unknown field(s) {fields}",
                               kind=data["type"], fields=", ".join(sorted(extra)))
    lacking = [n for n in names if n not in data]
    if lacking:
        raise RequirementError("missing_field", "{kind} needs field(s) {fields}",
                               kind=data["type"], fields=", ".join(lacking))


class Requirement:
    """Base of all requirement kinds; see the module docstring.

    ``fields``/``optional`` name the data fields; ``uses_values`` says whether the kind
    looks at the dice's values (True) or only at their colours (False).
    """

    type: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ()
    optional: ClassVar[tuple[str, ...]] = ()
    uses_values: ClassVar[bool] = True

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Requirement:
        """Build this kind from its data (fields already checked)."""
        return cls(*(data[f] for f in cls.fields))

    def evaluate(self, roll: Roll) -> Verdict:  # pragma: no cover - abstract
        raise NotImplementedError

    def meets(self, counts: DiceCounts) -> np.ndarray:  # pragma: no cover - abstract
        """Boolean table: does each state of ``counts`` satisfy this requirement (the same
        rule as :meth:`evaluate`)."""
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
    fields: ClassVar[tuple[str, ...]] = ("parity",)
    optional: ClassVar[tuple[str, ...]] = ("count",)

    def __post_init__(self) -> None:
        if self.parity not in ("even", "odd"):
            raise RequirementError("parity", "parity must be 'even' or 'odd', not {parity!r}",
                                   parity=self.parity)
        _check_count(self.count)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Parity:
        return cls(data["parity"], data.get("count", DICE_PER_ROLL))

    def evaluate(self, roll: Roll) -> Verdict:
        rest = 0 if self.parity == "even" else 1
        hits = _indices_where(roll, lambda d: d.value % 2 == rest)
        return _verdict(hits, max(0, self.count - len(hits)))

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        rest = 0 if self.parity == "even" else 1
        hits = sum(counts.values[v - 1] for v in VALUES if v % 2 == rest)
        return np.asarray(hits >= self.count)

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
    fields: ClassVar[tuple[str, ...]] = ("length",)

    def __post_init__(self) -> None:
        _check_count(self.length, 2, 6)

    def evaluate(self, roll: Roll) -> Verdict:
        first_die: dict[int, int] = {}
        for i, d in enumerate(roll):
            first_die.setdefault(d.value, i)
        best: list[int] = []
        for start in range(1, 8 - self.length):
            have = [first_die[v] for v in range(start, start + self.length) if v in first_die]
            if len(have) > len(best):
                best = have
        return _verdict(best, self.length - len(best))

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        shape = counts.total.shape
        out = np.zeros(shape, dtype=bool)
        for start in range(1, 8 - self.length):
            ok = np.ones(shape, dtype=bool)
            for v in range(start, start + self.length):
                ok &= counts.values[v - 1] >= 1
            out |= ok
        return out

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
    fields: ClassVar[tuple[str, ...]] = ("value", "count")

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise RequirementError("value", "value must be 1-6, not {value!r}",
                                   value=self.value)
        _check_count(self.count)

    def evaluate(self, roll: Roll) -> Verdict:
        hits = _indices_where(roll, lambda d: d.value == self.value)[: self.count]
        return _verdict(hits, self.count - len(hits))

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        return np.asarray(counts.values[self.value - 1] >= self.count)

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
    fields: ClassVar[tuple[str, ...]] = ("color", "count")
    uses_values: ClassVar[bool] = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", _check_color(self.color))
        _check_count(self.count)

    def evaluate(self, roll: Roll) -> Verdict:
        hits = _indices_where(roll, lambda d: d.color is self.color)[: self.count]
        return _verdict(hits, self.count - len(hits))

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        return np.asarray(counts.colors[COLOR_INDEX[self.color]] >= self.count)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "color": self.color.value, "count": self.count}

    def describe(self, lang: str = "en") -> str:
        return f"{self.count} × {_color_name(self.color, lang)}"


@dataclass(frozen=True, slots=True)
class SameColor(Requirement):
    """At least ``count`` dice show the same colour, any one colour (mushroom goblin)."""

    count: int
    type: ClassVar[str] = "same_color"
    fields: ClassVar[tuple[str, ...]] = ("count",)
    uses_values: ClassVar[bool] = False

    def __post_init__(self) -> None:
        _check_count(self.count)

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        c = counts.colors
        return np.asarray(np.maximum(np.maximum(c[0], c[1]), c[2]) >= self.count)

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
    fields: ClassVar[tuple[str, ...]] = ("counts",)
    uses_values: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not self.counts:
            raise RequirementError("colors_empty", "colors needs at least one colour count")
        checked = tuple((_check_color(c), _check_count(n)) for c, n in self.counts)
        if len({c for c, _ in checked}) != len(checked):
            raise RequirementError("colors_twice", "colors lists a colour twice")
        if sum(n for _, n in checked) > DICE_PER_ROLL:
            raise RequirementError("too_many", "{kind} asks for more than {dice} dice",
                                   kind="colors", dice=DICE_PER_ROLL)
        object.__setattr__(self, "counts", checked)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Colors:
        counts = data["counts"]
        if not isinstance(counts, Mapping):
            raise RequirementError("colors_table",
                                   "colors.counts must be a table of colour = count")
        return cls(tuple(counts.items()))

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        ok = np.ones(counts.total.shape, dtype=bool)
        for color, count in self.counts:
            ok &= counts.colors[COLOR_INDEX[color]] >= count
        return ok

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
    fields: ClassVar[tuple[str, ...]] = ("sizes",)

    def __post_init__(self) -> None:
        if not self.sizes:
            raise RequirementError("groups_empty", "groups needs at least one group size")
        sizes = tuple(sorted((_check_count(s) for s in self.sizes), reverse=True))
        if sum(sizes) > DICE_PER_ROLL:
            raise RequirementError("too_many", "{kind} asks for more than {dice} dice",
                                   kind="groups", dice=DICE_PER_ROLL)
        object.__setattr__(self, "sizes", sizes)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Groups:
        if not isinstance(data["sizes"], Sequence):
            raise RequirementError("groups_list", "groups.sizes must be a list of group sizes")
        return cls(tuple(data["sizes"]))

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        ranked = np.sort(np.stack(counts.values), axis=0)[::-1]
        ok = np.ones(counts.total.shape, dtype=bool)
        for i, size in enumerate(self.sizes):
            ok &= ranked[i] >= size
        return ok

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
    fields: ClassVar[tuple[str, ...]] = ("total",)

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        return np.asarray(counts.total <= self.total)

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
    fields: ClassVar[tuple[str, ...]] = ("total",)

    def meets(self, counts: DiceCounts) -> np.ndarray:
        import numpy as np
        return np.asarray(counts.total >= self.total)

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


def from_dict(data: Mapping[str, Any]) -> Requirement:
    """Build a requirement from its JSON/TOML form, e.g. ``{"type": "run", "length": 4}``."""
    if not isinstance(data, Mapping) or "type" not in data:
        raise RequirementError("no_type", "a requirement needs a 'type', got {data}",
                               data=repr(data))
    kind = KINDS.get(data["type"])
    if kind is None:
        raise RequirementError("unknown_type", "unknown requirement type {kind!r} (known: "
                               "{known})", kind=data["type"], known=", ".join(sorted(KINDS)))
    _fields(data, kind.fields, kind.optional)
    return kind.from_data(data)
