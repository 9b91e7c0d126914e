"""The HABA dice reader on rendered frames, its public types, and the renderer's truth."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from habakit import HELD_OUT
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.dice import Color, Die, Roll
from vision.habanet import (
    face_angle,
    face_crop,
)
from vision.reader import (
    default_haba_net,
    read_dice,
)
from vision.reading import DieReading, reading_order, to_roll
from vision.render import (
    Camera,
    Conditions,
    DieSpec,
    TrayScene,
    random_conditions,
    random_scene,
    render_tray,
    scene_for,
)
from vision.render.score import score_frame


def _rolled(readings: list[DieReading]) -> list[tuple[int, Color | None]]:
    return sorted(((r.value, r.color) for r in readings), key=str)


def _truth(truth) -> list[tuple[int, Color]]:
    return sorted(((t.value, t.color) for t in truth), key=str)


@pytest.mark.parametrize("level", ["clean", "mixed"])
def test_reads_rendered_frames(level: str) -> None:
    """Frames of every family (seeds of their own): nearly every die right, nothing extra,
    and a frame that is not right is never six confident dice. Five frames a level (about
    30 dice; all read right, 2026-11-29): the gate (``test_vision_gate.py``) holds the
    same figures on its frozen sets; the long runs are ``make bench``'s."""
    frames, dice, right, silent, extra = 5, 0, 0, 0, 0
    for i in range(frames):
        rng = np.random.default_rng(4000 + i + 100 * (level == "mixed"))
        frame, truth = render_tray(random_scene(rng, level=level), rng)
        s = score_frame(read_dice(frame), truth)
        dice += s.dice
        right += min(s.value, s.color)
        silent += s.silent
        extra += s.false
    assert right / dice >= {"clean": 0.99, "mixed": 0.95}[level], (right, dice)
    assert silent == 0 and extra <= 1


def test_camera_height_does_not_matter() -> None:
    """The same dice read right whether they are 40 or 150 pixels across."""
    for size in (40.0, 80.0, 150.0):
        dice = tuple(DieSpec(v, "ABC"[v % 3], (120 + 180 * (v - 1)) * size / 80 + 80,
                             330 + 200 * (v % 2) * size / 80, 17.0 * v) for v in range(1, 7))
        dice = tuple(d for d in dice if d.x < 1280 - size and d.y < 960 - size)
        scene = TrayScene(dice, die_size=size, camera=Camera(height=30.0))
        frame, truth = render_tray(scene, np.random.default_rng(1))
        assert _rolled(read_dice(frame)) == _truth(truth), size


