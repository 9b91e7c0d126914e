"""Score a reading of a rendered frame against its truth, as the table would feel it.

A die *counts* when its top face lies flat, whole in the frame and in view; dice that lean
or are partly hidden are *optional*: a reader may skip them, read them right, or read them
and mark them unsure, but a confident wrong reading of one is still wrong. A frame is
``right`` when every counted die is read right and nothing else is reported, ``asks`` when
the table would be asked (a reading marked unsure, or not as many dice as were thrown: the
game tells the roll detector how many it expects, six less the dice kept), and ``silent``
when that many confident readings are not all right: the one outcome the table never sees
coming.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from vision.reading import DieReading
from vision.render.scene import TruthDie


@dataclass(frozen=True)
class FrameScore:
    """How one frame's reading went (counts of dice, and the frame's outcome)."""

    dice: int  # counted dice
    found: int  # counted dice with a reading on them
    value: int  # counted dice read with the right value
    color: int  # counted dice read with the right colour
    false: int  # readings on no die at all
    wrong_sure: int  # confident readings (on any die) with a wrong value or colour
    unsure: int  # readings marked unsure
    right: bool
    asks: bool
    silent: bool


def match(readings: Sequence[DieReading], truth: Sequence[TruthDie]
          ) -> list[tuple[TruthDie, DieReading | None]]:
    """Each truth die with the reading whose centre lies within half a die of it (nearest)."""
    used: set[int] = set()
    pairs: list[tuple[TruthDie, DieReading | None]] = []
    for t in truth:
        best, dist = None, 0.5 * t.size
        for j, r in enumerate(readings):
            d = math.dist(r.center, t.center)
            if j not in used and d < dist:
                best, dist = j, d
        if best is not None:
            used.add(best)
        pairs.append((t, readings[best] if best is not None else None))
    return pairs


def score_frame(readings: Sequence[DieReading], truth: Sequence[TruthDie]) -> FrameScore:
    """How ``readings`` of a frame with ``truth`` went; every die of ``truth`` was thrown."""
    pairs = match(readings, truth)
    counted = [(t, r) for t, r in pairs if t.visible and not t.leaning]
    matched = sum(r is not None for _, r in pairs)
    false = len(readings) - matched
    found = sum(r is not None for _, r in counted)
    value = sum(r is not None and r.value == t.value for t, r in counted)
    color = sum(r is not None and r.color == t.color for t, r in counted)
    wrong_sure = sum(r is not None and r.confident and (r.value, r.color) != (t.value, t.color)
                     for t, r in pairs) + sum(r.confident for r in readings) - sum(
        r is not None and r.confident for _, r in pairs)
    unsure = sum(not r.confident for r in readings)
    all_counted_right = value == color == len(counted) == found
    optional_ok = all(r is None or (r.value, r.color) == (t.value, t.color)
                      for t, r in pairs if not (t.visible and not t.leaning))
    right = all_counted_right and optional_ok and false == 0
    asks = unsure > 0 or len(readings) != len(truth)
    silent = not asks and not right
    return FrameScore(len(counted), found, value, color, false, wrong_sure, unsure, right, asks,
                      silent)
