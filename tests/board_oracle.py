"""Brute-force oracles for the board game's conditions and jokers (tests only), and the
cards the tests try them on.

Each oracle says whether a bag of dice meets a condition by trying everything: every
assignment of dice to a condition's entries, of numbers to groups, of dice to the parts of
a combination. They share no code with :mod:`rules.board.conditions` beyond the dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import (
    combinations,
    combinations_with_replacement,
    pairwise,
    permutations,
    product,
)

from rules.board import conditions as c
from rules.dice import HABA_LAYOUTS, Color, Die

SINGLE = [
    "colours 1r", "colours 3g", "colours 2r 1b", "colours 2r 2g 2b", "colours 6b",
    "colours 4r", "colours 5r", "colours 6r",
    "pips 6", "pips 3r", "pips 6 3r", "pips 6 6", "pips 6r 6", "pips 1 3 6",
    "pips 2g 2g 5", "pips 1 2 3 4 5 6", "pips 4b 4 4r",
    "groups 2", "groups 3", "groups 2 2", "groups 3 2", "groups 3 3", "groups 4 2",
    "groups 2 2 2", "groups 5", "groups 6", "groups 2 1",
    "sum 10", "sum 21", "sum 25", "sum 30", "sum 36",
    "sum r 6", "sum r 12", "sum g 10 b 5", "sum b 18",
    "sums r b g", "sums g r", "sums b g r", "sums r g",
    "straight 2", "straight 3", "straight 4", "straight 5", "straight 6",
]
"""A card of each kind the tests try: every kind, at its smallest and largest."""

COMBOS = ["colours 3r + pips 6", "pips 6 + pips 6", "groups 2 + colours 2b",
          "straight 3 + colours 3r", "pips 5r + sum 20", "colours 2g + sums r b",
          "groups 3 + pips 1"]
"""Cards of two parts (``+``): a die counts for one part only."""

BOX = ("A", "A", "B", "B", "C", "C")
"""The six HABA dice: two of each colour layout."""


def every_roll() -> Iterator[tuple[Die, ...]]:
    """Every roll of the box's six dice (6**6 of them, in a fixed order)."""
    for values in product(range(1, 7), repeat=6):
        yield tuple(Die(v, HABA_LAYOUTS[p][v]) for v, p in zip(values, BOX, strict=True))


@cache
def every_bag() -> list[tuple[Die, ...]]:
    """Every different bag (multiset) of dice the box can roll (worked out once per process:
    two test files ask for it as they are collected)."""
    # the two dice of a layout are alike, so a pair's bag is its values' multiset: the
    # bags of every roll are those of 21**3 rolls, not 6**6
    layouts = list(dict.fromkeys(BOX))
    faces = {p: {v: Die(v, HABA_LAYOUTS[p][v]) for v in range(1, 7)} for p in layouts}
    pairs = [[tuple(faces[p][v] for v in vs)
              for vs in combinations_with_replacement(range(1, 7), BOX.count(p))]
             for p in layouts]
    order = {d: (d.value, d.color.value if d.color else "") for f in faces.values()
             for d in f.values()}
    seen = {tuple(sorted((d for part in parts for d in part), key=order.__getitem__))
            for parts in product(*pairs)}
    return sorted(seen, key=lambda r: [(d.value, str(d.color)) for d in r])


def _pips(cond: c.Pips, dice: Sequence[Die]) -> bool:
    """Every way to give each wanted die a different die of the bag (a way is dropped at
    its first wanted die that does not fit)."""
    want = cond.dice

    def fits(d: Die, w: c.Die) -> bool:
        return d.value == w.value and (w.color is None or d.color is w.color)

    def place(k: int, free: frozenset[int]) -> bool:
        return k == len(want) or any(fits(dice[i], want[k]) and place(k + 1, free - {i})
                                     for i in free)

    return len(want) <= len(dice) and place(0, frozenset(range(len(dice))))


def _groups(cond: c.Groups, dice: Sequence[Die]) -> bool:
    return _groups_of(cond.sizes, tuple(sorted(d.value for d in dice)))


@cache
def _groups_of(sizes: tuple[int, ...], values: tuple[int, ...]) -> bool:
    """Every way to name a different number for each group (the answer depends on the
    numbers shown alone: worked out once for each multiset of them, not for each bag)."""
    counts = Counter(values)
    for numbers in permutations(range(1, 7), len(sizes)):
        if all(counts[n] >= s for n, s in zip(numbers, sizes, strict=True)):
            return True
    return False


def _sum_of(dice: Sequence[Die], colour: Color) -> int:
    return sum(d.value for d in dice if d.color is colour)


