"""The requirement engine against brute-force oracles over every roll.

Value requirements are checked on each of the 462 multisets of six values (a roll in
sorted order), colour requirements on all 4^6 colour combinations (red, green, blue,
none). The oracles are written independently of the engine: they state each rule the slow,
obvious way. ``missing`` is checked against a breadth-first search over the Hamming graph of
all 6^6 ordered rolls (the true fewest dice to change). That the order of the dice changes no
verdict is checked on every ordering of every multiset for one requirement of each kind (the
one whose verdicts vary most), and for every requirement on random rolls in random orders.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, permutations, product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import Color, Die, Roll
from rules.kotd.cards import load_box
from rules.kotd.requirements import (
    COLOR_INDEX,
    ColorCount,
    Colors,
    Groups,
    Parity,
    Requirement,
    RequirementError,
    Run,
    SameColor,
    SumAtLeast,
    SumAtMost,
    Value,
    from_dict,
)

ALL_VALUES = np.array(list(product(range(1, 7), repeat=6)))
"""Every ordered roll of six values (46,656), row ``i`` the roll whose base-6 digits are ``i``."""
MULTISETS = list(combinations_with_replacement(range(1, 7), 6))
"""Every multiset of six values (462), each as its roll in sorted order."""
_PLACES = 6 ** np.arange(5, -1, -1)
MULTISET_OF = np.searchsorted([int(np.dot(np.array(m) - 1, _PLACES)) for m in MULTISETS],
                              (np.sort(ALL_VALUES, axis=1) - 1) @ _PLACES)
"""For each ordered roll, the index of its multiset in :data:`MULTISETS`."""
COLOR_CHOICES = [Color.RED, Color.GREEN, Color.BLUE, None]
ALL_COLORS = list(product(COLOR_CHOICES, repeat=6))
# dice are immutable: the rolls share one Die per face
_DIE = {(v, c): Die(v, c) for v in range(1, 7) for c in COLOR_CHOICES}
MULTISET_ROLLS = [Roll(tuple(_DIE[v, None] for v in values)) for values in MULTISETS]
COLOR_ROLLS = [Roll(tuple(_DIE[1 + i, c] for i, c in enumerate(colors))) for colors in ALL_COLORS]


@cache
def value_rolls() -> list[Roll]:
    """Every ordered roll of :data:`ALL_VALUES` as a :class:`Roll` (built where it is used)."""
    return [Roll(tuple(_DIE[v, None] for v in values)) for values in ALL_VALUES.tolist()]


@dataclass(frozen=True)
class Counts:
    """The advisor's view of a table of rolls: how many dice show each value and colour."""

    values: tuple[np.ndarray, ...]
    colors: tuple[np.ndarray, ...]
    total: np.ndarray

    @classmethod
    def of(cls, values: np.ndarray, colors: np.ndarray) -> Counts:
        """From a table of values and one of colour indices (3: none), a roll a row."""
        return cls(tuple((values == v).sum(axis=1) for v in range(1, 7)),
                   tuple((colors == c).sum(axis=1) for c in range(3)), values.sum(axis=1))


VALUE_COUNTS = Counts.of(ALL_VALUES, np.full(ALL_VALUES.shape, 3))
COLOR_COUNTS = Counts.of(np.tile(np.arange(1, 7), (len(ALL_COLORS), 1)),
                         np.array([[COLOR_INDEX.get(c, 3) if c else 3 for c in colors]
                                   for colors in ALL_COLORS]))


def oracle(req, values, colors) -> bool:
    """The rule as the rulebook states it, checked the slow way."""
    counts = Counter(values)
    ccounts = Counter(c for c in colors if c is not None)
    if isinstance(req, Parity):
        want = 0 if req.parity == "even" else 1
        return sum(1 for v in values if v % 2 == want) >= req.count
    if isinstance(req, Run):
        return any(all(v in counts for v in range(s, s + req.length)) for s in range(1, 7))
    if isinstance(req, Value):
        return counts[req.value] >= req.count
    if isinstance(req, ColorCount):
        return ccounts[req.color] >= req.count
    if isinstance(req, SameColor):
        return any(ccounts[c] >= req.count for c in Color)
    if isinstance(req, Colors):
        return all(ccounts[c] >= n for c, n in req.counts)
    if isinstance(req, Groups):
        # every way to name a different number for each group symbol
        return any(
            all(counts[v] >= size for v, size in zip(vals, req.sizes, strict=False))
            for vals in permutations(range(1, 7), len(req.sizes))
        )
    if isinstance(req, SumAtMost):
        return sum(values) <= req.total
    if isinstance(req, SumAtLeast):
        return sum(values) >= req.total
    raise AssertionError(req)


