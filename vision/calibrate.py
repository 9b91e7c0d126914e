"""Calibrating the palette: measure the face colours of HABA dice from one photo.

Kept apart from :mod:`vision.palette` (the palette as data) because it drives the reader,
which itself uses the palette: palette <- reader <- calibrate, no circle.
"""

from __future__ import annotations

import numpy as np

from rules.dice import Color
from vision.palette import Palette
from vision.reader import measure_faces


def calibrate(frame: np.ndarray, colors: list[Color] | None = None) -> Palette:
    """Measure a palette from a frame of HABA dice lying flat, all faces in view.

    The dice are found with the default palette's hues (which only need to be roughly
    right); each die's face colour is measured. With ``colors`` (the faces in reading
    order, left to right, top to bottom) those names are used; otherwise the measured
    colours are grouped by nearest default hue. Every colour must be seen at least once.
    """
    faces = measure_faces(frame)
    if not faces:
        raise ValueError("no dice found in the calibration frame")
    groups: dict[Color, list[np.ndarray]] = {c: [] for c in Color}
    if colors is not None:
        if len(colors) != len(faces):
            raise ValueError(f"found {len(faces)} dice but {len(colors)} colours were given")
        for c, (_, lab) in zip(colors, faces, strict=True):
            groups[c].append(lab)
    else:
        base = Palette.default()
        for _, lab in faces:
            groups[base.classify(lab)[0]].append(lab)
    missing = [c.value for c, labs in groups.items() if not labs]
    if missing:
        raise ValueError(f"no die showing {', '.join(missing)} in the calibration frame; "
                         "lay the dice so that every colour faces up")
    centroids: dict[Color, tuple[float, float, float]] = {}
    for c, labs in groups.items():
        lab = np.median(np.array(labs), axis=0)
        centroids[c] = (float(lab[0]), float(lab[1]), float(lab[2]))
    return Palette(centroids)
