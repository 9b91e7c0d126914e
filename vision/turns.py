"""A die's face has no up: a crop a reader is unsure of is read in all four quarter turns.

Both pip readers (:mod:`vision.habanet` for HABA dice, :mod:`vision.dicenet` for ordinary
dice) were trained on faces turned every way, and their doubts differ from turn to turn, so
the mean of four readings is surer where one reading is not.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def read_in_turns(classify: Callable[[list[np.ndarray]], np.ndarray],
                  crops: list[np.ndarray], sure: float) -> np.ndarray:
    """``classify``'s class probabilities (one row a crop) of ``crops``; a crop with no
    class at ``sure`` is read again in its three other quarter turns and the four readings
    are averaged."""
    probs = classify(crops)
    unsure = np.nonzero(probs.max(axis=1) < sure)[0]
    if len(unsure):
        turned = [np.ascontiguousarray(np.rot90(crops[i], k)) for i in unsure
                  for k in (1, 2, 3)]
        more = classify(turned).reshape(len(unsure), 3, probs.shape[1])
        probs[unsure] = (probs[unsure] + more.sum(axis=1)) / 4
    return probs


__all__ = ["read_in_turns"]