def hamming_distance_to(satisfied: np.ndarray, symbols: int) -> np.ndarray:
    """Fewest dice to change so a roll satisfies: BFS over rolls differing in one die."""
    dist = np.where(satisfied, 0, 99).reshape((symbols,) * 6)
    for _ in range(6):
        step = dist
        for axis in range(6):
            step = np.minimum(step, dist.min(axis=axis, keepdims=True) + 1)
        dist = step
    return dist.reshape(-1)


BOX = load_box()
VALUE_KINDS = (Parity, Run, Value, Groups, SumAtMost, SumAtLeast)
VALUE_REQS = sorted(
    {c.requirement for c in BOX.citizens if isinstance(c.requirement, VALUE_KINDS)}
    | {Value(v, n) for v in (2, 5) for n in (1, 2, 6)}
    | {Groups((2,)), Groups((3, 3)), Groups((2, 2, 1)), Run(2), Run(3), Parity("odd", 4)}
    | {SumAtMost(t) for t in (6, 20, 36)} | {SumAtLeast(t) for t in (6, 21, 36)},
    key=repr,
)
COLOR_REQS = sorted(
    {c.requirement for c in BOX.citizens if not isinstance(c.requirement, VALUE_KINDS)}
    | {ColorCount(c, n) for c in Color for n in (1, 6)} | {SameColor(n) for n in (1, 2, 3)}
    | {Colors(((Color.GREEN, 1),)), Colors(((Color.BLUE, 2), (Color.RED, 4)))},
    key=repr,
)


@pytest.mark.parametrize("req", VALUE_REQS, ids=repr)
def test_value_requirement_matches_oracle_on_every_multiset(req) -> None:
    verdicts = [req.evaluate(r) for r in MULTISET_ROLLS]
    by_multiset = np.array([oracle(req, values, (None,) * 6) for values in MULTISETS])
    got = np.array([v.satisfied for v in verdicts])
    wrong = np.flatnonzero(got != by_multiset)
    assert wrong.size == 0, [MULTISETS[i] for i in wrong[:5]]
    expected = by_multiset[MULTISET_OF]  # every ordered roll: its multiset's verdict
    fast = req.meets(VALUE_COUNTS)  # the advisor's form of the same rule, on every roll
    assert (fast == expected).all(), [ALL_VALUES[i] for i in np.flatnonzero(fast != expected)[:5]]
    assert expected.any(), "the requirement should be satisfiable"
    distances = hamming_distance_to(expected, 6)[_PLACES @ (np.array(MULTISETS) - 1).T]
    missing = np.array([v.missing for v in verdicts])
    bad = np.flatnonzero(missing != distances)
    assert bad.size == 0, [(MULTISETS[i], missing[i], distances[i]) for i in bad[:5]]
    for roll, verdict in zip(MULTISET_ROLLS, verdicts, strict=True):
        if verdict.satisfied:
            assert req.evaluate(roll.subset(verdict.witness)).satisfied


def most_varied(kind: type[Requirement]) -> Requirement:
    """The requirement of ``kind`` whose verdicts over the multisets vary most (the entropy of
    ``missing``): where an order of the dice could change a verdict, it has most to change."""
    def entropy(req: Requirement) -> float:
        counts = np.unique([req.evaluate(r).missing for r in MULTISET_ROLLS],
                           return_counts=True)[1] / len(MULTISET_ROLLS)
        return float(-(counts * np.log(counts)).sum())
    return max((r for r in VALUE_REQS if type(r) is kind), key=entropy)


@pytest.mark.parametrize("kind", VALUE_KINDS, ids=lambda kind: kind.__name__)
def test_no_order_of_the_dice_changes_a_verdict(kind) -> None:
    """Every ordering of every multiset (all 6^6 rolls) gets its sorted roll's verdict."""
    req = most_varied(kind)
    sorted_verdicts = [req.evaluate(r) for r in MULTISET_ROLLS]
    want = np.array([(v.satisfied, v.missing) for v in sorted_verdicts])[MULTISET_OF]
    got = np.array([(v.satisfied, v.missing) for v in map(req.evaluate, value_rolls())])
    bad = np.flatnonzero((got != want).any(axis=1))
    assert bad.size == 0, (req, [(ALL_VALUES[i], got[i], want[i]) for i in bad[:5]])