def oracle(cond: c.Condition, dice: Sequence[Die]) -> bool:
    """Does ``dice`` meet ``cond``, by trying everything."""
    if isinstance(cond, c.Colours):
        return all(sum(d.color is col for d in dice) >= n for col, n in cond.counts)
    if isinstance(cond, c.Pips):
        return _pips(cond, dice)
    if isinstance(cond, c.Groups):
        return _groups(cond, dice)
    if isinstance(cond, c.SumAtLeast):
        return sum(d.value for d in dice) >= cond.total
    if isinstance(cond, c.ColourSumAtLeast):
        return all(_sum_of(dice, col) >= n for col, n in cond.totals)
    if isinstance(cond, c.ColourSumsDescending):
        sums = [_sum_of(dice, col) for col in cond.order]
        return all(a > b for a, b in pairwise(sums))
    if isinstance(cond, c.Straight):
        values = {d.value for d in dice}
        return any(set(range(s, s + cond.length)) <= values for s in range(1, 8 - cond.length))
    if isinstance(cond, c.AllOf):
        return _all_of(cond, dice)
    if isinstance(cond, c.Stars):
        return stars(cond, dice) > 0
    raise AssertionError(f"no oracle for {cond!r}")  # pragma: no cover


def stars(cond: c.Stars, dice: Sequence[Die]) -> int:
    return sum(oracle(p, dice) for p in cond.parts)


def _all_of(cond: c.AllOf, dice: Sequence[Die]) -> bool:
    """Every way to give each die to one part that uses dice up (or to none)."""
    using = [p for p in cond.parts if p.consumes]
    if not all(oracle(p, dice) for p in cond.parts if not p.consumes):
        return False
    known: dict[tuple[int, tuple[int, ...]], bool] = {}  # (part, its dice): met?

    def meets(i: int, mine: tuple[int, ...]) -> bool:
        if (i, mine) not in known:
            known[i, mine] = oracle(using[i], [dice[j] for j in mine])
        return known[i, mine]

    def given(i: int, free: tuple[int, ...]) -> bool:
        """Parts ``i`` on can each be given their own dice of ``free`` (every subset for
        part ``i``, then every subset of the rest for the next part, ...; a die left over
        belongs to no part): every assignment of dice to parts, part by part."""
        if i == len(using):
            return True
        for k in range(len(free) + 1):
            for mine in combinations(free, k):
                if meets(i, mine) and given(i + 1, tuple(j for j in free if j not in mine)):
                    return True
        return False

    return given(0, tuple(range(len(dice))))


PAYMENTS = ((2, 0), (1, 1), (0, 2))
"""The ways to pay for one added die: (concrete jokers of that die, super jokers) - two
concrete jokers, one and a super, or two supers."""


def cheapest_supers(adds: Sequence[Die], concrete: Sequence[Die], supers: int) -> int | None:
    """The fewest super jokers that pay for ``adds`` (None: the cards cannot), trying
    every way to pay each die (:data:`PAYMENTS`)."""
    have = Counter(concrete)
    best = None
    for ways in product(PAYMENTS, repeat=len(adds)):
        used = sum(s for _, s in ways)
        if used > supers or (best is not None and used >= best):
            continue  # no better than a way already found
        need: Counter[Die] = Counter()
        for d, (n, _) in zip(adds, ways, strict=True):
            need[d] += n
        if all(have[d] >= n for d, n in need.items()):
            best = used
    return best


def fewest_oracle(cond: c.Condition, dice: Sequence[Die], concrete: Sequence[Die],
                  supers: int, goal: int = 1, most: int = 4) -> tuple[int, int] | None:
    """(dice added, supers used) of the best way, trying every bag of up to ``most`` of
    the 18 dice and every way to pay for it. Whether a bag meets the condition is the
    condition's own check (exact against :func:`oracle` on its own tests); the search over
    added dice and payments is what this oracle checks."""
    owned = set(concrete)
    for k in range(most + 1):
        best = None
        for adds in combinations_with_replacement(c.ALL_DICE, k):
            if 2 * sum(d not in owned for d in adds) > supers:
                continue  # a die no card shows takes two super jokers
            if cond.stars((*dice, *adds)) < goal:
                continue  # checked first: paying is the dearer question
            cost = cheapest_supers(adds, concrete, supers)
            if cost is not None and (best is None or cost < best):
                best = cost
        if best is not None:
            return k, best
    return None


def fewest_added(cond: c.Condition, dice: Sequence[Die], goal: int = 1,
                 most: int = 3) -> int | None:
    """The fewest dice to add to ``dice`` for ``goal`` stars when paying is no question
    (enough super jokers: two a die), trying every bag of up to ``most`` of the 18 dice
    (None: none of them does): :func:`fewest_oracle`'s count without the payments."""
    for k in range(most + 1):
        if any(cond.stars((*dice, *adds)) >= goal
               for adds in combinations_with_replacement(c.ALL_DICE, k)):
            return k
    return None
