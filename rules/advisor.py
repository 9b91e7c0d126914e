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

Dynamic programming, exact (no sampling): the state is the tuple of per-die states (the
dice in reading order), stored as a NumPy array over all states. With ``V0`` the value of
a final roll, ``V_k(s) = max over kept sets K of E[V_{k-1}(s_K, reroll of the rest)]``.
The expectation for every kept set is built by averaging one die axis at a time, and the
tables are memoised per (dice model, objective, rolls), so a row's advice reuses them.

What a final roll is worth (expected-points advice)
===================================================

If the roll satisfies at least one face-up card the player takes the best one; else a
penalty. A card taken is worth (see :class:`Scoring`):

* a citizen: its points, plus the top card of the village above its slot when the
  colours match (slot ``i`` is under ``box.village_colors_by_slot[i-1]``; the top is 2
  unless ``village_tops`` says what is left);
* a fairy: the marginal gain of one more fairy, ``(n+1)² - n²`` with ``n`` fairies already
  in the kingdom (default 0, so 1 point), plus its village;
* a dragon: 0 (it is given away: it costs the player nothing and gains nothing; with
  ``dragon_gift=True`` it counts as ``|points|``, the lead it takes off the leader);
* the hypnotist: its points plus the card to its right (worth as above, with that slot's
  village); nothing extra in the rightmost slot;
* the apprentice's extra turn is worth ``extra_turn`` (default 0, i.e. ignored); the
  elf's four rolls next turn are ignored.

Nothing satisfied: the expected penalty, by default the mean of the box's penalty cards
(−2.0 for the full pile), or the known value of the top penalty card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from rules.cards import Box, Card, load_box
from rules.dice import DICE_PER_ROLL, HABA_LAYOUTS, Color, Die, Roll, haba_pair
from rules.requirements import (
    ColorCount,
    Colors,
    Groups,
    Parity,
    Requirement,
    Run,
    SameColor,
    SumAtLeast,
    SumAtMost,
    Value,
)

MAX_ROLLS_LEFT = 3
"""Rolls left after the current one: 2 in a normal turn, 3 with an elf on top."""

COLORS = (Color.RED, Color.GREEN, Color.BLUE)
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
_NO_COLOR = 3

MAX_JOINT_STATES = 1_500_000
"""Largest joint (value, colour) table the expected-points advice builds (memory/time)."""

_TIE = 1e-9

# ---------------------------------------------------------------------------------------
# Dice models: one axis per die, each with its states and the states a reroll lands on.
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


@dataclass(frozen=True)
class _Features:
    """Per-state counts over the whole table of states, for vectorised requirements."""

    values: tuple[np.ndarray, ...]  # values[v-1]: dice showing v
    colors: tuple[np.ndarray, ...]  # colors[c]: dice showing colour c
    total: np.ndarray
    n: int


@cache
def _features(axes: tuple[_Axis, ...]) -> _Features:
    n = len(axes)
    shape = tuple(len(a.values) for a in axes)

    def count(pred: Any) -> np.ndarray:
        out = np.zeros(shape, dtype=np.int8)
        for d, axis in enumerate(axes):
            vec = np.array([pred(axis, i) for i in range(len(axis.values))], dtype=np.int8)
            out = out + vec.reshape((1,) * d + (-1,) + (1,) * (n - d - 1))
        return out

    values = tuple(count(lambda a, i, v=v: a.values[i] == v) for v in range(1, 7))
    colors = tuple(count(lambda a, i, c=c: a.colors[i] == c) for c in range(3))
    total = np.zeros(shape, dtype=np.int16)
    for d, axis in enumerate(axes):
        vec = np.array(axis.values, dtype=np.int16)
        total = total + vec.reshape((1,) * d + (-1,) + (1,) * (n - d - 1))
    return _Features(values, colors, total, n)


# Dice that all share one axis (the value-only and colour-only models) are exchangeable:
# the dynamic programme then runs over multisets of die states instead of ordered tuples,
# 462 value multisets of six dice instead of 6^6 = 46,656 ordered rolls.


@dataclass(frozen=True)
class _Lattice:
    """Every multiset of at most ``n`` die states of one axis, by size, with the moves
    between sizes: ``add[k][i, f]`` is multiset ``i`` of size k plus a die landing on
    state ``f``; ``remove[k][i, s]`` is multiset ``i`` of size k less a die in state ``s``
    (``len(by_size[k-1])``, a sentinel, when it has none)."""

    by_size: tuple[tuple[tuple[int, ...], ...], ...]
    index: dict[tuple[int, ...], int]
    add: tuple[np.ndarray, ...]
    remove: tuple[np.ndarray, ...]


