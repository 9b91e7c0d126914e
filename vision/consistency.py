"""The box's physics: the most probable reading of all the dice together.

The six HABA dice are three pairs of fixed colour layouts (:data:`rules.dice.HABA_LAYOUTS`):
a die's value and colour name its pair, and no pair has more than two dice. So a reading
that puts three dice on one layout is impossible, and where one die's colour is unclear
the others often settle it. :func:`most_probable` weighs every reading of all dice that
obeys this and gives each die's value, colour and the chance that it is right (its
marginal over all those readings).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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


def _weigh(beliefs: Sequence[Belief], colors: Sequence[Color],
           layouts: Mapping[str, Mapping[int, Color]], per_pair: int
           ) -> tuple[list[list[tuple[int, Color, float]]], list[float],
                      tuple[np.ndarray, np.ndarray] | None]:
    """Each die's options worth weighing (value, colour, chance), the share of its belief
    they cover, and every reading of all dice (one option each) with its probability, 0
    where a layout shows more than ``per_pair`` dice (None: too many dice or readings)."""
    pair_of = _pair_of(layouts)
    options: list[list[tuple[int, Color, float]]] = []
    kept: list[float] = []  # share of each die's belief that the options weighed cover
    for b in beliefs:
        joint = np.outer(np.asarray(b.value, np.float64), np.asarray(b.color, np.float64))
        top = joint.max()
        opts = [(v + 1, colors[k], float(joint[v, k])) for v in range(6)
                for k in range(len(colors)) if joint[v, k] >= KEEP * top]
        opts.sort(key=lambda o: -o[2])
        options.append(opts[:MAX_OPTIONS])
        kept.append(sum(o[2] for o in options[-1]) / max(float(joint.sum()), 1e-12))
    count = int(np.prod([len(o) for o in options], dtype=np.float64))
    if not options or len(beliefs) > per_pair * len(layouts) or count > MAX_READINGS:
        return options, kept, None
    names = sorted(layouts)
    pair_ids = [np.array([names.index(pair_of[(v, c)]) if (v, c) in pair_of else -1
                          for v, c, _ in o]) for o in options]
    probs = [np.array([q for _, _, q in o]) for o in options]
    grid = np.stack(np.meshgrid(*(np.arange(len(o)) for o in options), indexing="ij"),
                    axis=-1).reshape(-1, len(options))
    pairs = np.stack([pair_ids[d][grid[:, d]] for d in range(len(options))], axis=1)
    counts = np.stack([(pairs == k).sum(axis=1) for k in range(len(names))], axis=1)
    valid = (counts <= per_pair).all(axis=1)
    p = np.prod(np.stack([probs[d][grid[:, d]] for d in range(len(options))], axis=1), axis=1)
    return options, kept, (grid, np.where(valid, p, 0.0))


def most_probable(beliefs: Sequence[Belief], colors: Sequence[Color],
                  layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS,
                  per_pair: int = PER_PAIR) -> list[Decision]:
    """The most probable reading of all dice in which no layout shows more than ``per_pair``
    dice, each die with its marginal chance. Without any such reading (more dice than the
    box holds) each die is read on its own."""
    options, kept, weighed = _weigh(beliefs, colors, layouts, per_pair)
    if not options:
        return []
    alone = [Decision(o[0][0], o[0][1], o[0][2] / max(sum(x[2] for x in o), 1e-12) * share)
             for o, share in zip(options, kept, strict=True)]
    if weighed is None or float(weighed[1].sum()) <= 0:
        return alone
    grid, p = weighed
    total = float(p.sum())
    best = grid[int(np.argmax(p))]
    out = []
    for die, k in enumerate(best):
        v, c, _ = options[die][int(k)]
        out.append(Decision(v, c, float(p[grid[:, die] == k].sum()) / total * kept[die]))
    return out


def one_die(a: Belief, b: Belief, colors: Sequence[Color],
            layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS) -> float:
    """The chance that faces read as ``a`` and ``b`` are two faces of one die, as far as
    their values and colours tell: a die's faces all belong to its layout, and only opposite
    faces share a colour, which a die never shows together, so two faces of one die are of
    one layout and differ in colour (a leaning die's top and risen side, or a die's top and
    the side a slanted view shows beside it)."""
    pair_of = _pair_of(layouts)
    pa, pb = (np.outer(np.asarray(x.value, np.float64), np.asarray(x.color, np.float64))
              for x in (a, b))
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


def agreement(beliefs: Sequence[Belief], colors: Sequence[Color],
              layouts: Mapping[str, Mapping[int, Color]] = HABA_LAYOUTS,
              per_pair: int = PER_PAIR) -> float:
    """The chance that dice read on their own obey the box: no layout shows more than
    ``per_pair`` dice (0 when more dice than the box holds)."""
    options, _, weighed = _weigh(beliefs, colors, layouts, per_pair)
    if not options:
        return 1.0
    if weighed is None:
        return 0.0 if len(beliefs) > per_pair * len(layouts) else 1.0
    return float(weighed[1].sum())


__all__ = ["Belief", "Decision", "agreement", "most_probable", "one_die"]
