"""``read_dice``: every die in a frame with its value, face colour and confidence.

HABA dice: white-balance and shrink the frame (:mod:`vision.locate`), find each die's top
face, warp it to a small square from the full-size frame, count the pips
(:mod:`vision.pips`) and name the face colour (:mod:`vision.color`). A region with no
pip-like blobs is not reported (it is not a die); a reading whose pips do not sit on a
standard layout, or whose colour is near two palette colours, gets a low confidence
rather than being dropped.

Ordinary dice (any body and pip colour, marbled, translucent, touching) are found and read
by the two small learned networks of :mod:`vision.dicenet`; their confidence is the
finder's times the pip reader's calibrated probability, and low where a classical count of
the pips disagrees (:attr:`vision.dicenet.FoundDie.confidence`).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from vision.color import face_color
from vision.dicenet import FoundDie, default_net
from vision.locate import Candidate, WorkFrame, find_faces, to_lab
from vision.palette import Palette
from vision.pips import count_pips, face_crop
from vision.reading import DieReading

Kind = Literal["haba", "standard"]

MIN_FIT = 0.2
"""Blobs that fit a pip layout worse than this are not a die (printed art, a coin)."""


def _overlaps(a: Candidate, b: Candidate) -> bool:
    return np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < 0.6 * min(
        a.side, b.side)


def _from_net(found: FoundDie) -> DieReading:
    x0, y0, x1, y1 = found.box
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return DieReading(found.value, None, found.center, outline, found.confidence,
                      float(np.sqrt((x1 - x0) * (y1 - y0))))


def _read(frame: np.ndarray, kind: Kind, palette: Palette
          ) -> list[tuple[DieReading, np.ndarray]]:
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("read_dice needs an 8-bit BGR frame (height x width x 3)")
    if kind == "standard":
        net = default_net()
        if net is None:
            raise OSError("the ordinary-dice networks are missing from vision/models/: "
                          "reinstall kotd, or make them with tools/train_dice_net.py")
        return [(_from_net(f), np.zeros(3)) for f in net.read(frame)]
    work = WorkFrame.of(frame)
    cands = find_faces(work, palette)
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
        crop = to_lab(face_crop(frame, cand), work.gains_at(*cand.center))
        pips = count_pips(crop)
        if pips.value is None or pips.fit < MIN_FIT:
            continue  # no pips, or blobs on no die layout: not a die
        color, margin, lab = face_color(crop, pips.pip_mask, palette)
        conf = pips.fit * (0.4 + 0.6 * min(1.0, margin / 0.3))
        value = pips.value
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
