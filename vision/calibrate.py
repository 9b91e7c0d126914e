"""``calibrate``: measure the palette from a frame of the table's own dice.

Calibration is an option that makes colour reading better (the default palette is the
box's paint), never a must: lay the dice so that every colour shows, take one frame. The
dice are found and read as usual; each face's chroma relative to its pips is measured and
grouped by the colour it is (named by you, in reading order, or as read).
"""

from __future__ import annotations

import numpy as np

from rules.dice import Color
from vision.palette import Palette, calibrated
from vision.reader import read_haba
from vision.reading import DieReading, reading_order


def measure(frame: np.ndarray, palette: Palette | None = None
            ) -> list[tuple[DieReading, np.ndarray]]:
    """Each HABA die in reading order with its measured chroma."""
    seen, reading = read_haba(frame, palette)
    readings = [(d, seen.faces[k].chroma)
                for d, k in zip(reading.dice, reading.chosen, strict=True)]
    order = reading_order([r for r, _ in readings])
    by_id = {id(r): c for r, c in readings}
    return [(r, by_id[id(r)]) for r in order]


def calibrate(frame: np.ndarray, colors: list[Color] | None = None,
              base: Palette | None = None) -> Palette:
    """A palette measured from ``frame``; ``colors`` names the faces in reading order
    (left to right, top to bottom), else each face's colour is taken as read. ``base``:
    the palette the dice are first read with (default :meth:`Palette.default`)."""
    faces = measure(frame, base)
    if not faces:
        raise ValueError("no dice found in the calibration frame")
    if colors is not None and len(colors) != len(faces):
        raise ValueError(f"found {len(faces)} dice but {len(colors)} colours were given")
    named = colors if colors is not None else [r.color for r, _ in faces]
    return calibrated([(c, chroma) for c, (_, chroma) in zip(named, faces, strict=True)
                       if c is not None], base)
