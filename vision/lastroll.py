"""The last roll's picture: what changed at each candidate face's place since then.

A thrown die lies where the last roll's picture showed something else (the table, a card,
another die); a die printed on a citizen card, or a pattern of the cloth, lies where it lay.
A die kept from the last roll lies where that roll's die lay, unchanged too, but the last
roll's reading says a die was there. So each candidate face carries how much its place
changed since the last roll's picture (:attr:`vision.faces.Face.change`) and whether a die
of the last roll lay there (:attr:`vision.faces.Face.kept`); the choice weighs both
(:mod:`vision.choose`'s ``moved`` and ``still`` terms, from what change a place counts as
changed fitted with them). The roll detector asks the same of each die read, whether its
whole square is unchanged (:func:`kept_dice`): a kept die was not picked up, so it shows
what it showed.

The change of a place is the median colour distance (CIE Lab, each picture lightly blurred)
between the two pictures over the face's square: a die that moved in changes most of it, a
camera's noise and a slightly different exposure or white balance (the two pictures'
colours are matched first, :func:`exposure`) little.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.choose import pool
from vision.faces import Seen
from vision.reading import DieReading


@dataclass(frozen=True)
class LastRoll:
    """The picture the last roll was read from, and where its dice lay (centre and size in
    that picture's pixels)."""

    frame: np.ndarray
    dice: tuple[tuple[float, float, float], ...] = ()


def change(frame: np.ndarray, before: np.ndarray, center: tuple[float, float],
           side: float, gain: Sequence[float] = (1.0, 1.0, 1.0)) -> float:
    """How much the square of ``side`` pixels at ``center`` changed from ``before`` to
    ``frame``: the median Lab colour distance over it (:func:`distances`); 0 where the square
    lies outside the picture."""
    d = distances(frame, before, center, side, gain)
    return float(np.median(d)) if d.size else 0.0


def distances(frame: np.ndarray, before: np.ndarray, center: tuple[float, float],
              side: float, gain: Sequence[float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """The Lab colour distances between ``before`` (its channels scaled by ``gain``) and
    ``frame`` over the square of ``side`` pixels at ``center`` (:func:`_lab`'s pixels); none
    where the square lies outside the picture."""
    h = max(round(side / 2), 1)
    x, y = round(center[0]), round(center[1])
    height, width = frame.shape[:2]
    x0, x1, y0, y1 = max(x - h, 0), min(x + h + 1, width), max(y - h, 0), min(y + h + 1, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros(0, np.float32)
    now, then = (_lab(img[y0:y1, x0:x1], g) for img, g in ((frame, (1.0, 1.0, 1.0)),
                                                             (before, gain)))
    out: np.ndarray = np.sqrt(((now - then) ** 2).sum(axis=2))
    return out


def square_change(frame: np.ndarray, before: np.ndarray, center: tuple[float, float],
                  side: float, gain: Sequence[float] = (1.0, 1.0, 1.0)) -> float:
    """How much any part of the square of ``side`` pixels at ``center`` changed from
    ``before`` to ``frame``: the *mean* Lab colour distance over it (:func:`distances`), as
    a kept die is told (:func:`kept_dice`); infinite where the square lies outside the
    picture."""
    d = distances(frame, before, center, side, gain)
    return float(d.mean()) if d.size else math.inf


def _lab(patch: np.ndarray, gain: Sequence[float]) -> np.ndarray:
    """The patch lightly blurred, every second pixel of it (the blur has averaged each with
    its neighbours), its channels scaled by ``gain``, in Lab."""
    blurred = cv2.GaussianBlur(patch, (3, 3), 0)[::2, ::2].astype(np.float32) * (
        np.asarray(gain, np.float32) / np.float32(255.0))
    out: np.ndarray = cv2.cvtColor(np.clip(blurred, 0.0, 1.0), cv2.COLOR_BGR2Lab)
    return out


def exposure(frame: np.ndarray, before: np.ndarray) -> tuple[float, float, float]:
    """The gains (blue, green, red) that take ``before``'s colours to ``frame``'s: the camera's
    exposure and white balance may drift a little between two rolls. Each is the median
    ratio over every sixteenth pixel (in each direction) lit in both pictures (neither dark
    nor white), so the dice that moved, a small part of the picture, do not sway it."""
    now, then = (img[::16, ::16].reshape(-1, 3).astype(np.float32) for img in (frame, before))
    lit = ((now > 16) & (now < 240) & (then > 16) & (then < 240)).all(axis=1)
    if not lit.any():
        return 1.0, 1.0, 1.0
    b, g, r = (float(x) for x in np.median(now[lit] / then[lit], axis=0))
    return b, g, r


def lay_at(center: tuple[float, float], side: float,
           dice: Sequence[tuple[float, float, float]]) -> int | None:
    """Which die of the last roll lay at a face's place (within half the larger side; the
    nearest), or None."""
    near = [(far, k) for k, (x, y, size) in enumerate(dice)
            if (far := math.dist(center, (x, y))) < 0.5 * max(side, size)]
    return min(near)[1] if near else None


def kept_at(center: tuple[float, float], side: float,
            dice: Sequence[tuple[float, float, float]]) -> bool:
    """Whether a die of the last roll lay at a face's place (:func:`lay_at`)."""
    return lay_at(center, side, dice) is not None


def kept_dice(frame: np.ndarray, last: LastRoll, dice: Sequence[DieReading],
              level: float) -> list[int | None]:
    """For each reading of ``frame``, the die of the last roll it is (its place in ``last.dice``)
    when it was kept: that die lay at its place (:func:`lay_at`) and no part of its square
    changed since: :func:`square_change` is below ``level`` (fitted:
    :attr:`vision.doubt.ReaderModel.kept_below`). (A die thrown onto the place of a die of
    its colour changes only the pips, which the median of the square misses.) A kept die was
    not picked up, so it shows what it showed. None for a die thrown, and for every die when
    the picture is another size."""
    if last.frame.shape != frame.shape:
        return [None] * len(dice)
    gain = exposure(frame, last.frame)
    out: list[int | None] = []
    for d in dice:
        k = lay_at(d.center, d.size, last.dice)
        if k is not None and square_change(frame, last.frame, d.center, d.size, gain) >= level:
            k = None
        out.append(k)
    return out


def since(seen: Seen, frame: np.ndarray, last: LastRoll | None) -> Seen:
    """``seen`` with each face's change since the last roll's picture and whether a die of
    that roll lay there; ``seen`` itself when there is no such picture, or it is another
    size (the camera's mode changed)."""
    if last is None or last.frame.shape != frame.shape:
        return seen
    gain = exposure(frame, last.frame)
    chosen_among = set(pool(seen))  # no other face is chosen: its change is never weighed
    return replace(seen, faces=tuple(
        replace(f, change=change(frame, last.frame, f.found.center, f.found.side, gain)
                if k in chosen_among else None,
                kept=kept_at(f.found.center, f.found.side, last.dice))
        for k, f in enumerate(seen.faces)))


def last_roll(frame: np.ndarray, dice: Sequence[DieReading]) -> LastRoll:
    """The last roll's picture and where its readings lay."""
    return LastRoll(frame, tuple((float(d.center[0]), float(d.center[1]), float(d.size))
                                 for d in dice))


__all__ = ["LastRoll", "change", "distances", "exposure", "kept_at", "kept_dice", "last_roll",
           "lay_at", "since", "square_change"]
