"""The ordinary-dice reader's geometry of finds (:mod:`vision.dicenet`), as matrices, against
the rules said one pair at a time (the brute-force oracle)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.dicenet import _merged, _pips_of, _reaches, _unnested

Box = tuple[float, float, float, float]


def side(b: Box) -> float:
    return math.sqrt(max(b[2] - b[0], 0.0) * max(b[3] - b[1], 0.0))


def centre(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def pip_of(small: Box, big: Box) -> bool:
    cx, cy = centre(small)
    return side(small) <= 0.5 * side(big) and big[0] <= cx <= big[2] and big[1] <= cy <= big[3]


def reaches(box: Box, margin: float, other: Box) -> bool:
    half = margin * side(box) / 2
    cx, cy = centre(box)
    return (other[0] < cx + half and other[2] > cx - half and other[1] < cy + half
            and other[3] > cy - half)


boxes_st = st.lists(st.tuples(st.floats(0, 200), st.floats(0, 200), st.floats(2, 80),
                              st.floats(2, 80)), max_size=14).map(
    lambda bs: [(x, y, x + w, y + h) for x, y, w, h in bs])


@settings(max_examples=80, deadline=None)
@given(boxes=boxes_st, margin=st.floats(1.0, 2.0))
def test_pips_and_reach_as_matrices_match_each_pair(boxes: list[Box], margin: float) -> None:
    arr = np.array(boxes, np.float64).reshape(-1, 4)
    pips, reach = _pips_of(arr), _reaches(arr, margin)
    for i, a in enumerate(boxes):
        for k, b in enumerate(boxes):
            assert pips[i, k] == pip_of(a, b)
            assert reach[i, k] == reaches(a, margin, b)


@settings(max_examples=80, deadline=None)
@given(boxes=boxes_st)
def test_near_finds_merge_and_nested_ones_go_as_one_at_a_time(boxes: list[Box]) -> None:
    arr = np.array(boxes, np.float64).reshape(-1, 4)
    near: list[int] = []
    for i, b in enumerate(boxes):
        c = centre(b)
        if not any(np.hypot(c[0] - centre(boxes[k])[0], c[1] - centre(boxes[k])[1])
                   < 0.5 * side(b) and not pip_of(boxes[k], b) for k in near):
            near.append(i)
    assert _merged(arr) == near
    kept: list[int] = []
    for i, b in enumerate(boxes):
        if not any(pip_of(b, boxes[k]) or pip_of(boxes[k], b) for k in kept):
            kept.append(i)
    assert _unnested(arr) == kept
