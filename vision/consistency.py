"""The box's physics: the most probable reading of all the dice together.

The six HABA dice are three pairs of fixed colour layouts (:data:`rules.dice.HABA_LAYOUTS`):
a die's value and colour name its pair, and no pair has more than two dice. So a reading
that puts three dice on one layout is impossible, and where one die's colour is unclear
the others often settle it. :func:`read_together` weighs every reading of all dice that
obeys this and gives each die's value, colour and the chance that it is right (its
marginal over all those readings), and the chance of the whole reading.
:func:`agreement` (:func:`obeying`) is the chance that dice read on their own obey it at
all, summed die by die; :func:`one_die`, the chance that two faces are faces of one die.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rules.dice import HABA_LAYOUTS, Color

PER_PAIR = 2
"""Dice of one layout in the box."""
KEEP = 1e-4
"""Options of a die less likely than this (relative to its best) are not weighed."""
MAX_OPTIONS = 6
MAX_READINGS = 200_000


@dataclass(frozen=True)
class Belief:
    """What the reader believes of one die on its own: P(value 1..6), P(each colour)."""

    value: np.ndarray
    color: np.ndarray


@dataclass(frozen=True)
class Decision:
    """The reading chosen for one die and the chance that it is right."""

    value: int
    color: Color
    chance: float


def _pair_of(layouts: Mapping[str, Mapping[int, Color]]) -> dict[tuple[int, Color], str]:
    return {(v, c): name for name, layout in layouts.items() for v, c in layout.items()}


def _layout_index(layouts: Mapping[str, Mapping[int, Color]]) -> dict[tuple[int, Color], int]:
    """Each reading's layout, as its place among the layouts' names sorted."""
    names = sorted(layouts)
    return {(v, c): names.index(name) for name, layout in layouts.items()
            for v, c in layout.items()}


def _joint(belief: Belief) -> np.ndarray:
    """P(value, colour) of a die on its own: rows values 1-6, columns the colours."""
    return np.outer(np.asarray(belief.value, np.float64), np.asarray(belief.color, np.float64))


def _options(belief: Belief, colors: Sequence[Color]) -> list[tuple[int, Color, float]]:
    """A die's readings worth weighing (value, colour, chance), likeliest first: at most
    :data:`MAX_OPTIONS`, none less likely than :data:`KEEP` of its best."""
    joint = _joint(belief)
    top = joint.max()
    opts = [(v + 1, colors[k], float(joint[v, k])) for v in range(6)
            for k in range(len(colors)) if joint[v, k] >= KEEP * top]
    opts.sort(key=lambda o: -o[2])
    return opts[:MAX_OPTIONS]


def _weigh(beliefs: Sequence[Belief], colors: Sequence[Color],
           layouts: Mapping[str, Mapping[int, Color]], per_pair: int
           ) -> tuple[list[list[tuple[int, Color, float]]], list[float],
                      tuple[np.ndarray, np.ndarray] | None]:
    """Each die's options worth weighing (value, colour, chance), the share of its belief
    they cover, and every reading of all dice (one option each) with its probability, 0
    where a layout shows more than ``per_pair`` dice (None: too many dice or readings)."""
    options = [_options(b, colors) for b in beliefs]
    kept = [sum(o[2] for o in opts) / max(float(_joint(b).sum()), 1e-12)
            for b, opts in zip(beliefs, options, strict=True)]  # each belief's share weighed
    count = int(np.prod([len(o) for o in options], dtype=np.float64))
    if not options or len(beliefs) > per_pair * len(layouts) or count > MAX_READINGS:
        return options, kept, None
    index = _layout_index(layouts)
    pair_ids = [np.array([index.get((v, c), -1) for v, c, _ in o]) for o in options]
    probs = [np.array([q for _, _, q in o]) for o in options]
    grid = np.stack(np.meshgrid(*(np.arange(len(o)) for o in options), indexing="ij"),
                    axis=-1).reshape(-1, len(options))
    pairs = np.stack([pair_ids[d][grid[:, d]] for d in range(len(options))], axis=1)
    counts = np.stack([(pairs == k).sum(axis=1) for k in range(len(layouts))], axis=1)
    valid = (counts <= per_pair).all(axis=1)
    p = np.prod(np.stack([probs[d][grid[:, d]] for d in range(len(options))], axis=1), axis=1)
    return options, kept, (grid, np.where(valid, p, 0.0))


def read_together(beliefs: Sequence[Belief], colors: Sequence[Color],
                  layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS,
                  per_pair: int = PER_PAIR) -> tuple[list[Decision], float]:
    """The most probable reading of all dice in which no layout shows more than ``per_pair``
    dice, each die with its marginal chance, and the chance of that reading as a whole
    (every die right at once) among the readings that obey the box. Without any such
    reading (more dice than the box holds) each die is read on its own."""
    options, kept, weighed = _weigh(beliefs, colors, layouts, per_pair)
    if not options:
        return [], 1.0
    own = [o[0][2] / max(sum(x[2] for x in o), 1e-12) for o in options]
    if weighed is None or float(weighed[1].sum()) <= 0:
        alone = [Decision(o[0][0], o[0][1], mine * share)
                 for o, mine, share in zip(options, own, kept, strict=True)]
        return alone, float(np.prod(kept)) * float(np.prod(own))
    grid, p = weighed
    total = float(p.sum())
    best = grid[int(np.argmax(p))]
    out = []
    for die, k in enumerate(best):
        v, c, _ = options[die][int(k)]
        out.append(Decision(v, c, float(p[grid[:, die] == k].sum()) / total * kept[die]))
    return out, float(p.max() / p.sum()) * float(np.prod(kept))


def one_die(a: Belief, b: Belief, colors: Sequence[Color],
            layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS) -> float:
    """The chance that faces read as ``a`` and ``b`` are two faces of one die, as far as
    their values and colours tell: a die's faces all belong to its layout, and only opposite
    faces share a colour, which a die never shows together, so two faces of one die are of
    one layout and differ in colour (a leaning die's top and risen side, or a die's top and
    the side a slanted view shows beside it)."""
    pair_of = _pair_of(layouts)
    pa, pb = _joint(a), _joint(b)
    both = 0.0
    for va in range(6):
        for ca, colour_a in enumerate(colors):
            layout = pair_of.get((va + 1, colour_a))
            if layout is None or pa[va, ca] <= 0:
                continue
            both += pa[va, ca] * sum(
                float(pb[vb, cb]) for vb in range(6) for cb, colour_b in enumerate(colors)
                if colour_b is not colour_a and pair_of.get((vb + 1, colour_b)) == layout)
    return float(both / max(float(pa.sum() * pb.sum()), 1e-12))


def layout_chances(belief: Belief, colors: Sequence[Color],
                   layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS) -> np.ndarray:
    """The chance that a die read as ``belief`` shows a face of each layout (the layouts by
    name, sorted), and last that its reading is of no layout, over its options weighed as in
    :func:`read_together`."""
    index = _layout_index(layouts)
    out = np.zeros(len(layouts) + 1)
    for v, c, q in _options(belief, colors):
        out[index.get((v, c), -1)] += q
    return out


def obeying(chances: Sequence[np.ndarray], per_pair: int = PER_PAIR) -> float:
    """The chance that dice with these :func:`layout_chances` obey the box: no layout shows
    more than ``per_pair`` dice. Summed die by die over how many dice each layout shows so
    far (0 to ``per_pair``, :func:`obeying_each`), not over every reading of all dice."""
    return float(obeying_each([tuple(range(len(chances)))], chances, per_pair)[0])


def obeying_each(choices: Sequence[Sequence[int]], chances: Sequence[np.ndarray],
                 per_pair: int = PER_PAIR) -> np.ndarray:
    """:func:`obeying` of each choice of dice (their places in ``chances``, in increasing
    order): :func:`obeying_picked` of their membership."""
    picked = np.zeros((len(choices), len(chances)), dtype=bool)
    for row, c in enumerate(choices):
        picked[row, list(c)] = True
    return obeying_picked(picked, chances, per_pair)


def obeying_picked(picked: np.ndarray, chances: Sequence[np.ndarray],
                   per_pair: int = PER_PAIR) -> np.ndarray:
    """:func:`obeying` of each choice of dice (a row of ``picked`` per choice, a column per
    die of ``chances``), worked out for all choices of one length at once: the chance of
    each count of dice per layout (0 to ``per_pair`` each) is a vector, and one more die
    moves it by a matrix of that die's :func:`layout_chances`, die by die in their order."""
    out = np.ones(len(picked))
    if not len(chances):
        return out
    moves = np.einsum("fl,lij->fij", np.asarray(chances), _count_moves(len(chances[0]) - 1,
                                                                      per_pair))
    sizes = picked.sum(axis=1)
    for n in np.unique(sizes[sizes > 0]).tolist():
        rows = np.flatnonzero(sizes == n)
        dice = np.nonzero(picked[rows])[1].reshape(len(rows), n)
        shown = np.zeros((len(rows), moves.shape[1]))
        shown[:, 0] = 1.0
        for j in range(n):
            shown = np.einsum("mij,mj->mi", moves[dice[:, j]], shown)
        out[rows] = shown.sum(axis=1)
    return out


