"""Rendered ordinary dice (the networks' teaching material and the simulated tray for
ordinary dice) and the classical pip count that checks the networks' readings."""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from conftest import ROOT
from hypothesis import example, given
from hypothesis import strategies as st

from vision.dicenet import crop_for_pips, dice_formats
from vision.pipcount import count_pips
from vision.render_standard import (
    LIGHT_TRAY,
    PLAIN,
    DieLook,
    OrdinaryDie,
    OrdinaryScene,
    random_ordinary_scene,
    render_ordinary,
)


def one_die(value: int, look: DieLook = PLAIN, yaw: float = 0.0, tilt: float = 0.0,
            camera: float = math.inf):
    """One die at the centre of a 200x150 frame: the camera looks down on the frame's
    centre from a height in die sizes, so the die is seen exactly as at the centre of any
    larger frame (its box is the same about the centre); its crop, turned and leaning at
    most 30 degrees under the closest camera, stays some 20 pixels inside the frame."""
    scene = OrdinaryScene((OrdinaryDie(value, 100.0, 75.0, look, yaw, tilt, 30.0),), 60.0,
                          200, 150, camera, (120, 122, 124), shadows=0.3, noise=1.0)
    frame, truth = render_ordinary(scene, np.random.default_rng(value))
    return frame, truth[0]


@given(value=st.integers(1, 6), yaw=st.floats(0, 90), tilt=st.floats(0, 30),
       camera=st.sampled_from([math.inf, 10.0, 30.0]))
@example(value=3, yaw=19.94, tilt=19.9, camera=10.0)  # read as 5: three top pips and two
@example(value=3, yaw=18.5, tilt=27.25, camera=30.0)  # of a side's merged six counted
def test_a_clear_die_is_counted_by_its_top_face(value: int, yaw: float, tilt: float,
                                                camera: float) -> None:
    """White die, black pips: the classical count of the rendered die's crop is its value
    (the truth) or no opinion, never another value, however the die is turned or leans."""
    frame, truth = one_die(value, yaw=yaw, tilt=tilt, camera=camera)
    assert truth.value == value and truth.tilted == (tilt > 1.0)
    x0, y0, x1, y1 = truth.box
    reach = math.sqrt((x1 - x0) * (y1 - y0)) * dice_formats().pips.margin / 2
    assert reach < min(x0 + x1, y0 + y1, 400 - x0 - x1, 300 - y0 - y1) / 2  # no frame edge
    got = count_pips(crop_for_pips(frame, truth.box))
    assert got in (value, None)
    if tilt < 5 and math.isinf(camera):
        assert got == value  # flat under the camera: plain to count


@pytest.mark.parametrize("value", range(1, 7))
def test_the_count_reads_pips_of_any_colour(value: int) -> None:
    looks = [DieLook((28, 28, 30), (235, 235, 235)), DieLook((40, 40, 190), (235, 235, 235)),
             DieLook((40, 200, 230), (20, 20, 20)), DieLook((60, 150, 40), (235, 235, 235))]
    for look in looks:
        frame, truth = one_die(value, look, yaw=17.0)
        assert count_pips(crop_for_pips(frame, truth.box)) == value, look


@pytest.mark.parametrize("frame", [np.zeros((48, 48, 3), np.uint8),
                                   np.full((48, 48, 3), 200, np.uint8),
                                   np.random.default_rng(1).integers(0, 256, (48, 48, 3),
                                                                     dtype=np.uint8)],
                         ids=["black", "grey", "noise"])
def test_no_pips_no_count(frame: np.ndarray) -> None:
    assert count_pips(frame) is None


@given(seed=st.integers(0, 10_000), n=st.integers(1, 15))
def test_trays_are_settled_and_true(seed: int, n: int) -> None:
    """Dice lie apart (no two centres closer than a die), inside the frame, their truth
    in the scene's order."""
    scene = random_ordinary_scene(np.random.default_rng(seed), n, 320, 240, die_size=20.0)
    assert 1 <= len(scene.dice) <= n
    for i, a in enumerate(scene.dice):
        assert all(math.hypot(a.x - b.x, a.y - b.y) >= 0.99 * scene.die_size
                   for b in scene.dice[i + 1:])
    frame, truth = render_ordinary(scene, np.random.default_rng(seed))
    assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
    assert [t.value for t in truth] == [d.value for d in scene.dice]
    for t in truth:
        assert t.visible
        assert 0 <= t.box[0] < t.center[0] < t.box[2] < 320 and 0 <= t.box[1] < t.center[1]
        assert t.center[1] < t.box[3] < 240


@pytest.mark.parametrize("seed", [0, 7, 4242])
def test_the_same_seed_gives_the_same_tray(seed: int) -> None:
    """The same seed gives the same scene and the same frame, on full trays (fifteen dice
    of random looks each); the property above renders each of its scenes once."""
    scene = random_ordinary_scene(np.random.default_rng(seed), 15, 320, 240, die_size=20.0)
    assert random_ordinary_scene(np.random.default_rng(seed), 15, 320, 240,
                                 die_size=20.0) == scene
    frame, truth = render_ordinary(scene, np.random.default_rng(seed))
    again, truth_again = render_ordinary(scene, np.random.default_rng(seed))
    assert np.array_equal(frame, again) and truth == truth_again


