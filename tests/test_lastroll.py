"""What changed at a face's place since the last roll's picture (``vision.lastroll``), on
synthetic pictures: a die that moved in changes its place, the camera's noise, a slightly
different exposure and a die kept where it lay do not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from habakit import face, seen
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from rules.dice import Color
from vision.lastroll import LastRoll, change, exposure, kept_at, kept_dice, last_roll, lay_at, since
from vision.reading import DieReading

PAINTS = {"red": (40, 40, 190), "green": (50, 140, 40), "blue": (160, 80, 30)}


def _table(seed: int, bgr: tuple[int, int, int], height: int = 240, width: int = 320
           ) -> np.ndarray:
    """A mottled table of one colour."""
    rng = np.random.default_rng(seed)
    mottle = cv2.GaussianBlur(rng.normal(0, 25, (height, width, 1)).astype(np.float32),
                              (0, 0), 4)
    return np.clip(np.array(bgr, np.float32) + mottle[..., None], 0, 255).astype(np.uint8)


def _die(img: np.ndarray, x: int, y: int, side: int, paint: tuple[int, int, int],
         pips: int = 5) -> np.ndarray:
    """``img`` with a die's top of ``paint`` and five light pips (or one) at (x, y)."""
    out = img.copy()
    h = side // 2
    cv2.rectangle(out, (x - h, y - h), (x + h, y + h), paint, -1)
    for dx, dy in ((0, 0), (-1, -1), (1, 1), (-1, 1), (1, -1))[:pips]:
        cv2.circle(out, (x + dx * side // 4, y + dy * side // 4), max(side // 10, 2),
                   (200, 225, 235), -1)
    return out


def _camera(img: np.ndarray, rng: np.random.Generator, noise: float, gain: float
            ) -> np.ndarray:
    f = img.astype(np.float32) * gain + rng.normal(0, noise, img.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


@settings(max_examples=40, deadline=None)
@example(0, "green", (30, 180, 30), 50, 0.0, 1.0)  # a green die on green felt, no noise
@given(st.integers(0, 10_000), st.sampled_from(sorted(PAINTS)),
       st.tuples(st.integers(30, 220), st.integers(30, 220), st.integers(30, 220)),
       st.integers(24, 60), st.floats(0.0, 4.0), st.floats(0.95, 1.05))
def test_a_die_that_moved_in_changes_its_place_far_more_than_the_camera_does(
        seed: int, paint: str, table: tuple[int, int, int], side: int, noise: float,
        gain: float) -> None:
    """Two pictures of one table, each with its own noise and the second a little brighter
    or darker: where a die came to lie the change is several times what it is on the bare
    table, or where a die lay in both pictures. (A die painted the table's own colour shows
    only its pips: no camera tells it from the table by its paint, so the claim is for a
    die whose paint differs from the table in one channel by 50 levels or more.)"""
    assume(max(abs(a - b) for a, b in zip(table, PAINTS[paint], strict=True)) >= 50)
    rng = np.random.default_rng(seed)
    bare = _table(seed, table)
    kept = _die(bare, 240, 60, side, PAINTS["blue"])
    before = _camera(kept, rng, noise, 1.0)
    now = _camera(_die(kept, 100, 150, side, PAINTS[paint]), rng, noise, gain)
    g = exposure(now, before)
    thrown = change(now, before, (100, 150), side, g)
    assert thrown > 3 * change(now, before, (230, 180), side, g)  # the bare table
    assert thrown > 3 * change(now, before, (240, 60), side, g)  # the die kept where it lay


def test_the_same_picture_has_not_changed_anywhere_and_outside_it_nothing_is_measured(
        ) -> None:
    img = _die(_table(1, (90, 120, 60)), 160, 120, 40, PAINTS["red"])
    assert change(img, img.copy(), (160, 120), 40) == 0
    assert change(img, img.copy(), (50, 60), 40) == 0
    assert change(img, np.zeros_like(img), (-200, -200), 40) == 0  # outside the picture


@pytest.mark.parametrize("gains", [(0.9, 0.9, 0.9), (1.04, 1.0, 0.95), (0.97, 1.03, 1.0)])
def test_the_exposure_and_white_balance_are_matched_before_the_pictures_are_compared(
        gains: tuple[float, float, float]) -> None:
    img = _die(_table(2, (120, 120, 120)), 160, 120, 40, PAINTS["green"])
    drifted = np.clip(img.astype(np.float32) * np.float32(gains), 0, 255).astype(np.uint8)
    told = exposure(img, drifted)
    assert told == pytest.approx([1 / g for g in gains], rel=0.01)
    matched = change(img, drifted, (160, 120), 40, told)
    assert matched < change(img, drifted, (160, 120), 40) / 2


def test_a_die_of_the_last_roll_lay_where_its_reading_was_within_half_a_side() -> None:
    dice = ((100.0, 100.0, 40.0),)
    assert kept_at((110.0, 105.0), 40.0, dice)
    assert not kept_at((125.0, 100.0), 40.0, dice)
    assert kept_at((125.0, 100.0), 60.0, dice)  # half the larger of the two
    assert not kept_at((100.0, 100.0), 40.0, ())
    two = ((100.0, 100.0, 40.0), (130.0, 100.0, 40.0))
    assert lay_at((112.0, 100.0), 40.0, two) == 0 and lay_at((118.0, 100.0), 40.0, two) == 1


def test_a_die_is_kept_where_a_die_lay_and_its_place_did_not_change() -> None:
    """Of four dice of the last roll, one stayed, two were thrown and landed where another
    lay (the same place: another colour, or the same colour and another value), one was
    thrown elsewhere: only the first is kept, and it is that die of the last roll; the
    camera's noise does not make a die thrown."""
    rng = np.random.default_rng(4)
    bare = _table(5, (70, 110, 150))
    before = _camera(_die(_die(_die(bare, 60, 60, 40, PAINTS["red"]), 160, 60, 40,
                               PAINTS["green"]), 160, 180, 40, PAINTS["blue"], pips=1),
                     rng, 2.0, 1.0)
    now = _camera(_die(_die(_die(_die(bare, 60, 60, 40, PAINTS["red"]), 160, 60, 40,
                                  PAINTS["blue"]), 160, 180, 40, PAINTS["blue"]),
                       270, 180, 40, PAINTS["green"]), rng, 2.0, 1.02)
    read = [DieReading(v, c, xy, (), 0.9, 40.0) for v, c, xy in (
        (5, Color.RED, (60.0, 60.0)), (5, Color.BLUE, (160.0, 60.0)),
        (5, Color.BLUE, (160.0, 180.0)), (5, Color.GREEN, (270.0, 180.0)))]
    last = last_roll(before, [DieReading(5, Color.RED, (61.0, 59.0), (), 0.9, 40.0),
                              DieReading(5, Color.GREEN, (160.0, 60.0), (), 0.9, 40.0),
                              DieReading(1, Color.BLUE, (160.0, 180.0), (), 0.9, 40.0)])
    assert kept_dice(now, last, read, 5.0) == [0, None, None, None]
    assert kept_dice(cv2.resize(now, (160, 120)), last, read, 5.0) == [None] * 4


def test_each_face_is_told_its_place_s_change_and_whether_a_die_lay_there() -> None:
    bare = _table(3, (60, 60, 60))
    before = _die(bare, 80, 80, 40, PAINTS["red"])
    now = _die(before, 240, 160, 40, PAINTS["blue"])
    reading = DieReading(2, Color.RED, (80.0, 80.0), ((60, 60), (100, 60), (100, 100),
                                                      (60, 100)), 0.99, 40.0)
    last = last_roll(before, [reading])
    assert last.dice == ((80.0, 80.0, 40.0),)
    s = seen([face(80, 80, side=40.0), face(240, 160, side=40.0), face(160, 200, side=40.0)])
    told = since(s, now, last)
    assert [f.kept for f in told.faces] == [True, False, False]
    kept, thrown, table = (f.change for f in told.faces)
    assert thrown is not None and kept is not None and table is not None
    assert thrown > 10 * max(kept, table, 0.1)
    assert since(s, now, None) is s  # no last roll: nothing is told
    assert since(s, now, LastRoll(cv2.resize(before, (160, 120)))) is s  # another camera mode
    assert all(f.change is None for f in s.faces)
