"""The HABA dice reader on rendered frames, its public types, and the renderer's truth."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
import pytest
from habakit import HELD_OUT
from habakit import seen_face as _seen
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.dice import Color, Die, Roll
from vision.consistency import Belief, Decision, agreement
from vision.habanet import (
    HINT_PEAK,
    FoundFace,
    face_angle,
    face_crop,
)
from vision.palette import Palette
from vision.reader import (
    BESIDE_TOP,
    BOX_SURE,
    CHOOSE_AMONG,
    DOUBT,
    LEFT_OUT_TOP,
    RIVAL,
    TORN,
    SeenFace,
    Tops,
    choose,
    default_haba_net,
    die_chance,
    own_chance,
    read_dice,
    see_faces,
)
from vision.reading import HABA_CONFIDENT, DieReading, reading_order, to_roll
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
    and a frame that is not right is never six confident dice."""
    frames, dice, right, silent, extra = 10, 0, 0, 0, 0
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


def _same_dice(a: list[DieReading], b: list[DieReading]) -> bool:
    return _rolled(a) == _rolled(b)


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


@pytest.mark.parametrize("closer", [2.0, 3.0, 4.0])
def test_a_photo_taken_close_reads_the_same(closer: float) -> None:
    """Three dice photographed two, three and four times closer (170, 256 and 341 pixels in a
    1280-pixel photo, beyond the 30-160 the finder learnt): the reader looks from farther and
    reads them as from afar, surely, told the count or only the box's six."""
    frame, truth = _three_dice()
    want = _truth(truth)
    assert _rolled(read_dice(frame, thrown=3)) == want
    net = default_haba_net()
    assert net is not None and net.find_farther(frame) == []  # 85-pixel dice: not too big
    close, _ = _closer(frame, truth, closer)
    for count in ({"thrown": 3}, {"at_most": 6}):
        readings = read_dice(close, **count)  # type: ignore[arg-type]
        assert _rolled(readings) == want, count
        assert all(r.confident for r in readings), count


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


@pytest.mark.parametrize(("side", "gap", "is_side"), [
    (61.0, 58.0, False),  # as big as the dice, beside an overrated face: a die
    (44.0, 50.0, True),  # narrower, closer: the overrated face's side all the same
])
def test_a_face_beside_an_overrated_one_is_its_side_only_by_the_die_size(
        side: float, gap: float, is_side: bool) -> None:
    """Four 60 px dice, an 82 px face (the finder overrating a die) and a face ``gap`` px
    from it, all surely dice to the pip reader, six thrown. A face is the big one's side
    only when it is narrower and closer than a face as big as the frame's dice
    (``TOP_AT_MOST``) allows: else it is a die like the others. A side is taken back only
    to make up the count, in doubt."""
    first = [_face(100.0 * (k + 1), 0.9) for k in range(4)] + [
        _face(700.0, 0.9, 82.0), _face(700.0 + gap, 0.8, side)]
    seen = see_faces(np.full((400, 1000, 3), 128, np.uint8), Palette.default(),
                     net=_FakeNet(first, []), thrown=6)  # type: ignore[arg-type]
    assert len(seen) == 6
    taken = next(s for s in seen if s.face.side == side)
    assert (taken.is_die <= DOUBT) == is_side
    assert all(s.is_die > DOUBT for s in seen if s is not taken)


GREEN = Color.GREEN
"""A red 3 and a green 5 are faces of one die (pair B): the tests' leaning die."""


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.05, 0.999), min_size=1, max_size=9), st.integers(1, 7))
def test_choosing_among_too_many_faces(is_die: list[float], thrown: int) -> None:
    """With up to CHOOSE_AMONG faces too many, ``choose`` keeps exactly as many as were thrown,
    in the order seen, and the likeliest choice (brute force over every choice); a face
    that an almost as likely choice leaves out is marked in doubt, unless that choice reads
    the same roll (from seven faces on, two read alike). Beyond that, all are kept for the
    table to settle."""
    palette = Palette.default()
    faces = [_seen(d, 1 + k % 6, 100.0 * k) for k, d in enumerate(is_die)]
    if len(faces) <= thrown:
        return
    chosen = choose(faces, thrown, palette)
    if len(faces) - thrown > CHOOSE_AMONG:
        assert chosen == faces
        return
    assert len(chosen) == thrown
    xs = [f.face.center[0] for f in chosen]
    assert xs == sorted(xs)

    def weight(ks: tuple[int, ...]) -> float:
        w = agreement([faces[k].belief for k in ks], palette.colors)
        return w * math.prod(f.is_die if k in ks else 1 - f.is_die
                             for k, f in enumerate(faces))

    def roll(ks: tuple[int, ...]) -> list[int]:
        return sorted(k % 6 for k in ks)  # the face's value; all faces are of one colour

    best = tuple(round(x / 100) for x in xs)
    top = max(weight(c) for c in itertools.combinations(range(len(faces)), thrown))
    assert weight(best) >= top * (1 - 1e-9)  # ties may go either way
    for k in best:
        rivals = [c for c in itertools.combinations(range(len(faces)), thrown)
                  if k not in c and weight(c) >= RIVAL * weight(best) and roll(c) != roll(best)]
        got = next(f for f in chosen if f.face.center[0] == faces[k].face.center[0])
        assert got.is_die == (min(faces[k].is_die, DOUBT) if rivals else faces[k].is_die)


