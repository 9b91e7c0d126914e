"""What a court card costs: a pattern the whole dice result must show.

A result is the dice a player has set aside at the end of a turn, as values 1-6. Costs
are judged on its counts (``counts[v]`` = how many dice show v, ``counts[0]`` unused), so
the order of the dice never matters. Each cost kind is one small immutable class that
owns its data form (``from_dict``/``to_dict``), its check (``met``), its label and the
optimistic test the reach solver prunes with (``possible``).

The rulebook's costs, all "at least":

* ``sum``: the pips add up to at least t (t = 1 is any result: Hofnarr, Scharlatan);
* ``parity``: every die odd (Dienstmagd) or every die even (Philosoph);
* ``groups``: n equal dice (Bauer 2, Wachmann 3, Jäger 4, Ritter 5, Feldherr 6, König 7),
  or several groups that may show the same number: two pairs (Astronom; four of a kind
  pays), three + two (Hofdame; five of a kind pays), three pairs (Bischof; four + two and
  six of a kind pay), two threes (Edelmann; six of a kind pays);
* ``straight``: 1-2-3-4-5 or 2-3-4-5-6 (Zauberer), 1-2-3-4-5-6 (Alchemist);
* ``with``: never bought (the Königin comes with the first König).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

Counts = tuple[int, ...]
"""How many dice show each value: ``counts[v]`` for v = 1..6; ``counts[0]`` is always 0."""

VALUES = (1, 2, 3, 4, 5, 6)


class CostError(ValueError):
    """A cost in the court data is malformed."""


def counts_of(values: Iterable[int]) -> Counts:
    """The counts of a dice result given as values 1-6."""
    c = [0] * 7
    for v in values:
        c[v] += 1
    return tuple(c)


@dataclass(frozen=True, slots=True)
class Capacity:
    """An optimistic picture of what the dice could still become (see ``rules.ukuk.reach``).

    ``free[v]``: dice that can show v without using up a bounded change (they show v, are
    set aside showing v, or reach v by abilities that raise any number of dice).
    ``bound[v]``: further dice that can show v if they are among the ``budget`` dice that
    bounded abilities change. ``total``: dice there could be. ``max_sum``: the largest
    sum there could be. ``parity_need[p]``: bounded changes needed so that every die has
    parity p (p = 0 even, 1 odd), or None if impossible. ``parity_budget``: how many dice
    the bounded changes can turn to the other parity (a pip move keeps the sum, so it turns
    an even number of dice); None: ``budget``.
    """

    free: Counts
    bound: Counts
    budget: int
    total: int
    max_sum: int
    parity_need: tuple[int | None, int | None]
    parity_budget: int | None = None


class Cost:
    """Base of the cost kinds; see the module docstring."""

    kind: ClassVar[str]

    def met(self, counts: Counts) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def possible(self, cap: Capacity) -> bool:  # pragma: no cover - abstract
        """False only if no dice that ``cap`` allows could meet this cost."""
        raise NotImplementedError

    def describe(self, lang: str = "en") -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def dice_cost(self) -> bool:
        """Whether dice can ever pay this cost (False for the Königin)."""
        return True

    def met_by(self, values: Iterable[int]) -> bool:
        return self.met(counts_of(values))


Demand = tuple[tuple[int, int], ...]
"""Dice needed per value, as (value, how many) pairs."""


def _demands(needs: Iterable[Counts]) -> tuple[Demand, ...]:
    return tuple(tuple((v, n[v]) for v in VALUES if n[v]) for n in needs)


def _demands_possible(demands: Iterable[Demand], cap: Capacity) -> bool:
    """Some demand (dice needed per value) fits what ``cap`` allows."""
    free, bound, budget = cap.free, cap.bound, cap.budget
    for need in demands:
        changes = 0
        dice = 0
        for v, n in need:
            dice += n
            short = n - free[v]
            if short > 0:
                if short > bound[v]:
                    break
                changes += short
        else:
            if changes <= budget and dice <= cap.total:
                return True
    return False


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CostError(f"{what} must be a whole number {low}-{high}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class SumAtLeast(Cost):
    """The pips of the result add up to at least ``at_least``."""

    at_least: int
    kind: ClassVar[str] = "sum"

    def met(self, counts: Counts) -> bool:
        return sum(v * counts[v] for v in VALUES) >= self.at_least

    def possible(self, cap: Capacity) -> bool:
        return cap.max_sum >= self.at_least

    def describe(self, lang: str = "en") -> str:
        if self.at_least <= 1:
            return "jedes Ergebnis" if lang == "de" else "any result"
        return (f"Augensumme ≥ {self.at_least}" if lang == "de"
                else f"sum ≥ {self.at_least}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "at_least": self.at_least}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SumAtLeast:
        return cls(_whole(d.get("at_least"), "sum: at_least", 1, 200))


@dataclass(frozen=True, slots=True)
class Parity(Cost):
    """Every die of the result is odd (``parity = "odd"``) or every die is even."""

    parity: str
    kind: ClassVar[str] = "parity"

    def __post_init__(self) -> None:
        if self.parity not in ("odd", "even"):
            raise CostError(f"parity must be 'odd' or 'even', not {self.parity!r}")

    @property
    def rest(self) -> int:
        return 1 if self.parity == "odd" else 0

    def met(self, counts: Counts) -> bool:
        return sum(counts) > 0 and all(counts[v] == 0 for v in VALUES if v % 2 != self.rest)

    def possible(self, cap: Capacity) -> bool:
        need = cap.parity_need[self.rest]
        budget = cap.budget if cap.parity_budget is None else cap.parity_budget
        return need is not None and need <= budget

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return "alle Würfel " + ("ungerade" if self.parity == "odd" else "gerade")
        return f"all dice {self.parity}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "parity": self.parity}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Parity:
        return cls(str(d.get("parity")))


def _fits(sizes: Sequence[int], bins: list[int]) -> bool:
    """Can the groups ``sizes`` (largest first) be cut from piles of equal dice ``bins``?"""
    if not sizes:
        return True
    first, rest = sizes[0], sizes[1:]
    tried = set()
    for i, b in enumerate(bins):
        if b >= first and b not in tried:
            tried.add(b)
            bins[i] -= first
            ok = _fits(rest, bins)
            bins[i] += first
            if ok:
                return True
    return False


@dataclass(frozen=True, slots=True)
class Groups(Cost):
    """Groups of equal dice, ``sizes`` e.g. (3, 2); the groups may show the same number.

    So five of a kind pays (3, 2) and six of a kind pays (2, 2, 2) and (3, 3).
    """

    sizes: tuple[int, ...]
    kind: ClassVar[str] = "groups"
    _demands: tuple[Demand, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.sizes or len(self.sizes) > 3:
            raise CostError(f"groups: give one to three group sizes, not {list(self.sizes)}")
        for s in self.sizes:
            _whole(s, "groups: a size", 1, 20)
        object.__setattr__(self, "sizes", tuple(sorted(self.sizes, reverse=True)))
        demands = set()
        for numbers in itertools.product(VALUES, repeat=len(self.sizes)):
            need = [0] * 7
            for v, s in zip(numbers, self.sizes, strict=True):
                need[v] += s
            demands.add(tuple(need))
        object.__setattr__(self, "_demands", _demands(sorted(demands)))

    def met(self, counts: Counts) -> bool:
        return _fits(self.sizes, sorted(counts[1:], reverse=True))

    def possible(self, cap: Capacity) -> bool:
        return _demands_possible(self._demands, cap)

    def describe(self, lang: str = "en") -> str:
        same = " gleiche" if lang == "de" else " of a kind"
        if len(self.sizes) == 1:
            return f"{self.sizes[0]}{same}"
        if len(set(self.sizes)) == 1:
            return f"{len(self.sizes)} × {self.sizes[0]}{same}"
        return " + ".join(str(s) for s in self.sizes) + same

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "sizes": list(self.sizes)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Groups:
        sizes = d.get("sizes")
        if not isinstance(sizes, list):
            raise CostError(f"groups: sizes must be a list, not {sizes!r}")
        return cls(tuple(sizes))


@dataclass(frozen=True, slots=True)
class Straight(Cost):
    """``length`` consecutive numbers among the dice: 1-5 or 2-6 for 5, 1-6 for 6."""

    length: int
    kind: ClassVar[str] = "straight"
    _demands: tuple[Demand, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _whole(self.length, "straight: length", 2, 6)
        demands = _demands(
            tuple([0] + [1 if start <= v < start + self.length else 0 for v in VALUES])
            for start in range(1, 8 - self.length)
        )
        object.__setattr__(self, "_demands", demands)

    def met(self, counts: Counts) -> bool:
        return any(all(counts[v] for v in range(start, start + self.length))
                   for start in range(1, 8 - self.length))

    def possible(self, cap: Capacity) -> bool:
        return _demands_possible(self._demands, cap)

    def describe(self, lang: str = "en") -> str:
        options = " / ".join(f"{s}–{s + self.length - 1}" for s in range(1, 8 - self.length))
        return f"Straße {options}" if lang == "de" else f"straight {options}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "length": self.length}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Straight:
        return cls(_whole(d.get("length"), "straight: length", 2, 6))


@dataclass(frozen=True, slots=True)
class ComesWith(Cost):
    """Never bought with dice: the card comes with ``card`` (the Königin with the König)."""

    card: str
    kind: ClassVar[str] = "with"

    def met(self, counts: Counts) -> bool:
        return False

    def possible(self, cap: Capacity) -> bool:
        return False

    @property
    def dice_cost(self) -> bool:
        return False

    def describe(self, lang: str = "en") -> str:
        return f"kommt mit: {self.card}" if lang == "de" else f"comes with: {self.card}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "card": self.card}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ComesWith:
        card = d.get("card")
        if not isinstance(card, str):
            raise CostError(f"with: card must be a card id, not {card!r}")
        return cls(card)


COST_KINDS: dict[str, Any] = {
    k.kind: k for k in (SumAtLeast, Parity, Groups, Straight, ComesWith)
}


def cost_from_dict(d: Mapping[str, Any]) -> Cost:
    """Read one cost from its data form, e.g. ``{"kind": "groups", "sizes": [3, 2]}``."""
    kind = d.get("kind")
    if kind not in COST_KINDS:
        raise CostError(f"unknown cost kind {kind!r} (known: {', '.join(COST_KINDS)})")
    cost: Cost = COST_KINDS[kind].from_dict(d)
    return cost


@dataclass(frozen=True, slots=True)
class Beats(Cost):
    """The final round: a result whose largest group beats ``count`` × ``number`` (more
    dice, or as many showing a higher number); ``ties`` when equalling is enough (the
    King's owner). Not a card's cost: what the reach plans for in the final round."""

    count: int
    number: int
    ties: bool = False
    kind: ClassVar[str] = "beats"
    _demands: tuple[Demand, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        needs = []
        for v in VALUES:
            if v > self.number or (self.ties and v == self.number):
                needs.append(tuple(self.count if w == v else 0 for w in range(7)))
            needs.append(tuple(self.count + 1 if w == v else 0 for w in range(7)))
        object.__setattr__(self, "_demands", _demands(needs))

    def met(self, counts: Counts) -> bool:
        best = max((counts[v], v) for v in VALUES)
        return best > (self.count, self.number) or (self.ties and best == (self.count,
                                                                           self.number))

    def possible(self, cap: Capacity) -> bool:
        return _demands_possible(self._demands, cap)

    def describe(self, lang: str = "en") -> str:
        word = ("erreicht" if self.ties else "schlägt") if lang == "de" else (
            "equals" if self.ties else "beats")
        return f"{word} {self.count} × {self.number}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "number": self.number,
                "ties": self.ties}
