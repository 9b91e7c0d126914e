"""The physically based check set's real table (``tools/render_pbr.py --at-table``): what it
plans, without Mitsuba (the scene's layout is plain NumPy; rendering is the tool's own run)."""

from __future__ import annotations

import math
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from render_pbr import (
    AT_TABLE,
    CARD_CM,
    HALF,
    citizen_card,
    citizen_row,
    die_gap,
    in_frame,
    last_roll,
    plan_frame,
)

SEEDS = st.integers(min_value=0, max_value=2**31)


@settings(max_examples=25, deadline=None)
@given(SEEDS)
def test_a_real_table_frame_has_the_desk_arm_camera_and_the_citizen_cards(seed: int) -> None:
    frame = plan_frame(seed, at_table=True)
    assert {k: frame.family[k] for k in AT_TABLE} == AT_TABLE
    cam = frame.camera
    down = cam.target - cam.origin
    tilt = math.degrees(math.acos(-down[2] / np.linalg.norm(down)))
    assert 28.0 <= tilt <= 35.0


@settings(max_examples=25, deadline=None)
@given(SEEDS)
def test_without_the_flag_a_frame_is_the_one_its_seed_always_made(seed: int) -> None:
    plain, table = plan_frame(seed), plan_frame(seed, at_table=True)
    assert plain.family["camera"] != "desk-arm" and plain.family["clutter"] != "citizens"
    assert {k: v for k, v in table.family.items() if k not in AT_TABLE} == {
        k: v for k, v in plain.family.items() if k not in AT_TABLE}


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_no_citizen_card_lies_under_a_die_or_over_another_card(seed: int) -> None:
    frame = plan_frame(seed, at_table=True)
    cards = citizen_row(np.random.default_rng(seed), frame.dice)
    assert len(cards) == 5
    feet = np.concatenate([d.box_corners(HALF)[:, :2] for d in frame.dice])
    for centre, ang in cards:
        along, out = np.array([math.cos(ang), math.sin(ang)]), np.array([-math.sin(ang),
                                                                        math.cos(ang)])
        rel = feet - centre
        inside = (np.abs(rel @ along) < CARD_CM[0] / 2) & (np.abs(rel @ out) < CARD_CM[1] / 2)
        assert not inside.any()
    for (a, ang), (b, _) in pairwise(cards):
        gap = abs(float((b - a) @ np.array([math.cos(ang), math.sin(ang)])))
        assert gap > CARD_CM[0]


def test_a_citizen_card_carries_printed_dice_in_the_dice_paint() -> None:
    frame = plan_frame(900000, at_table=True)
    card = citizen_card(np.random.default_rng(1), frame.look)
    assert card.shape == (748, 480, 3) and card.dtype == np.float32
    printed = card[560:740].reshape(-1, 3)
    paints = np.array(list(frame.look.paint.values()))
    near = np.min(np.linalg.norm(printed[:, None, :] - paints[None], axis=2), axis=1)
    assert (near < 1e-3).sum() > 500  # at least one die's worth of its paint


@settings(max_examples=25, deadline=None)
@given(SEEDS)
def test_a_frame_s_last_roll_is_the_same_table_with_its_dice_elsewhere(seed: int) -> None:
    """The last roll keeps the frame's camera, family and dice look; its six dice lie whole in
    view, none inside another; at least one die was thrown (laid out anew), the others kept
    lie exactly as in the frame."""
    frame = plan_frame(seed, at_table=True)
    last = last_roll(frame)
    assert last.camera is frame.camera and last.family == frame.family
    assert last.look is frame.look and len(last.dice) == 6
    assert all(in_frame(d, last.camera) for d in last.dice)
    assert all(die_gap(a, b, frame.look.radius) >= -1e-6
               for k, a in enumerate(last.dice) for b in last.dice[k + 1:])
    assert any(before is not now for before, now in zip(last.dice, frame.dice, strict=True))
    again = last_roll(frame)  # the seed makes it
    assert all(np.array_equal(a.centre, b.centre) and np.array_equal(a.rot, b.rot)
               for a, b in zip(again.dice, last.dice, strict=True))