@pytest.mark.parametrize(("kept_side", "in_doubt"), [(60.0, True), (78.0, False)])
def test_a_face_beside_one_left_out_is_in_doubt_unless_clearly_bigger(
        kept_side: float, in_doubt: bool) -> None:
    """Two die-like faces 50 px apart and one too many: the surer is kept. It is in doubt
    when the two look about as big (a leaning die's two faces), not when it is clearly the
    bigger one (a top, seen from above, and its side, seen at a slant)."""
    top, side = _seen(0.999, 3, 0.0), _seen(0.9, 5, 50.0, GREEN)
    top = replace(top, face=replace(top.face, side=kept_side))
    (kept,) = choose([top, side], 1, Palette.default())
    assert kept.face == top.face
    assert (kept.is_die == DOUBT) == in_doubt


@pytest.mark.parametrize(("value", "color", "in_doubt"),
                         [(5, GREEN, True), (3, Color.RED, False)])
def test_a_face_left_out_that_reads_as_the_kept_one_puts_it_in_no_doubt(
        value: int, color: Color, in_doubt: bool) -> None:
    """Two die-like faces as big as each other, 35 px apart, and one too many: the surer is
    kept, in doubt when the other reads another value and colour of the kept face's die (a
    green 5 beside a red 3: which of a leaning die's two faces is its top?), not when it
    reads the same value and colour: two faces of one die never do, so it is the same face
    found twice, and the roll is the same either way."""
    kept, left = _seen(0.999, 3, 0.0), _seen(0.9, value, 35.0, color)
    (chosen,) = choose([kept, left], 1, Palette.default())
    assert chosen.face == kept.face
    assert (chosen.is_die == DOUBT) == in_doubt


@pytest.mark.parametrize(("left_side", "in_doubt"), [(75.0, True), (80.0, False)])
def test_a_face_left_out_too_big_for_a_die_puts_none_in_doubt(left_side: float,
                                                              in_doubt: bool) -> None:
    """Two 60 px dice and a die-like face of ``left_side`` px 70 px from the first, one too
    many: the dice are kept. The first is in doubt beside a face that may be a die (1.25
    times as big: a die seen nearer, or misjudged), not beside one too big to be a die of
    the box (``TOO_BIG``: 1.33 times), a shape of a patterned cloth."""
    first, other = _seen(0.999, 3, 0.0), _seen(0.999, 4, 500.0)
    left = _seen(0.9, 5, 70.0, GREEN)
    left = replace(left, face=replace(left.face, side=left_side))
    chosen = choose([first, other, left], 2, Palette.default())
    assert [c.face for c in chosen] == [first.face, other.face]
    assert [c.is_die == DOUBT for c in chosen] == [in_doubt, False]


@pytest.mark.parametrize(("value", "in_doubt"), [(5, True), (3, False)])
def test_a_rival_choice_that_reads_the_same_roll_is_no_rival(value: int,
                                                              in_doubt: bool) -> None:
    """Three die-like faces far apart, two thrown; the first two about as likely dice as
    each other. The choice that takes the second in place of the first is a rival: the
    first is in doubt when the second reads another value, not when it reads the same
    value and colour, for the roll is the same whichever is the die."""
    first, second, third = _seen(0.9, 3, 0.0), _seen(0.85, value, 300.0), _seen(0.999, 1, 600.0)
    chosen = choose([first, second, third], 2, Palette.default())
    assert [c.face for c in chosen] == [first.face, third.face]
    assert [c.is_die == DOUBT for c in chosen] == [in_doubt, False]


