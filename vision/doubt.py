"""Doubting: the most probable reading of a frame, its probability, and one rule for asking.

The reading is the likeliest choice of faces (:mod:`vision.choose`) read together under the
box's physics (:func:`vision.consistency.most_probable`). Its probability is the choice's
times the chance that every chosen die reads as chosen
(:func:`vision.consistency.reading_chance`). The one doubt rule: the table is asked when
that probability is below the model's :attr:`ReaderModel.threshold`.

Each die's confidence is the chance that a die lies at its face (summed over choices) times
the chance of its value and colour; no die is less sure than the reading, so when the
reading is sure enough no die asks, and when it is not, the least sure die is marked with
the reading's probability: the page shows the table which die is in doubt.

The weights and the threshold live in ``vision/models/haba_reader.toml``, written by
``tools/fit_haba_reader.py`` with the command that fitted them.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.choose import TERMS, Weighed, chances
from vision.consistency import most_probable, reading_chance
from vision.faces import Seen
from vision.palette import Palette
from vision.reading import DieReading

MODEL_TOML = Path(__file__).with_name("models") / "haba_reader.toml"


@dataclass(frozen=True)
class ReaderModel:
    """The fitted weights of :data:`vision.choose.TERMS`, the threshold below which the
    table is asked, the pip reader's temperature, and how they were fitted."""

    weights: np.ndarray
    threshold: float
    temperature: float
    fitted_by: str = ""
    date: str = ""

    @classmethod
    def from_toml(cls, text: str) -> ReaderModel:
        data = tomllib.loads(text)
        weights = data["weights"]
        missing = [t for t in TERMS if t not in weights]
        if missing:
            raise ValueError(f"haba_reader.toml lacks weights for {', '.join(missing)}: "
                             "fit it again with tools/fit_haba_reader.py")
        return cls(np.array([float(weights[t]) for t in TERMS]), float(data["threshold"]),
                   float(data["temperature"]), str(data.get("fitted_by", "")),
                   str(data.get("date", "")))

    def to_toml(self) -> str:
        lines = ["# Written by tools/fit_haba_reader.py; fit again, do not edit by hand.",
                 f"fitted_by = {self.fitted_by!r}".replace("'", '"'),
                 f'date = "{self.date}"', f"threshold = {self.threshold:.4f}",
                 f"temperature = {self.temperature:.4f}", "", "[weights]"]
        lines += [f"{t} = {w:.4f}" for t, w in zip(TERMS, self.weights, strict=True)]
        return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def default_model() -> ReaderModel:
    """The shipped model (``vision/models/haba_reader.toml``)."""
    return ReaderModel.from_toml(MODEL_TOML.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Reading:
    """A frame's most probable reading: its dice and its probability."""

    dice: tuple[DieReading, ...]
    chance: float


def square(seen: Seen, k: int) -> tuple[tuple[float, float], ...]:
    """The corners of face ``k``, in order."""
    f = seen.faces[k].found
    (cx, cy), h = f.center, f.side / 2
    t = math.radians(f.angle)
    ux, uy = (math.cos(t) * h, math.sin(t) * h), (-math.sin(t) * h, math.cos(t) * h)
    return tuple((cx + sx * ux[0] + sy * uy[0], cy + sx * ux[1] + sy * uy[1])
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def decide(seen: Seen, weighed: Weighed, model: ReaderModel, palette: Palette) -> Reading:
    """The most probable reading of the frame and its probability (module docstring)."""
    p = chances(weighed, model.weights)
    if not len(p):
        return Reading((), 1.0)
    best = int(np.argmax(p))
    chosen = weighed.choices[best]
    beliefs = [seen.faces[k].belief for k in chosen]
    decisions = most_probable(beliefs, palette.colors)
    chance = float(p[best]) * reading_chance(beliefs, palette.colors)
    there = {k: float(sum(q for c, q in zip(weighed.choices, p, strict=True) if k in c))
             for k in chosen}
    sure = [min(there[k] * d.chance, 1.0) for k, d in zip(chosen, decisions, strict=True)]
    if chance < model.threshold and sure:
        least = int(np.argmin(sure))
        sure[least] = min(sure[least], chance)
    dice = tuple(DieReading(d.value, d.color, seen.faces[k].found.center, square(seen, k),
                            s, seen.faces[k].found.side, model.threshold)
                 for k, d, s in zip(chosen, decisions, sure, strict=True))
    return Reading(dice, chance)


__all__ = ["MODEL_TOML", "ReaderModel", "Reading", "decide", "default_model"]
