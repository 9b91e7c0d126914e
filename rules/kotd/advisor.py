"""Exact odds for the rest of a turn: which dice to keep, for each card and for points.

The model
=========

A turn is the current roll plus ``rolls_left`` further rolls. Before each further roll the
player keeps any subset of the dice on the table and rerolls the rest; dice kept earlier
may be rerolled later (German rules), so the decision at each roll depends only on the
dice now on the table and the rolls left. The player may stop at any time (keeping every
die is the same as stopping). The outcome of the turn is the last roll.

Each die rolls as follows:

* a HABA die whose value and colour are read names its pair (:func:`rules.dice.haba_pair`),
  hence its whole face layout: rerolled, it lands on value ``v`` (uniform 1-6) showing
  ``layout[v]``;
* a die without a colour (an ordinary die, or a colour the reader could not see) uses the
  *pooled* layout: value uniform, colour given the value uniform over the three pairs, so
  each (value, colour) has probability 1/18 on every reroll (each reroll is drawn afresh:
  the model does not learn the die's pair from an earlier reroll). While it lies unread it
  shows no colour and meets no colour requirement.

Every card's requirement depends only on the values (dwarf, orc, elf, snob, hypnotist,
dragon) or only on the colours (gnome, goblin, fairy, apprentice). Every HABA die shows
each colour on two faces, so for a colour requirement each rerolled die is red, green or
blue with probability 1/3 whatever its pair, and for a value requirement the pair does not
matter at all. The per-card odds are therefore computed on a value-only or colour-only
abstraction of the dice; only the expected-points advice over a row that mixes both needs
the joint (value, colour) state, where the die identities above matter.

Dynamic programming, exact (no sampling). With ``V_0`` the value of a final roll,
``V_k(s) = max over kept sub-multisets K of s of E[V_{k-1}(K + reroll of the rest)]``.
Dice that roll alike are interchangeable: all dice in the value-only and colour-only
abstractions, the two dice of one HABA pair, all unread dice. A state is therefore one
multiset per group of interchangeable dice (6 dice: 462 value multisets, 28 colour
multisets, 21³ = 9,261 joint states for the usual three read pairs) and the tables are
NumPy arrays over them. The expectation for every kept multiset is built by adding one
rerolled die at a time (average over where it lands); the best keep for every state by a
max over sub-multisets, one die removed at a time. Tables are memoised per (objective,
dice groups, rolls left), so advice for the same row after the next roll is a lookup.

What a final roll is worth (expected-points advice)
===================================================

If the roll satisfies at least one face-up card the player takes the best one; else a
penalty. A card taken is worth (see :class:`Scoring`):

* a citizen: its points, plus the top card of the village above its slot when the
  colours match (slot ``i`` is under ``box.village_colors_by_slot[i-1]``; the top is 2
  unless ``village_tops`` says what is left);
* a fairy: the marginal gain of one more fairy, ``(n+1)² - n²`` with ``n`` fairies already
  in the kingdom (default 0, so 1 point), plus its village;
* a dragon: ``|points|``: it is given away, to the leader (or, for the leader, to the
  nearest rival), so it takes that much off the gap between them; with
  ``dragon_gift=False`` it counts 0 (it costs the player nothing and gains nothing);
* the hypnotist: its points plus the card to its right (worth as above, with that slot's
  village); nothing extra in the rightmost slot;
* the apprentice's extra turn is worth ``extra_turn`` (default 0, i.e. ignored); the
  elf's four rolls next turn are ignored.

Nothing satisfied: the expected penalty, by default the mean of the box's penalty cards
(−2.0 for the full pile), or the known value of the top penalty card.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, wraps
from itertools import product
from operator import itemgetter
from typing import Any, ParamSpec, TypeVar

import numpy as np

from rules.dice import HABA_LAYOUTS, Die, Roll, haba_pair
from rules.errors import UsageError
from rules.kotd.cards import Box, Card, load_box
from rules.kotd.game import MAX_ROLLS_LEFT
from rules.kotd.requirements import COLOR_INDEX, DICE_PER_ROLL, Requirement

COLORS = tuple(COLOR_INDEX)
_COLOR_INDEX = COLOR_INDEX
_NO_COLOR = 3

MAX_JOINT_STATES = 1_100_000
"""Largest expectation lattice (cells) the expected-points advice builds (memory/time)."""

_TIE = 1e-9
P = ParamSpec("P")
R = TypeVar("R")

# ---------------------------------------------------------------------------------------
# Dice models: the states one die can be in and the states a reroll lands on. The value
# model sees only values, the colour model only colours, the joint model both (with the
# die's HABA pair, or the pooled layout for an unread die).
# ---------------------------------------------------------------------------------------

VALUE_MODEL = "value"
COLOR_MODEL = "color"
JOINT_MODEL = "joint"


@dataclass(frozen=True, slots=True)
class _Axis:
    """The states of one die: ``values[i]``, ``colors[i]`` (3 = none); a reroll is uniform
    over the first ``rolled`` states."""

    values: tuple[int, ...]
    colors: tuple[int, ...]
    rolled: int


_VALUE_AXIS = _Axis((1, 2, 3, 4, 5, 6), (_NO_COLOR,) * 6, 6)
_COLOR_AXIS = _Axis((0, 0, 0, 0), (0, 1, 2, _NO_COLOR), 3)


@cache
def _pair_axis(pair: str) -> _Axis:
    layout = HABA_LAYOUTS[pair]
    return _Axis((1, 2, 3, 4, 5, 6), tuple(_COLOR_INDEX[layout[v]] for v in range(1, 7)), 6)


# Pooled die: 18 (value, colour) states a reroll lands on, then 6 unread (value, none).
_POOLED_AXIS = _Axis(
    (*(v for v in range(1, 7) for _ in range(3)), 1, 2, 3, 4, 5, 6),
    (*(c for _ in range(1, 7) for c in range(3)), *(_NO_COLOR,) * 6),
    18,
)


def _die_axis(model: str, die: Die | None) -> _Axis:
    if model == VALUE_MODEL:
        return _VALUE_AXIS
    if model == COLOR_MODEL:
        return _COLOR_AXIS
    pair = haba_pair(die) if die is not None else None
    return _pair_axis(pair) if pair else _POOLED_AXIS


def _die_state(model: str, axis: _Axis, die: Die) -> int:
    """The index of a die as it lies in its axis."""
    if model == VALUE_MODEL:
        return die.value - 1
    if model == COLOR_MODEL:
        return _COLOR_INDEX[die.color] if die.color else _NO_COLOR
    if axis is _POOLED_AXIS:
        if die.color is None:
            return 18 + die.value - 1
        return (die.value - 1) * 3 + _COLOR_INDEX[die.color]
    return die.value - 1


# ---------------------------------------------------------------------------------------
# Exchangeable dice. Dice that share one axis (all dice in the value-only and colour-only
# models; the two dice of one HABA pair, or every unread die, in the joint model) are
# interchangeable, so the state of such a group is a multiset of die states. A model is a
# tuple of groups (axis, number of dice); a state is one multiset per group.
# ---------------------------------------------------------------------------------------

_Spec = tuple[tuple[_Axis, int], ...]


def _encode(sets: np.ndarray, base: int) -> np.ndarray:
    """One integer per sorted row, ordered like the rows (lexicographic)."""
    code = np.zeros(len(sets), dtype=np.int64)
    for j in range(sets.shape[1]):
        code = code * base + sets[:, j]
    return code


@dataclass(frozen=True, eq=False)
class _Lattice:
    """Every multiset of at most ``n`` states of one axis, by size, with the moves between
    sizes. ``sets[k]``: the multisets of size k as sorted rows, in lexicographic order;
    ``add[k][i, f]``: multiset ``i`` of size k plus a die landing on state ``f`` (a reroll
    state); ``remove[k][i, j]``: multiset ``i`` of size k less its ``j``-th die."""

    axis: _Axis
    sets: tuple[np.ndarray, ...]
    codes: tuple[np.ndarray, ...]
    add: tuple[np.ndarray, ...]
    remove: tuple[np.ndarray, ...]
    found: dict[tuple[int, ...], int] = field(default_factory=dict)

    def find(self, states: Sequence[int]) -> int:
        """The index of a multiset (any order) among those of its size."""
        key = tuple(sorted(states))
        hit = self.found.get(key)
        if hit is None:
            code = 0
            for s in key:
                code = code * len(self.axis.values) + s
            hit = self.found[key] = int(np.searchsorted(self.codes[len(key)], code))
        return hit


@cache
def _lattice(axis: _Axis, n: int) -> _Lattice:
    base = len(axis.values)
    sets: list[np.ndarray] = [np.zeros((1, 0), dtype=np.int64)]
    for k in range(1, n + 1):
        prev = sets[-1]
        last = prev[:, -1] if k > 1 else np.zeros(1, dtype=np.int64)
        new = np.concatenate([
            np.column_stack([prev[last <= s], np.full((int((last <= s).sum()), 1), s)])
            for s in range(base)])
        sets.append(new[np.argsort(_encode(new, base), kind="stable")])
    codes = [_encode(s, base) for s in sets]
    add = []
    for k in range(n):
        cols = []
        for f in range(axis.rolled):
            grown = np.sort(np.column_stack([sets[k], np.full((len(sets[k]), 1), f)]), axis=1)
            cols.append(np.searchsorted(codes[k + 1], _encode(grown, base)))
        add.append(np.stack(cols, axis=1).astype(np.intp))
    remove = [np.zeros((1, 0), dtype=np.intp)]
    for k in range(1, n + 1):
        cols = [np.searchsorted(codes[k - 1], _encode(np.delete(sets[k], j, axis=1), base))
                for j in range(k)]
        remove.append(np.stack(cols, axis=1).astype(np.intp))
    return _Lattice(axis, tuple(sets), tuple(codes), tuple(add), tuple(remove))


def _spec(axes: Sequence[_Axis]) -> tuple[_Spec, tuple[int, ...]]:
    """The groups of interchangeable dice (canonical order) and each die's group."""
    groups = sorted(set(axes), key=lambda a: (a.rolled, a.values, a.colors))
    spec = tuple((a, sum(1 for b in axes if b == a)) for a in groups)
    return spec, tuple(groups.index(a) for a in axes)


