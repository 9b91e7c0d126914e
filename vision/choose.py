"""Choosing: which of a frame's candidate faces are the dice, weighed by one log-linear model.

A *choice* is a set of candidate faces (:class:`vision.faces.Face`) taken for the dice'
tops, no two in one place. Its log-probability is, up to the frame's normaliser, the sum of
a few terms (:data:`TERMS`), each a log-likelihood or a count, times a weight fitted on the
tuning frames (``tools/fit_haba_reader.py``, :mod:`vision.doubt` loads them):

* ``pips``: the pip reader's log-odds that each chosen face is a die's top;
* ``finder``: the finder's log-odds of each chosen face's peak;
* ``size``: how far each chosen face's size is from the chosen faces' median (squared log
  ratio): the dice of a box are all one size, a side seen at a slant is smaller;
* ``pair``: of every two faces beside each other, the log of the pair network's chance of
  what the choice says of them (one is a die's top and the other not, or neither or both);
* ``inward``: of two faces beside each other, one chosen and one not, how much more the
  chosen one lies towards the camera's nadir (:attr:`vision.faces.Seen.middle`: the middle of
  the frame unless the marked tray tells it; a die's side shows towards it);
* ``side``: chosen faces that lie where a neighbour's side shows (:func:`lies_as_side`);
* ``box``: the log-chance that the chosen faces' readings obey the box's layouts
  (:func:`vision.consistency.obeying_picked`);
* ``moved`` / ``still``: chosen faces whose place changed since the last roll's picture (a
  die thrown there; not a face beside another, where a die's top and side both changed and
  the change cannot tell which is the top), and chosen faces whose place did not, where no
  die of the last roll lay (a die printed on a card lies where it lay):
  :mod:`vision.lastroll`; neither without that picture;
* ``dice_told`` / ``dice_free``: how many faces are chosen, told the count or not. A choice
  has at most the count's faces and may leave any die out (a die under a hand, or outside
  the picture): a choice of fewer faces than were thrown makes the table ask.

The numbers that shape the terms (:class:`Shape`: where log-odds are clipped, how far out
``inward`` counts fully, where a side lies) are fitted with the weights. Faces beyond the
:data:`POOL` most die-like are not chosen among.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import numpy as np

from rules.dice import Color
from vision.consistency import layout_chances, obeying_picked
from vision.faces import Face, Seen, one_place, pairs_beside

TERMS = ("pips", "finder", "size", "pair", "inward", "side", "box", "moved", "still",
         "dice_told", "dice_free")
"""The terms of a choice's log-probability, in the order of :attr:`Weighed.terms`."""
POOL = 10
"""The most candidate faces chosen among (the most die-like by the pip reader): a bound on
the work, 2**10 choices at most."""


@dataclass(frozen=True)
class Shape:
    """The numbers inside the terms, fitted with the weights (``tools/fit_haba_reader.py``,
    by the likelihood of the true choices)."""

    clip: float
    """Log-odds are clipped to ±this: no one network's answer is ever certain."""
    out_from_middle: float
    """Faces' sides from the camera's nadir at which the ``inward`` term counts fully."""
    side_shrink: float
    """A face narrower than this share of a neighbour's, closer to it than this many of the
    neighbour's sides, lies where that die's side shows."""
    changed_from: float
    """A face's place changed since the last roll's picture from this colour distance on
    (:attr:`vision.faces.Face.change`)."""


@dataclass(frozen=True)
class Weighed:
    """A frame's choices and, per choice, its terms (:data:`TERMS`); ``told``: whether the
    count was how many dice were thrown (else at most how many lie in view); ``picked``: which
    faces each choice holds (:func:`membership`), when worked out already."""

    choices: tuple[tuple[int, ...], ...]
    terms: np.ndarray
    told: bool = False
    picked: np.ndarray | None = field(default=None, compare=False, repr=False)

    def membership(self, faces: int) -> np.ndarray:
        """Which of ``faces`` faces each choice holds: a row per choice, a column per face."""
        if self.picked is not None and self.picked.shape == (len(self.choices), faces):
            return self.picked
        return membership(self.choices, faces)


