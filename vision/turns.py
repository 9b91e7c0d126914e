"""A die's face has no up: a crop a reader is unsure of is read in all four quarter turns.

Both pip readers (:mod:`vision.habanet` for HABA dice, :mod:`vision.dicenet` for ordinary
dice) were trained on faces turned every way, and their doubts differ from turn to turn, so
the mean of four readings is surer where one reading is not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
        _average(probs, unsure, classify(turned))
    return probs


def read_blob_in_turns(classify: Callable[[np.ndarray], np.ndarray], blob: np.ndarray,
                       sure: float, turns: Sequence[int] = (1, 2, 3)) -> np.ndarray:
    """The same as :func:`read_in_turns` for crops already made one network input
    (``blob``: n x channels x height x width, each pixel's value its own, as
    :func:`cv2.dnn.blobFromImages` makes it): the turns are turns of the blob, the same
    numbers as blobs of turned crops, without making them again. ``turns``: the quarter
    turns (1-3, counter-clockwise) an unsure crop is read in besides as it lies (all three
    by default; ``(2,)``: once more, upside down)."""
    probs = classify(blob)
    unsure = np.nonzero(probs.max(axis=1) < sure)[0]
    if len(unsure) and len(turns):
        part = blob[unsure]
        turned = np.stack([np.rot90(part, k, axes=(2, 3)) for k in turns], axis=1)
        _average(probs, unsure, classify(np.ascontiguousarray(
            turned.reshape(-1, *blob.shape[1:]))))
    return probs


def _average(probs: np.ndarray, unsure: np.ndarray, more: np.ndarray) -> None:
    """Rows ``unsure`` of ``probs`` averaged with ``more``, each row's turns in a row."""
    more = more.reshape(len(unsure), -1, probs.shape[1])
    probs[unsure] = (probs[unsure] + more.sum(axis=1)) / (more.shape[1] + 1)


__all__ = ["read_blob_in_turns", "read_in_turns"]