def _shape(spec: _Spec, sizes: Sequence[int]) -> tuple[int, ...]:
    return tuple(len(_lattice(a, n).sets[k]) for (a, n), k in zip(spec, sizes, strict=True))


def _spec_states(spec: _Spec) -> int:
    """Cells of every table of the expectation lattice (what a pass costs)."""
    out = 1
    for axis, n in spec:
        out *= sum(len(s) for s in _lattice(axis, n).sets)
    return out


@dataclass(frozen=True)
class _Features:
    """Per-state counts over a whole table of final states, for vectorised requirements."""

    values: tuple[np.ndarray, ...]  # values[v-1]: dice showing v
    colors: tuple[np.ndarray, ...]  # colors[c]: dice showing colour c
    total: np.ndarray


@cache
def _features(spec: _Spec) -> _Features:
    g = len(spec)
    values = [np.zeros((1,) * g, dtype=np.int16) for _ in range(6)]
    colors = [np.zeros((1,) * g, dtype=np.int16) for _ in range(3)]
    total = np.zeros((1,) * g, dtype=np.int16)
    for i, (axis, n) in enumerate(spec):
        sets = _lattice(axis, n).sets[n]
        shape = (1,) * i + (-1,) + (1,) * (g - i - 1)
        v = np.array(axis.values, dtype=np.int16)[sets]
        c = np.array(axis.colors, dtype=np.int16)[sets]
        for k in range(6):
            values[k] = values[k] + (v == k + 1).sum(axis=1).reshape(shape)
        for k in range(3):
            colors[k] = colors[k] + (c == k).sum(axis=1).reshape(shape)
        total = total + v.sum(axis=1).reshape(shape)
    full = _shape(spec, [n for _, n in spec])
    return _Features(
        tuple(np.broadcast_to(a, full) for a in values),
        tuple(np.broadcast_to(a, full) for a in colors),
        np.broadcast_to(total, full),
    )


