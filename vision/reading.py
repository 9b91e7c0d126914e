"""What the dice reader reports: one :class:`DieReading` per die it found."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.dice import Color, Die, Roll

CONFIDENT = 0.5
"""Ordinary dice: a reading less sure than this is flagged for the table to check."""
Why = Literal["side", "die", "value", "colour", "box", "kept", "strip"]
"""Why the camera doubts a die: it may be the side of a leaning die, not its top; it may be
no die; its pips are hard to read; its colour is; the box holds no such roll as seen; a kept
die now reads otherwise than before; it lies on the edge of the set-aside strip."""
Holds = Callable[[tuple[float, float], float], bool]
"""Whether a die may lie where a face is seen, by its centre (frame pixels) and side (pixels):
the marked tray's :meth:`vision.tray.Tray.holds`."""


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die as the camera sees it.

    ``center`` and ``outline`` (the corners of the top face, in order) are in pixels of the
    frame that was read; ``size`` is the side of the top face in pixels; ``color`` is None
    for ordinary dice or when the face colour could not be told; ``confidence`` is 0..1;
    ``sure_at`` is the confidence from which the reader that made it trusts it
    (:data:`CONFIDENT` for ordinary dice; for HABA dice, the fitted threshold of
    :mod:`vision.doubt`); ``why``: when it is not trusted, why (:data:`Why`; None when the
    reader cannot say).
    """

    value: int
    color: Color | None
    center: tuple[float, float]
    outline: tuple[tuple[float, float], ...]
    confidence: float
    size: float
    sure_at: float = CONFIDENT
    why: Why | None = None

    @property
    def confident(self) -> bool:
        """True when the reading can be trusted without a human look."""
        return self.confidence >= self.sure_at

    @property
    def die(self) -> Die:
        return Die(self.value, self.color)

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "color": self.color.value if self.color else None,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline],
            "size": round(self.size, 1),
            "confidence": round(self.confidence, 3),
            "confident": self.confident,
            "why": None if self.confident else self.why,
        }


def reading_order(readings: Sequence[DieReading]) -> list[DieReading]:
    """Readings sorted top-to-bottom in rows, left-to-right within a row.

    Two dice are in the same row when their centres differ by less than half a die in y,
    so the order does not flip when a die moves a few pixels.
    """
    if not readings:
        return []
    by_y = sorted(readings, key=lambda r: r.center[1])
    rows: list[list[DieReading]] = [[by_y[0]]]
    for r in by_y[1:]:
        row = rows[-1]
        row_y = sum(d.center[1] for d in row) / len(row)
        if abs(r.center[1] - row_y) < 0.5 * max(r.size, row[0].size):
            row.append(r)
        else:
            rows.append([r])
    return [r for row in rows for r in sorted(row, key=lambda d: d.center[0])]


def to_roll(readings: Sequence[DieReading]) -> Roll:
    """The :class:`rules.dice.Roll` for these readings, in :func:`reading_order`."""
    return Roll(tuple(r.die for r in reading_order(readings)))