@pytest.mark.parametrize(("left_x", "in_doubt"), [(950.0, False), (1050.0, True)])
def test_a_face_left_out_towards_the_middle_of_the_frame_is_the_kept_faces_side(
        left_x: float, in_doubt: bool) -> None:
    """Two die-like faces as big as each other 50 px apart and one too many, the surer kept
    at (1000, 100) in a frame whose middle is (640, 480). Left out on its side towards the
    middle, the other face lies where a flat die shows its side: the kept face is its top,
    not in doubt. Left out on the far side, where no side of a flat die shows, the kept face
    stays in doubt, and so it does either way when the frame's middle is not known."""
    top, other = _seen(0.999, 3, 1000.0), _seen(0.9, 5, left_x, GREEN)
    (kept,) = choose([top, other], 1, Palette.default(), middle=(640.0, 480.0))
    assert kept.face == top.face
    assert (kept.is_die == DOUBT) == in_doubt
    (blind,) = choose([top, other], 1, Palette.default())
    assert blind.face == top.face and blind.is_die == DOUBT


@pytest.mark.parametrize(("left_x", "middle", "in_doubt"),
                         [(950.0, (640.0, 480.0), False), (1050.0, (640.0, 480.0), True),
                          (950.0, None, True)])
def test_a_choice_that_takes_the_kept_face_s_side_instead_is_no_rival(
        left_x: float, middle: tuple[float, float] | None, in_doubt: bool) -> None:
    """A leaning die's two faces, nearly as likely as each other to be a die (0.99 and
    0.97), 50 px apart and one too many: the surer, at (1000, 100), is kept, and the choice
    taking the other face instead is a rival (at a third of its chance). A die's side faces
    the camera, so it shows towards the middle of the frame (640, 480), and the die's top
    beyond it: when the other face lies towards the middle, that choice would take the
    die's side for its top, no rival, and the kept face is not in doubt. When it lies on the
    far side, it may be the top of a die tipped away from the middle, whose risen side was
    kept: the kept face stays in doubt, as it does when the middle is not known."""
    top, other = _seen(0.99, 3, 1000.0), _seen(0.97, 5, left_x, GREEN)
    (kept,) = choose([top, other], 1, Palette.default(), middle=middle)
    assert kept.face == top.face
    assert (kept.is_die == DOUBT) == in_doubt


@pytest.mark.parametrize(("leaning_on", "in_doubt"), [(False, False), (True, True)])
def test_a_choice_that_takes_a_side_for_a_die_is_no_rival(leaning_on: bool,
                                                          in_doubt: bool) -> None:
    """A top at (1000, 100), a die-like face left out 50 px from it towards the middle of the
    frame (640, 480), where the top's side shows, and another die far off at (300, 800), one
    face too many. The choice taking the face left out instead of the far die is nearly as
    likely by the faces' chances, but it takes a side for a die: no rival, and the far die is
    not in doubt. When a third kept face lies just beyond the face left out, away from the
    middle, that face may be the top of a die leaning on the first, with the third its risen
    side: then the choice is a rival, and the far die is in doubt."""
    top, side = _seen(0.999, 3, 1000.0), _seen(0.97, 5, 950.0, GREEN)
    far = replace(_seen(0.99, 1, 300.0), face=replace(_seen(0.99, 1, 300.0).face,
                                                      center=(300.0, 800.0)))
    risen = [_seen(0.999, 6, 900.0)] if leaning_on else []
    chosen = choose([top, side, far, *risen], 2 + len(risen), Palette.default(),
                    middle=(640.0, 480.0))
    assert side.face not in [f.face for f in chosen]
    (kept,) = [f for f in chosen if f.face == far.face]
    assert (kept.is_die == DOUBT) == in_doubt


@pytest.mark.parametrize("dice_at", [(920.0,), (1130.0,), (920.0, 1130.0), ()])
def test_a_leaning_die_s_kept_face_stays_in_doubt_whichever_way_it_leans(
        dice_at: tuple[float, ...]) -> None:
    """Two die-like faces as big as each other 50 px apart and one too many: the surer,
    at x = 1000, is kept. A die leaning on another tips its top towards it, one propped
    against it tips its top away, so where the other die lies (beyond the kept face, beyond
    the one left out, both, or nowhere) does not tell the top from the face tipped up: the
    kept face stays in doubt, and the other dice do not."""
    top, back = _seen(0.999, 3, 1000.0), _seen(0.97, 5, 1050.0, GREEN)
    others = [_seen(0.9999, 1 + k, x) for k, x in enumerate(dice_at)]
    chosen = choose([top, back, *others], 1 + len(others), Palette.default())
    kept = next(f for f in chosen if f.face == top.face)
    assert back.face not in [f.face for f in chosen]
    assert kept.is_die == DOUBT
    assert all(f.is_die == o.is_die for f, o in zip(chosen[1:], others, strict=True))