# ---------------------------------------------------------------------------------------
# The dynamic programme.
# ---------------------------------------------------------------------------------------


def _all_sizes(spec: _Spec) -> list[tuple[int, ...]]:
    return list(product(*(range(n + 1) for _, n in spec)))


def _expect(table: np.ndarray, spec: _Spec) -> dict[tuple[int, ...], np.ndarray]:
    """For every kept size vector k: the expected value of keeping each combination of
    multisets of those sizes and rerolling the other dice, from ``table`` = the value of
    every full state. One more die of one group rerolled per step: gather the multisets
    with that die added, average over where it lands."""
    full = tuple(n for _, n in spec)
    out = {full: table}
    for k in sorted(_all_sizes(spec), key=sum, reverse=True):
        if k == full:
            continue
        i = next(g for g, (_, n) in enumerate(spec) if k[g] < n)
        parent = (*k[:i], k[i] + 1, *k[i + 1:])
        lat = _lattice(*spec[i])
        out[k] = np.take(out[parent], lat.add[k[i]], axis=i).mean(axis=i + 1)
    return out


def _next_level(table: np.ndarray, spec: _Spec) -> np.ndarray:
    """``V_k`` from ``V_{k-1}``: for each state the best over every kept sub-multiset.

    The max over sub-multisets is taken group by group, size by size: a multiset's best is
    its own expectation or the best of itself less one die (a "max over subsets" sweep).
    """
    best = _expect(table, spec)
    sizes = _all_sizes(spec)
    for i, (axis, n) in enumerate(spec):
        lat = _lattice(axis, n)
        for k in sorted(sizes, key=itemgetter(i)):
            if k[i] == 0:
                continue
            prev = best[(*k[:i], k[i] - 1, *k[i + 1:])]
            smaller = np.take(prev, lat.remove[k[i]], axis=i).max(axis=i + 1)
            best[k] = np.maximum(best[k], smaller)
    return best[tuple(n for _, n in spec)]


