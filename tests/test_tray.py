"""The tray (vision/tray.py): its geometry as properties (the camera's nadir against the
camera that drew the corners), bad corners refused in the error family, and on rendered
frames the die beside the tray is never read once the tray is marked, also with the camera
at an angle."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from traykit import H, W, tray_scene

from rules.errors import KotdError, TrayError
from vision.doubt import default_model
from vision.reading import DieReading
from vision.tray import Tray, find_tray, read_in_tray


@st.composite
def trays(draw: st.DrawFn) -> Tray:
    """A convex tray seen at an angle: a rectangle's corners each moved a little."""
    cx, cy = draw(st.floats(400, 880)), draw(st.floats(320, 640))
    hw, hh = draw(st.floats(200, 380)), draw(st.floats(150, 300))
    jitter = st.floats(-0.25, 0.25)
    corners = [(cx + sx * hw * (1 + draw(jitter)), cy + sy * hh * (1 + draw(jitter)))
               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    turn = draw(st.integers(0, 3))
    corners = corners[turn:] + corners[:turn]
    if draw(st.booleans()):
        corners = corners[::-1]
    try:
        return Tray.mark(corners, W, H)
    except TrayError:
        assume(False)
        raise


def _rectified(tray: Tray, points: np.ndarray) -> np.ndarray:
    """Frame pixels to the rectified tray's pixels (:meth:`Tray.homography`)."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    out: np.ndarray = cv2.perspectiveTransform(pts, tray.homography()).reshape(-1, 2)
    return out


@settings(max_examples=200, deadline=None)
@given(trays(), st.lists(st.tuples(st.floats(0, W), st.floats(0, H)), min_size=1,
                         max_size=30))
def test_contains_agrees_with_opencv_and_with_the_rectified_rectangle(
        tray: Tray, points: list[tuple[float, float]]) -> None:
    contour = np.array(tray.corners, np.float32).reshape(-1, 1, 2)
    w, h = tray.size
    for p in points:
        distance = cv2.pointPolygonTest(contour, p, True)
        assert tray.contains(p) == (distance >= 0)
        if abs(distance) > 1.0:  # away from the edge the rectified picture agrees too
            (u, v), = _rectified(tray, np.array([p]))
            assert (0 <= u <= w and 0 <= v <= h) == (distance > 0)


@settings(max_examples=100, deadline=None)
@given(trays(), st.lists(st.tuples(st.floats(0, W), st.floats(0, H), st.floats(10, 120)),
                         min_size=1, max_size=20), st.floats(0, 2), st.floats(0.6, 2.5))
def test_a_die_may_lie_where_its_foot_stands_within_the_margin(
        tray: Tray, spots: list[tuple[float, float, float]], outside: float,
        focal: float) -> None:
    """``beyond`` is how far outside the tray a reading's foot stands, in its own sizes (less
    than 0 inside), and ``holds`` holds exactly those within ``outside`` of them."""
    readings = [DieReading(1, None, (x, y), (), 0.9, size) for x, y, size in spots]
    beyond = tray.beyond(readings, focal)
    contour = np.array(tray.corners, np.float32).reshape(-1, 1, 2)
    for r, b in zip(readings, beyond, strict=True):
        foot = tray.foot(r.center, r.size, focal)
        assert b * r.size == pytest.approx(-cv2.pointPolygonTest(contour, foot, True), abs=1e-6)
        assert (b <= 0) == tray.contains(foot) or abs(b * r.size) < 1e-6
    holds = tray.holds(outside, focal)
    assert [holds(r.center, r.size) for r in readings] == [cv2.pointPolygonTest(
        contour, tray.foot(r.center, r.size, focal), True) >= -outside * r.size
        for r in readings]


@settings(max_examples=100, deadline=None)
@given(trays())
def test_the_corners_run_clockwise_from_the_top_left_whatever_order_they_came_in(
        tray: Tray) -> None:
    a, b, c, d = tray.corners
    again = Tray.mark([c, b, a, d], W, H)  # the other way round, starting elsewhere
    assert again.corners == tray.corners
    assert min(tray.corners, key=lambda p: p[0] + p[1]) == a
    rect = _rectified(tray, np.array(tray.corners))
    w, h = tray.size
    assert np.allclose(rect, [(0, 0), (w, 0), (w, h), (0, h)], atol=0.5)
    assert np.allclose(Tray.from_json(tray.to_json()).corners, tray.corners, atol=0.01)


@pytest.mark.parametrize(("points", "code"), [
    ([(100, 100), (500, 120), (520, 400)], "tray.corners"),
    ([(100, 100), (500, 120), (90, 380), (520, 400)], "tray.crossing"),
    ([(100, 100), (500, 120), (520, 400), (1400, 380)], "tray.outside"),
    ([(100, 100), (500, -3), (520, 400), (90, 380)], "tray.outside"),
    ([(100, 100), (300, 110), (200, 200), (90, 380)], "tray.concave"),
    ([(100, 100), (300, 100), (500, 100), (300, 300)], "tray.concave"),
    ([(100, 100), (130, 100), (130, 130), (100, 130)], "tray.small"),
    ([(100, "x"), (500, 120), (520, 400), (90, 380)], "tray.points"),
])
def test_corners_that_outline_no_tray_are_refused_in_one_line(points: list, code: str) -> None:
    with pytest.raises(KotdError) as caught:
        Tray.mark(points, W, H)
    assert caught.value.code == code and "\n" not in str(caught.value)


def test_corners_from_the_command_line() -> None:
    tray = Tray.parse("100,100, 500,120, 520,400, 90,380", W, H)
    assert tray.corners[2] == (520.0, 400.0)
    for text in ("100,100,500,120,520,400", "a,b,c,d,e,f,g,h", "100,100,500,120,520,400,90"):
        with pytest.raises(TrayError):
            Tray.parse(text, W, H)


def test_a_kept_tray_survives_and_a_damaged_file_is_said(tmp_path: Path) -> None:
    tray = Tray.mark([(100, 100), (500, 120), (520, 400), (90, 380)], W, H)
    tray.save(tmp_path / "tray.json")
    assert Tray.load(tmp_path / "tray.json") == Tray.from_json(tray.to_json())
    (tmp_path / "tray.json").write_text('{"corners": [[1, 2]], "width": 5}')
    with pytest.raises(TrayError, match="damaged"):
        Tray.load(tmp_path / "tray.json")
    (tmp_path / "tray.json").write_text("{")
    with pytest.raises(TrayError, match="damaged"):
        Tray.load(tmp_path / "tray.json")


def test_a_tray_marked_on_another_frame_size_is_scaled() -> None:
    tray = Tray.mark([(100, 100), (500, 120), (520, 400), (90, 380)], 640, 480)
    big = tray.fitted(1280, 960)
    assert big.corners[1] == (1000.0, 240.0) and big.contains((1000, 700))


def test_every_tray_refusal_is_said_in_german() -> None:
    from web.i18n import ERRORS

    source = (Path(__file__).resolve().parents[1] / "vision" / "tray.py").read_text()
    codes = set(re.findall(r'TrayError\(\s*"([a-z_]+)"', source))
    assert len(codes) >= 7
    assert sorted(c for c in codes if f"tray.{c}" not in ERRORS["de"]) == []


# ---- rendered frames: a die beside the tray --------------------------------------------

@pytest.fixture(scope="module")
def beside_the_tray():
    return [tray_scene(seed, tilt) for seed, tilt in ((1, 0.0), (2, 28.0), (3, 15.0),
                                                      (4, 32.0))]


def test_a_die_beside_the_marked_tray_is_never_read_nor_takes_a_die_s_place(
        beside_the_tray) -> None:
    """Told the marked tray, the reader reads the dice in it and never the die beside it (a
    die printed on a card): not as a reading, and not as one of the dice thrown, told the
    count (the game's five) or not; a reading on no die is never sure."""
    from vision.reader import read_dice
    from vision.render.score import match

    seen_without = 0
    right = {"told": 0, "not told": 0}
    total = 0
    for frame, inside, beside, tray in beside_the_tray:
        assert not tray.contains(beside.center) and all(tray.contains(t.center)
                                                        for t in inside)
        plain = read_dice(frame, at_most=6)
        seen_without += any(math.dist(r.center, beside.center) < beside.size / 2
                            for r in plain)
        total += len(inside)
        for way, count in (("told", {"thrown": len(inside)}), ("not told", {"at_most": 6})):
            readings = read_in_tray(lambda f, nadir, holds, count=count: read_dice(
                f, nadir=nadir, holds=holds, **count), frame, tray)
            contour = np.array(tray.corners, np.float32).reshape(-1, 1, 2)
            assert all(cv2.pointPolygonTest(contour, tray.foot(r.center, r.size), True)
                       >= -default_model().outside * r.size for r in readings)
            assert not any(math.dist(r.center, beside.center) < beside.size for r in readings)
            on_dice = [r for _, r in match(readings, inside) if r is not None]
            assert all(not r.confident for r in readings if r not in on_dice)
            right[way] += sum(r is not None and (r.value, r.color) == (t.value, t.color)
                              for t, r in match(readings, inside))
    assert seen_without >= len(beside_the_tray) // 2  # the reader does see it without a tray
    assert right["told"] >= 0.9 * total and right["not told"] >= 0.9 * total, right


def test_the_reader_is_told_the_nadir_of_the_marked_tray(beside_the_tray) -> None:
    frame, _, _, tray = beside_the_tray[1]  # the camera tilted 28 degrees
    told: list[tuple[float, float]] = []
    read_in_tray(lambda f, nadir, holds: told.append(nadir) or [], frame, tray)
    assert told == [tray.nadir()]
    assert not tray.contains(told[0])  # at that tilt the camera stands beside the tray


def _camera(tilt: float, turn: float, focal: float
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A pinhole camera over the table, 12 focal lengths high (in frame widths, so that the
    frame sees about 12 table units across): its projection matrix (table point -> frame
    pixel), its nadir (the image of the point straight below it) and the table point at the
    middle of the frame."""
    t, d = math.radians(tilt), math.radians(turn)
    axis = np.array([-math.sin(d), math.cos(d), 0.0])
    turned, _ = cv2.Rodrigues(axis * t)  # tilted about a level axis
    rotation = turned @ np.diag([1.0, 1.0, -1.0])  # looking down
    k = np.array([[focal * W, 0, W / 2], [0, focal * W, H / 2], [0, 0, 1.0]])
    eye = np.array([0.0, 0.0, 12.0 * focal])
    project = k @ np.hstack([rotation, -(rotation @ eye)[:, None]])
    below = project @ np.array([0.0, 0.0, 0.0, 1.0])
    ray = rotation.T @ np.array([0.0, 0.0, 1.0])  # the optical axis, in table coordinates
    seen = eye + ray * (-eye[2] / ray[2])
    return project, below[:2] / below[2], seen[:2]


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 40), st.floats(0, 360), st.floats(0.6, 2.5), st.floats(-1, 1),
       st.floats(-1, 1), st.floats(1, 3), st.floats(1, 3), st.floats(0, 90))
def test_the_nadir_is_where_the_camera_that_drew_the_corners_stands(
        tilt: float, turn: float, focal: float, x: float, y: float, half_w: float,
        half_h: float, angle: float) -> None:
    """Any rectangle on the table, seen by any camera tilted up to 40 degrees, gives the
    camera's nadir (a camera looking straight down has it in the frame's middle) and where a
    die's top seen in the picture stands on the table."""
    project, nadir, seen_middle = _camera(tilt, turn, focal)
    a = math.radians(angle)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    table = [seen_middle + np.array([x, y]) + su * half_w * u + sv * half_h * v
             for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    seen = [project @ np.array([p[0], p[1], 0.0, 1.0]) for p in table]
    corners = [(float(p[0] / p[2]), float(p[1] / p[2])) for p in seen]
    assume(all(p[2] > 0 for p in seen))
    try:
        tray = Tray.mark(corners, W, H)
    except TrayError:
        assume(False)
        raise
    middle = np.array([W / 2, H / 2])
    got = np.array(tray.nadir(focal))
    reach = max(float(np.linalg.norm(nadir - middle)), 1.0)
    assert np.linalg.norm(got - nadir) < 0.01 * reach + 0.5
    assert abs(tray.tilt(focal) - tilt) < 0.5
    if tilt == 0:
        assert np.allclose(got, middle, atol=0.5)
    told = tray.focal()  # the corners alone: the focal length when they tell it
    if told is not None:
        assert abs(told / focal - 1) < 0.02
        assert np.linalg.norm(np.array(tray.nadir()) - nadir) < 0.03 * reach + 0.5
    # a die's top, one edge above the tray's middle, seen size / f of its depth across,
    # stands where the tray's middle is seen
    spot = seen_middle + np.array([x, y])
    top = project @ np.array([spot[0], spot[1], 0.3, 1.0])
    floor = project @ np.array([spot[0], spot[1], 0.0, 1.0])
    foot = tray.foot(top[:2] / top[2], focal * W * 0.3 / top[2], focal)
    assert math.dist(foot, floor[:2] / floor[2]) < 0.5
    if reach > 50:  # the nadir's direction from the middle, whatever the focal length
        for guess in (0.5, 1.0, 2.0):
            way = np.array(tray.nadir(guess)) - middle
            cos = way @ (nadir - middle) / (np.linalg.norm(way) * reach)
            assert cos > 0.999


def test_the_tray_is_found_from_its_edge_as_a_suggestion() -> None:
    from vision.render import Conditions, render_tray, scene_for
    from vision.render.camera import Projector

    found = 0
    for seed in range(3):
        rng = np.random.default_rng(20 + seed)
        scene = scene_for(rng, Conditions(table="tray"), distractors=0, hand=0.0)
        scene = replace(scene, camera=replace(scene.camera, distortion=0.0))
        frame, _ = render_tray(scene, rng)
        assert scene.table.tray is not None
        x0, y0, x1, y1 = scene.table.tray
        floor = Projector(scene).project(np.array([(x0, y0, 0), (x1, y0, 0), (x1, y1, 0),
                                                   (x0, y1, 0)]))
        tray = find_tray(frame)
        if tray is not None:
            gap = np.abs(np.array(tray.corners) - floor).max()
            found += gap < 0.06 * W  # the floor's corners, or the walls' tops just outside
    assert found >= 2
    assert find_tray(np.full((480, 640, 3), 128, np.uint8)) is None
