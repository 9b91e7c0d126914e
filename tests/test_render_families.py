"""The renderer's families of conditions: every table draws, the same seed draws the same
frame, and the families only training sees are never in a judged set."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.render import AXES, TRAINING_ONLY, Conditions, random_conditions, render_tray, scene_for
from vision.render.table import LENSES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from haba_sets import HELD_OUT, JUDGING, SETS


@pytest.mark.parametrize("table", AXES["table"] + TRAINING_ONLY["table"])
def test_every_table_draws_the_same_frame_from_the_same_seed(table: str) -> None:
    frames = []
    for _ in range(2):
        rng = np.random.default_rng(77)
        cond = replace(Conditions(), table=table, size="small")
        frame, truth = render_tray(scene_for(rng, cond, width=640, height=480), rng)
        frames.append(frame)
        assert frame.shape == (480, 640, 3) and len(truth) == 6
    assert np.array_equal(*frames)
    assert frames[0].std() > 5  # a surface was drawn, not a blank


def test_training_only_families_are_never_judged_and_held_out_ones_never_tuned() -> None:
    for axis, names in TRAINING_ONLY.items():
        assert not set(names) & set(AXES[axis])
    for axis, names in HELD_OUT.items():
        assert set(names) <= set(AXES[axis])
    seen: dict[str, set[str]] = {axis: set() for axis in AXES}
    for seed in range(400):
        cond = random_conditions(np.random.default_rng(seed), HELD_OUT, TRAINING_ONLY)
        for axis, name in cond.families():
            seen[axis].add(name)
    for axis, names in AXES.items():  # tuning and training draw everything else
        want = (set(names) | set(TRAINING_ONLY.get(axis, ()))) - set(HELD_OUT.get(axis, ()))
        assert seen[axis] == want, axis
    for name, (_, exclude, forced) in SETS.items():
        # the lens is a camera a set chooses (the Pi camera's own), never a family held out
        assert forced.get("lens", "any") in LENSES
        fixed = {a: f for a, f in forced.items() if a != "lens"}
        if name in JUDGING:  # the judging sets draw every judged family
            assert exclude is None and fixed == {}
        else:  # the others never draw a held-out one; one on a single table is training's
            assert exclude is not None
            assert all(set(v) <= set(exclude.get(a, ())) for a, v in HELD_OUT.items())
            assert fixed.get("table") in (None, *TRAINING_ONLY["table"])
            assert all(f in AXES[a] + TRAINING_ONLY.get(a, ()) for a, f in fixed.items())
            assert all(f not in HELD_OUT.get(a, ()) for a, f in fixed.items())


@pytest.mark.parametrize("k1", [-0.12, -0.05, 0.03])
def test_the_lens_shows_only_what_was_drawn_and_the_truth_follows_it(k1: float) -> None:
    """A lens maps every frame pixel to a point of the drawn (undistorted) frame, never
    beyond its edge (where a mirror image of the dice by the edge used to show), and
    ``distort`` is the inverse of the maps, so a die's truth lies where it is drawn."""
    from vision.render.camera import Projector
    from vision.render.scene import Camera, TrayScene

    proj = Projector(TrayScene(dice=(), camera=Camera(distortion=k1)))
    maps = proj.distortion_maps()
    assert maps is not None
    mx, my = maps
    assert mx.min() >= 0.0 and mx.max() <= 1279.0 and my.min() >= 0.0 and my.max() <= 959.0
    ys, xs = np.mgrid[0:960:37, 0:1280:41]
    drawn = np.stack([mx[ys, xs], my[ys, xs]], axis=-1).reshape(-1, 2)
    seen = proj.distort(drawn)
    assert np.abs(seen - np.stack([xs, ys], axis=-1).reshape(-1, 2)).max() < 0.01
    corners = np.array([[0.0, 0.0], [1280.0, 960.0]])
    if k1 < 0:  # a barrel lens keeps the frame's corners
        assert np.abs(proj.distort(corners) - corners).max() < 1e-6


def test_a_die_leans_on_a_neighbour_or_is_propped_against_it() -> None:
    """In the leaning spacing a die tipped against a neighbour comes to rest either way a
    real one does: leaning on it (tipped towards it, 12-32°) or propped against it (tipped
    away from it, 15-40°). Both ways are drawn, and a die tipped further than a die can
    lean on another is always propped."""
    towards: list[float] = []
    away: list[float] = []
    for seed in range(120):
        rng = np.random.default_rng(seed)
        scene = scene_for(rng, replace(Conditions(), spacing="leaning"))
        for d in scene.dice:
            near = [math.degrees(math.atan2(o.y - d.y, o.x - d.x)) for o in scene.dice
                    if o is not d and math.hypot(o.x - d.x, o.y - d.y) < 1.6 * scene.die_size]
            if not d.lean or not near:  # flat, or tipped against the tray wall
                continue
            offs = [(d.lean_dir - a) % 360.0 for a in near]
            assert any(min(o, 360.0 - o) < 1e-6 or abs(o - 180.0) < 1e-6 for o in offs)
            assert 12.0 <= d.lean <= 40.0
            (towards if any(min(o, 360.0 - o) < 1e-6 for o in offs) else away).append(d.lean)
    assert len(towards) >= 20 and len(away) >= 20
    assert max(towards) <= 32.0 < max(away)


def test_a_face_seen_edge_on_leaves_no_hole_in_the_frame() -> None:
    """A die's face seen almost edge-on projects to a folded sliver (this one from a rendered
    training frame); warping a face onto it once left NaN pixels, which came out black."""
    from vision.render.draw import _Canvas
    from vision.render.scene import TrayScene

    canvas = _Canvas(TrayScene(dice=()))
    canvas.img[:] = 120.0
    sliver = np.array([[642.171279464465, 536.1464051189386],
                       [641.9273602817923, 529.8389787969214],
                       [656.9518878567665, 408.3554374564049],
                       [659.0972525142433, 399.2883816995403]])
    canvas.paste(np.full((96, 96, 3), 200.0, np.float32), sliver, owner=0, shade=0.62)
    assert np.isfinite(canvas.img).all()
    assert canvas.img.min() >= 0 and canvas.img.max() <= 200 * 0.62 + 120


def test_a_gingham_is_woven_of_ink_and_ground_in_squares() -> None:
    """Where a gingham's bands cross the cloth is the ink, where none passes the ground, and
    where one band crosses the ground half of each (the twill shows one thread or the other)."""
    from vision.render.textures import _gingham

    die = 80.0
    ink, ground = np.array((170, 90, 30), np.float32), np.array((40, 200, 235), np.float32)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        img = _gingham((400, 400), die, ground, [ink], 0.0, rng)
        rng = np.random.default_rng(seed)
        period = die * float(rng.uniform(0.35, 1.8))
        base = np.array((235, 238, 240), np.float32) * float(rng.uniform(0.85, 1.0)) \
            if rng.random() < 0.6 else ground
        ys, xs = np.mgrid[0:400, 0:400].astype(np.float32) + 0.5
        warp, weft = (xs / period) % 2, (ys / period) % 2
        inside = lambda t: (t > 0.15) & (t < 0.85)  # noqa: E731 (away from a band's edge)
        outside = lambda t: (t > 1.15) & (t < 1.85)  # noqa: E731
        both = img[inside(warp) & inside(weft)].mean(0)
        none = img[outside(warp) & outside(weft)].mean(0)
        one = img[inside(warp) & outside(weft)].mean(0)
        assert np.allclose(both, ink, atol=3) and np.allclose(none, base, atol=3)
        assert np.allclose(one, (ink + base) / 2, atol=6)