class _Objective:
    """Something to maximise at the end of the turn: a table of final-roll values."""

    def __init__(self, key: Any, final: Any) -> None:
        self.key = key
        self.final = final  # callable: _Features -> np.ndarray of float64


_MEMO_LOCK = threading.RLock()
"""Guards the memoised tables below (and the cached lattices): the page's threads ask for
advice at once. Every public entry point holds it (:func:`_memoised`)."""
_TABLES: dict[tuple[Any, ...], np.ndarray] = {}
_EXPECT: dict[tuple[Any, ...], dict[tuple[int, ...], np.ndarray]] = {}
_MAX_MEMO = 2000


def _tables(objectives: Sequence[_Objective], spec: _Spec, level: int) -> np.ndarray:
    """``V_level`` over every full state for each objective, stacked on a last axis.

    Memoised per objective and dice model; the objectives not yet known are computed
    together, in one pass of the dynamic programme over a stacked table.
    """
    missing = [o for o in objectives if (o.key, spec, level) not in _TABLES]
    if missing and len(_TABLES) > _MAX_MEMO:  # a long game: start afresh
        _TABLES.clear()
        _EXPECT.clear()
        missing = list(objectives)
    if missing:
        if level == 0:
            features = _features(spec)
            fresh = np.stack([np.asarray(o.final(features), dtype=np.float64)
                              for o in missing], axis=-1)
        else:
            fresh = _next_level(_tables(missing, spec, level - 1), spec)
        for i, o in enumerate(missing):
            _TABLES[(o.key, spec, level)] = fresh[..., i]
        if len(missing) == len(objectives):
            return fresh
    return np.stack([_TABLES[(o.key, spec, level)] for o in objectives], axis=-1)