@pytest.mark.parametrize(("leant_on", "flat_reads", "in_doubt"), [
    (True, (4, Color.RED), True), (False, (4, Color.RED), True),
    (True, (2, Color.GREEN), False), (False, (2, Color.GREEN), False)])
def test_a_face_left_out_puts_a_flat_die_beside_it_in_doubt(
        leant_on: bool, flat_reads: tuple[int, Color], in_doubt: bool) -> None:
    """A leaning die's two faces (x = 1000 kept, x = 1050 left out, a green 5) and a flat die
    just below the one left out, beside it. Whether or not another die lies beyond the kept
    face (x = 920), the face left out may be a die the flat one should have been instead
    (the flat die's top and the face left out its side): the flat die beside it is in doubt,
    when its reading and the face left out can be two faces of one die (a red 4 and a green
    5: pair B). Not when they cannot: a green 2 is the green 5's opposite face, which no die
    shows with it."""
    top, back = _seen(0.999, 3, 1000.0), _seen(0.97, 5, 1050.0, GREEN)
    flat = _seen(0.9999, flat_reads[0], 1060.0, flat_reads[1])
    flat = replace(flat, face=replace(flat.face, center=(1060.0, 160.0)))
    others = [_seen(0.9999, 1, 920.0)] if leant_on else []
    chosen = choose([top, back, flat, *others], 2 + len(others), Palette.default())
    assert back.face not in [f.face for f in chosen]
    (kept,) = [f for f in chosen if f.face == flat.face]
    assert (kept.is_die == DOUBT) == in_doubt


def _tops_calling(top: SeenFace, sure: float) -> Tops:
    """A pair network that calls ``top`` the top of any pair it is in, ``sure`` surely, and
    the other face not; of pairs without it, neither or both."""
    def tops(pairs: Sequence[tuple[SeenFace, SeenFace]]) -> np.ndarray:
        out = np.zeros((len(pairs), 3))
        for k, (a, b) in enumerate(pairs):
            first, second = a.face == top.face, b.face == top.face
            out[k] = ([sure, 1 - sure, 0.0] if first else [1 - sure, sure, 0.0] if second
                      else [0.0, 0.0, 1.0])
        return out
    return tops


@pytest.mark.parametrize(("sure", "side_kept"), [(0.999, False), (0.995, False),
                                                  (0.95, True), (None, True)])
def test_the_pair_network_sure_of_a_leaning_die_s_top_settles_the_choice(
        sure: float | None, side_kept: bool) -> None:
    """A leaning die's top (a red 3, seen at a slant: "not a die" 0.05) and its risen side
    (a green 5, 0.01) 50 px apart in the middle of the frame, and one die thrown. By the pip
    reader alone the side is the likelier die. Where the pair network is sure the other face
    is the top (``PAIR_ODDS``, each face seen first), its odds weigh in the choice: the top
    is kept, not in doubt. Where it is less sure, or not asked, the side is kept, in doubt
    (the table is asked, never silently wrong)."""
    top, side = _seen(0.95, 3, 1000.0), _seen(0.99, 5, 1050.0, GREEN)
    tops = _tops_calling(top, sure) if sure is not None else None
    (kept,) = choose([top, side], 1, Palette.default(), middle=(1020.0, 100.0), tops=tops)
    assert kept.face == (side if side_kept else top).face
    assert (kept.is_die == DOUBT) == side_kept


def test_the_pair_network_s_odds_never_pick_two_faces_of_one_die() -> None:
    """The same leaning die and a flat die far off, two dice thrown: the sure network keeps
    the leaning die's top and the flat die, never both faces of the leaning die."""
    top, side = _seen(0.95, 3, 1000.0), _seen(0.99, 5, 1050.0, GREEN)
    flat = _seen(0.999, 1, 300.0, Color.BLUE)
    chosen = choose([top, side, flat], 2, Palette.default(), middle=(1020.0, 100.0),
                    tops=_tops_calling(top, 0.999))
    assert [c.face for c in chosen] == [top.face, flat.face]
    assert all(c.is_die > DOUBT for c in chosen)


@pytest.mark.parametrize(("sure", "in_doubt"), [(BESIDE_TOP, False), (BESIDE_TOP - 0.01, True),
                                                 (None, True)])
