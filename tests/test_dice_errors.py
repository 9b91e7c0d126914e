"""The error analysis of the ordinary-dice reader (``tools/dice_errors.py``): each labelled
die falls in exactly the kind its reading, the finder's raw finds and its neighbours say."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.dicenet import FoundDie
from vision.reading import CONFIDENT

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tools")]
from dice_errors import KINDS, TALL, kind_of_die  # noqa: E402

values = st.integers(1, 6)
chances = st.floats(0.01, 0.999)
boxes = st.tuples(st.floats(0, 500), st.floats(0, 500), st.floats(10, 80), st.floats(10, 80)
                  ).map(lambda b: np.array([b[0], b[1], b[0] + b[2], b[1] + b[3]]))


def _reading_on(label: np.ndarray, value: int, found: float, read: float) -> FoundDie:
    x0, y0, x1, y1 = (float(v) for v in label)
    return FoundDie((x0, y0, x1, y1), value, found, read, found * 0.99)


def _away(label: np.ndarray) -> np.ndarray:
    return label + 1000.0


@given(boxes, values, values, chances, chances)
def test_a_read_die_is_right_or_misread_and_sure_as_its_confidence_says(
        label: np.ndarray, value: int, read_as: int, found: float, read: float) -> None:
    die = _reading_on(label, read_as, found, read)
    kind = kind_of_die(label, value, die, [label], [die])
    assert kind in KINDS
    assert kind.startswith("right") == (read_as == value)
    assert kind.endswith("sure") == (die.confidence >= CONFIDENT)
    w, h = label[2] - label[0], label[3] - label[1]
    assert ("side in view" in kind) == (read_as != value and h >= TALL * w)


@given(boxes, values, st.booleans())
def test_an_unread_die_is_missed_dropped_or_one_of_two(label: np.ndarray, value: int,
                                                       raw_on_it: bool) -> None:
    raw = [label if raw_on_it else _away(label)]
    elsewhere = _reading_on(_away(label), value, 0.9, 0.9)
    kind = kind_of_die(label, value, None, raw, [elsewhere])
    assert kind == ("dropped" if raw_on_it else "missed by the finder")
    neighbour = _reading_on(label - np.array([5.0, 5.0, 0.0, 0.0]), value, 0.9, 0.9)
    assert kind_of_die(label, value, None, raw, [elsewhere, neighbour]) == \
        "one of two touching"
