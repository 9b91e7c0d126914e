"""The count's odds: told how many dice were thrown and seeing as many faces (or one short,
with one face left to take back), the one face the pip reader doubts is a die is made
likelier by the count, unless it is no die's size or the pair network takes it for a side
of a face beside it (``vision.reader.counted``)."""

from __future__ import annotations

import numpy as np
import pytest
from habakit import seen_face as _seen
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.reader import (
    COUNT_ODDS,
    COUNT_SIDE,
    SIDE_SHRINK,
    TOO_BIG,
    SeenFace,
    counted,
)
from vision.reading import HABA_CONFIDENT

SIDE = 60.0
"""The side of every face but the doubted one (``_seen``'s)."""


def _tops(side_chance: float, asked: list[tuple[SeenFace, SeenFace]]):
    """A stand-in pair network: of a sure face and the doubted one (``_seen``'s faces have
    is_die >= 0.9), "the first is the top and the second not" at ``side_chance`` when the
    doubted face is second, and "the second is the top" at it when first."""
    def tops(pairs):
        asked.extend(pairs)
        return np.array([[side_chance, 0.0, 1 - side_chance] if b.is_die < HABA_CONFIDENT
                         else [0.0, side_chance, 1 - side_chance] for a, b in pairs])
    return tops


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, HABA_CONFIDENT - 0.001), st.floats(0.4, 1.8), st.booleans(),
       st.floats(0.0, 1.0), st.booleans(), st.integers(1, 5))
def test_the_count_makes_the_one_doubted_face_likelier(
        is_die: float, size: float, beside: bool, side_chance: float, network: bool,
        sure: int) -> None:
    """Of as many faces as dice thrown, the one below HABA_CONFIDENT gets COUNT_ODDS times
    its odds of being a die when its side is SIDE_SHRINK to TOO_BIG times the others' and
    no face lies beside it that the network, asked in both orders, takes for the top with it
    not (COUNT_SIDE); with a face beside it and no network it is left alone. No other face
    changes. (An oracle of the rule's own words, over every case.)"""
    others = [_seen(0.9 + 0.01 * k, 1 + k, 300.0 * (k + 1)) for k in range(sure)]
    x = 300.0 + 0.5 * SIDE if beside else 3000.0
    weak = _seen(is_die, 2, x, side=size * SIDE)
    faces = [*others, weak]
    asked: list[tuple[SeenFace, SeenFace]] = []
    out = counted(faces, _tops(side_chance, asked) if network else None)
    a_die = SIDE_SHRINK <= size <= TOO_BIG
    not_side = not beside or (network and side_chance < COUNT_SIDE)
    odds = is_die / (1 - is_die) * COUNT_ODDS
    expected = odds / (1 + odds) if a_die and not_side else is_die
    assert out[:-1] == others
    assert out[-1].face == weak.face and out[-1].belief == weak.belief
    assert out[-1].is_die == pytest.approx(expected)
    if asked:
        assert {(a.face, b.face) for a, b in asked} == {(others[0].face, weak.face),
                                                          (weak.face, others[0].face)}


def test_two_doubted_faces_or_none_are_left_as_they_are() -> None:
    """The count says a die lies where the one doubted face is; of two, it cannot tell which."""
    sure = [_seen(0.99, 1 + k, 300.0 * (k + 1)) for k in range(4)]
    two = [*sure, _seen(0.6, 5, 2000.0), _seen(0.6, 6, 2300.0)]
    assert counted(two, None) == two
    none = [*sure, _seen(0.8, 5, 2000.0)]
    assert counted(none, None) == none