@cache
def _lattice(axis: _Axis, n: int) -> _Lattice:
    states = range(len(axis.values))
    by_size = tuple(tuple(combinations_with_replacement(states, k)) for k in range(n + 1))
    index = {ms: i for level in by_size for i, ms in enumerate(level)}
    add = tuple(
        np.array([[index[tuple(sorted((*ms, f)))] for f in range(axis.rolled)]
                  for ms in by_size[k]], dtype=np.intp).reshape(len(by_size[k]), axis.rolled)
        for k in range(n)
    )
    remove = [np.zeros((1, len(states)), dtype=np.intp)]
    for k in range(1, n + 1):
        sentinel = len(by_size[k - 1])
        rows = []
        for ms in by_size[k]:
            row = []
            for s in states:
                if s in ms:
                    rest = list(ms)
                    rest.remove(s)
                    row.append(index[tuple(rest)])
                else:
                    row.append(sentinel)
            rows.append(row)
        remove.append(np.array(rows, dtype=np.intp))
    return _Lattice(by_size, index, add, tuple(remove))


def _exchangeable(axes: tuple[_Axis, ...]) -> bool:
    return len(set(axes)) == 1


def _lattice_features(axes: tuple[_Axis, ...]) -> _Features:
    axis, n = axes[0], len(axes)
    full = _lattice(axis, n).by_size[n]
    values = np.array([[axis.values[s] for s in ms] for ms in full], dtype=np.int16)
    colors = np.array([[axis.colors[s] for s in ms] for ms in full], dtype=np.int16)
    values = values.reshape(len(full), n)
    colors = colors.reshape(len(full), n)
    return _Features(
        tuple((values == v).sum(axis=1) for v in range(1, 7)),
        tuple((colors == c).sum(axis=1) for c in range(3)),
        values.sum(axis=1),
        n,
    )


def _lattice_expect(table: np.ndarray, lat: _Lattice) -> list[np.ndarray]:
    """W[k][i]: expected value keeping multiset i of size k and rerolling the rest."""
    n = len(lat.by_size) - 1
    expect: list[np.ndarray] = [np.empty(0)] * (n + 1)
    expect[n] = table
    for k in range(n - 1, -1, -1):
        expect[k] = expect[k + 1][lat.add[k]].mean(axis=1)
    return expect


def _lattice_next_level(table: np.ndarray, axes: tuple[_Axis, ...]) -> np.ndarray:
    """``V_k`` from ``V_{k-1}`` over multisets: best over every sub-multiset kept."""
    lat = _lattice(axes[0], len(axes))
    expect = _lattice_expect(table, lat)
    best = expect[0]
    for k in range(1, len(expect)):
        padded = np.concatenate([best, np.full((1, *best.shape[1:]), -np.inf)])
        best = np.maximum(expect[k], padded[lat.remove[k]].max(axis=1))
    return best


def uses_values(req: Requirement) -> bool:
    """Does the requirement look at values (True) or only at colours (False)?"""
    return not isinstance(req, ColorCount | SameColor | Colors)


def _satisfied(req: Requirement, f: _Features) -> np.ndarray:
    """Boolean table: does each state satisfy ``req`` (same rules as ``req.evaluate``)."""
    if isinstance(req, Value):
        return f.values[req.value - 1] >= req.count
    if isinstance(req, Run):
        out = np.zeros(f.total.shape, dtype=bool)
        for start in range(1, 8 - req.length):
            ok = np.ones(f.total.shape, dtype=bool)
            for v in range(start, start + req.length):
                ok &= f.values[v - 1] >= 1
            out |= ok
        return out
    if isinstance(req, Groups):
        ranked = np.sort(np.stack(f.values), axis=0)[::-1]
        ok = np.ones(f.total.shape, dtype=bool)
        for i, size in enumerate(req.sizes):
            ok &= ranked[i] >= size
        return ok
    if isinstance(req, Parity):
        rest = 0 if req.parity == "even" else 1
        hits = sum(f.values[v - 1] for v in range(1, 7) if v % 2 == rest)
        return hits >= req.count
    if isinstance(req, SumAtMost):
        return f.total <= req.total
    if isinstance(req, SumAtLeast):
        return f.total >= req.total
    if isinstance(req, ColorCount):
        return f.colors[_COLOR_INDEX[req.color]] >= req.count
    if isinstance(req, SameColor):
        return np.maximum(np.maximum(f.colors[0], f.colors[1]), f.colors[2]) >= req.count
    if isinstance(req, Colors):
        ok = np.ones(f.total.shape, dtype=bool)
        for color, count in req.counts:
            ok &= f.colors[_COLOR_INDEX[color]] >= count
        return ok
    raise TypeError(f"the advisor does not know requirement {type(req).__name__}")