def _logit(p: float, clip: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return max(-clip, min(clip, math.log(p / (1 - p))))


def pool(seen: Seen) -> list[int]:
    """The faces chosen among: the :data:`POOL` most die-like, in the frame's order."""
    order = sorted(range(len(seen.faces)), key=lambda k: seen.faces[k].not_die)
    return sorted(order[:POOL])


@lru_cache(maxsize=64)
def _subsets(n: int, most: int) -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """Every subset of ``range(n)`` of at most ``most`` members, fewest first and each length
    in the order of ``itertools.combinations``, and the same as rows of a read-only boolean
    matrix (a column per member)."""
    subsets = tuple(c for k in range(most + 1) for c in combinations(range(n), k))
    table = np.zeros((len(subsets), n), dtype=bool)
    for row, c in enumerate(subsets):
        table[row, list(c)] = True
    table.flags.writeable = False
    return subsets, table


def _choices(seen: Seen, count: int | None) -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """:func:`choices`, and which faces each holds (:func:`membership`), worked out at once."""
    pooled = pool(seen)
    most = len(pooled) if count is None else min(count, len(pooled))
    subsets, table = _subsets(len(pooled), most)
    ok = np.ones(len(subsets), dtype=bool)
    for a, b in combinations(range(len(pooled)), 2):
        if one_place(seen.faces[pooled[a]].found, seen.faces[pooled[b]].found):
            ok &= ~(table[:, a] & table[:, b])
    picked = np.zeros((int(ok.sum()), len(seen.faces)), dtype=bool)
    picked[:, pooled] = table[ok]
    keep = ok.tolist()
    if pooled == list(range(len(pooled))):
        return tuple(c for c, k in zip(subsets, keep, strict=True) if k), picked
    face = pooled.__getitem__
    return tuple(tuple(map(face, c)) for c, k in zip(subsets, keep, strict=True) if k), picked


def choices(seen: Seen, count: int | None) -> Iterator[tuple[int, ...]]:
    """Every choice of pooled faces, no two in one place, of at most ``count`` faces (any
    number when None): fewest faces first, each length in the order of
    ``itertools.combinations``."""
    yield from _choices(seen, count)[0]


def inward(face: Face, other: Face, middle: tuple[float, float], shape: Shape) -> float:
    """How much ``face`` lies from ``other`` towards ``middle`` (the camera's nadir): the cosine of
    the angle between the two directions, weighed by how far out ``other`` lies
    (:attr:`Shape.out_from_middle`)."""
    (ox, oy), (fx, fy) = other.found.center, face.found.center
    to_face, to_middle = (fx - ox, fy - oy), (middle[0] - ox, middle[1] - oy)
    far = math.hypot(*to_middle)
    norm = math.hypot(*to_face) * far
    if norm <= 0:
        return 0.0
    cos = (to_face[0] * to_middle[0] + to_face[1] * to_middle[1]) / norm
    return cos * min(far / (shape.out_from_middle * other.found.side), 1.0)


def lies_as_side(face: Face, top: Face, shape: Shape) -> bool:
    """Whether ``face`` lies where a side of the die whose top is ``top`` shows: smaller, and
    close (:attr:`Shape.side_shrink`)."""
    (fx, fy), (tx, ty) = face.found.center, top.found.center
    reach = shape.side_shrink * top.found.side
    return face.found.side < reach and math.hypot(fx - tx, fy - ty) < reach


def side_faces(seen: Seen, shape: Shape) -> np.ndarray:
    """Per face, whether it lies where the side of a face beside it shows."""
    out = np.zeros(len(seen.faces))
    for a, b in pairs_beside(seen.faces):
        fa, fb = seen.faces[a], seen.faces[b]
        out[a] = max(out[a], float(lies_as_side(fa, fb, shape)))
        out[b] = max(out[b], float(lies_as_side(fb, fa, shape)))
    return out


def terms(seen: Seen, chosen: Sequence[int], told: bool, layouts: Sequence[np.ndarray],
          shape: Shape) -> np.ndarray:
    """A choice's terms (:data:`TERMS`); ``layouts``: each face's
    :func:`vision.consistency.layout_chances`."""
    one = (tuple(chosen),)
    out: np.ndarray = _columns(seen, one, membership(one, len(seen.faces)), told, layouts,
                               shape)[0]
    return out


def weigh(seen: Seen, count: int | None, told: bool, colors: Sequence[Color], shape: Shape
          ) -> Weighed:
    """Every choice of the frame's faces with its terms, worked out for all choices at
    once."""
    layouts = [layout_chances(f.belief, colors) for f in seen.faces]
    chosen, picked = _choices(seen, count)
    return Weighed(chosen, _columns(seen, chosen, picked, told, layouts, shape), told, picked)


def _columns(seen: Seen, chosen: Sequence[tuple[int, ...]], picked: np.ndarray, told: bool,
             layouts: Sequence[np.ndarray], shape: Shape) -> np.ndarray:
    """The terms of each choice of ``chosen`` (``picked``: its :func:`membership`), a row per
    choice."""
    if not chosen:
        return np.zeros((0, len(TERMS)))
    faces = seen.faces
    pair, side_in = _pair_columns(seen, picked, shape)
    n = picked.sum(axis=1).astype(float)
    return np.column_stack([
        picked @ np.array([_logit(f.is_die, shape.clip) for f in faces]),
        picked @ np.array([_logit(f.found.found, shape.clip) for f in faces]),
        _size_column(picked, np.array([f.found.side for f in faces])),
        pair, side_in,
        picked @ side_faces(seen, shape),
        _box_column(picked, layouts, shape.clip),
        *(picked @ column for column in since_last_roll(seen, shape)),
        n if told else np.zeros(len(chosen)),
        np.zeros(len(chosen)) if told else n])


def since_last_roll(seen: Seen, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Per face, whether its place changed since the last roll's picture and no face lies
    beside it (``moved``), and whether it did not change and no die of that roll lay there
    (``still``); neither without that picture."""
    moved = np.array([f.change is not None and f.change >= shape.changed_from
                      and not f.neighbours for f in seen.faces], dtype=float)
    still = np.array([f.change is not None and f.change < shape.changed_from and not f.kept
                      for f in seen.faces], dtype=float)
    return moved, still


def membership(chosen: Sequence[tuple[int, ...]], faces: int) -> np.ndarray:
    """Which of ``faces`` faces each choice holds: a row per choice, a column per face."""
    out = np.zeros((len(chosen), faces), dtype=bool)
    for row, c in enumerate(chosen):
        out[row, list(c)] = True
    return out


def _size_column(picked: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """The ``size`` term of every choice (rows of ``picked``)."""
    median = np.ones((len(picked), 1))
    some = picked.any(axis=1)
    if some.any():
        masked = np.where(picked[some], sides[None, :], np.nan)
        median[some] = np.nanmedian(masked, axis=1, keepdims=True)
    spread = np.where(picked, np.log(sides[None, :] / median) ** 2, 0.0)
    out: np.ndarray = spread.sum(axis=1)
    return out


def _pair_columns(seen: Seen, picked: np.ndarray, shape: Shape
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The ``pair`` and ``inward`` terms of every choice (rows of ``picked``)."""
    pair, side_in = np.zeros(len(picked)), np.zeros(len(picked))
    for k, face in enumerate(seen.faces):
        for nb in face.neighbours:
            if nb.index < k:
                continue
            other = seen.faces[nb.index]
            mine, theirs = picked[:, k], picked[:, nb.index]
            only_mine, only_theirs = mine & ~theirs, theirs & ~mine
            top, under, neither = (max(math.log(max(x, 1e-12)), -shape.clip)
                                   for x in (nb.top, nb.under, 1.0 - nb.top - nb.under))
            pair += np.where(only_mine, top, np.where(only_theirs, under, neither))
            lean = (inward(face, other, seen.middle, shape)
                    - inward(other, face, seen.middle, shape))
            side_in += np.where(only_mine, lean, np.where(only_theirs, -lean, 0.0))
    return pair, side_in


def _box_column(picked: np.ndarray, layouts: Sequence[np.ndarray], clip: float
                ) -> np.ndarray:
    """The ``box`` term of every choice (rows of ``picked``)."""
    box = obeying_picked(picked, layouts)
    out: np.ndarray = np.maximum(np.log(np.maximum(box, 1e-12)), -2 * clip)
    return out


def chances(weighed: Weighed, weights: np.ndarray) -> np.ndarray:
    """Each choice's probability under the model's ``weights`` (one per term)."""
    if not weighed.choices:
        return np.zeros(0)
    logp = weighed.terms @ weights
    p = np.exp(logp - logp.max())
    out: np.ndarray = p / p.sum()
    return out


__all__ = ["POOL", "TERMS", "Shape", "Weighed", "chances", "choices", "inward", "lies_as_side",
           "membership", "pool", "side_faces", "since_last_roll", "terms", "weigh"]