@pytest.mark.parametrize("req", COLOR_REQS, ids=repr)
def test_color_requirement_matches_oracle_on_every_colouring(req) -> None:
    verdicts = [req.evaluate(r) for r in COLOR_ROLLS]
    expected = np.array([oracle(req, (1,) * 6, colors) for colors in ALL_COLORS])
    got = np.array([v.satisfied for v in verdicts])
    assert (got == expected).all(), [ALL_COLORS[i] for i in np.flatnonzero(got != expected)[:5]]
    fast = req.meets(COLOR_COUNTS)  # the advisor's form of the same rule
    assert (fast == expected).all(), [ALL_COLORS[i] for i in np.flatnonzero(fast != expected)[:5]]
    distances = hamming_distance_to(expected, 4)
    missing = np.array([v.missing for v in verdicts])
    bad = np.flatnonzero(missing != distances)
    assert bad.size == 0, [(ALL_COLORS[i], missing[i], distances[i]) for i in bad[:5]]


die_strategy = st.builds(Die, st.integers(1, 6), st.sampled_from(COLOR_CHOICES))
roll_strategy = st.lists(die_strategy, min_size=6, max_size=6).map(Roll.of)
any_requirement = st.sampled_from(VALUE_REQS + COLOR_REQS)


@given(roll_strategy, any_requirement)
def test_witness_alone_satisfies_and_is_minimal_for_count_kinds(roll, req) -> None:
    verdict = req.evaluate(roll)
    assert verdict.satisfied == (verdict.missing == 0)
    assert len(set(verdict.witness)) == len(verdict.witness)
    assert all(0 <= i < len(roll) for i in verdict.witness)
    if verdict.satisfied:
        assert req.evaluate(roll.subset(verdict.witness)).satisfied
    if isinstance(req, Value | ColorCount | SameColor | Colors | Groups | Run):
        # the witness holds the dice that count, never more than the card asks for
        need = {Value: "count", ColorCount: "count", SameColor: "count", Run: "length"}
        if type(req) in need:
            assert len(verdict.witness) <= getattr(req, need[type(req)])
        assert len(verdict.witness) + verdict.missing == _dice_asked(req)


def _dice_asked(req) -> int:
    if isinstance(req, Colors):
        return sum(n for _, n in req.counts)
    if isinstance(req, Groups):
        return sum(req.sizes)
    return getattr(req, "count", getattr(req, "length", 0))


@given(roll_strategy, st.permutations(range(6)))
def test_order_of_dice_does_not_change_any_verdict(roll, order) -> None:
    shuffled = Roll(tuple(roll.dice[i] for i in order))
    for req in VALUE_REQS + COLOR_REQS:
        a, b = req.evaluate(roll), req.evaluate(shuffled)
        assert (a.satisfied, a.missing) == (b.satisfied, b.missing), req


@pytest.mark.parametrize("req", VALUE_REQS + COLOR_REQS, ids=repr)
def test_json_form_round_trips(req) -> None:
    assert from_dict(req.to_dict()) == req


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "pairs"}, "unknown requirement type"),
        ({"type": "value", "value": 7, "count": 2}, "value must be 1-6"),
        ({"type": "value", "value": 3}, "needs field(s) count"),
        ({"type": "color", "color": "yellow", "count": 2}, "colour must be red, green or blue"),
        ({"type": "colors", "counts": {"red": 4, "blue": 3}}, "more than 6 dice"),
        ({"type": "groups", "sizes": [4, 3]}, "more than 6 dice"),
        ({"type": "run", "length": 7}, "count must be a whole number 2-6"),
        ({"type": "parity", "parity": "both"}, "parity must be"),
        ({"type": "sum_at_most", "total": 12, "dice": 6}, "unknown field(s) dice"),
        ({"length": 4}, "needs a 'type'"),
    ],
)
def test_malformed_requirements_are_refused_with_a_reason(data, message) -> None:
    with pytest.raises(RequirementError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_dict(data)


def test_the_rulebook_examples() -> None:
    assert Groups((3, 2)).evaluate(Roll.parse("3 3 3 3 3 3")).satisfied is False
    assert Groups((3, 2)).evaluate(Roll.parse("3 3 3 5 5 5")).satisfied  # 3+3 meets 3+2
    assert Groups((3,)).evaluate(Roll.parse("4 4 4 4 1 2")).satisfied  # 4 of a kind meets 3
    assert Groups((2, 2, 2)).evaluate(Roll.parse("1 1 2 2 2 2")).satisfied is False
    assert Run(6).evaluate(Roll.parse("6 5 4 3 2 1")).satisfied
    assert Run(5).evaluate(Roll.parse("1 2 3 4 6 6")).missing == 1
    verdict = SumAtMost(12).evaluate(Roll.parse("1 1 1 1 2 6"))
    assert verdict.satisfied and verdict.witness == (0, 1, 2, 3, 4, 5)
    assert SumAtLeast(30).evaluate(Roll.parse("6 6 6 6 1 1")).missing == 1
    assert SameColor(4).evaluate(Roll.parse("1r 2r 3g 4r 5r 6b")).witness == (0, 1, 3, 4)