# ---------------------------------------------------------------------------------------
# The dynamic programme.
# ---------------------------------------------------------------------------------------


def _reroll(table: np.ndarray, axis: int, rolled: int) -> np.ndarray:
    """Expectation over rerolling the die on ``axis`` (kept as a length-1 axis)."""
    if rolled == table.shape[axis]:
        return table.mean(axis=axis, keepdims=True)
    index = (slice(None),) * axis + (slice(0, rolled),)
    return table[index].mean(axis=axis, keepdims=True)


def _next_level(table: np.ndarray, axes: tuple[_Axis, ...]) -> np.ndarray:
    """``V_k`` from ``V_{k-1}``: the best over every kept set of the expected value."""
    n = len(axes)
    # best[m]: expected value with the dice in bitmask m rerolled (length-1 axes there),
    # built by averaging one more axis than a smaller mask.
    best: list[np.ndarray] = [table]
    for m in range(1, 1 << n):
        d = m.bit_length() - 1
        best.append(_reroll(best[m & ~(1 << d)], d, axes[d].rolled))
    # Then best[m] becomes the max over every superset of m (rerolling more dice), one
    # axis at a time (a "sum over subsets" transform with max), so best[0] is the max over
    # all kept sets. This costs about n·7^(n-1) cell operations instead of 2^n·6^n.
    for d in range(n):
        bit = 1 << d
        for m in range(1 << n):
            if not m & bit:
                best[m] = np.maximum(best[m], best[m | bit])
    return best[0]


class _Objective:
    """Something to maximise at the end of the turn: a table of final-roll values."""

    def __init__(self, key: Any, final: Any) -> None:
        self.key = key
        self.final = final  # callable: _Features -> np.ndarray of float64


_TABLES: dict[tuple[Any, ...], np.ndarray] = {}


def _tables(
    objectives: Sequence[_Objective], axes: tuple[_Axis, ...], level: int
) -> np.ndarray:
    """``V_level`` over every state for each objective, stacked on a last axis.

    Memoised per objective; the objectives not yet known are computed together (one pass
    of the dynamic programme over a stacked table), which is what makes a row fast.
    """
    missing = [o for o in objectives if (o.key, axes, level) not in _TABLES]
    if missing:
        if level == 0:
            features = _lattice_features(axes) if _exchangeable(axes) else _features(axes)
            fresh = np.stack([np.asarray(o.final(features), dtype=np.float64)
                              for o in missing], axis=-1)
        else:
            step = _lattice_next_level if _exchangeable(axes) else _next_level
            fresh = step(_tables(missing, axes, level - 1), axes)
        for i, o in enumerate(missing):
            _TABLES[(o.key, axes, level)] = fresh[..., i]
        if len(missing) == len(objectives):
            return fresh
    return np.stack([_TABLES[(o.key, axes, level)] for o in objectives], axis=-1)


def clear_cache() -> None:
    """Forget every memoised table (benchmarks measure a cold start with it)."""
    _TABLES.clear()
    _features.cache_clear()


def _keep_values(
    objectives: Sequence[_Objective],
    axes: tuple[_Axis, ...],
    state: tuple[int, ...],
    rolls_left: int,
) -> np.ndarray:
    """Expected value of each kept set from ``state``: row = bitmask of *kept* dice,
    column = objective. Rolls left 0: only keeping every die is possible (-inf else)."""
    n = len(axes)
    if _exchangeable(axes):
        return _lattice_keep_values(objectives, axes, state, rolls_left)
    if rolls_left == 0:
        out = np.full((1 << n, len(objectives)), -np.inf)
        out[(1 << n) - 1] = _tables(objectives, axes, 0)[state]
        return out
    # Walk the dice in order; each die is either kept (fix its state) or rerolled
    # (average its axis over the states a reroll lands on): 2 + 4 + ... + 2^n small steps.
    nodes: list[tuple[int, np.ndarray]] = [(0, _tables(objectives, axes, rolls_left - 1))]
    for d in range(n):
        nxt = []
        for kept, table in nodes:
            nxt.append((kept | 1 << d, table[state[d]]))
            nxt.append((kept, table[: axes[d].rolled].mean(axis=0)))
        nodes = nxt
    out = np.empty((1 << n, len(objectives)))
    for kept, value in nodes:
        out[kept] = value
    return out


