"""Where set-aside dice lie: a marked strip along one edge of the tray.

Um Krone und Kragen sets dice aside during a turn, and the camera has to tell them from
the dice still in play. The tray has a strip along one edge, marked with tape or a low
ledge, that the camera sees whole: a die whose centre lies in the strip is set aside, the
others are active. The strip is the part of the frame beyond a line parallel to one
frame edge, ``fraction`` of the frame deep (``bottom:0.25`` is the bottom quarter).

A die whose centre lies within half a die of the line is *doubtful*: the table asks
rather than guesses (``hardware.md`` says how to build the strip so dice do not rest on
its edge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from vision.reading import DieReading

Side = Literal["bottom", "top", "left", "right"]
SIDES: tuple[Side, ...] = ("bottom", "top", "left", "right")


class StripError(ValueError):
    """A strip setting that cannot be read; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Split:
    """Readings of one frame split by the strip; ``doubtful`` are dice on its edge (they
    are also in ``active`` or ``aside``, by their centre)."""

    active: tuple[DieReading, ...]
    aside: tuple[DieReading, ...]
    doubtful: tuple[DieReading, ...]


@dataclass(frozen=True, slots=True)
class AsideStrip:
    """The set-aside strip: the ``fraction`` of the frame next to its ``side`` edge."""

    side: Side = "bottom"
    fraction: float = 0.25

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise StripError(f"the strip's side is one of {', '.join(SIDES)}, "
                             f"not {self.side!r}")
        if not 0.05 <= self.fraction <= 0.5:
            raise StripError(f"the strip is 0.05-0.5 of the frame deep, not {self.fraction}")

    def __str__(self) -> str:
        return f"{self.side}:{self.fraction:g}"

    @classmethod
    def parse(cls, text: str) -> AsideStrip:
        """Read ``"bottom:0.25"`` (side, then how deep as a fraction of the frame)."""
        side, _, depth = text.strip().lower().partition(":")
        try:
            fraction = float(depth) if depth else 0.25
        except ValueError:
            raise StripError(f"strip {text!r}: write SIDE:FRACTION, e.g. bottom:0.25") from None
        return cls(side, fraction)  # type: ignore[arg-type]

    def depth(self, center: tuple[float, float], width: int, height: int) -> float:
        """How far into the strip a point lies, in pixels (negative: outside it)."""
        x, y = center
        if self.side == "bottom":
            return y - height * (1 - self.fraction)
        if self.side == "top":
            return height * self.fraction - y
        if self.side == "right":
            return x - width * (1 - self.fraction)
        return width * self.fraction - x

    def holds(self, center: tuple[float, float], width: int, height: int) -> bool:
        return self.depth(center, width, height) >= 0

    def split(self, readings: Sequence[DieReading], width: int, height: int) -> Split:
        """Active dice, set-aside dice, and those too near the line to say."""
        active: list[DieReading] = []
        aside: list[DieReading] = []
        doubtful: list[DieReading] = []
        for r in readings:
            d = self.depth(r.center, width, height)
            (aside if d >= 0 else active).append(r)
            if abs(d) < r.size / 2:
                doubtful.append(r)
        return Split(tuple(active), tuple(aside), tuple(doubtful))

    def line(self, width: int, height: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The strip's inner edge as two frame points (for drawing it on the picture)."""
        if self.side in ("bottom", "top"):
            y = round(height * (1 - self.fraction if self.side == "bottom" else self.fraction))
            return (0, y), (width - 1, y)
        x = round(width * (1 - self.fraction if self.side == "right" else self.fraction))
        return (x, 0), (x, height - 1)
