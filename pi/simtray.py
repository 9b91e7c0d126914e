"""The simulated dice tray: rendered dice that roll and settle, for demos and tests.

Six HABA dice for King of the Dice; for a game of ordinary dice (Um Krone und Kragen) the
tray asks the table, at every throw, how many dice are thrown and which lie set aside
(``ordinary``), and draws ordinary dice (:mod:`vision.render_standard`): the thrown ones
in the play area, the set-aside ones in the set-aside strip when the tray has one.

It is a frame source like a camera (``open``/``read``/``close``). ``throw()`` starts a
throw: for ``roll_seconds`` the frames show dice in motion (lifted, blurred, often a
hand), then the dice lie still in a new random place until the next throw. Like a camera,
it gives every frame at once: the picture the dice land in is rendered in the background
while they tumble (a frame read after ``roll_seconds`` waits for it only if rendering is
slower than the tumble), and the tumbling frames are a few rendered pictures of dice in
motion, shifted at random so that each differs from the one before. The frames come
from the same renderer the dice-reader tests use (:mod:`vision.render`), so the whole chain
- motion, settling, reading, the game - runs as it does over a real tray.

``unplug()``/``plug()`` make it fail like a camera whose cable was pulled.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from pi.frames import CameraError
from rules.dice import Die, Roll, haba_pair, haba_roll_problem
from vision import render_standard
from vision.render import TrayScene, TruthDie, random_scene, relaid, render_motion, render_tray
from vision.strip import AsideStrip

WIDTH, HEIGHT = 960, 720
"""The simulated tray's picture, in pixels, unless it is made another size."""
PAIRS = ("A", "A", "B", "B", "C", "C")
MOTION_PICTURES = 3
"""Pictures of dice in motion kept for the tumbling frames (one more rendered per throw)."""
SETTLE_TRIES = 8
"""Dice are laid out again (up to this many times) until every one lies whole in view."""
TOUCHING = 0.2
"""The share of throws whose dice come to lie touching."""