def test_the_pair_network_agreeing_with_the_choice_lifts_the_doubt_beside_it(
        sure: float | None, in_doubt: bool) -> None:
    """Two die-like faces as big as each other 50 px apart and one too many, the surer kept:
    by the faces alone it is in doubt (a leaning die's two faces, ``BESIDE``). When the pair
    network, not sure enough to settle a choice (``PAIR_SURE``), still calls the kept face
    the top and the other not at least ``BESIDE_TOP``, the choice and the network agree: not
    in doubt. Less sure, or not asked: in doubt."""
    top, side = _seen(0.999, 3, 1000.0), _seen(0.9, 5, 1050.0, GREEN)
    tops = _tops_calling(top, sure) if sure is not None else None
    (kept,) = choose([top, side], 1, Palette.default(), tops=tops)
    assert kept.face == top.face
    assert (kept.is_die == DOUBT) == in_doubt


@pytest.mark.parametrize(("sure", "left_is_die", "in_doubt"), [
    (LEFT_OUT_TOP, 0.9, True), (LEFT_OUT_TOP - 0.01, 0.9, False),
    (0.9, DOUBT - 0.01, False), (None, 0.9, False)])
def test_the_pair_network_calling_a_face_left_out_the_top_puts_the_kept_one_in_doubt(
        sure: float | None, left_is_die: float, in_doubt: bool) -> None:
    """A kept face 78 px and a die-like face of 60 px left out 50 px from it, one too many:
    by the faces alone the kept one is in no doubt, clearly the bigger (``TOP_OVER_SIDE``). When
    the pair network calls the face left out the top and the kept one not at least
    ``LEFT_OUT_TOP``, the choice and the network disagree: the kept face is in doubt, as a
    leaning die's side kept in place of its top. Not when the network is less sure or not
    asked, nor when the pip reader doubts the face left out is a die (``DOUBT``)."""
    kept, left = _seen(0.999, 3, 1000.0, side=78.0), _seen(left_is_die, 5, 1050.0, GREEN)
    tops = _tops_calling(left, sure) if sure is not None else None
    (chosen,) = choose([kept, left], 1, Palette.default(), tops=tops)
    assert chosen.face == kept.face
    assert (chosen.is_die == DOUBT) == in_doubt


def test_two_faces_alike_one_too_many() -> None:
    """Two faces as likely as each other, read as two values, and one too many: one is
    kept, in doubt."""
    faces = [_seen(0.95, 3, 0.0), _seen(0.95, 4, 100.0)]
    (kept,) = choose(faces, 1, Palette.default())
    assert kept.is_die == DOUBT < HABA_CONFIDENT


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.001, 1.0), min_size=6, max_size=6),
       st.lists(st.floats(0.001, 1.0), min_size=3, max_size=3),
       st.integers(1, 6), st.sampled_from(Palette.default().colors), st.floats(0.0, 1.0))
@example([0.45, 0.55, 0.001, 0.001, 0.001, 0.001], [1.0, 0.001, 0.001], 1,
         Palette.default().colors[0], 0.97)  # torn between 1 and 2; the box sure of 1
@example([0.45, 0.55, 0.001, 0.001, 0.001, 0.001], [1.0, 0.001, 0.001], 1,
         Palette.default().colors[0], 0.91)  # the same, the box not sure enough
@example([0.1, 0.9, 0.001, 0.001, 0.001, 0.001], [1.0, 0.001, 0.001], 1,
         Palette.default().colors[0], 0.99)  # the face hardly gives it: capped
def test_a_die_is_never_surer_than_its_face_where_the_box_overrules_it(
        value: list[float], color: list[float], chosen_value: int, chosen_color: Color,
        chance: float) -> None:
    """A die's chance is the box's chance when the box keeps the face's own likeliest
    reading, and never more than the face's own chance for a reading the box chose over
    it, unless the box is sure of it (``BOX_SURE``) and the face gives it a fair chance
    (``TORN``): then the box's chance again."""
    palette = Palette.default()
    belief = Belief(np.array(value) / sum(value), np.array(color) / sum(color))
    decision = Decision(chosen_value, chosen_color, chance)
    got = die_chance(belief, decision, palette)
    favourite = (int(np.argmax(belief.value)) + 1 == chosen_value
                 and palette.colors[int(np.argmax(belief.color))] == chosen_color)
    own = own_chance(belief, decision, palette)
    if favourite or (chance >= BOX_SURE and own >= TORN):
        assert got == chance
    else:
        assert got <= min(chance, own)


