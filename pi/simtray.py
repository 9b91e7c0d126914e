"""The simulated dice tray: rendered HABA dice that roll and settle, for demos and tests.

It is a frame source like a camera (``open``/``read``/``close``). ``throw()`` starts a
throw: for ``roll_seconds`` the frames show dice in motion (lifted, blurred, often a
hand), then the dice lie still in a new random place until the next throw. The frames come
from the same renderer the dice-reader tests use (:mod:`vision.render`), so the whole chain
- motion, settling, reading, the game - runs as it does over a real tray.

``unplug()``/``plug()`` make it fail like a camera whose cable was pulled.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from pi.frames import CameraError
from rules.dice import Die, Roll, haba_pair
from vision.render import TrayScene, random_scene, render_motion, render_tray

PAIRS = ("A", "A", "B", "B", "C", "C")


class SimulatedTray:
    """Six HABA dice on a rendered tray; ``throw()`` rolls them (always HABA dice)."""

    name = "sim"

    def __init__(self, width: int = 960, height: int = 720, seed: int | None = None,
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
        self.is_open = False
        self.settled_at: float | None = None
        self.throws = 0

    # ---- what a test or the page can do with the tray --------------------------------

    def throw(self, dice: Roll | Sequence[Die] | str | None = None) -> None:
        """Roll the dice: they tumble for ``roll_seconds``, then show ``dice`` (or random)."""
        if isinstance(dice, str):
            dice = Roll.parse(dice)
        with self._lock:
            self._pending = tuple(dice) if dice is not None else None
            self._rolling_until = self.clock() + self.roll_seconds
            self.settled_at = None
            self.throws += 1

    @property
    def dice(self) -> Roll | None:
        """The dice lying in the tray now (None while they roll)."""
        with self._lock:
            if self._scene is None or self.clock() < self._rolling_until:
                return None
            return Roll(tuple(Die(d.value, d.color) for d in self._scene.dice))

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
                self._settle(None)
        self.is_open = True

    def read(self) -> np.ndarray:
        if not self.plugged or not self.is_open:
            self.is_open = False
            raise CameraError("simulated camera unplugged")
        now = self.clock()
        with self._lock:
            if now < self._rolling_until:
                frame, _ = render_motion(self.rng, self.width, self.height)
                return frame
            if self._pending is not None or self.settled_at is None:
                self._settle(self._pending)
                self._pending = None
                self.settled_at = self._rolling_until if self.throws else now
            assert self._frame is not None
            return self._frame.copy()

    def close(self) -> None:
        self.is_open = False

    def _settle(self, dice: Sequence[Die] | None) -> None:
        scene = random_scene(self.rng, n_dice=6, width=self.width, height=self.height,
                             level="clean", touching=0.2, distractors=0)
        specs = []
        for i, spec in enumerate(scene.dice):
            if dice is not None and i < len(dice):
                die = dice[i]
                pair = haba_pair(die) or PAIRS[i % 6]
                spec = replace(spec, value=die.value, pair=pair)
            specs.append(spec)
        self._scene = replace(scene, dice=tuple(specs))
        frame, _ = render_tray(self._scene, self.rng)
        self._frame = frame

