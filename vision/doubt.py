"""Doubting: the most probable reading of a frame, its probability, and one rule for asking.

The reading is the likeliest choice of faces (:mod:`vision.choose`) read together under the
box's physics (:func:`vision.consistency.read_together`). Its probability is the choice's
times the chance that every chosen die reads as chosen (the same function) times, per chosen
face, the chance that it is a die's top and not the side of a die whose top lies beside it
(:attr:`Face.beneath`, to the power :attr:`ReaderModel.side_doubt`: the choice alone cannot
say it, when that top was never found or the other choices are worse still). The one doubt
rule: the table is asked when that probability is below the model's
:attr:`ReaderModel.threshold`.

Each die's confidence is the chance that a die lies at its face (summed over choices) times
the chance of its value and colour; no die is less sure than the reading, so when the
reading is sure enough no die asks, and when it is not, the least sure die is marked with
the reading's probability: the page shows the table which die is in doubt.

Told how many dice were thrown, a chosen face is not reported at all when the chance that a
die lies at its place (it or a face beside it chosen, summed over choices) is below the
threshold: the table, shown fewer dice than were thrown, asks whether one is covered or
outside the picture, instead of taking a finger over a hidden die, or a die printed on a
citizen card, for the missing die. (Such a reading asks either way: its probability is at
most that face's chance.) Two faces of one leaning die share a place: that die is still
read, and asked about. Asked to read again (the players see no die covered), the reader
reports such faces too, each marked for the table to check.

The weights and the threshold live in ``vision/models/haba_reader.toml``, written by
``tools/fit_haba_reader.py`` with the command that fitted them.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.choose import TERMS, Shape, Weighed, chances
from vision.consistency import Decision, read_together
from vision.faces import Face, Seen
from vision.palette import Palette
from vision.reading import DieReading, Why

MODEL_TOML = Path(__file__).with_name("models") / "haba_reader.toml"
SHAPE = tuple(f.name for f in fields(Shape))
"""The numbers of :class:`vision.choose.Shape`, as the data file names them."""


@dataclass(frozen=True)
class ReaderModel:
    """The fitted weights of :data:`vision.choose.TERMS` and the numbers inside the terms
    (:class:`vision.choose.Shape`), the threshold below which the table is asked, the pip
    reader's temperature, how much a chosen face that may be a die's side lowers the
    reading's probability, how far outside a marked tray a reading may stand and be kept,
    from what tilt a tray's corners tell the focal length, and how they were fitted."""

    weights: np.ndarray
    shape: Shape
    threshold: float
    temperature: float
    side_doubt: float = 0.0
    fitted_by: str = ""
    date: str = ""
    outside: float = math.inf
    """How far outside the marked tray (in the reading's own sizes) the point a reading
    stands on (:meth:`vision.tray.Tray.foot`) may lie and the reading still be kept: the
    farthest a die read on the tuning frames stood outside a tray marked tight around the
    dice (that point is approximate). A die beside the tray, beyond its wall, stands
    further out. Fitted on its own (``tray_fitted_by``)."""
    telling_tilt: float = math.inf
    """Degrees a camera must be tilted for the marked tray's corners to tell its focal length
    (:meth:`vision.tray.Tray.focal`; less tilted, the lens's usual one is taken): the tilt
    from which, on the tuning frames' simulated taps, the camera's nadir lies in the truest
    direction from the dice."""
    tray_fitted_by: str = ""
    kept_below: float = 0.0
    """A die lying where a die of the last roll lay is that die, kept, while the mean colour
    distance over its square since then is below this (:func:`vision.lastroll.kept_dice`;
    0: none is): the highest level at which no die thrown onto such a place of the tuning
    frames counts as kept. Fitted on its own (``kept_fitted_by``)."""
    kept_fitted_by: str = ""

    @classmethod
    def from_toml(cls, text: str, tray: bool = True, kept: bool = True) -> ReaderModel:
        """The model a data file holds; without ``tray`` (``kept``), one whose ``[tray]``
        (``[kept]``) section is not fitted yet may be read (``tools/fit_haba_reader.py
        --tray-only`` and ``--kept-only`` fit them)."""
        data = tomllib.loads(text)
        weights, shape = data.get("weights", {}), data.get("shape", {})
        missing = [t for t in TERMS if t not in weights]
        missing += [f"shape.{k}" for k in SHAPE if k not in shape]
        missing += [k for k in ("threshold", "temperature", "side_doubt") if k not in data]
        unfitted = {"outside": math.inf, "telling_tilt": math.inf, "fitted_by": ""}
        section = data.get("tray", {}) if tray else {**unfitted, **data.get("tray", {})}
        missing += [f"tray.{k}" for k in unfitted if k not in section]
        unkept = {"below": 0.0, "fitted_by": ""}
        keeping = data.get("kept", {}) if kept else {**unkept, **data.get("kept", {})}
        missing += [f"kept.{k}" for k in unkept if k not in keeping]
        if missing:
            raise ValueError(f"haba_reader.toml lacks {', '.join(missing)}: "
                             "fit it again with tools/fit_haba_reader.py")
        return cls(np.array([float(weights[t]) for t in TERMS]),
                   Shape(**{k: float(shape[k]) for k in SHAPE}), float(data["threshold"]),
                   float(data["temperature"]), float(data["side_doubt"]),
                   str(data.get("fitted_by", "")), str(data.get("date", "")),
                   float(section["outside"]), float(section["telling_tilt"]),
                   str(section["fitted_by"]), float(keeping["below"]),
                   str(keeping["fitted_by"]))

    def to_toml(self) -> str:
        lines = ["# Written by tools/fit_haba_reader.py; fit again, do not edit by hand.",
                 f"fitted_by = {self.fitted_by!r}".replace("'", '"'),
                 f'date = "{self.date}"', f"threshold = {self.threshold:.4f}",
                 f"temperature = {self.temperature:.4f}",
                 f"side_doubt = {self.side_doubt:.4f}", "", "[weights]"]
        lines += [f"{t} = {w:.4f}" for t, w in zip(TERMS, self.weights, strict=True)]
        lines += ["", "[shape]"]
        lines += [f"{k} = {getattr(self.shape, k):.4f}" for k in SHAPE]
        lines += ["", "[tray]", f"fitted_by = {self.tray_fitted_by!r}".replace("'", '"'),
                  f"outside = {self.outside:.2f}", f"telling_tilt = {self.telling_tilt:.1f}"]
        lines += ["", "[kept]", f"fitted_by = {self.kept_fitted_by!r}".replace("'", '"'),
                  f"below = {self.kept_below:.1f}"]
        return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def default_model() -> ReaderModel:
    """The shipped model (``vision/models/haba_reader.toml``)."""
    return ReaderModel.from_toml(MODEL_TOML.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Reading:
    """A frame's most probable reading: its dice, its probability, and the faces chosen
    for the dice (their places in :attr:`Seen.faces`, in the order of ``dice``)."""

    dice: tuple[DieReading, ...]
    chance: float
    chosen: tuple[int, ...] = ()


def square(seen: Seen, k: int) -> tuple[tuple[float, float], ...]:
    """The corners of face ``k``, in order."""
    f = seen.faces[k].found
    (cx, cy), h = f.center, f.side / 2
    t = math.radians(f.angle)
    ux, uy = (math.cos(t) * h, math.sin(t) * h), (-math.sin(t) * h, math.cos(t) * h)
    return tuple((cx + sx * ux[0] + sy * uy[0], cy + sx * ux[1] + sy * uy[1])
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def a_top(face: Face, model: ReaderModel) -> float:
    """The chance that a chosen face is a die's top, not the side of a die beside it."""
    return float((1.0 - min(face.beneath, 1.0 - 1e-9)) ** model.side_doubt)


def why_unsure(face: Face, decision: Decision, there: float, top: float,
               palette: Palette) -> Why:
    """Why a die is unsure: the largest of its doubts, each one less its chance of being
    right on that count: a die's top and not a side (``top``), a die at all (``there``), its
    value, its colour, and the box (a reading the box overrules)."""
    value = float(face.belief.value[decision.value - 1])
    colour = float(face.belief.color[palette.colors.index(decision.color)])
    own = value * colour
    doubts: dict[Why, float] = {
        "side": 1.0 - top, "die": 1.0 - there, "value": 1.0 - value, "colour": 1.0 - colour,
        "box": 1.0 - min(decision.chance / own, 1.0) if own > 0 else 1.0}
    return max(doubts, key=lambda why: doubts[why])


def decide(seen: Seen, weighed: Weighed, model: ReaderModel, palette: Palette,
           leave_out: bool = True) -> Reading:
    """The most probable reading of the frame and its probability (module docstring), told
    the count without the faces where a die is less likely than the threshold (unless not
    ``leave_out``: the players asked to read again, and check them). Each unsure die says
    why (:func:`why_unsure`; the die marked for the reading as a whole: "die" when which
    faces are the dice is what is in doubt, "side" when a side is)."""
    p = chances(weighed, model.weights)
    if not len(p):
        return Reading((), 1.0)
    best = int(np.argmax(p))
    chosen = weighed.choices[best]
    faces = [seen.faces[k] for k in chosen]
    decisions, read_right = read_together([f.belief for f in faces], palette.colors)
    tops = [a_top(f, model) for f in faces]
    all_tops = math.prod(tops)
    chance = float(p[best]) * read_right * all_tops
    picked = weighed.membership(len(seen.faces))
    there = [float(p @ picked[:, k]) for k in chosen]
    places = [float(p @ (picked[:, k] | picked[:, [nb.index for nb in f.neighbours]].any(axis=1)))
              for k, f in zip(chosen, faces, strict=True)]
    sure = [min(t * d.chance * top, 1.0)
            for t, d, top in zip(there, decisions, tops, strict=True)]
    whys: list[Why | None] = [
        why_unsure(f, d, t, top, palette) if s < model.threshold else None
        for f, d, t, top, s in zip(faces, decisions, there, tops, sure, strict=True)]
    if chance < model.threshold and sure:
        least = int(np.argmin(sure))
        if sure[least] >= model.threshold:  # sure on its own: the reading as a whole is not
            whys[least] = ("die" if p[best] <= min(read_right, all_tops) else "side"
                           if all_tops <= read_right
                           else why_unsure(faces[least], decisions[least], there[least],
                                           tops[least], palette))
        sure[least] = min(sure[least], chance)
    dice = tuple(DieReading(d.value, d.color, f.found.center, square(seen, k), s,
                            f.found.side, model.threshold, why)
                 for k, f, d, s, why in zip(chosen, faces, decisions, sure, whys, strict=True))
    if weighed.told and leave_out:  # no die likely at a face's place: none reported there
        kept = [n for n, t in enumerate(places) if t >= model.threshold]
        dice, chosen = tuple(dice[n] for n in kept), tuple(chosen[n] for n in kept)
    return Reading(dice, chance, chosen)


__all__ = ["MODEL_TOML", "SHAPE", "ReaderModel", "Reading", "a_top", "decide", "default_model",
           "why_unsure"]
