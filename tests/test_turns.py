"""Reading in quarter turns (:mod:`vision.turns`): turning a network's input blob reads
exactly as turning the crops and making their blob again."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.turns import read_blob_in_turns, read_in_turns

WEIGHTS = np.random.default_rng(45).normal(size=(3 * 12 * 12, 7)).astype(np.float32)


def classify_blob(blob: np.ndarray) -> np.ndarray:
    """Class probabilities that depend on which way a crop lies (a linear map, softmax)."""
    logits = blob.reshape(len(blob), -1) @ WEIGHTS
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def blob_of(crops: list[np.ndarray]) -> np.ndarray:
    blob: np.ndarray = cv2.dnn.blobFromImages(crops, 1 / 255)
    return blob


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 9),
       sure=st.sampled_from([0.0, 0.3, 0.6, 0.9, 2.0]))
def test_turning_the_blob_reads_as_turning_the_crops(seed: int, count: int,
                                                     sure: float) -> None:
    crops = list(np.random.default_rng(seed).integers(0, 256, (count, 12, 12, 3), np.uint8))
    expected = read_in_turns(lambda cs: classify_blob(blob_of(cs)), crops, sure)
    assert np.array_equal(read_blob_in_turns(classify_blob, blob_of(crops), sure), expected)
