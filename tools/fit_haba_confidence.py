"""Fit what the HABA reader's chances mean, and choose where it asks the table.

    .venv/bin/python tools/fit_haba_confidence.py [--frames 300]

On the tuning renders (``benchmarks/haba_sets.py``, never the judging set) it fits the pip
reader's temperature and the palette's spread by likelihood, then prints, for thresholds
of a die's chance, how many wrong dice would be caught and how many right ones flagged, and
how many frames would ask the table or be silently wrong. The chosen figures go into
``vision/reader.py`` (``VALUE_TEMPERATURE``), ``vision/palette.py`` (``SPREAD``) and
``vision/reading.py`` (``HABA_CONFIDENT``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from haba_sets import frames  # noqa: E402

from rules.dice import Color  # noqa: E402
from vision.consistency import Belief, most_probable  # noqa: E402
from vision.palette import Palette  # noqa: E402
from vision.reader import die_chance, see_faces  # noqa: E402
from vision.reading import DieReading  # noqa: E402
from vision.render.score import match  # noqa: E402


@dataclass(frozen=True)
class Face:
    """One face the reader saw: its raw value probabilities, chroma, chance of being a
    die, and the truth of the die it lies on (None: no die)."""

    value: np.ndarray
    chroma: np.ndarray
    is_die: float
    truth: tuple[int, Color | None] | None
    counted: bool  # on a die lying flat and whole in view


@dataclass(frozen=True)
class Frame:
    """The faces of one frame, how many of its dice count and how many were thrown."""

    faces: list[Face]
    counted: int
    thrown: int


@dataclass(frozen=True)
class Decided:
    """A face as the reader decides it: the reading, its chance, and the face's truth."""

    value: int
    color: Color | None
    chance: float
    truth: tuple[int, Color | None] | None
    counted: bool


def _on_die(face: Face) -> tuple[int, Color | None]:
    """The truth of the die under ``face``; the fits take only faces on dice."""
    if face.truth is None:
        raise ValueError("a face on no die has no value or colour to fit")
    return face.truth


def collect(count: int) -> list[Frame]:
    """Per frame, per seen face: its raw value probabilities, chroma, is-die and truth."""
    palette = Palette.default()
    out = []
    for _i, img, truth, _scene in frames("tune", count, workers=1):
        seen = see_faces(img, palette, temperature=1.0)
        fake = [DieReading(1, None, s.face.center, (), 1.0, s.face.side) for s in seen]
        pairs = match(fake, truth)
        owner = {id(r): t for t, r in pairs if r is not None}
        faces = []
        for s, r in zip(seen, fake, strict=True):
            t = owner.get(id(r))
            faces.append(Face(s.belief.value, s.chroma, s.is_die,
                              None if t is None else (t.value, t.color),
                              t is not None and t.visible and not t.leaning))
        n_counted = sum(t.visible and not t.leaning for t in truth)
        out.append(Frame(faces, n_counted, len(truth)))
    return out


def fit_temperature(rows: list[Face]) -> float:
    best, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.3), np.log(5.0), 60)):
        nll = 0.0
        for r in rows:
            p = np.power(np.maximum(r.value, 1e-12), 1 / t)
            p /= p.sum()
            nll -= np.log(max(p[_on_die(r)[0] - 1], 1e-12))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def fit_spread(rows: list[Face], palette: Palette) -> float:
    best, best_nll = palette.spread, np.inf
    for s in np.exp(np.linspace(np.log(0.05), np.log(1.0), 60)):
        p = replace(palette, spread=float(s))
        probs = p.probabilities(np.array([r.chroma for r in rows]))
        k = [p.colors.index(_on_die(r)[1]) for r in rows]
        nll = -float(np.log(np.maximum(probs[np.arange(len(rows)), k], 1e-12)).sum())
        if nll < best_nll:
            best, best_nll = float(s), nll
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    data = collect(args.frames)
    dice = [r for f in data for r in f.faces if r.truth is not None]
    t = fit_temperature(dice)
    palette = Palette.default()
    spread = fit_spread(dice, palette)
    print(f"dice {len(dice)}; value temperature {t:.3f}; colour spread {spread:.3f} "
          f"(default {palette.spread})")
    palette = replace(palette, spread=spread)
    per_frame: list[tuple[list[Decided], int, int]] = []
    for f in data:
        beliefs = []
        for r in f.faces:
            v = np.power(np.maximum(r.value, 1e-12), 1 / t)
            beliefs.append(Belief(v / v.sum(), palette.probabilities(r.chroma)[0]))
        decisions = most_probable(beliefs, palette.colors)
        per_frame.append(([Decided(d.value, d.color, die_chance(b, d, palette) * r.is_die,
                                   r.truth, r.counted)
                           for d, b, r in zip(decisions, beliefs, f.faces, strict=True)],
                          f.counted, f.thrown))
    print("| threshold | wrong dice caught | right dice flagged | frames asking | "
          "frames silently wrong |\n|---|---|---|---|---|")
    for thr in (0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98):
        wrong = caught = right = flagged = asks = silent = 0
        for rows, counted, thrown in per_frame:
            unsure = any(d.chance < thr for d in rows)
            ok = all(d.truth == (d.value, d.color) for d in rows) \
                and sum(d.counted for d in rows) == counted
            asks += unsure or len(rows) != thrown  # as vision.render.score counts them
            silent += not unsure and len(rows) == thrown and not ok
            for d in rows:
                if d.truth != (d.value, d.color):
                    wrong += 1
                    caught += d.chance < thr
                else:
                    right += 1
                    flagged += d.chance < thr
        n = len(per_frame)
        share = 100 * flagged / max(right, 1)
        print(f"| {thr} | {caught}/{wrong} | {flagged}/{right} ({share:.1f}%)"
              f" | {100 * asks / n:.1f}% | {100 * silent / n:.1f}% |")


if __name__ == "__main__":
    main()