def _lattice_keep_values(
    objectives: Sequence[_Objective],
    axes: tuple[_Axis, ...],
    state: tuple[int, ...],
    rolls_left: int,
) -> np.ndarray:
    """:func:`_keep_values` for exchangeable dice."""
    n = len(axes)
    lat = _lattice(axes[0], n)
    out = np.full((1 << n, len(objectives)), -np.inf)
    if rolls_left == 0:
        out[(1 << n) - 1] = _tables(objectives, axes, 0)[lat.index[tuple(sorted(state))]]
        return out
    expect = _lattice_expect(_tables(objectives, axes, rolls_left - 1), lat)
    for kept in range(1 << n):
        ms = tuple(sorted(state[d] for d in range(n) if kept >> d & 1))
        out[kept] = expect[len(ms)][lat.index[ms]]
    return out


def _choose(values: Sequence[float], prefer_more: bool) -> int:
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
    return _Objective(("req", req), lambda f: _satisfied(req, f).astype(np.float64))


# ---------------------------------------------------------------------------------------
# Public API.
# ---------------------------------------------------------------------------------------


def _check_rolls(rolls_left: int) -> None:
    if not isinstance(rolls_left, int) or not 0 <= rolls_left <= MAX_ROLLS_LEFT:
        raise ValueError(f"rolls left must be 0-{MAX_ROLLS_LEFT}, not {rolls_left!r}")


def _indices(kept: int, n: int) -> tuple[int, ...]:
    return tuple(i for i in range(n) if kept >> i & 1)


def _model_for(reqs: Sequence[Requirement]) -> str:
    """The smallest dice model that decides every requirement in ``reqs``."""
    if all(uses_values(r) for r in reqs):
        return VALUE_MODEL
    if not any(uses_values(r) for r in reqs):
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


def fresh_turn_odds(req: Requirement, rolls: int = 3, dice: int = DICE_PER_ROLL) -> float:
    """Probability of meeting ``req`` in a turn of ``rolls`` rolls, before the first roll."""
    if not 1 <= rolls <= MAX_ROLLS_LEFT + 1:
        raise ValueError(f"a turn has 1-{MAX_ROLLS_LEFT + 1} rolls, not {rolls!r}")
    axes = (_die_axis(_model_for([req]), None),) * dice
    table = _tables([_requirement_objective(req)], axes, rolls - 1)
    if _exchangeable(axes):
        return float(_lattice_expect(table, _lattice(axes[0], dice))[0][0, 0])
    index = (*(slice(0, a.rolled) for a in axes), 0)
    return float(table[index].mean())


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
    dragon_gift: bool = False
    extra_turn: float = 0.0

    def __post_init__(self) -> None:
        if self.fairies < 0:
            raise ValueError(f"fairies must be 0 or more, not {self.fairies}")
        if self.penalty is not None and self.penalty > 0:
            raise ValueError(f"a penalty is negative or zero, not {self.penalty}")


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
        """JSON-able form for the page and ``kotd advise --json``."""
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
            out = np.where(_satisfied(req, f), np.maximum(out, worth), out)
        return np.where(np.isneginf(out), penalty, out)

    return _Objective(key, final)


def advise(
    row: Sequence[Card],
    roll: Roll,
    rolls_left: int,
    *,
    box: Box | None = None,
    scoring: Scoring | None = None,
) -> Advice:
    """Per-card odds and the best keep for points, for ``roll`` with ``rolls_left`` to go."""
    _check_rolls(rolls_left)
    if not row:
        raise ValueError("the row has no cards")
    for card in row:
        if card.requirement is None:
            raise ValueError(f"{card.id} is not a citizen card")
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
    if int(np.prod([len(a.values) for a in points_axes])) > MAX_JOINT_STATES:
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