class _FakeNet:
    """Stands in for the HABA networks: the first look finds ``first``; the second look,
    down to the faint peaks, finds ``faint`` too; the pip reader calls every face a 3, the
    first look's faces surely dice (but the last, "not a die" at ``weak`` when given), the
    second look's "not a die" at ``faint_not_a_die``."""

    def __init__(self, first: list[FoundFace], faint: list[FoundFace],
                 faint_not_a_die: float = 0.001, closer: list[FoundFace] | None = None,
                 weak: float | None = None) -> None:
        self.first, self.faint, self.closer = first, faint, closer or []
        self.faint_not_a_die, self.weak = faint_not_a_die, weak
        self.reads = 0
        self.faint_looks = 0
        self.closer_sides: list[float] = []

    def find(self, frame: np.ndarray, min_peak: float = 0.3, dice: float | None = None
             ) -> list[FoundFace]:
        self.faint_looks += min_peak == HINT_PEAK
        return self.first + (self.faint if min_peak == HINT_PEAK else [])

    def find_closer(self, frame: np.ndarray, side: float) -> list[FoundFace]:
        self.closer_sides.append(side)
        return self.first + self.faint + self.closer

    def find_farther(self, frame: np.ndarray) -> list[FoundFace]:
        return []  # the dice are no bigger than the first look sees

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        first_look = self.reads == 0
        self.reads += 1
        probs = np.full((len(crops), 7), 0.001)
        probs[:, 0] = 0.001 if first_look else self.faint_not_a_die
        if first_look and self.weak is not None:
            probs[-1, 0] = self.weak
        probs[:, 3] = 1.0 - probs[:, 0] - 0.005
        return probs


class _TwoFacesNet:
    """Stands in for the HABA networks: the first look finds a sure face at x = 600 and a
    fainter one ``gap`` sides to its right, 60 px each; the pip reader calls both surely
    dice, the first a 3, the second ``other_value``."""

    def __init__(self, gap: float, other_value: int) -> None:
        self.faces = [_face(600.0, 0.9), _face(600.0 + 60.0 * gap, 0.5)]
        self.other_value = other_value

    def find(self, frame: np.ndarray, min_peak: float = 0.3, dice: float | None = None
             ) -> list[FoundFace]:
        return list(self.faces)

    def find_closer(self, frame: np.ndarray, side: float) -> list[FoundFace]:
        return []

    def find_farther(self, frame: np.ndarray) -> list[FoundFace]:
        return []

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        probs = np.full((len(crops), 7), 0.001)
        for k, crop in enumerate(crops):
            probs[k, 3 if crop.mean() < 100 else self.other_value] = 0.99
        return probs


@pytest.mark.parametrize(("gap", "other_value", "faces", "in_doubt"), [
    (0.55, 5, 2, True),  # a leaning die's top and side, read as two values: one is chosen
    (0.55, 3, 1, False),  # the same value: two peaks on one face
    (0.4, 5, 1, False),  # within the face's middle: two peaks on one face, one misread
])
def test_two_faces_of_one_die_close_together_are_both_weighed(
        gap: float, other_value: int, faces: int, in_doubt: bool) -> None:
    """Two finds closer than NEAR sides are one die, the surer kept. But at least FACE_GAP
    sides apart and read as two values they are two faces of one die (a leaning die's top
    and side lie that close): both are weighed when choosing as many faces as dice thrown,
    and the one kept is in doubt (the two lie in the middle of the frame, where no side
    shows, so nothing tells which is the top). Not told the count (no choosing), both are
    reported, and the table is asked."""
    frame = np.full((400, 1200, 3), 60, np.uint8)
    frame[:, 600 + round(30 * gap):] = 160  # the second face's crop is lighter
    net = _TwoFacesNet(gap, other_value)
    palette = Palette.default()
    told = see_faces(frame, palette, net=net, thrown=1)  # type: ignore[arg-type]
    assert len(told) == 1 and told[0].face == net.faces[0]
    assert (told[0].is_die == DOUBT) == in_doubt
    assert len(see_faces(frame, palette, net=net)) == faces  # type: ignore[arg-type]


def _face(x: float, found: float, side: float = 60.0) -> FoundFace:
    return FoundFace((x, 200.0), side, 0.0, found)


