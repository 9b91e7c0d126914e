"""Tell the colour of a HABA die face from its warped crop.

Assumes the crop is white-balanced Lab (as the locator made it) and that the pip mask
marks the pips: the face colour is the median of the other inner pixels, named by the
nearest palette centroid.
"""

from __future__ import annotations

import numpy as np

from rules.dice import Color
from vision.palette import Palette


def face_lab(crop_lab: np.ndarray, pip_mask: np.ndarray) -> np.ndarray:
    """Median Lab of the face without its pips and rim."""
    n = crop_lab.shape[0]
    m = max(1, round(0.12 * n))
    inner = crop_lab[m:n - m, m:n - m]
    keep = pip_mask[m:n - m, m:n - m] == 0
    pixels = inner[keep] if keep.any() else inner.reshape(-1, 3)
    return np.median(pixels, axis=0)


def face_color(crop_lab: np.ndarray, pip_mask: np.ndarray, palette: Palette
               ) -> tuple[Color, float, np.ndarray]:
    """(colour, margin 0..1, median Lab) of the face."""
    lab = face_lab(crop_lab, pip_mask)
    color, margin = palette.classify(lab)
    return color, margin, lab
