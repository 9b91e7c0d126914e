"""The colour of a HABA face, named against references inside the frame.

A face's paint is seen through the light and the camera, which multiply each channel by
some factor; its pips (and the light wood around an inset) are the same cream on every die
and are seen through the same factors. So the face's colour *divided by its pips' colour*,
channel by channel, is the same under any lamp, any white balance and on any table
(:func:`face_chroma`), and a table's colour never enters it. That ratio, as a log with its
brightness taken out, is compared with the palette (:mod:`vision.palette`).
"""

from __future__ import annotations

import numpy as np

INNER = 0.35
"""Half the width of the face's middle (fraction of the side) in which colour is measured;
the rest (bevel, an inset's wooden border, a face found a little off) is left out."""
PIP_SHARE = 0.03
"""The brightest this share of the middle is taken as pip (a 1 covers about 5% of it)."""
FACE_SHARE = 0.5
"""The darker half of the middle is taken as paint (a 6's pips cover about 27%)."""


def face_chroma(crop: np.ndarray, face_side: float) -> tuple[np.ndarray, float]:
    """(chroma, brightness) of an upright face crop whose face is ``face_side`` pixels.

    ``chroma`` is log(paint / pip) per channel (B, G, R) minus its mean (so it sums to 0
    and does not depend on exposure); ``brightness`` is the pip's grey level (0..255), low
    when the face is in deep shadow or the frame underexposed.
    """
    n = crop.shape[0]
    half = max(2, round(INNER * face_side))
    c = n // 2
    mid = crop[max(0, c - half):c + half, max(0, c - half):c + half].reshape(-1, 3)
    f = mid.astype(np.float32)
    grey = f @ np.array([0.114, 0.587, 0.299], np.float32)
    order = np.argsort(grey)
    k = max(1, round(PIP_SHARE * len(order)))
    pip = np.median(f[order[-k:]], axis=0)
    paint = np.median(f[order[:max(1, round(FACE_SHARE * len(order)))]], axis=0)
    q = np.log(paint + 2.0) - np.log(pip + 2.0)
    return (q - q.mean()).astype(np.float64), float(pip.mean())


def chroma_of(paint_bgr: tuple[float, float, float], pip_bgr: tuple[float, float, float]
              ) -> np.ndarray:
    """The chroma a face of this paint with these pips shows (as :func:`face_chroma`)."""
    q = np.log(np.asarray(paint_bgr, np.float64) + 2.0) - np.log(np.asarray(pip_bgr) + 2.0)
    out: np.ndarray = q - q.mean()
    return out


__all__ = ["chroma_of", "face_chroma"]