@pytest.mark.parametrize(("faint", "not_a_die", "is_die"), [
    ([_face(600.0, 0.8)], 0.2, None),  # found surely by the closer look: a die
    ([_face(600.0, 0.2)], 0.2, 0.75),  # a faint peak only, the one face left: the count
    ([_face(600.0, 0.2)], 0.01, None),  # a faint peak, surely a die to the pip reader
    ([_face(600.0, 0.8), _face(700.0, 0.9)], 0.01, DOUBT),  # two for one missing
    ([_face(142.0, 0.9, 36.0)], 0.01, DOUBT),  # beside a die, narrower: its side face
])
def test_a_die_the_second_look_finds_surely_is_a_die(faint: list[FoundFace], not_a_die: float,
                                                     is_die: float | None) -> None:
    """Told five dice were thrown and seeing four, the reader looks again with the faint
    peaks counting. A face that look finds as surely as the first finds a die, or that the
    pip reader surely calls a die (``SURELY_A_DIE``), is a die (None: its own chance); one
    found only faintly and not surely a die, one of more such faces than dice missing, or one
    beside a die as its side is taken back in doubt (``DOUBT``). The one face left to take
    back, a die's size with no face beside it, is then made likelier by the count
    (``COUNT_ODDS``: odds 1 to 3, 0.75); a side face, too narrow, is not."""
    first = [_face(100.0 * (k + 1), 0.9) for k in range(4)]
    frame = np.full((400, 900, 3), 128, np.uint8)
    seen = see_faces(frame, Palette.default(), net=_FakeNet(first, faint, not_a_die),
                     thrown=5)
    assert len(seen) == 5
    assert all(s.is_die > 0.99 for s in seen[:4])
    (extra,) = seen[4:]
    assert extra.is_die == pytest.approx(1 - not_a_die if is_die is None else is_die)


@pytest.mark.parametrize(("faint", "closer", "looked", "sure"), [
    ([], [_face(600.0, 0.8)], True, True),  # seen only in the whole frame looked at closer
    ([_face(600.0, 0.8)], [_face(700.0, 0.9)], False, True),  # the second look made up five
    ([], [_face(600.0, 0.8), _face(700.0, 0.9)], True, False),  # two for one missing: doubt
])
def test_a_die_still_missing_is_looked_for_in_the_whole_frame_closer(
        faint: list[FoundFace], closer: list[FoundFace], looked: bool, sure: bool) -> None:
    """Told five dice were thrown, seeing four and no fifth in the second look, the reader
    looks at the whole frame closer for dice of the size of those seen: a face found there
    (as surely as a die, as ``find_closer`` gives them) is a die, unless there are more
    such faces than dice missing, which are then taken back in doubt. When the second look
    made up the count, no closer look is taken."""
    first = [_face(100.0 * (k + 1), 0.9) for k in range(4)]
    net = _FakeNet(first, faint, 0.2, closer)
    seen = see_faces(np.full((400, 900, 3), 128, np.uint8), Palette.default(), net=net,
                     thrown=5)
    assert net.closer_sides == ([60.0] if looked else [])
    assert len(seen) == 5 and all(s.is_die > 0.99 for s in seen[:4])
    (extra,) = seen[4:]
    assert (extra.is_die > DOUBT) == sure


@pytest.mark.parametrize(("faint", "not_a_die", "found"), [
    ([_face(600.0, 0.8)], 0.2, [100, 200, 300, 400, 600]),  # found surely: a die
    ([_face(600.0, 0.2)], 0.01, [100, 200, 300, 400, 600]),  # surely a die to the pip reader
    ([_face(600.0, 0.2)], 0.2, [100, 200, 300, 400]),  # faint and doubtful: not made up
    ([], 0.2, [100, 200, 300, 400]),  # nothing more to find: four dice
])
def test_at_most_the_box_s_dice_looks_again_but_makes_nothing_up(
        faint: list[FoundFace], not_a_die: float, found: list[int]) -> None:
    """Not told the count but knowing the box holds six dice (``at_most``, as ``kotd
    read``), the reader seeing four looks again: a face that look finds surely is a die;
    none is taken back in doubt to make up six, since fewer dice may lie in view."""
    first = [_face(100.0 * (k + 1), 0.9) for k in range(4)]
    seen = see_faces(np.full((400, 900, 3), 128, np.uint8), Palette.default(),
                     net=_FakeNet(first, faint, not_a_die), at_most=6)
    assert sorted(round(s.face.center[0]) for s in seen) == found
    assert all(s.is_die > DOUBT for s in seen)


@pytest.mark.parametrize(("not_a_die", "two"), [(0.01, True), (0.3, False)])
def test_a_face_the_finder_made_of_two_touching_dice_is_read_as_two(not_a_die: float,
                                                                     two: bool) -> None:
    """Told six dice were thrown and seeing five, one face wider than the others (72 px
    against 60) with a fainter peak 30 px beside it, too close to be another die: two
    touching dice of one colour the finder saw as one (``TWO_IN_ONE``). Read again as two
    dice of the others' size side by side on the line through both peaks, both called a die
    surely, they replace it; called "not a die" at 0.3, the face stays one and no die is
    made up."""
    first = [*(_face(100.0 * (k + 1), 0.9) for k in range(4)), _face(500.0, 0.8, 72.0)]
    net = _FakeNet(first, [_face(530.0, 0.2)], not_a_die)
    seen = see_faces(np.full((400, 900, 3), 128, np.uint8), Palette.default(), net=net,
                     thrown=6)
    xs = sorted(round(s.face.center[0]) for s in seen)
    if two:
        assert xs == [100, 200, 300, 400, 485, 545]
        assert all(s.face.side == 60.0 and s.is_die > 0.98 for s in seen)
    else:
        assert xs == [100, 200, 300, 400, 500]


