"""The camera's tilt told by the dice's sizes over many rolls (:mod:`vision.tilt`), and the
eye's advice to mark the tray when the camera looks at an angle (``EyeStatus.tilted``)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pi.detector import RollDetector, Throw
from pi.eye import ASK_TRAY_FROM, Eye
from rules.dice import Roll
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table
from vision.reading import DieReading
from vision.tilt import FEWEST, camera_tilt
from vision.tray import FOCAL, Tray

WIDTH, HEIGHT = 1280, 960
EDGE = 1.6
"""A die's edge, in centimetres."""


def dice_seen(rng: np.random.Generator, tilt: float, turn: float, count: int,
              noise: float = 0.0) -> list[tuple[float, float, float]]:
    """``count`` dice tops (centre x, y and size across, in pixels) as a pinhole camera of
    the Raspberry Pi lens (:data:`vision.tray.FOCAL`) 60 cm over the table sees them, looking
    ``tilt`` degrees from straight down towards ``turn`` degrees round; each size off by
    ``noise`` (a share) at random. A top is seen across in inverse proportion to its depth."""
    f = FOCAL * WIDTH
    t, r = math.radians(tilt), math.radians(turn)
    # the camera's axes in the table's frame: looking down, then tipped by ``tilt``
    down = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])
    tip = np.array([[1.0, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    spin = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1.0]])
    axes = tip @ down @ spin.T
    eye = spin @ np.array([0.0, 60.0 * math.tan(t), 60.0])  # over the table, looking at its middle
    out: list[tuple[float, float, float]] = []
    while len(out) < count:
        top = spin @ np.array([rng.uniform(-40, 40), rng.uniform(-40, 40), 0.0])
        top[2] = EDGE
        x, y, depth = axes @ (top - eye)
        u, v = f * x / depth + WIDTH / 2, f * y / depth + HEIGHT / 2
        if depth > 0 and 0 < u < WIDTH and 0 < v < HEIGHT:
            out.append((u, v, f * EDGE / depth * (1 + rng.normal(0, noise))))
    return out


@settings(max_examples=60, deadline=None)
@given(tilt=st.floats(0, 40), turn=st.floats(0, 360), seed=st.integers(0, 2**32 - 1))
def test_the_dice_s_sizes_tell_the_camera_s_tilt(tilt: float, turn: float, seed: int) -> None:
    """Exactly, from sizes as a pinhole camera sees them; within a few degrees with each size
    3% off, as the reader measures them over ten rolls."""
    rng = np.random.default_rng(seed)
    exact = camera_tilt(dice_seen(rng, tilt, turn, FEWEST), WIDTH, HEIGHT)
    assert exact is not None and abs(exact - tilt) < 0.01
    rough = camera_tilt(dice_seen(rng, tilt, turn, 60, noise=0.03), WIDTH, HEIGHT)
    assert rough is not None and abs(rough - tilt) < 6


def test_too_few_dice_or_dice_in_one_spot_tell_nothing() -> None:
    rng = np.random.default_rng(3)
    assert camera_tilt(dice_seen(rng, 30, 0, FEWEST - 1), WIDTH, HEIGHT) is None
    spot = [(640 + rng.normal(0, 5), 480 + rng.normal(0, 5), 50 + rng.normal(0, 2))
            for _ in range(40)]
    assert camera_tilt(spot, WIDTH, HEIGHT) is None
    line = [(100 + 20 * k, 480.0, 40 + k) for k in range(40)]  # a row tells one way only
    assert camera_tilt(line, WIDTH, HEIGHT) is None


class Keeper:
    """Keeps the tray marked (:class:`pi.eye.TrayKeeper`)."""

    def __init__(self) -> None:
        self.tray: Tray | None = None

    def keep_tray(self, tray: Tray | None) -> None:
        self.tray = tray


def _eye() -> tuple[Eye, RollDetector]:
    detector = RollDetector(lambda frame, n, last: [], settle_seconds=0.5)
    detector.last_frame = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    table = Table(EventStore(None), game_pack("kotd"))
    eye = Eye(None, detector, table)  # type: ignore[arg-type]  # no frames are read here
    eye.tray_keeper = Keeper()
    return eye, detector


def _throws(eye: Eye, tilt: float, throws: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(throws):
        readings = tuple(DieReading(3, None, (x, y), (), 0.99, size)
                         for x, y, size in dice_seen(rng, tilt, 30, 6, noise=0.03))
        eye._measure(Throw(Roll.parse("3r 3r 3g 3g 3b 3b"), readings))


def test_a_camera_at_a_desk_arm_s_angle_is_told_to_mark_the_tray() -> None:
    """After a few rolls under a camera tilted 40°, the eye's status says so (the page then
    suggests marking the tray); a marked tray silences it; straight down, it never says it."""
    eye, _ = _eye()
    _throws(eye, 40, 2)
    assert not eye.status().tilted  # twelve dice: too few to tell
    _throws(eye, 40, 8)
    assert eye.tilt is not None and eye.tilt > ASK_TRAY_FROM
    assert eye.status().tilted and eye.status().to_dict()["tilted"] is True
    assert eye.tray_keeper is not None
    eye.tray_keeper.keep_tray(Tray.mark([(100, 100), (1180, 100), (1180, 860), (100, 860)],
                                        WIDTH, HEIGHT))
    assert not eye.status().tilted
    straight, _ = _eye()
    _throws(straight, 3, 10, seed=2)
    assert straight.tilt is not None and not straight.status().tilted


def test_unsure_dice_and_another_camera_mode_are_not_measured() -> None:
    eye, detector = _eye()
    rng = np.random.default_rng(5)
    for _ in range(10):  # every die unsure: nothing kept
        readings = tuple(DieReading(3, None, (x, y), (), 0.2, size, sure_at=0.85)
                         for x, y, size in dice_seen(rng, 30, 0, 6))
        eye._measure(Throw(Roll.parse("3r 3r 3g 3g 3b 3b"), readings))
    assert eye.tilt is None
    _throws(eye, 40, 10)
    assert eye.status().tilted
    detector.last_frame = np.zeros((480, 640, 3), np.uint8)  # the camera opened otherwise
    _throws(eye, 40, 1)
    assert eye.tilt is None and not eye.status().tilted