def _memoised(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` holding the memo lock (one advice at a time; the tables are shared)."""

    @wraps(fn)
    def locked(*args: P.args, **kwargs: P.kwargs) -> R:
        with _MEMO_LOCK:
            return fn(*args, **kwargs)

    return locked


@_memoised
def clear_cache() -> None:
    """Forget every memoised table and lattice (benchmarks measure a cold start)."""
    _TABLES.clear()
    _EXPECT.clear()
    _features.cache_clear()
    _lattice.cache_clear()


def _keep_values(
    objectives: Sequence[_Objective],
    axes: tuple[_Axis, ...],
    state: tuple[int, ...],
    rolls_left: int,
) -> np.ndarray:
    """Expected value of each kept set from ``state``: row = bitmask of *kept* dice,
    column = objective. Rolls left 0: only keeping every die is possible (-inf else)."""
    n = len(axes)
    spec, group_of = _spec(axes)
    out = np.full((1 << n, len(objectives)), -np.inf)

    def where(kept: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        per_group: list[list[int]] = [[] for _ in spec]
        for d in range(n):
            if kept >> d & 1:
                per_group[group_of[d]].append(state[d])
        sizes = tuple(len(p) for p in per_group)
        index = tuple(_lattice(*spec[g]).find(p) for g, p in enumerate(per_group))
        return sizes, index

    if rolls_left == 0:
        sizes, index = where((1 << n) - 1)
        out[(1 << n) - 1] = _tables(objectives, spec, 0)[index]
        return out
    key = (tuple(o.key for o in objectives), spec, rolls_left)
    expect = _EXPECT.get(key)
    if expect is None:
        expect = _EXPECT[key] = _expect(_tables(objectives, spec, rolls_left - 1), spec)
    for kept in range(1 << n):
        sizes, index = where(kept)
        out[kept] = expect[sizes][index]
    return out


def _choose(values: Sequence[float] | np.ndarray, prefer_more: bool) -> int:
    """The best kept set; ties go to fewer kept dice (or more with ``prefer_more``)."""
    top = max(values)
    best = None
    for kept, v in enumerate(values):
        if v >= top - _TIE * max(1.0, abs(top)):
            size = kept.bit_count()
            if best is None or (size > best.bit_count() if prefer_more
                                else size < best.bit_count()):
                best = kept
    assert best is not None
    return best


@cache
def _requirement_objective(req: Requirement) -> _Objective:
    return _Objective(("req", req), lambda f: req.meets(f).astype(np.float64))


# ---------------------------------------------------------------------------------------
# Public API.
# ---------------------------------------------------------------------------------------


def _check_rolls(rolls_left: int) -> None:
    if not isinstance(rolls_left, int) or not 0 <= rolls_left <= MAX_ROLLS_LEFT:
        raise UsageError("rolls_left", "rolls left must be 0-{most}, not {rolls!r}",
                         most=MAX_ROLLS_LEFT, rolls=rolls_left)


def _indices(kept: int, n: int) -> tuple[int, ...]:
    return tuple(i for i in range(n) if kept >> i & 1)


def _model_for(reqs: Sequence[Requirement]) -> str:
    """The smallest dice model that decides every requirement in ``reqs``."""
    if all(r.uses_values for r in reqs):
        return VALUE_MODEL
    if not any(r.uses_values for r in reqs):
        return COLOR_MODEL
    return JOINT_MODEL


def _model_axes(model: str, roll: Roll) -> tuple[tuple[_Axis, ...], tuple[int, ...]]:
    axes = tuple(_die_axis(model, d) for d in roll)
    return axes, tuple(_die_state(model, a, d) for a, d in zip(axes, roll, strict=True))


def _solve(
    jobs: Sequence[tuple[str, _Objective]], roll: Roll, rolls_left: int
) -> list[np.ndarray]:
    """For each (model, objective): the value of every kept set (index = kept bitmask).

    Objectives on the same dice model share one pass of the dynamic programme.
    """
    out: list[np.ndarray | None] = [None] * len(jobs)
    for model in dict.fromkeys(m for m, _ in jobs):
        which = [i for i, (m, _) in enumerate(jobs) if m == model]
        axes, state = _model_axes(model, roll)
        values = _keep_values([jobs[i][1] for i in which], axes, state, rolls_left)
        for column, i in enumerate(which):
            out[i] = values[:, column]
    return out  # type: ignore[return-value]


@_memoised
def requirement_odds(
    req: Requirement, roll: Roll, rolls_left: int
) -> tuple[float, tuple[int, ...]]:
    """Probability of meeting ``req`` by the end of the turn, and the best dice to keep.

    The keep is the 0-based indices of the dice to set aside now (the fewest among equally
    good keeps). With ``rolls_left == 0`` it is every die and the probability is 0 or 1.
    """
    _check_rolls(rolls_left)
    (values,) = _solve([(_model_for([req]), _requirement_objective(req))], roll, rolls_left)
    kept = _choose(values, prefer_more=rolls_left == 0)
    return float(values[kept]), _indices(kept, len(roll))


@_memoised
def fresh_turn_odds(req: Requirement, rolls: int = 3, dice: int = DICE_PER_ROLL) -> float:
    """Probability of meeting ``req`` in a turn of ``rolls`` rolls, before the first roll."""
    if not 1 <= rolls <= MAX_ROLLS_LEFT + 1:
        raise UsageError("rolls", "a turn has 1-{most} rolls, not {rolls!r}",
                         most=MAX_ROLLS_LEFT + 1, rolls=rolls)
    axes = (_die_axis(_model_for([req]), None),) * dice
    spec, _ = _spec(axes)
    table = _tables([_requirement_objective(req)], spec, rolls - 1)
    return float(_expect(table, spec)[(0,) * len(spec)].reshape(-1)[0])


@dataclass(frozen=True, slots=True)
class Scoring:
    """How the expected-points advice values a card taken (see the module docstring).

    ``village_tops``: points of the top card of each slot's village stack, left to right
    (``None`` or 0 for an empty stack); default 2 for every slot. ``penalty``: the value of
    the penalty taken when nothing is satisfied (negative); default the mean of the box's
    penalty cards. ``fairies``: fairies already in the player's kingdom.
    """

    village_tops: tuple[int | None, ...] | None = None
    fairies: int = 0
    penalty: float | None = None
    dragon_gift: bool = True
    extra_turn: float = 0.0

    def __post_init__(self) -> None:
        if self.fairies < 0:
            raise UsageError("fairies", "fairies must be 0 or more, not {n}", n=self.fairies)
        if self.penalty is not None and not self.penalty <= 0:  # also refuses NaN
            raise UsageError("penalty", "a penalty is negative or zero, not {points}",
                             points=self.penalty)


def card_worth(
    row: Sequence[Card], slot: int, box: Box | None = None, scoring: Scoring | None = None
) -> float:
    """Points a player gains by taking the card in ``slot`` (1-based) of the row."""
    box = box or load_box()
    scoring = scoring or Scoring()

    def village(s: int, card: Card) -> float:
        colors = box.village_colors_by_slot
        if card.village is None or s > len(colors) or colors[s - 1] != card.village:
            return 0.0
        tops = scoring.village_tops
        if tops is None:
            stack = box.village_stack(card.village)
            return float(stack[0].points or 0) if stack else 0.0
        top = tops[s - 1] if s - 1 < len(tops) else None
        return float(top or 0)

    def own(s: int) -> float:
        card = row[s - 1]
        if card.effect == "fairy_points":
            points = float(2 * scoring.fairies + 1)
        elif card.effect == "give_away":
            points = float(abs(card.points or 0)) if scoring.dragon_gift else 0.0
        else:
            points = float(card.points or 0)
        if card.effect == "extra_turn":
            points += scoring.extra_turn
        return points + village(s, card)

    worth = own(slot)
    if row[slot - 1].effect == "bonus_card" and slot < len(row):
        worth += own(slot + 1)
    return worth


def expected_penalty(box: Box | None = None, scoring: Scoring | None = None) -> float:
    """The value of taking a penalty: the known top card, else the mean of the pile."""
    if scoring is not None and scoring.penalty is not None:
        return float(scoring.penalty)
    box = box or load_box()
    points = [p.points or 0 for p in box.penalties]
    return sum(points) / len(points) if points else 0.0


@dataclass(frozen=True, slots=True)
class CardOdds:
    """One face-up card: the chance to meet it this turn playing for it alone."""

    id: str
    slot: int
    probability: float
    keep: tuple[int, ...]
    keep_dice: str
    satisfied_now: bool
    worth: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "slot": self.slot,
            "probability": self.probability,
            "keep": list(self.keep),
            "keep_dice": self.keep_dice,
            "satisfied_now": self.satisfied_now,
            "worth": self.worth,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Advice for one moment of a turn: the dice, the rolls left, per-card odds, and the
    keep that maximises expected points (``None`` if the joint table would be too big)."""

    dice: str
    rolls_left: int
    cards: tuple[CardOdds, ...]
    keep: tuple[int, ...] | None
    keep_dice: str | None
    expected_points: float | None
    stop: bool
    stop_points: float
    penalty: float
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for the page and ``kotd advise --json``::

            {"dice": "4r 4g 4b 1r 2g 6b", "rolls_left": 2,
             "cards": [{"id", "slot", "probability", "keep": [indices], "keep_dice",
                        "satisfied_now", "worth"}, ...],
             "best": {"keep": [indices] | null, "keep_dice", "expected_points", "stop"},
             "stop_points": points if the player stops now, "penalty": value used,
             "notes": [why something was not computed]}

        Indices are 0-based positions in ``dice``.
        """
        return {
            "dice": self.dice,
            "rolls_left": self.rolls_left,
            "cards": [c.to_dict() for c in self.cards],
            "best": {
                "keep": None if self.keep is None else list(self.keep),
                "keep_dice": self.keep_dice,
                "expected_points": self.expected_points,
                "stop": self.stop,
            },
            "stop_points": self.stop_points,
            "penalty": self.penalty,
            "notes": list(self.notes),
        }


def _points_objective(row: Sequence[Card], worths: Sequence[float], penalty: float) -> _Objective:
    reqs = tuple(c.requirement for c in row)
    key = ("points", reqs, tuple(worths), penalty)

    def final(f: _Features) -> np.ndarray:
        out = np.full(f.total.shape, -np.inf)
        for req, worth in zip(reqs, worths, strict=True):
            assert req is not None
            out = np.where(req.meets(f), np.maximum(out, worth), out)
        return np.where(np.isneginf(out), penalty, out)

    return _Objective(key, final)


@_memoised
def advise(
    row: Sequence[Card],
    roll: Roll,
    rolls_left: int,
    *,
    box: Box | None = None,
    scoring: Scoring | None = None,
) -> Advice:
    """Per-card odds and the best keep for points, for ``roll`` with ``rolls_left`` to go.

    Per card: the probability of meeting it by the end of the turn playing for that card
    alone, and the dice to keep now (the witness if it is already met, else the fewest dice
    among equally good keeps). For points: the keep with the highest expected points of
    the turn (ties to more dice kept; keeping all = stop now). Dice without a colour use
    the pooled layout (module docstring).
    """
    _check_rolls(rolls_left)
    if not row:
        raise UsageError("empty_row", "the row has no cards")
    for card in row:
        if card.requirement is None:
            raise UsageError("not_citizen", "{card} is not a citizen card", card=card.id)
    box = box or load_box()
    scoring = scoring or Scoring()
    n = len(roll)

    def text(kept: tuple[int, ...]) -> str:
        return " ".join(str(roll[i]) for i in kept)

    worths = [card_worth(row, s, box, scoring) for s in range(1, len(row) + 1)]
    penalty = expected_penalty(box, scoring)
    reqs = [c.requirement for c in row if c.requirement is not None]
    verdicts = [r.evaluate(roll) for r in reqs]
    satisfied = [w for v, w in zip(verdicts, worths, strict=True) if v.satisfied]
    stop_points = max(satisfied) if satisfied else penalty

    jobs = [(_model_for([r]), _requirement_objective(r)) for r in reqs]
    points_model = _model_for(reqs)
    points_axes, _ = _model_axes(points_model, roll)
    notes: list[str] = []
    if _spec_states(_spec(points_axes)[0]) > MAX_JOINT_STATES:
        notes.append("too many dice without a colour for exact expected points")
    else:
        jobs.append((points_model, _points_objective(row, worths, penalty)))
    solved = _solve(jobs, roll, rolls_left)

    cards = []
    for slot, (card, worth, verdict, values) in enumerate(
        zip(row, worths, verdicts, solved, strict=False), start=1
    ):
        if verdict.satisfied:  # the witness alone keeps it met
            p, keep = 1.0, verdict.witness
        else:
            kept = _choose(values, prefer_more=rolls_left == 0)
            p, keep = float(values[kept]), _indices(kept, n)
        cards.append(CardOdds(card.id, slot, p, keep, text(keep), verdict.satisfied, worth))

    if notes:
        return Advice(str(roll), rolls_left, tuple(cards), None, None, None, False,
                      stop_points, penalty, tuple(notes))
    values = solved[-1]
    kept = _choose(values, prefer_more=True)
    keep = _indices(kept, n)
    return Advice(str(roll), rolls_left, tuple(cards), keep, text(keep), float(values[kept]),
                  kept == (1 << n) - 1, stop_points, penalty, tuple(notes))


def advise_table(state: Any) -> dict[str, Any] | None:
    """Advice for the table as it stands (a :class:`rules.kotd.game.GameState`), or None.

    Only while a player is rolling and has a roll: the face-up row, the dice, the rolls
    left, the village cards on top of each stack, the player's fairies so far and the
    mean of the penalty cards still in the pile.
    """
    if state.phase != "rolling" or state.roll is None:
        return None
    box = state.box
    row = [box.card(cid) for cid in state.row if cid is not None]
    tops = tuple(box.card(stack[0]).points if stack else None for stack in state.villages)
    fairies = sum(1 for cid in state.kingdoms[state.current]
                  if box.card(cid).effect == "fairy_points")
    penalties = [box.card(p).points or 0 for p in state.penalty_pile]
    penalty = sum(penalties) / len(penalties) if penalties else None
    scoring = Scoring(village_tops=tops, fairies=fairies, penalty=penalty)
    return advise(row, state.roll, state.rolls_left, box=box, scoring=scoring).to_dict()
