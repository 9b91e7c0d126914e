"""Dice conditions of King of the Dice: The Board Game, as data. One class per kind.

A citizen card's bottom row asks the roll for something (the rulebook's card overview):

========================  =====================  ===================================
kind (JSON key)           text form              the rule
========================  =====================  ===================================
``colours``               ``colours 2r 1b``      at least so many dice of each colour
``pips``                  ``pips 6 3r``          these dice are shown (a bare number:
                                                 any colour), a different die each
``groups``                ``groups 3 2``         groups of equal numbers, each group a
                                                 different number of the player's choice
``sum_at_least``          ``sum 25``             the sum of all dice is at least 25
``colour_sum_at_least``   ``sum r 12``           the red dice add up to at least 12
``colour_sums_descending``  ``sums r b g``       red sum > blue sum > green sum
``straight``              ``straight 4``         4 dice show consecutive numbers
========================  =====================  ===================================

Parts joined with ``+`` (``colours 3r + pips 6``; JSON ``{"all": [...]}``) must all be met.
The ruling for combinations: **a die counts once** across the parts that use dice up
(colours, pips, groups, straight), while **sums count every die** (the three sum kinds
look at the whole roll). Tiers joined with ``|`` (``straight 4 | straight 5 |
straight 6``; JSON ``{"stars": [...]}``) are the grumpy merchant's stars (deck 1): a
star for every tier the roll meets, each tier judged on its own.

Every kind owns its parsing (``from_json``, ``from_words``), its text and JSON forms, its
check (``witness``: the dice that meet it, or None), its words (``describe``) and the
dice worth adding with a free choice (``useful``, which keeps the joker search small and
exact). The roll may have more than six dice: jokers add dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any, ClassVar

from rules.dice import Color, Die
from rules.errors import KotdError

VALUES = (1, 2, 3, 4, 5, 6)
COLOURS = (Color.RED, Color.GREEN, Color.BLUE)
MAX_DICE = 12
"""The most dice a condition may ask for (a roll with jokers never has more)."""

ALL_DICE = tuple(Die(v, c) for c in COLOURS for v in VALUES)
"""The 18 dice a super joker pair may stand for."""

Dice = tuple[Die, ...]


class ConditionError(KotdError):
    """A condition (in the deck file, a request or the page) cannot be read."""

    family = "condition"


def die_key(die: Die) -> tuple[int, str]:
    return die.value, die.color.value if die.color else ""


def canonical(dice: Sequence[Die]) -> Dice:
    """The dice as a sorted tuple: one key for every order of the same dice."""
    return tuple(sorted(dice, key=die_key))


# ---- reading numbers, colours and dice --------------------------------------------------

def _count(value: Any, what: str, low: int = 1, high: int = MAX_DICE) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConditionError("count", "{what} must be a whole number {low}-{high}, not "
                             "{value!r}", what=what, low=low, high=high, value=value)
    return value


def colour(value: Any) -> Color:
    """``"r"``/``"red"`` (any case) as a colour; a ConditionError names anything else."""
    if isinstance(value, Color):
        return value
    text = str(value).strip().lower()
    for c in COLOURS:
        if text in (c.value, c.letter):
            return c
    raise ConditionError("colour", "colour must be r, g or b, not {value!r}", value=value)


def die(value: Any, any_colour: bool = False) -> Die:
    """A die token ``"6r"`` (or ``"6"`` when ``any_colour``: a die of any colour)."""
    text = str(value).strip().lower()
    if text.isdigit() and len(text) == 1 and 1 <= int(text) <= 6 and any_colour:
        return Die(int(text))
    if len(text) == 2 and text[0].isdigit() and 1 <= int(text[0]) <= 6:
        return Die(int(text[0]), colour(text[1]))
    raise ConditionError("die", "{value!r} is no die: write a number 1-6 and a colour "
                         "r, g or b{rest}", value=value,
                         rest=", or a bare number for any colour" if any_colour else "")


_COLOUR_WORDS = {"en": {"red": "red", "green": "green", "blue": "blue"},
                 "de": {"red": "rot", "green": "grün", "blue": "blau"}}


def colour_word(c: Color, lang: str) -> str:
    return _COLOUR_WORDS.get(lang, _COLOUR_WORDS["en"])[c.value]


def die_words(d: Die, lang: str) -> str:
    """``6r`` as "red 6" ("rote 6"); a die of any colour as its number."""
    if d.color is None:
        return str(d.value)
    word = colour_word(d.color, lang)
    return f"{word}e {d.value}" if lang == "de" and word != "lila" else f"{word} {d.value}"


# ---- the kinds --------------------------------------------------------------------------

class Condition:
    """Base of every kind; see the module docstring."""

    key: ClassVar[str]
    word: ClassVar[str]
    consumes: ClassVar[bool] = True
    """Whether the kind uses dice up (a die counts once across the parts of one card)."""
    sees: ClassVar[str] = "both"
    """What of a die the kind looks at: ``"values"``, ``"colours"`` or ``"both"``."""

    @classmethod
    def from_json(cls, value: Any) -> Condition:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def from_words(cls, words: list[str]) -> Condition:  # pragma: no cover - abstract
        raise NotImplementedError

    def json_value(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def words(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:  # pragma: no cover
        """0-based indices of dice that meet this condition, or None if the dice do not."""
        raise NotImplementedError

    def describe(self, lang: str = "en") -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def useful(self) -> frozenset[Die]:  # pragma: no cover - abstract
        """Dice that stand for every die worth adding: any die added to any roll can be
        swapped for one of these without losing the condition (a smallest set of added
        dice holds no die that does not help)."""
        raise NotImplementedError

    @property
    def size(self) -> int | None:
        """How many dice the smallest set that meets this kind has (None: not fixed)."""
        return None

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        """At least how many dice must be added to meet this condition (``stars`` tiers):
        a lower bound, exact for most kinds (dice of any colour and value added)."""
        return 0 if self.stars(dice) >= stars else 1

    def picture(self) -> tuple[str, ...]:
        """The dice the card shows, as the page draws them: a number or ``?`` (any), then
        a colour letter or none; ``A``, ``B`` … a group's symbol; ``+`` a die of a run.
        Empty for the sum kinds (said in words)."""
        return ()

    def to_json(self) -> dict[str, Any]:
        return {self.key: self.json_value()}

    def __str__(self) -> str:
        return self.words()

    def meets(self, dice: Sequence[Die]) -> bool:
        return _meets(self, canonical(dice))

    def stars(self, dice: Sequence[Die]) -> int:
        """1 if met, else 0 (the merchant's tiers count more)."""
        return int(self.meets(dice))

    @property
    def tiers(self) -> int:
        return 1


@lru_cache(maxsize=500_000)
def _meets(condition: Condition, dice: Dice) -> bool:
    return condition.witness(dice) is not None


def _by_colour(dice: Sequence[Die], c: Color) -> list[int]:
    return [i for i, d in enumerate(dice) if d.color is c]


def _colour_counts(value: Any, what: str) -> tuple[tuple[Color, int], ...]:
    if not isinstance(value, Mapping) or not value:
        raise ConditionError("colour_table", "{what} needs colours with numbers, e.g. "
                             '{{"r": 2}}', what=what)
    out = {colour(c): n for c, n in value.items()}
    if len(out) != len(value):
        raise ConditionError("colour_twice", "{what} names a colour twice", what=what)
    return tuple((c, n) for c, n in sorted(out.items(), key=lambda x: COLOURS.index(x[0])))


@dataclass(frozen=True, slots=True)
class Colours(Condition):
    """At least so many dice of each colour shown (``{"r": 2, "b": 1}``: two red dice and
    a blue one)."""

    counts: tuple[tuple[Color, int], ...]
    key: ClassVar[str] = "colours"
    word: ClassVar[str] = "colours"
    sees: ClassVar[str] = "colours"

    def __post_init__(self) -> None:
        counts = tuple((c, _count(n, "a colour's number of dice")) for c, n in self.counts)
        if sum(n for _, n in counts) > MAX_DICE:
            raise ConditionError("too_many", "{kind} asks for more than {most} dice",
                                 kind=self.key, most=MAX_DICE)
        object.__setattr__(self, "counts", counts)

    @classmethod
    def from_json(cls, value: Any) -> Colours:
        return cls(_colour_counts(value, "colours"))

    @classmethod
    def from_words(cls, words: list[str]) -> Colours:
        pairs: dict[str, int] = {}
        for w in words:
            if len(w) < 2 or not w[:-1].isdigit():
                raise ConditionError("colours_word", "colours: {word!r} should be a number "
                                     "and a colour, e.g. 2r", word=w)
            pairs[w[-1]] = int(w[:-1])
        return cls.from_json(pairs)

    def json_value(self) -> dict[str, int]:
        return {c.letter: n for c, n in self.counts}

    def words(self) -> str:
        return "colours " + " ".join(f"{n}{c.letter}" for c, n in self.counts)

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        out: list[int] = []
        for c, n in self.counts:
            hits = _by_colour(dice, c)
            if len(hits) < n:
                return None
            out += hits[:n]
        return tuple(sorted(out))

    def picture(self) -> tuple[str, ...]:
        return tuple(f"?{c.letter}" for c, n in self.counts for _ in range(n))

    def describe(self, lang: str = "en") -> str:
        return ", ".join(f"{n} × {colour_word(c, lang)}" for c, n in self.counts)

    def useful(self) -> frozenset[Die]:
        return frozenset(Die(6, c) for c, _ in self.counts)

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        return sum(max(0, n - sum(d.color is c for d in dice)) for c, n in self.counts)

    @property
    def size(self) -> int:
        return sum(n for _, n in self.counts)


@dataclass(frozen=True, slots=True)
class Pips(Condition):
    """These dice are shown, a different die for each: ``["6", "3r"]`` is a 6 of any
    colour and a red 3."""

    dice: tuple[Die, ...]
    key: ClassVar[str] = "pips"
    word: ClassVar[str] = "pips"

    def __post_init__(self) -> None:
        if not 1 <= len(self.dice) <= MAX_DICE:
            raise ConditionError("pips_count", "pips lists 1-{most} dice, not {n}",
                                 most=MAX_DICE, n=len(self.dice))
        # coloured dice first: they are matched first (see witness)
        object.__setattr__(self, "dice", tuple(sorted(
            self.dice, key=lambda d: (d.color is None, die_key(d)))))

    @classmethod
    def from_json(cls, value: Any) -> Pips:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ConditionError("pips_list", "pips needs a list of dice, e.g. "
                                 '["6", "3r"]')
        return cls(tuple(die(v, any_colour=True) for v in value))

    @classmethod
    def from_words(cls, words: list[str]) -> Pips:
        return cls.from_json(words)

    def json_value(self) -> list[str]:
        return [str(d) for d in self.dice]

    def words(self) -> str:
        return "pips " + " ".join(self.json_value())

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        # A coloured entry needs exactly its die; a bare number takes any die of that
        # number. Every die a coloured entry can use, a bare entry of its number could use
        # too, so matching the coloured entries first never loses a match.
        free = list(range(len(dice)))
        out: list[int] = []
        for want in self.dice:
            for i in free:
                d = dice[i]
                if d.value == want.value and (want.color is None or d.color is want.color):
                    free.remove(i)
                    out.append(i)
                    break
            else:
                return None
        return tuple(sorted(out))

    def picture(self) -> tuple[str, ...]:
        return tuple(str(d) for d in self.dice)

    def describe(self, lang: str = "en") -> str:
        return ", ".join(die_words(d, lang) for d in self.dice)

    def useful(self) -> frozenset[Die]:
        return frozenset(d if d.color else Die(d.value, Color.RED) for d in self.dice)

    @property
    def size(self) -> int:
        return len(self.dice)

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        """The entries no die matches (matching coloured entries first is a largest
        matching, see witness); each added die matches one."""
        free = list(dice)
        missing = 0
        for want in self.dice:
            for d in free:
                if d.value == want.value and (want.color is None or d.color is want.color):
                    free.remove(d)
                    break
            else:
                missing += 1
        return missing


def _int_list(value: Any, what: str) -> tuple[int, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence) or not value:
        raise ConditionError("list", "{what} needs a list of numbers", what=what)
    return tuple(_count(v, what) for v in value)


@dataclass(frozen=True, slots=True)
class Groups(Condition):
    """Groups of equal numbers, each group a different number of the player's choice:
    ``[3, 2]`` is three of one number and two of another (a larger group serves)."""

    sizes: tuple[int, ...]
    key: ClassVar[str] = "groups"
    word: ClassVar[str] = "groups"
    sees: ClassVar[str] = "values"

    def __post_init__(self) -> None:
        sizes = tuple(sorted((_count(s, "a group size") for s in self.sizes), reverse=True))
        if not sizes or len(sizes) > 6 or sum(sizes) > MAX_DICE:
            raise ConditionError("groups_size", "groups: at most six groups and {most} dice",
                                 most=MAX_DICE)
        object.__setattr__(self, "sizes", sizes)

    @classmethod
    def from_json(cls, value: Any) -> Groups:
        return cls(_int_list(value, "a group size"))

    @classmethod
    def from_words(cls, words: list[str]) -> Groups:
        return cls.from_json(words)

    def json_value(self) -> list[int]:
        return list(self.sizes)

    def words(self) -> str:
        return "groups " + " ".join(map(str, self.sizes))

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        by_value: dict[int, list[int]] = {}
        for i, d in enumerate(dice):
            by_value.setdefault(d.value, []).append(i)
        ranked = sorted(by_value.values(), key=lambda hits: (len(hits), dice[hits[0]].value),
                        reverse=True)
        if len(ranked) < len(self.sizes):
            return None
        out: list[int] = []
        for size, hits in zip(self.sizes, ranked, strict=False):
            if len(hits) < size:
                return None
            out += hits[:size]
        return tuple(sorted(out))

    def picture(self) -> tuple[str, ...]:
        return tuple("ABCDEF"[i] for i, n in enumerate(self.sizes) for _ in range(n))

    def describe(self, lang: str = "en") -> str:
        word = "gleiche" if lang == "de" else "of a kind"
        return " + ".join(map(str, self.sizes)) + f" {word}"

    def useful(self) -> frozenset[Die]:
        return frozenset(Die(v, Color.RED) for v in VALUES)

    @property
    def size(self) -> int:
        return sum(self.sizes)

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        """The largest group on the number shown most often, and so on: the deficits are
        convex, so matching both in order needs the fewest added dice."""
        counts = sorted(Counter(d.value for d in dice).values(), reverse=True)
        counts += [0] * len(self.sizes)
        return sum(max(0, s - n) for s, n in zip(self.sizes, counts, strict=False))


@dataclass(frozen=True, slots=True)
class SumAtLeast(Condition):
    """The sum of all dice is at least ``total``."""

    total: int
    key: ClassVar[str] = "sum_at_least"
    word: ClassVar[str] = "sum"
    consumes: ClassVar[bool] = False
    sees: ClassVar[str] = "values"

    def __post_init__(self) -> None:
        _count(self.total, "a sum", 1, 6 * MAX_DICE)

    @classmethod
    def from_json(cls, value: Any) -> SumAtLeast:
        return cls(_count(value, "a sum", 1, 6 * MAX_DICE))

    @classmethod
    def from_words(cls, words: list[str]) -> SumAtLeast:
        if len(words) != 1:
            raise ConditionError("sum_words", "sum takes one number (sum 25) or a colour "
                                 "and a number (sum r 12)")
        return cls.from_json(words[0])

    def json_value(self) -> int:
        return self.total

    def words(self) -> str:
        return f"sum {self.total}"

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        return tuple(range(len(dice))) if sum(d.value for d in dice) >= self.total else None

    def describe(self, lang: str = "en") -> str:
        return f"{'Summe' if lang == 'de' else 'sum'} ≥ {self.total}"

    def useful(self) -> frozenset[Die]:
        return frozenset({Die(6, Color.RED)})

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        return -(-max(0, self.total - sum(d.value for d in dice)) // 6)


@dataclass(frozen=True, slots=True)
class ColourSumAtLeast(Condition):
    """The dice of a colour add up to at least a number (``{"r": 12}``: the red dice
    together show 12 or more)."""

    totals: tuple[tuple[Color, int], ...]
    key: ClassVar[str] = "colour_sum_at_least"
    word: ClassVar[str] = "sum"
    consumes: ClassVar[bool] = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "totals", tuple(
            (c, _count(n, "a colour's sum", 1, 6 * MAX_DICE)) for c, n in self.totals))

    @classmethod
    def from_json(cls, value: Any) -> ColourSumAtLeast:
        return cls(_colour_counts(value, "colour_sum_at_least"))

    @classmethod
    def from_words(cls, words: list[str]) -> ColourSumAtLeast:
        if len(words) % 2:
            raise ConditionError("sum_words", "sum takes one number (sum 25) or a colour "
                                 "and a number (sum r 12)")
        return cls.from_json(dict(zip(words[::2], words[1::2], strict=True)))

    def json_value(self) -> dict[str, int]:
        return {c.letter: n for c, n in self.totals}

    def words(self) -> str:
        return "sum " + " ".join(f"{c.letter} {n}" for c, n in self.totals)

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        out: list[int] = []
        for c, n in self.totals:
            hits = _by_colour(dice, c)
            if sum(dice[i].value for i in hits) < n:
                return None
            out += hits
        return tuple(sorted(out))

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return ", ".join(f"Summe {colour_word(c, lang)} ≥ {n}" for c, n in self.totals)
        return ", ".join(f"{colour_word(c, lang)} sum ≥ {n}" for c, n in self.totals)

    def useful(self) -> frozenset[Die]:
        return frozenset(Die(6, c) for c, _ in self.totals)

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        return sum(-(-max(0, n - sum(d.value for d in dice if d.color is c)) // 6)
                   for c, n in self.totals)


@dataclass(frozen=True, slots=True)
class ColourSumsDescending(Condition):
    """The colours' sums fall strictly in this order: ``["r", "b", "g"]`` is red sum >
    blue sum > green sum (12 > 5 > 1 and 12 > 6 > 0 meet it, 12 = 12 > 5 does not)."""

    order: tuple[Color, ...]
    key: ClassVar[str] = "colour_sums_descending"
    word: ClassVar[str] = "sums"
    consumes: ClassVar[bool] = False

    def __post_init__(self) -> None:
        order = tuple(colour(c) for c in self.order)
        if not 2 <= len(order) <= 3 or len(set(order)) != len(order):
            raise ConditionError("sums_order", "sums names two or three different colours, "
                                 "highest sum first")
        object.__setattr__(self, "order", order)

    @classmethod
    def from_json(cls, value: Any) -> ColourSumsDescending:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ConditionError("sums_order", "sums names two or three different colours, "
                                 "highest sum first")
        return cls(tuple(colour(c) for c in value))

    @classmethod
    def from_words(cls, words: list[str]) -> ColourSumsDescending:
        return cls.from_json([w for w in words if w != ">"])

    def json_value(self) -> list[str]:
        return [c.letter for c in self.order]

    def words(self) -> str:
        return "sums " + " ".join(self.json_value())

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        sums = [sum(d.value for d in dice if d.color is c) for c in self.order]
        if any(a <= b for a, b in pairwise(sums)):
            return None
        return tuple(i for i, d in enumerate(dice) if d.color in self.order)

    def describe(self, lang: str = "en") -> str:
        names = " > ".join(colour_word(c, lang) for c in self.order)
        return f"Summe {names}" if lang == "de" else f"sums {names}"

    def useful(self) -> frozenset[Die]:
        # The highest colour only gains from a 6; a middle colour may need any number;
        # the lowest never gains from a die.
        middle = [Die(v, c) for c in self.order[1:-1] for v in VALUES]
        return frozenset([Die(6, self.order[0]), *middle])

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        """Exact: from the lowest colour up, each sum is raised just above the next one
        (added dice only raise sums; a die raises one sum by 1-6)."""
        sums = [sum(d.value for d in dice if d.color is c) for c in self.order]
        need, target = 0, sums[-1]
        for have in reversed(sums[:-1]):
            target = max(have, target + 1)
            need += -(-(target - have) // 6)
        return need


@dataclass(frozen=True, slots=True)
class Straight(Condition):
    """``length`` dice show consecutive numbers (4: e.g. 2-3-4-5)."""

    length: int
    key: ClassVar[str] = "straight"
    word: ClassVar[str] = "straight"
    sees: ClassVar[str] = "values"

    def __post_init__(self) -> None:
        _count(self.length, "a straight's length", 2, 6)

    @classmethod
    def from_json(cls, value: Any) -> Straight:
        return cls(_count(value, "a straight's length", 2, 6))

    @classmethod
    def from_words(cls, words: list[str]) -> Straight:
        if len(words) != 1:
            raise ConditionError("straight_words", "straight takes one number (straight 4)")
        return cls.from_json(words[0])

    def json_value(self) -> int:
        return self.length

    def words(self) -> str:
        return f"straight {self.length}"

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        first: dict[int, int] = {}
        for i, d in enumerate(dice):
            first.setdefault(d.value, i)
        for start in range(1, 8 - self.length):
            run = range(start, start + self.length)
            if all(v in first for v in run):
                return tuple(sorted(first[v] for v in run))
        return None

    def picture(self) -> tuple[str, ...]:
        return ("+",) * self.length

    def describe(self, lang: str = "en") -> str:
        return f"Straße aus {self.length}" if lang == "de" else f"run of {self.length}"

    def useful(self) -> frozenset[Die]:
        return frozenset(Die(v, Color.RED) for v in VALUES)

    @property
    def size(self) -> int:
        return self.length

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        shown = {d.value for d in dice}
        return min(sum(v not in shown for v in range(start, start + self.length))
                   for start in range(1, 8 - self.length))


KINDS: dict[str, type[Condition]] = {
    k.key: k for k in (Colours, Pips, Groups, SumAtLeast, ColourSumAtLeast,
                       ColourSumsDescending, Straight)
}
"""Every kind by its JSON key."""


# ---- combinations and stars ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class AllOf(Condition):
    """Several parts at once. A die counts once across the parts that use dice up; the sum
    kinds look at every die."""

    parts: tuple[Condition, ...]
    key: ClassVar[str] = "all"
    word: ClassVar[str] = "+"

    def __post_init__(self) -> None:
        if len(self.parts) < 2 or any(isinstance(p, AllOf | Stars) for p in self.parts):
            raise ConditionError("all_parts", "a combination joins two or more single "
                                 "conditions")

    def json_value(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.parts]

    def words(self) -> str:
        return " + ".join(p.words() for p in self.parts)

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        out: set[int] = set()
        for part in self.parts:
            if not part.consumes:
                hit = part.witness(dice)
                if hit is None:
                    return None
                out.update(hit)
        using = [p for p in self.parts if p.consumes]
        shared = _disjoint(using, tuple(range(len(dice))), dice)
        if shared is None:
            return None
        return tuple(sorted(out.union(shared)))

    def picture(self) -> tuple[str, ...]:
        return tuple(t for p in self.parts for t in p.picture())

    def describe(self, lang: str = "en") -> str:
        return " + ".join(p.describe(lang) for p in self.parts)

    def useful(self) -> frozenset[Die]:
        return _useful_of(self.parts)

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        """An added die serves at most one part that uses dice up, and each such part
        needs at least its own shortfall: their sum; a sum kind needs its own."""
        using = sum(p.short(dice) for p in self.parts if p.consumes)
        return max([using, *(p.short(dice) for p in self.parts if not p.consumes)])


def _picks(sizes: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` items from groups of these sizes (how many of each)."""
    if not sizes:
        if total == 0:
            yield ()
        return
    first, rest = sizes[0], sizes[1:]
    for n in range(min(first, total), -1, -1):
        if total - n <= sum(rest):
            for tail in _picks(rest, total - n):
                yield (n, *tail)


def _sub_multisets(free: tuple[int, ...], dice: Sequence[Die],
                   size: int | None) -> Iterator[tuple[int, ...]]:
    """Every different sub-multiset of the dice at ``free`` (as indices) of ``size`` dice,
    or of every size (smallest first) when ``size`` is None."""
    groups: dict[tuple[int, str], list[int]] = {}
    for i in free:
        groups.setdefault(die_key(dice[i]), []).append(i)
    lists = list(groups.values())
    sizes = [size] if size is not None else range(len(free) + 1)
    for total in sizes:
        for pick in _picks([len(g) for g in lists], total):
            yield tuple(i for g, n in zip(lists, pick, strict=True) for i in g[:n])


def _disjoint(parts: Sequence[Condition], free: tuple[int, ...],
              dice: Sequence[Die]) -> tuple[int, ...] | None:
    """Dice (indices within ``free``) that meet every part, no die used by two parts: each
    part in turn takes a smallest set of free dice that meets it (as many dice as the part
    shows), and the rest go on."""
    if not parts:
        return ()
    first, rest = parts[0], parts[1:]
    tried: list[set[int]] = []
    if first.size is not None and first.size > len(free):
        return None
    for sub in _sub_multisets(free, dice, first.size):
        if any(t <= set(sub) for t in tried):
            continue  # a smaller set already met this part: a larger one never does better
        if first.witness([dice[i] for i in sub]) is None:
            continue
        tried.append(set(sub))
        others = _disjoint(rest, tuple(i for i in free if i not in sub), dice)
        if others is not None:
            return tuple(sorted((*sub, *others)))
    return None


@dataclass(frozen=True, slots=True)
class Stars(Condition):
    """The grumpy merchant's tiers (deck 1): one star for every tier the roll meets, each
    judged on its own; the card is met with one star, and all tiers also bring a gem."""

    parts: tuple[Condition, ...]
    key: ClassVar[str] = "stars"
    word: ClassVar[str] = "|"

    def __post_init__(self) -> None:
        if not 2 <= len(self.parts) <= 3 or any(isinstance(p, Stars) for p in self.parts):
            raise ConditionError("stars_parts", "a merchant's card has two or three tiers")

    def json_value(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.parts]

    def words(self) -> str:
        return " | ".join(p.words() for p in self.parts)

    def stars(self, dice: Sequence[Die]) -> int:
        key = canonical(dice)
        return sum(_meets(p, key) for p in self.parts)

    def witness(self, dice: Sequence[Die]) -> tuple[int, ...] | None:
        hits = [p.witness(dice) for p in self.parts]
        met = [h for h in hits if h is not None]
        return tuple(sorted(set().union(*met))) if met else None

    def picture(self) -> tuple[str, ...]:
        return self.parts[-1].picture()

    def describe(self, lang: str = "en") -> str:
        return " | ".join("★" * n + " " + p.describe(lang)
                          for n, p in enumerate(self.parts, start=1))

    def useful(self) -> frozenset[Die]:
        return _useful_of(self.parts)

    def short(self, dice: Sequence[Die], stars: int = 1) -> int:
        """The ``stars``-th fewest of the tiers' own shortfalls."""
        return sorted(p.short(dice) for p in self.parts)[stars - 1]

    @property
    def tiers(self) -> int:
        return len(self.parts)


def _useful_of(parts: Sequence[Condition]) -> frozenset[Die]:
    """Dice worth adding for several parts at once: for pips parts the union of theirs;
    parts that only look at values are served by one die of each number, parts that only
    look at colours by one die of each colour; otherwise any of the 18 dice."""
    if all(isinstance(p, Pips) for p in parts):
        # a free die that a coloured entry of some part wants is itself in the union;
        # one that only bare numbers want serves them all as a red die of its number
        return frozenset().union(*(p.useful() for p in parts))
    seen = {p.sees for p in parts}
    if seen == {"values"}:
        return frozenset(Die(v, Color.RED) for v in VALUES)
    if seen == {"colours"}:
        return frozenset(Die(6, c) for c in COLOURS)
    return frozenset(ALL_DICE)


# ---- reading a condition ------------------------------------------------------------------

def from_json(data: Any) -> Condition:
    """A condition from its JSON form (one kind a dict: ``{"straight": 4}``), or from its
    text form when ``data`` is a string."""
    if isinstance(data, str):
        return parse(data)
    if not isinstance(data, Mapping) or len(data) != 1:
        raise ConditionError("one_kind", "a condition is one kind, e.g. {{\"straight\": 4}}; "
                             "known kinds: {known}", known=", ".join([*KINDS, "all", "stars"]))
    (key, value), = data.items()
    if key in ("all", "stars"):
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ConditionError("parts_list", "{key} needs a list of conditions", key=key)
        parts = tuple(from_json(v) for v in value)
        return AllOf(parts) if key == "all" else Stars(parts)
    kind = KINDS.get(str(key))
    if kind is None:
        raise ConditionError("unknown_kind", "unknown condition kind {kind!r} (known: "
                             "{known})", kind=key, known=", ".join([*KINDS, "all", "stars"]))
    return kind.from_json(value)


_WORDS: dict[str, type[Condition]] = {
    "colours": Colours, "colors": Colours, "pips": Pips, "groups": Groups,
    "straight": Straight, "sums": ColourSumsDescending,
}


def _part(text: str) -> Condition:
    words = text.replace(">=", " ").replace("≥", " ").replace(">", " ").split()
    if not words:
        raise ConditionError("empty", "an empty condition")
    head, rest = words[0].lower(), words[1:]
    if head == "sum":
        if len(rest) == 1:
            return SumAtLeast.from_words(rest)
        return ColourSumAtLeast.from_words(rest)
    kind = _WORDS.get(head)
    if kind is None:
        raise ConditionError("unknown_kind", "unknown condition kind {kind!r} (known: "
                             "{known})", kind=head, known=", ".join(sorted({*_WORDS, "sum"})))
    if not rest:
        raise ConditionError("no_numbers", "{kind} needs numbers after it", kind=head)
    return kind.from_words(rest)


def parse(text: str) -> Condition:
    """A condition from its text form: parts joined with ``+``, tiers with ``|``."""
    tiers = []
    for tier in text.split("|"):
        parts = tuple(_part(p) for p in tier.split("+"))
        tiers.append(parts[0] if len(parts) == 1 else AllOf(parts))
    return tiers[0] if len(tiers) == 1 else Stars(tuple(tiers))
