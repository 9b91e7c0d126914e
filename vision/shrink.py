"""A picture shrunk by area averaging: OpenCV's ``INTER_AREA``, faster where the scale repeats.

OpenCV shrinks by area fast when the picture shrinks a whole number of times, and slowly
otherwise: a 1280×960 frame to the finder's 384×288 (three tenths) takes it 5-7 ms of one
core, an eighth of a reading. Area averaging is linear and works on rows and columns apart,
and at a scale ``p/q`` (in lowest terms) every run of ``q`` pixels makes ``p``: one ``p × q``
matrix of weights, the same for every run. So the picture is shrunk as a batch of small matrix
products down its rows, turned a quarter, and again: about 4 ms for the finder's view, the
same picture as OpenCV's to rounding (one level on a few pixels in a thousand).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

CHUNK = 1 << 18
"""How many numbers of the picture are made float32 and shrunk at a time: a megabyte, which
stays in the processor's cache (the whole 1280×960 frame at once, 15 MB, took a fifth longer)."""
MAX_RUN_OUT = 4
"""The most pixels a run may make (``p``): each input pixel costs ``p`` multiplications, so a
scale like 48/205 (a 1640-pixel frame to 384) is left to OpenCV, which costs about two."""


def shrunk_by_area(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` (8-bit, grey or colour) scaled down to ``size`` (width, height) by area
    averaging, as ``cv2.resize(image, size, interpolation=cv2.INTER_AREA)`` does."""
    h, w = image.shape[:2]
    sw, sh = size
    across, down = _run(w, sw), _run(h, sh)
    if image.dtype != np.uint8 or across is None or down is None or (
            w % sw == 0 and h % sh == 0):  # (OpenCV's own fast case)
        out: np.ndarray = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        return out
    tall = _down_rows(image.reshape(h, -1), down)
    wide = _down_rows(cv2.transpose(tall.reshape(sh, w, -1)).reshape(w, -1), across)
    turned = cv2.transpose(wide.reshape(sw, sh, -1))
    channels = image.shape[2:] if image.ndim == 3 and image.shape[2] > 1 else ()
    return cv2.convertScaleAbs(turned).reshape((sh, sw, *channels))  # (as OpenCV shapes it)


def _run(n_in: int, n_out: int) -> tuple[int, int] | None:
    """``(q, p)``: every ``q`` of ``n_in`` pixels make ``p`` of ``n_out``; None when the
    picture does not shrink along this side, or the run makes more than :data:`MAX_RUN_OUT`."""
    if not 0 < n_out < n_in:
        return None
    g = math.gcd(n_in, n_out)
    return (n_in // g, n_out // g) if n_out // g <= MAX_RUN_OUT else None


def _down_rows(rows: np.ndarray, run: tuple[int, int]) -> np.ndarray:
    """``rows`` (one picture row per row) shrunk down their count by the run, in float32, a
    few runs at a time (:data:`CHUNK`), each made float32 just before it is used."""
    q, p = run
    n, width = rows.shape[0] // q, rows.shape[1]
    out = np.empty((n * p, width), np.float32)
    step = max(1, CHUNK // (q * width))
    for a in range(0, n, step):
        b = min(n, a + step)
        np.matmul(_weights(q, p), rows[a * q:b * q].astype(np.float32).reshape(b - a, q, width),
                  out=out[a * p:b * p].reshape(b - a, p, width))
    return out


@lru_cache(maxsize=16)
def _weights(q: int, p: int) -> np.ndarray:
    """The ``p × q`` area weights of a run: output pixel ``o`` averages input ``[o·q/p,
    (o+1)·q/p)``, each input pixel weighed by how much of it lies in there (in units of
    ``1/p`` of a pixel, so the arithmetic is exact)."""
    w = np.zeros((p, q), np.float64)
    for o in range(p):
        for i in range(q):
            w[o, i] = max(0, min((o + 1) * q, (i + 1) * p) - max(o * q, i * p))
    return (w / q).astype(np.float32)