def test_a_die_is_drawn_where_its_truth_says() -> None:
    """Inside each truth box is a die; outside them the frame is the empty table."""
    scene = replace(random_ordinary_scene(np.random.default_rng(4), 10, 640, 480,
                                          die_size=40.0), shadows=0.0, noise=0.0)
    frame, truth = render_ordinary(scene, np.random.default_rng(9))
    empty, _ = render_ordinary(replace(scene, dice=()), np.random.default_rng(9))
    differs = np.abs(frame.astype(int) - empty).sum(axis=2) > 6
    assert len(truth) == len(scene.dice) >= 5
    for t in truth:
        x0, y0, x1, y1 = (round(v) for v in t.box)
        assert differs[y0:y1, x0:x1].mean() > 0.4  # a die (a turned square fills half its box)
        differs[max(0, y0 - 2):y1 + 3, max(0, x0 - 2):x1 + 3] = False
    assert not differs.any()  # nothing drawn elsewhere


def test_the_product_never_imports_torch() -> None:
    """Reading ordinary dice needs OpenCV alone; PyTorch is for tools/train_dice_net.py."""
    code = ("import sys, numpy as np; from vision.reader import read_dice; import pi.cli; "
            "read_dice(np.zeros((64, 64, 3), np.uint8), 'standard'); "
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_a_tray_of_one_look_on_a_chosen_table() -> None:
    """The simulated tray can ask for plain dice on a light tray (every die that look)."""
    scene = random_ordinary_scene(np.random.default_rng(2), 8, 640, 480, look=PLAIN,
                                  table=LIGHT_TRAY)
    assert scene.table_bgr == LIGHT_TRAY and len(scene.dice) == 8
    assert all(d.look == PLAIN for d in scene.dice)
    mixed = random_ordinary_scene(np.random.default_rng(2), 8, 640, 480)
    assert len({d.look for d in mixed.dice}) > 1


def test_smoked_dice_with_red_pips_on_request_only() -> None:
    """``smoky`` asks for dark smoked dice with red pips (training wants many, the reader
    reads them worst); without it the mixed bag draws exactly as before, so the
    benchmark's rendered trays stay the same."""
    plain = random_ordinary_scene(np.random.default_rng(7), 10, 640, 480)
    assert random_ordinary_scene(np.random.default_rng(7), 10, 640, 480, smoky=0.0) == plain
    smoky = random_ordinary_scene(np.random.default_rng(7), 10, 640, 480, smoky=1.0)
    for die in smoky.dice:
        b, g, r = die.look.pip_bgr
        assert max(die.look.body_bgr) < 120 and r > max(b, g), die.look
    assert {d.look.kind for d in smoky.dice} <= {"translucent", "solid"}


def test_see_through_gamer_dice_on_request_only() -> None:
    """``see_through`` asks for gamer's translucent dice whose far pips show strongly and
    well off the top face's (the trays' commonest misreads); without it the mixed bag
    draws exactly as before."""
    plain = random_ordinary_scene(np.random.default_rng(9), 10, 640, 480)
    assert random_ordinary_scene(np.random.default_rng(9), 10, 640, 480,
                                 see_through=0.0) == plain
    seen = random_ordinary_scene(np.random.default_rng(9), 10, 640, 480, see_through=1.0)
    assert all(d.look.kind == "translucent" and d.look.far_pips >= 0.25 for d in seen.dice)
    assert len({d.look.veined for d in seen.dice}) == 2


def test_swirls_in_a_see_through_die_change_its_face() -> None:
    """A ``veined`` translucent die has marbled swirls in its body as well."""
    look = DieLook((170, 80, 25), (235, 235, 235), kind="translucent", opacity=0.8,
                   vein_bgr=(240, 240, 240))
    clear, truth = one_die(1, look)
    swirled, _ = one_die(1, replace(look, veined=True))
    x0, y0, x1, y1 = (int(v) for v in truth.box)
    assert np.abs(clear[y0:y1, x0:x1].astype(int) - swirled[y0:y1, x0:x1]).mean() > 5


def test_a_smoked_die_shows_its_far_pips_through_it() -> None:
    """A translucent die shows the far face's pips (7 - value) faintly: more strongly
    with a larger ``far_pips``."""
    look = DieLook((45, 45, 48), (45, 45, 190), kind="translucent", opacity=0.9,
                   far_pips=0.0)
    flat, truth = one_die(1, look)
    seen, _ = one_die(1, replace(look, far_pips=0.6))
    x0, y0, x1, y1 = (int(v) for v in truth.box)
    red = [float((f[y0:y1, x0:x1, 2].astype(int) - f[y0:y1, x0:x1, 1]).clip(0).sum())
           for f in (flat, seen)]
    assert red[1] > 2 * red[0]
