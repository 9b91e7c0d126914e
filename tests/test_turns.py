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


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 9),
       sure=st.sampled_from([0.0, 0.3, 0.6, 0.9, 2.0]),
       turns=st.sampled_from([(), (2,), (1, 3), (1,), (1, 2, 3)]))
def test_an_unsure_crop_is_read_in_the_turns_asked_and_averaged(
        seed: int, count: int, sure: float, turns: tuple[int, ...]) -> None:
    """A crop with no class at ``sure`` is the mean of its readings as it lies and in each
    of ``turns`` (quarter turns, as :func:`numpy.rot90` turns it); a sure crop is read once."""
    crops = list(np.random.default_rng(seed).integers(0, 256, (count, 12, 12, 3), np.uint8))
    first = classify_blob(blob_of(crops))
    expected = first.copy()
    for i, crop in enumerate(crops):
        if first[i].max() < sure:
            turned = [np.ascontiguousarray(np.rot90(crop, k)) for k in turns]
            expected[i] = (first[i] + sum((classify_blob(blob_of([t]))[0] for t in turned),
                                          np.zeros(7, np.float32))) / (len(turns) + 1)
    got = read_blob_in_turns(classify_blob, blob_of(crops), sure, turns)
    assert np.allclose(got, expected, atol=1e-6)
    assert np.allclose(got.sum(axis=1), 1.0, atol=1e-5)