@pytest.mark.parametrize(("middle", "in_doubt"), [((640.0, 480.0), False), (None, True)])
def test_a_kept_face_s_side_puts_no_other_die_beside_it_in_doubt(
        middle: tuple[float, float] | None, in_doubt: bool) -> None:
    """A top at (1000, 100), a face left out 50 px from it towards the middle of the frame
    (640, 480), where a flat die shows its side, and another kept die 50 px beyond that face
    on the other side. Knowing the middle, the face left out is the top's side, no die, and
    the other die beside it is not in doubt either (``SIDE_INWARD``); not knowing it, the
    face left out may be a die, and both faces beside it are in doubt."""
    top, side, other = _seen(0.999, 3, 1000.0), _seen(0.9, 5, 950.0), _seen(0.9999, 1, 900.0)
    chosen = choose([top, side, other], 2, Palette.default(), middle=middle)
    assert [f.face for f in chosen] == [top.face, other.face]
    assert [f.is_die == DOUBT for f in chosen] == [in_doubt, in_doubt]


@pytest.mark.parametrize(("weak", "faint", "looked", "kept"), [
    (0.4, [_face(800.0, 0.8)], True, [100, 200, 300, 400, 800]),  # a die missed: the weak out
    (0.4, [], True, [100, 200, 300, 400, 500]),  # nothing more to find: the five seen
    (0.4, [_face(700.0, 0.8), _face(800.0, 0.8), _face(900.0, 0.8)], True,
     [100, 200, 300, 400, 500]),  # more new faces than MAX_EXTRA: not trusted
    (0.05, [_face(800.0, 0.8)], False, [100, 200, 300, 400, 500]),  # no face doubtful
])
def test_as_many_faces_as_dice_one_doubtful_the_reader_looks_for_a_die_missed(
        weak: float, faint: list[FoundFace], looked: bool, kept: list[int]) -> None:
    """Told five dice were thrown and seeing five faces, one of which the pip reader calls
    "not a die" at least WEAK_FACE surely (a leaning die's side, the die beside it missed),
    the reader looks again with the faint peaks counting; a face that look finds as surely
    as a die is weighed with the others and the likeliest five are kept. With no face in
    doubt no second look is taken; more new faces than MAX_EXTRA are not trusted."""
    first = [_face(100.0 * (k + 1), 0.9) for k in range(5)]
    frame = np.full((400, 1000, 3), 128, np.uint8)
    net = _FakeNet(first, faint, weak=weak)
    seen = see_faces(frame, Palette.default(), net=net, thrown=5)  # type: ignore[arg-type]
    assert (net.faint_looks > 0) == looked
    assert sorted(round(s.face.center[0]) for s in seen) == kept
    assert all(s.is_die > DOUBT for s in seen)  # the face left out lies beside none kept
    net = _FakeNet(first, faint, weak=weak)
    not_told = see_faces(frame, Palette.default(), net=net, at_most=5)  # type: ignore[arg-type]
    assert sorted(round(s.face.center[0]) for s in not_told) == kept




@pytest.mark.parametrize(("width", "height"), [(1280, 960), (1920, 1080), (640, 480)])
def test_the_finder_s_view_halved_is_the_frame_shrunk_to_rounding(width: int, height: int
                                                                  ) -> None:
    """A look from farther halves the whole frame as the first look saw it, instead of
    shrinking the frame again: both average the same pixels, so they differ by rounding
    only (at most one grey level), at half and a quarter of the first look's scale."""
    from vision.habanet import FINDER_SIZE, scaled_for_finder

    rng = np.random.default_rng(7)
    frame, _ = render_tray(random_scene(rng), rng)
    frame = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
    scale = FINDER_SIZE / max(width, height)
    seen = scaled_for_finder(frame, scale)
    for step in (2.0, 4.0):
        direct = scaled_for_finder(frame, scale / step)
        halved = scaled_for_finder(frame, scale / step, seen)
        assert direct.shape == halved.shape
        assert np.abs(direct.astype(int) - halved.astype(int)).max() <= 1
        seen = halved
