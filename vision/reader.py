"""``read_dice``: every die in a frame with its value, face colour and confidence.

Steps: white-balance and shrink the frame (:mod:`vision.locate`), find each die's top
face, warp it to a small square from the full-size frame, count the pips
(:mod:`vision.pips`) and, for HABA dice, name the face colour (:mod:`vision.color`).
Ordinary dice (any body and pip colour, marbled, translucent) are read by the small
learned model of :mod:`vision.classify` instead of blob counting, when it is shipped.
A region with no pip-like blobs is not reported (it is not a die); a reading whose pips
do not sit on a standard layout, or whose colour is near two palette colours, gets a low
confidence rather than being dropped.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from vision.classify import classify
from vision.color import face_color
from vision.locate import Candidate, WorkFrame, find_blobs, find_faces, to_lab
from vision.palette import Palette
from vision.pips import count_pips, face_crop
from vision.reading import DieReading

Kind = Literal["haba", "standard"]

STANDARD_GROW = 1.0
"""An ordinary die's blob includes its shadow and side faces: read the central part."""
MIN_FIT = 0.2
"""Blobs that fit a pip layout worse than this are not a die (printed art, a coin)."""


def _overlaps(a: Candidate, b: Candidate) -> bool:
    return np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < 0.6 * min(
        a.side, b.side)


def _read(frame: np.ndarray, kind: Kind, palette: Palette
          ) -> list[tuple[DieReading, np.ndarray]]:
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("read_dice needs an 8-bit BGR frame (height x width x 3)")
    work = WorkFrame.of(frame, flat=kind == "haba")
    cands = find_faces(work, palette) if kind == "haba" else find_blobs(work)
    cands.sort(key=lambda c: -c.side)
    out: list[tuple[DieReading, np.ndarray]] = []
    kept: list[Candidate] = []
    h, w = frame.shape[:2]
    for cand in cands:
        box = cand.box()
        if box.min() < 1 or box[:, 0].max() > w - 2 or box[:, 1].max() > h - 2:
            continue  # cut by the frame edge: not a whole die (or a card's edge)
        if any(_overlaps(cand, k) for k in kept):
            continue
        grow = 1.0 if kind == "haba" else STANDARD_GROW
        crop = to_lab(face_crop(frame, cand, grow), work.gains_at(*cand.center))
        color, lab = None, np.zeros(3)
        learned = classify(crop) if kind == "standard" else None
        if learned is not None:  # ordinary dice: the learned reader (vision.classify)
            value, conf = learned
            if value == 0:
                continue  # the model says: not a die
        else:
            pips = count_pips(crop, drop_edge_blobs=kind == "standard")
            if pips.value is None or (kind == "haba" and pips.fit < MIN_FIT):
                continue  # no pips, or blobs on no die layout: not a die
            value, conf = pips.value, pips.fit
            if kind == "haba":
                color, margin, lab = face_color(crop, pips.pip_mask, palette)
                conf *= 0.4 + 0.6 * min(1.0, margin / 0.3)
        kept.append(cand)
        out.append((DieReading(value, color, cand.center,
                               tuple((float(x), float(y)) for x, y in box),
                               float(conf), cand.side), lab))
    return out


def read_dice(frame: np.ndarray, kind: Kind = "haba", palette: Palette | None = None
              ) -> list[DieReading]:
    """Read every die in a BGR ``frame`` (any size; the die size is measured from it).

    ``kind="haba"`` finds coloured HABA faces and names their colour with ``palette``
    (default: :meth:`Palette.default`); ``"standard"`` reads ordinary dice of any colour
    and reports no colour. Readings are in no particular order (see ``to_roll``).
    """
    return [r for r, _ in _read(frame, kind, palette or Palette.default())]


def measure_faces(frame: np.ndarray, palette: Palette | None = None
                  ) -> list[tuple[DieReading, np.ndarray]]:
    """HABA readings with each face's measured Lab colour, in reading order (calibration)."""
    from vision.reading import reading_order

    found = _read(frame, "haba", palette or Palette.default())
    order = reading_order([r for r, _ in found])
    by_id = {id(r): lab for r, lab in found}
    return [(r, by_id[id(r)]) for r in order]


__all__ = ["measure_faces", "read_dice"]