@lru_cache(maxsize=4)
def _count_moves(layouts: int, per_pair: int) -> np.ndarray:
    """Per layout, the matrix that moves the chance of each count of dice per layout (0 to
    ``per_pair`` each, flattened) by one more die of that layout, a count past ``per_pair``
    falling out; last, the identity (a die of no layout)."""
    shape = (per_pair + 1,) * layouts
    size = int(np.prod(shape))
    out = np.zeros((layouts + 1, size, size))
    for flat in range(size):
        counts = np.unravel_index(flat, shape)
        for k in range(layouts):
            if counts[k] < per_pair:
                more = tuple(c + (a == k) for a, c in enumerate(counts))
                out[k, np.ravel_multi_index(more, shape), flat] = 1.0
        out[layouts, flat, flat] = 1.0
    return out


def agreement(beliefs: Sequence[Belief], colors: Sequence[Color],
              layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS,
              per_pair: int = PER_PAIR) -> float:
    """The chance that dice read on their own obey the box: no layout shows more than
    ``per_pair`` dice (0 when more dice than the box holds)."""
    return obeying([layout_chances(b, colors, layouts) for b in beliefs], per_pair)


__all__ = ["Belief", "Decision", "agreement", "layout_chances", "obeying", "obeying_each",
           "obeying_picked", "one_die", "read_together"]