def test_turned_mirrored_shrunk_or_zoomed_photo_reads_the_same() -> None:
    rng = np.random.default_rng(21)
    scene = scene_for(rng, Conditions("wood-light", "daylight", "apart", "medium", "inset"),
                      distractors=0, hand=0.0)
    frame, truth = render_tray(scene, rng)
    want = _truth(truth)
    assert _rolled(read_dice(frame)) == want
    h, w = frame.shape[:2]
    views = {
        "turned": np.ascontiguousarray(np.rot90(frame)),
        "upside down": np.ascontiguousarray(frame[::-1, ::-1]),
        "mirrored": np.ascontiguousarray(frame[:, ::-1]),
        "shrunk": cv2.resize(frame, (w * 3 // 4, h * 3 // 4), interpolation=cv2.INTER_AREA),
        "bigger": cv2.resize(frame, (w * 5 // 4, h * 5 // 4), interpolation=cv2.INTER_LINEAR),
    }
    for name, view in views.items():
        assert _rolled(read_dice(view)) == want, name


def _three_dice() -> tuple[np.ndarray, list]:
    """Three touching dice of 85 pixels on light wood, as the camera sees them."""
    rng = np.random.default_rng(73)
    scene = scene_for(rng, Conditions("wood-light", "daylight", "touching", "medium", "inset"),
                      n_dice=3, distractors=0, hand=0.0)
    return render_tray(scene, rng)


def _closer(frame: np.ndarray, truth: list, closer: float) -> tuple[np.ndarray, list]:
    """``frame`` as a photo taken ``closer`` times closer to the middle of its dice, and the
    dice's centres in it."""
    xs = [x for t in truth for x, _ in t.outline]
    ys = [y for t in truth for _, y in t.outline]
    h, w = frame.shape[:2]
    assert closer * (max(xs) - min(xs)) < w and closer * (max(ys) - min(ys)) < h
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    zoom = np.float32([[closer, 0, w / 2 - closer * cx], [0, closer, h / 2 - closer * cy]])
    centres = [(w / 2 + closer * (t.center[0] - cx), h / 2 + closer * (t.center[1] - cy))
               for t in truth]
    return cv2.warpAffine(frame, zoom, (w, h), flags=cv2.INTER_LINEAR), centres


def test_a_photo_taken_close_reads_the_same() -> None:
    """Three dice photographed two, three and four times closer (170, 256 and 341 pixels in a
    1280-pixel photo, beyond the 30-160 the finder learnt): the reader looks from farther and
    reads them as from afar, told the count or only the box's six: right every time (a die
    may be asked about; how often is ``benchmarks/bench_close.py``'s figure, not this
    test's)."""
    frame, truth = _three_dice()
    want = _truth(truth)
    assert _rolled(read_dice(frame, thrown=3)) == want
    net = default_haba_net()
    assert net is not None and net.find_farther(frame) == []  # 85-pixel dice: not too big
    for closer in (2.0, 3.0, 4.0):
        close, _ = _closer(frame, truth, closer)
        for count in ({"thrown": 3}, {"at_most": 6}):
            readings = read_dice(close, **count)  # type: ignore[arg-type]
            assert _rolled(readings) == want, (closer, count)


def test_dice_known_to_be_big_are_found_from_farther() -> None:
    """Dice of 341 pixels show the first look only their pips, as little dice; told the
    dice's size, the finder looks from farther and finds the three faces, each where a die
    lies and about as big."""
    frame, truth = _three_dice()
    close, centres = _closer(frame, truth, 4.0)
    side = 4.0 * float(np.median([t.size for t in truth]))
    net = default_haba_net()
    assert net is not None
    first = net.find(close)
    assert not any(f.side > side / 2 for f in first)
    found = net.find(close, dice=side)
    assert len(found) == 3
    for c in centres:
        face = min(found, key=lambda f: math.dist(f.center, c))
        assert math.dist(face.center, c) < side / 5 and 0.75 < face.side / side < 1.25


def test_coloured_tables_and_light_leave_the_colours_alone() -> None:
    """The same dice on green felt under a warm lamp, on blue felt in cool light, on orange
    wood: the colours come from the dice, not the table."""
    for k, cond in enumerate([Conditions("felt-green", "warm", "apart", "medium", "solid"),
                              Conditions("felt-blue", "cool", "touching", "medium", "solid"),
                              Conditions("wood-orange", "daylight", "apart", "large", "inset")]):
        rng = np.random.default_rng(60 + k)
        frame, truth = render_tray(scene_for(rng, cond, distractors=0, hand=0.0), rng)
        readings = read_dice(frame)
        assert _rolled(readings) == _truth(truth), cond


def test_empty_tray_and_distractors_give_no_dice() -> None:
    found = 0
    for i in range(4):
        rng = np.random.default_rng(4200 + i)
        scene = scene_for(rng, Conditions("card", "daylight", "apart", "medium", "solid"),
                          n_dice=0, distractors=4, hand=0.0)
        frame, truth = render_tray(scene, rng)
        assert truth == []
        found += len(read_dice(frame))
    assert found == 0


def test_flat_grey_frame_and_bad_input() -> None:
    assert read_dice(np.full((480, 640, 3), 128, np.uint8)) == []
    for bad in (np.zeros((10, 10), np.uint8), np.zeros((10, 10, 3), np.float32), "frame"):
        with pytest.raises(ValueError, match="8-bit BGR"):
            read_dice(bad)  # type: ignore[arg-type]


def test_reading_order_and_roll() -> None:
    def r(v: int, x: float, y: float) -> DieReading:
        return DieReading(v, Color.RED, (x, y), (), 0.9, 50.0)

    readings = [r(3, 300, 105), r(1, 100, 100), r(2, 200, 90), r(4, 50, 300)]
    assert [d.value for d in reading_order(readings)] == [1, 2, 3, 4]
    roll = to_roll(readings)
    assert isinstance(roll, Roll) and roll[0] == Die(1, Color.RED) and len(roll) == 4
    low = DieReading(5, None, (0, 0), (), 0.2, 40.0)
    assert not low.confident and r(1, 0, 0).confident
    assert low.to_json()["color"] is None


def test_renderer_is_deterministic_and_its_truth_is_where_the_faces_are() -> None:
    a, ta = render_tray(random_scene(np.random.default_rng(9)), np.random.default_rng(9))
    b, tb = render_tray(random_scene(np.random.default_rng(9)), np.random.default_rng(9))
    assert np.array_equal(a, b) and ta == tb
    assert a.shape == (960, 1280, 3) and len(ta) == 6
    rng = np.random.default_rng(5)
    scene = replace(random_scene(rng, level="clean"), camera=Camera(height=25.0, tilt=15.0,
                                                                     distortion=-0.1))
    frame, truth = render_tray(scene, rng)
    for t in truth:  # the face cut out at the truth's outline is that die's face colour
        crop = face_crop(frame, t.center, t.size, face_angle(np.array(t.outline)))
        mid = crop[18:30, 18:30].reshape(-1, 3).astype(float)
        paint = np.array(scene.look.paint[t.color])
        darkest = mid[np.argsort(mid.sum(axis=1))[: len(mid) // 2]].mean(axis=0)
        assert np.argmax(darkest) == np.argmax(paint), (t, darkest, paint)
        assert math.dist(t.center, np.mean(t.outline, axis=0)) < 1e-6


def test_motion_frames_are_deterministic_and_blurred() -> None:
    from vision.render import render_motion

    a, scene = render_motion(np.random.default_rng(3))
    b, _ = render_motion(np.random.default_rng(3))
    assert np.array_equal(a, b) and a.shape == (960, 1280, 3)
    assert scene.camera.motion_blur > 0 and any(d.tumble for d in scene.dice)


def _painted_face(turn: float, side: float, value: int, dx: float, dy: float
                  ) -> tuple[np.ndarray, tuple[float, float]]:
    """A red square of ``side`` px with ``value``'s pips on a wooden table, turned by
    ``turn`` degrees, and a centre ``dx``, ``dy`` sides off its own (as the finder's)."""
    from vision.render import PIP_SPOTS

    frame = np.full((400, 400, 3), (90, 140, 180), np.uint8)
    c = np.array([200.0, 200.0])
    t = math.radians(turn)
    u, v = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    corners = [c + (sx * u + sy * v) * side / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    cv2.fillPoly(frame, [np.round(np.array(corners) * 16).astype(np.int32)], (40, 40, 190),
                 cv2.LINE_AA, shift=4)
    for px, py in PIP_SPOTS[value]:
        p = c + (px * u + py * v) * side * 0.27
        cv2.circle(frame, tuple(np.round(p * 16).astype(int)), round(side * 0.08 * 16),
                   (200, 225, 235), -1, cv2.LINE_AA, shift=4)
    return frame, (float(c[0] + dx * side), float(c[1] + dy * side))


def _turn_error(turn: float, side: float, value: int, dx: float, dy: float) -> float:
    """How far (degrees, modulo a quarter turn) :func:`face_turn` reads a painted face."""
    from vision.habanet import face_turn

    frame, centre = _painted_face(turn, side, value, dx, dy)
    measured = face_turn(frame, centre, side)
    assert measured is not None
    return abs((measured - turn + 45) % 90 - 45)


@settings(max_examples=40, deadline=None)
@given(turn=st.floats(0, 89.9), side=st.floats(30, 160), value=st.integers(1, 6),
       dx=st.floats(-0.1, 0.1), dy=st.floats(-0.1, 0.1))
@example(turn=17.0, side=30.0, value=6, dx=0.0625, dy=0.0)  # 6.0°: failed a CI run at 6°
@example(turn=16.5, side=30.0, value=6, dx=0.1, dy=0.1)  # 7.9°: the worst found at 30 px
@example(turn=64.5, side=40.0, value=6, dx=0.1, dy=0.1)  # 3.0°: the worst found at 40 px
def test_a_face_turn_is_read_from_its_edges(turn: float, side: float, value: int,
                                            dx: float, dy: float) -> None:
    """A painted face turned by any angle and found up to a tenth of its side off centre:
    its turn is measured within nine degrees for the smallest dice (under 40 px), within three
    and a half from 40 px on. These bounds are the worst cases: a grid of turns (every half
    degree), offsets and sixes, fives and fours at 30-33 and 40-44 px found at most 7.9° and
    3.0°, both for a six found 0.1 sides off centre both ways, whose pips lie in the ring the
    edges are looked for on (until stop 37 the bounds were 6° and 2.5°: hypothesis found a
    six 6.0° off in one CI run)."""
    assert _turn_error(turn, side, value, dx, dy) < (9.0 if side < 40 else 3.5)


@pytest.mark.parametrize(("sides", "mean", "p90"), [((30, 40), 1.5, 3.0), ((40, 160), 0.5, 1.0)])
def test_a_face_turn_is_within_a_degree_or_two_on_most_faces(
        sides: tuple[float, float], mean: float, p90: float) -> None:
    """Faces drawn at random (a fixed seed: 120 of them), turned any way, of any value, found
    up to a tenth of a side off centre: the turn is off by less than ``mean`` degrees on
    average and less than ``p90`` for nine faces in ten. (Measured: 1.1° and 2.3° at 30-40
    px, 0.26° and 0.63° from 40 px.)"""
    rng = np.random.default_rng(37)
    errors = [_turn_error(rng.uniform(0, 90), rng.uniform(*sides), int(rng.integers(1, 7)),
                          rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1)) for _ in range(120)]
    assert np.mean(errors) < mean and np.percentile(errors, 90) < p90


def test_a_face_turn_of_nothing_is_none() -> None:
    from vision.habanet import face_turn

    assert face_turn(np.full((100, 100, 3), 128, np.uint8), (50.0, 50.0), 40.0) is None
    assert face_turn(np.full((100, 100, 3), 128, np.uint8), (-90.0, 50.0), 40.0) is None


def test_a_roll_no_box_can_show_is_never_read_confidently() -> None:
    """Three dice of pair B (4 red, 2 green, 6 blue): the box's physics cannot take all
    three as seen, so the reading is never sure: a die is marked for the table, and no die is
    surely read as other than it lies."""
    rng = np.random.default_rng(31)
    scene = scene_for(rng, Conditions("wood-light", "daylight", "apart", "medium", "solid"),
                      distractors=0, hand=0.0)
    layout = ((4, "B"), (4, "C"), (4, "A"), (1, "C"), (2, "B"), (6, "B"))
    scene = replace(scene, dice=tuple(replace(d, value=v, pair=p, lean=0.0, lift=0.0)
                                      for d, (v, p) in zip(scene.dice, layout, strict=True)))
    frame, truth = render_tray(scene, rng)
    readings = read_dice(frame)
    assert readings and not all(r.confident for r in readings)
    for r in readings:  # every die the box did not overrule is read as it lies
        if r.confident:
            assert (r.value, r.color) in {(t.value, t.color) for t in truth}


def test_missing_haba_networks_are_one_clear_error(monkeypatch) -> None:
    monkeypatch.setattr("vision.reader.default_haba_net", lambda: None)
    with pytest.raises(OSError, match="HABA dice networks are missing"):
        read_dice(np.zeros((100, 100, 3), np.uint8))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1279), st.floats(0, 959)), min_size=1, max_size=12),
       st.floats(10, 200))
@example([(0.0, 0.0), (0.0, 133.0)], 66.5)  # apart as floats, touching once rounded out
def test_zoom_windows_cover_every_die_and_never_overlap(points, margin) -> None:
    from vision.habanet import zoom_windows

    boxes = zoom_windows(points, margin, 1280, 960)
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= 1280 and 0 <= y0 < y1 <= 960
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    for x, y in points:  # each die's surroundings lie whole in one window
        assert any(x0 <= max(0, x - margin) and min(1280, x + margin) <= x1
                   and y0 <= max(0, y - margin) and min(960, y + margin) <= y1
                   for x0, y0, x1, y1 in boxes)


def test_small_dice_in_clumps_far_apart_are_all_found() -> None:
    """Small dice in clumps far from each other: the closer look zooms in on each clump,
    not on one window spanning the tray (that one found four of these six)."""
    rng = np.random.default_rng(5012)
    cond = replace(random_conditions(rng, HELD_OUT),
                   size="small", spacing="touching")
    frame, truth = render_tray(scene_for(rng, cond), rng)
    s = score_frame(read_dice(frame), truth)
    assert s.dice == 6 and s.found == 6 and s.right


GREEN = Color.GREEN
"""A red 3 and a green 5 are faces of one die (pair B): the tests' leaning die."""


@pytest.mark.parametrize(("width", "height"), [(1280, 960), (1920, 1080), (640, 480)])
def test_the_finder_s_view_halved_is_the_frame_shrunk_to_rounding(width: int, height: int
                                                                  ) -> None:
    """A look from farther halves the whole frame as the first look saw it, instead of
    shrinking the frame again: both average the same pixels, so they differ by rounding
    only (at most one grey level), at half and a quarter of the first look's scale."""
    from vision.habanet import scaled_for_finder
    from vision.netformat import haba_formats

    rng = np.random.default_rng(7)
    frame, _ = render_tray(random_scene(rng), rng)
    frame = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
    scale = haba_formats().finder.size / max(width, height)
    seen = scaled_for_finder(frame, scale)
    for step in (2.0, 4.0):
        direct = scaled_for_finder(frame, scale / step)
        halved = scaled_for_finder(frame, scale / step, seen)
        assert direct.shape == halved.shape
        assert np.abs(direct.astype(int) - halved.astype(int)).max() <= 1
        seen = halved