class SimulatedTray:
    """Six HABA dice on a rendered tray; ``throw()`` rolls them (always HABA dice)."""

    name = "sim"

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, seed: int | None = None,
                 roll_seconds: float = 0.8,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.width, self.height = width, height
        self.rng = np.random.default_rng(seed)
        self.roll_seconds = roll_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._scene: TrayScene | None = None
        self._rolling_until = 0.0
        self._pending: Sequence[Die] | None = None
        self.plugged = True
        self.ordinary: Callable[[], OrdinaryThrow | None] | None = None
        """Asked at every throw: None for HABA dice, else the ordinary dice to draw."""
        self._ordinary_values: tuple[int, ...] = ()
        self.truth: list[tuple[int, tuple[float, float]]] = []
        """Ordinary dice drawn last: each die's number and centre (for tests)."""
        self.is_open = False
        self.settled_at: float | None = None
        self.throws = 0
        self._landing: _Landing | None = None
        self._motion: list[np.ndarray] = []

    # ---- what a test or the page can do with the tray --------------------------------

    def throw(self, dice: Roll | Sequence[Die] | str | None = None) -> None:
        """Roll the dice: they tumble for ``roll_seconds``, then show ``dice`` (or random).

        The tray holds one box of HABA dice: a roll no box can show (three dice of one
        pair) is refused with ValueError."""
        if isinstance(dice, str):
            dice = Roll.parse(dice)
        if dice is not None and (problem := haba_roll_problem(Roll(tuple(dice)))):
            raise ValueError(f"no box of HABA dice can show that: {problem}")
        with self._lock:
            self._pending = tuple(dice) if dice is not None else None
            self._rolling_until = self.clock() + self.roll_seconds
            self.settled_at = None
            self.throws += 1
            if self._frame is not None:  # opened: the landing is drawn while they tumble
                self._landing = _Landing(self, self._pending, self.rng)
                self._pending = None

    @property
    def dice(self) -> Roll | None:
        """The dice lying in the tray now (None while they roll)."""
        with self._lock:
            if self._frame is None or self.clock() < self._rolling_until:
                return None
            self._land()
            if self._scene is None:
                return Roll(tuple(Die(v) for v in self._ordinary_values))
            return Roll(tuple(Die(d.value, d.color) for d in self._scene.dice))

    def wait_landing(self) -> None:
        """Wait until the picture the thrown dice land in is drawn (for benchmarks)."""
        landing = self._landing
        if landing is not None:
            landing.result()

    def unplug(self) -> None:
        self.plugged = False

    def plug(self) -> None:
        self.plugged = True

    # ---- the frame source -----------------------------------------------------------

    def open(self) -> None:
        if not self.plugged:
            raise CameraError("simulated camera unplugged")
        with self._lock:
            if self._frame is None:
                self._apply(self._settle(None, self.rng))
        self.is_open = True

    def read(self) -> np.ndarray:
        if not self.plugged or not self.is_open:
            self.is_open = False
            raise CameraError("simulated camera unplugged")
        now = self.clock()
        with self._lock:
            if now < self._rolling_until:
                return self._tumbling()
            if self._pending is not None or self._landing is not None or self.settled_at is None:
                if not self._land():
                    self._apply(self._settle(self._pending, self.rng))
                self._pending = None
                self.settled_at = self._rolling_until if self.throws else now
            assert self._frame is not None
            return self._frame.copy()

    def close(self) -> None:
        self.is_open = False

    def _tumbling(self) -> np.ndarray:
        """A frame of dice in motion: one of the kept pictures (or, before the first is
        drawn, the tray as it lay), shifted at random so that it differs from the last."""
        base = self._motion[int(self.rng.integers(len(self._motion)))] if self._motion \
            else self._frame
        assert base is not None
        dy, dx = (int(v) * int(self.rng.choice((-1, 1)))
                  for v in self.rng.integers(self.width // 40, self.width // 12, 2))
        return np.roll(base, (dy, dx), axis=(0, 1))

    def _land(self) -> bool:
        """Put the picture the dice landed in on the tray (waiting for its rendering);
        False when no throw is under way."""
        landing, self._landing = self._landing, None
        if landing is None:
            return False
        landed, motion = landing.result()
        self._apply(landed)
        if motion is not None and len(self._motion) < MOTION_PICTURES:
            self._motion.append(motion)
        return True

    def _apply(self, landed: _Landed) -> None:
        self._frame, self._scene = landed.frame, landed.scene
        self._ordinary_values, self.truth = landed.values, landed.truth

    def _settle(self, dice: Sequence[Die] | None, rng: np.random.Generator) -> _Landed:
        """The tray with ``dice`` (or random ones) lying still, drawn with ``rng``."""
        ordinary = self.ordinary() if self.ordinary is not None else None
        if ordinary is not None:
            return self._settle_ordinary(ordinary, dice, rng)
        frame, scene, _ = haba_landing(rng, self.width, self.height, dice, self._scene)
        return _Landed(frame, scene)

    def _settle_ordinary(self, throw: OrdinaryThrow, dice: Sequence[Die] | None,
                         rng: np.random.Generator) -> _Landed:
        """Plain white dice on a light tray: ``throw.count`` thrown (``dice`` or random) in
        the play area, ``throw.aside`` in the strip (left out without a strip)."""
        values = [d.value for d in (dice or ())][:throw.count]
        values += [int(v) for v in rng.integers(1, 7, throw.count - len(values))]
        size = 0.075 * min(self.width, self.height)
        left, top = 1.2 * size, 1.2 * size
        right, bottom = self.width - 1.2 * size, self.height - 1.2 * size
        play = (left, top, right, bottom)
        strip_box: tuple[float, float, float, float] | None = None
        if throw.strip is not None:
            (lx, ly), _ = throw.strip.line(self.width, self.height)
            side, gap = throw.strip.side, 0.8 * size
            if side == "bottom":
                play, strip_box = (left, top, right, ly - size), (left, ly + gap, right, bottom)
            elif side == "top":
                play, strip_box = (left, ly + size, right, bottom), (left, top, right, ly - gap)
            elif side == "right":
                play, strip_box = (left, top, lx - size, bottom), (lx + gap, top, right, bottom)
            else:
                play, strip_box = (lx + size, top, right, bottom), (left, top, lx - gap, bottom)
        placed: list[tuple[float, float]] = []

        def spot(box: tuple[float, float, float, float]) -> tuple[float, float]:
            for _ in range(400):
                x = float(rng.uniform(box[0], max(box[0] + 1, box[2])))
                y = float(rng.uniform(box[1], max(box[1] + 1, box[3])))
                if all((x - a) ** 2 + (y - b) ** 2 > (1.6 * size) ** 2 for a, b in placed):
                    placed.append((x, y))
                    return x, y
            raise CameraError("the simulated tray has no room for so many dice")

        drawn = []
        where = [(v, play) for v in values]
        if strip_box is not None:
            where += [(v, strip_box) for v in throw.aside]
        for v, box in where:
            dx, dy = spot(box)
            drawn.append(render_standard.OrdinaryDie(v, dx, dy, render_standard.PLAIN,
                                                     float(rng.uniform(0, 90))))
        scene = render_standard.OrdinaryScene(tuple(drawn), size, self.width, self.height,
                                              table_bgr=render_standard.LIGHT_TRAY,
                                              shadows=0.3, noise=1.0)
        frame, truth = render_standard.render_ordinary(scene, rng)
        return _Landed(frame, None, tuple(values), [(t.value, t.center) for t in truth])


def haba_landing(rng: np.random.Generator, width: int, height: int,
                 dice: Sequence[Die] | None = None, on: TrayScene | None = None
                 ) -> tuple[np.ndarray, TrayScene, list[TruthDie]]:
    """Six HABA dice lying still on the simulated tray (``dice``, or random ones), every one
    whole in view: the picture, its scene and the dice as they lie. ``on``: the tray as the
    last throw left it, whose table, light and camera stay (a new tray when its dice find no
    room there)."""
    for tries in range(SETTLE_TRIES):  # the tray's walls keep every die whole in view
        if on is not None and tries < SETTLE_TRIES - 1:
            scene = relaid(rng, on, "touching" if rng.random() < TOUCHING else "apart")
            if len(scene.dice) < len(on.dice):
                continue
        else:
            scene = random_scene(rng, n_dice=6, width=width, height=height, level="clean",
                                 touching=TOUCHING, distractors=0)
        specs = []
        for i, spec in enumerate(scene.dice):
            if dice is not None and i < len(dice):
                die = dice[i]
                pair = haba_pair(die) or PAIRS[i % 6]
                spec = replace(spec, value=die.value, pair=pair)
            specs.append(spec)
        scene = replace(scene, dice=tuple(specs))
        frame, truth = render_tray(scene, rng)
        if all(t.visible for t in truth):
            break
    return frame, scene, truth


@dataclass(frozen=True, slots=True)
class _Landed:
    """The tray as the dice landed: its picture, the HABA scene or the ordinary dice."""

    frame: np.ndarray
    scene: TrayScene | None
    values: tuple[int, ...] = ()
    truth: list[tuple[int, tuple[float, float]]] = field(default_factory=list)


class _Landing:
    """A throw's landing, rendered in its own thread with its own random numbers while the
    dice tumble; a picture of the tumble is drawn after it (for the next throws)."""

    def __init__(self, tray: SimulatedTray, dice: Sequence[Die] | None,
                 rng: np.random.Generator) -> None:
        self._tray, self._dice = tray, dice
        self._rng = np.random.default_rng(int(rng.integers(2**63)))
        self._motion_wanted = len(tray._motion) < MOTION_PICTURES
        self._landed: _Landed | None = None
        self._motion: np.ndarray | None = None
        # not a daemon: a process ending mid-drawing waits for it (OpenCV aborts otherwise)
        self._thread = threading.Thread(target=self._draw, name="kotd-simtray", daemon=False)
        self._thread.start()

    def _draw(self) -> None:
        self._landed = self._tray._settle(self._dice, self._rng)
        if self._motion_wanted:
            tray = self._tray
            self._motion, _ = render_motion(self._rng, tray.width, tray.height)

    def result(self) -> tuple[_Landed, np.ndarray | None]:
        """The landed tray (waiting for it) and the tumble's picture if it is drawn yet."""
        while self._landed is None and self._thread.is_alive():
            self._thread.join(timeout=0.01)
        if self._landed is None:  # the drawing failed in its thread: draw it here
            self._landed = self._tray._settle(self._dice, self._rng)
        return self._landed, self._motion


@dataclass(frozen=True, slots=True)
class OrdinaryThrow:
    """What the simulated tray draws for a game of ordinary dice: ``count`` dice thrown,
    ``aside`` the set-aside dice, ``strip`` where they lie (None: out of view)."""

    count: int
    aside: tuple[int, ...] = ()
    strip: AsideStrip | None = None
