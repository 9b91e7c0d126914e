"""How far the camera looks from straight down, told by the dice's sizes over many rolls.

The dice lie on one plane, the table. Under a pinhole camera the inverse depth of a point
of a plane is an affine function of where it shows in the picture, and a die's top is seen
across in inverse proportion to its depth: so the dice's sizes, over the picture, fit
``size = a + b·x + c·y`` (``x``, ``y`` from the picture's middle), and the plane's normal is
``(b·f, c·f, a)`` in the camera's frame (``f``: the focal length in pixels). Straight down,
every die is one size (``b = c = 0``); tilted, the near dice are bigger.

One frame's six dice say little (they lie close, and a die's measured size is noisy); the
dice of many rolls, landing all over the tray, say it well enough to tell a camera on a
bridge from one on a desk arm. A top seen at a slant also looks smaller across, so the
figure runs high, by five to ten degrees under a desk arm: it is a guide for advice ("mark
the tray"), not a measurement; a marked tray's corners measure it
(:meth:`vision.tray.Tray.tilt`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.tray import FOCAL

FEWEST = 18
"""The fewest dice (three rolls) from which the sizes are taken to tell the camera's tilt."""
SPREAD = 0.05
"""The dice must lie spread over at least this share of the picture's width in every
direction (their standard deviation across their narrowest way)."""


def camera_tilt(dice: Sequence[tuple[float, float, float]], width: int, height: int,
                focal: float = FOCAL) -> float | None:
    """Degrees from straight down at which the camera looks at the table, from ``dice``
    (each die's centre x, y and size across, in pixels of ``width`` × ``height`` pictures;
    ``focal``: the lens's focal length in picture widths); None from fewer than
    :data:`FEWEST` dice, or when they lie too close together to tell (all in a line or a
    spot) or the fit makes no sense (sizes shrinking to nothing in the picture)."""
    if len(dice) < FEWEST:
        return None
    pts = np.asarray(dice, np.float64)
    x, y, size = pts[:, 0] - width / 2, pts[:, 1] - height / 2, pts[:, 2]
    where = np.column_stack([x, y]) / width
    narrowest = np.linalg.svd(where - where.mean(axis=0), compute_uv=False)[-1]
    if narrowest < SPREAD * math.sqrt(len(where)):
        return None
    (a, b, c), *_ = np.linalg.lstsq(np.column_stack([np.ones_like(x), where]), size,
                                    rcond=None)
    if a <= 0:
        return None
    return math.degrees(math.atan(focal * math.hypot(b, c) / a))


__all__ = ["FEWEST", "SPREAD", "camera_tilt"]
