"""The error analysis of the ordinary-dice reader (``tools/dice_errors.py``): each labelled
die falls in exactly the kind its reading, the finder's raw finds and its neighbours say; a
right die asked about is asked for the evidence that would make it sure; a reading on no die
is placed by the dice around it."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from vision.dicenet import FoundDie
from vision.reading import CONFIDENT

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tools")]
from dice_errors import (  # noqa: E402
    ASKED,
    BESIDE,
    KINDS,
    PLACES,
    TALL,
    asked_because,
    kind_of_die,
    place_of,
)

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


@given(st.lists(st.tuples(chances, chances, st.booleans()), min_size=1, max_size=6),
       st.integers(0, 2), st.floats(0.0, 6.0))
def test_a_frame_is_silent_when_wrong_and_every_reading_confident(
        dice: list[tuple[float, float, bool]], missed: int, shift: float) -> None:
    from fit_dice_decision import Frame, silent

    from vision.dicedecision import fitted
    decision = replace(fitted(), shift=shift)
    found = [_reading_on(np.array([0.0, 0.0, 40.0, 40.0]), 3, f, r) for f, r, _ in dice]
    frame = Frame("byler-dev", "x.jpg", found, [ok for _, _, ok in dice], 0, missed)
    wrong = missed > 0 or not all(ok for _, _, ok in dice)
    sure = all(decision.confidence(d.evidence) >= CONFIDENT for d in found)
    assert silent(frame, decision) == (wrong and sure)
    assert not silent(frame, replace(decision, shift=100.0))


@given(values, chances, chances, st.one_of(st.none(), values), st.floats(0.0, 6.0))
def test_a_die_is_asked_about_for_what_would_make_it_sure(
        value: int, found: float, read: float, pips: int | None, shift: float) -> None:
    from vision.dicedecision import fitted

    decision = replace(fitted(), shift=shift)
    die = replace(_reading_on(np.array([0.0, 0.0, 40.0, 40.0]), value, found, read), pips=pips)
    why = asked_because(die, decision)
    assert why in ASKED
    sure_read = replace(die, read=0.999).confidence_by(decision) >= CONFIDENT
    sure_found = replace(die, found=0.999, sure=die.sure / found * 0.999
                         ).confidence_by(decision) >= CONFIDENT
    if pips is not None and pips != value:
        assert why == "pips disagree"
        assert not sure_read  # the classical count's doubt caps it, whatever the network says
    elif sure_read:
        assert why == "the pip reader"
    elif sure_found:
        assert why == "the finder"
    else:
        assert why == "several"


@given(boxes, st.floats(-3.0, 3.0), st.floats(-3.0, 3.0))
def test_a_reading_on_no_die_is_beside_a_die_within_a_side_of_it(
        label: np.ndarray, dx: float, dy: float) -> None:
    side = float(np.sqrt((label[2] - label[0]) * (label[3] - label[1])))
    box = tuple(float(v) for v in label + side * np.array([dx, dy, dx, dy]))
    assume(abs(float(np.hypot(dx, dy)) - BESIDE) > 1e-6)  # not on the rounding edge
    near = float(np.hypot(dx, dy)) < BESIDE
    assert place_of(box, label[None, :]) == PLACES[0 if near else 1]
    far = _away(label)[None, :]
    assert place_of(box, far) == PLACES[1]
    assert place_of(box, np.concatenate([far, label[None, :]])) == PLACES[0 if near else 1]
    assert place_of(box, np.zeros((0, 4))) == PLACES[1]
