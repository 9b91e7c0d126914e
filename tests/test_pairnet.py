"""The pair network (which of two faces beside each other is a die's top) and what the reader
does with it: a rival choice it settles, and a sure reading it puts in doubt."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.habanet import FoundFace
from vision.netformat import haba_formats
from vision.onnxnet import runtime
from vision.pairnet import (
    FaceLook,
    PairNet,
    joint_crop,
    pair_numbers,
)


def _face(x: float, y: float, side: float, found: float = 0.9) -> FoundFace:
    return FoundFace((x, y), side, 0.0, found)


_looks = st.builds(
    lambda x, y, side, found, is_die, value, pips, body: FaceLook(
        _face(x, y, side, found), is_die, value, pips, pips - 0.1, body),
    st.floats(0, 1280), st.floats(0, 960), st.floats(20, 160), st.floats(0.1, 1),
    st.floats(0, 1), st.floats(0, 1), st.floats(0, 5.5), st.floats(0, 5.5))


@settings(max_examples=200, deadline=None)
@given(_looks, _looks, st.floats(0, 1280), st.floats(0, 960))
def test_pair_numbers_change_sign_when_the_faces_change_places(
        a: FaceLook, b: FaceLook, mx: float, my: float) -> None:
    """Every number is face *a*'s less face *b*'s: swapped, each changes sign."""
    ab, ba = pair_numbers(a, b, (mx, my)), pair_numbers(b, a, (mx, my))
    assert len(ab) == haba_formats().pair.numbers - 2
    assert np.allclose(ab, [-x for x in ba], atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 360), st.floats(40, 120), st.floats(30, 90))
def test_the_joint_crop_lays_face_a_left_and_face_b_right(turn: float, gap: float,
                                                           side: float) -> None:
    """Whatever way the pair lies in the frame and however big, the crop lays the axis from
    face *a* to face *b* level: *a* (red) on the left half, *b* (blue) on the right."""
    frame = np.full((960, 1280, 3), 128, np.uint8)
    t = math.radians(turn)
    a = (640 - gap / 2 * math.cos(t), 480 - gap / 2 * math.sin(t))
    b = (640 + gap / 2 * math.cos(t), 480 + gap / 2 * math.sin(t))
    for (x, y), bgr in ((a, (0, 0, 255)), (b, (255, 0, 0))):
        cv2.circle(frame, (round(x), round(y)), round(side / 2), bgr, -1)
    crop, angle = joint_crop(frame, _face(*a, side), _face(*b, side))
    assert crop.shape == (48, 96, 3)
    assert math.isclose(angle % 360, turn % 360, abs_tol=1e-6) or \
        math.isclose(abs(angle % 360 - turn % 360), 360, abs_tol=1e-6)
    left, right = crop[:, :48].astype(int), crop[:, 48:].astype(int)
    assert (left[..., 2] - left[..., 0]).mean() > 10 > (right[..., 2] - right[..., 0]).mean()
    assert (right[..., 0] - right[..., 2]).mean() > 10


@pytest.mark.skipif(runtime() != "onnxruntime", reason="ONNX Runtime has no wheel here")
def test_onnx_runtime_and_opencv_give_the_same_chances() -> None:
    """The pair network's one input holds the crop and, in a fourth channel, its numbers (so
    that OpenCV 4.6, the Pi's, reads it too): ONNX Runtime and OpenCV answer alike (the float
    network: OpenCV runs no eight-bit copy)."""
    rng = np.random.default_rng(5)
    pairs = [(rng.integers(0, 256, (48, 96, 3), np.uint8),
              rng.normal(0, 0.5, haba_formats().pair.numbers).astype(np.float32))
             for _ in range(9)]
    a = PairNet(use="onnxruntime", int8=False).chances(pairs)
    b = PairNet(use="opencv").chances(pairs)
    assert a.shape == (9, 3) and np.allclose(a.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(a, b, atol=1e-5)


