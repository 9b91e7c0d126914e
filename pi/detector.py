"""Roll detection: motion starts a throw, stillness ends it, a stable reading is the roll.

The detector is fed frames with their time. It compares each frame with the one before on a
small grey copy (so it costs little and does not depend on the camera's resolution or
height: motion is a *fraction* of the picture that changed). After motion it reads every
still frame, telling the reader how many dice the game needs (a die's side face seen as a
seventh die can then be left out, a doubted die taken back; the reader marks the dice the
count leaves in doubt), until ``stable_reads`` readings in a row agree and show exactly
that number of dice; the roll is reported once the tray has also been still for
``settle_seconds`` (reading while it settles is what makes the roll come quickly). Any
motion, or a picture that drifted away from the one last read, throws the readings away:
no reading of a frame before the last motion is used. Hands
in the tray, a die still wobbling, or dice missing give no roll: the ``sight`` says what
the camera sees instead.

The reader is also handed the picture the last roll was read from and where its dice lay: a
die that was thrown lies where that picture showed something else, a die printed on a citizen
card lies where it lay (:mod:`vision.lastroll`). Before the first roll (and after the camera
was away) the last still picture before the throw stands in for it, read once. Not when the
picture changed over half of it (the camera was moved).

Dice already lying still when the detector starts are not a roll: a throw needs motion.
Nor is a hand passing over the tray: when every die shows the same face in the same place
as in the last roll, nothing was thrown. Kept dice stay where they lie; the player picks up
and throws the others, so after every throw all six dice are in view. A kept die does not
change: a die lying exactly where a die of the last roll lay, and looking exactly as it
did, is that die, so a reading of it that differs from the last one is a misread of one
of them, and the die is marked for the table to check (:func:`keep_kept`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np

from rules.dice import Color, Roll
from vision.lastroll import LastRoll, last_roll
from vision.reader import kept_since
from vision.reading import DieReading, Why, reading_order, to_roll
from vision.strip import AsideStrip
from vision.tray import Tray

Seeing = Literal["waiting", "moving", "settling", "settled", "too few dice", "too many dice",
                 "no dice"]
Reader = Callable[[np.ndarray, int | None, LastRoll | None], Sequence[DieReading]]
"""Reads the dice in a frame, told how many dice were thrown (None: any number) and the last
roll's picture and dice (None: none; what changed since tells a thrown die from one printed
on a card, :mod:`vision.lastroll`)."""

MOTION_LEVEL = 18
"""Grey levels a pixel must change by to count as moving (well above sensor noise)."""
MOTION_FRACTION = 0.002
"""Share of the picture that must change between frames to count as motion."""
MOVED_CAMERA = 0.5
"""A picture that differs from the last roll's over this share of it or more was not taken
by the camera as it stood (it was moved or knocked, the light changed): the last roll's
picture is not handed to the reader then."""
SMALL_WIDTH = 160
SLACK = 0.002
"""Seconds: a frame stamped this little before the end of the settle time counts as after it
(frame times are floats from a clock that ticks with the camera: 0.4 s of stillness after
four frames at 10 fps may come out as 0.39999 s)."""
_WHY: dict[str, str] = {"too few dice": (": is one covered or outside the picture? If not, "
                                         "read again"),
                        "too many dice": ": is something in the tray that looks like a die?"}
"""What the table may check when the camera sees another number of dice than a roll needs."""


@dataclass(frozen=True, slots=True)
class Sight:
    """What the camera sees now, for the page and the status LED."""

    seeing: Seeing
    message: str
    dice_seen: int = 0
    unsure: tuple[int, ...] = ()
    dice_wanted: int | None = None
    """How many dice a roll needs, when the camera saw another number (None: any)."""
    why: tuple[tuple[int, Why], ...] = ()
    """Of the unsure dice, why the camera doubts each (position, :data:`vision.reading.Why`),
    where the reader could say."""


@dataclass(frozen=True, slots=True)
class Throw:
    """A settled throw: the roll (in reading order) and the readings it came from."""

    roll: Roll
    readings: tuple[DieReading, ...]
    reread: bool = False
    aside: Roll | None = None
    """The dice in the set-aside strip (``roll`` is then the dice in play), or None."""
    unsure: tuple[int, ...] = ()
    """The dice of ``roll`` the table is asked to check (positions from 1): read unsure, or
    lying on the edge of the set-aside strip. The live view marks the same dice."""
    why: tuple[tuple[int, Why], ...] = ()
    """Of the unsure dice, why each is doubted (as :attr:`Sight.why`)."""


def _small(frame: np.ndarray, tray: Tray | None = None) -> np.ndarray:
    """A small grey copy of the picture, or of the tray only (rectified) when it is marked:
    a hand at the cards beside the tray is no motion of the dice."""
    h, w = frame.shape[:2]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    if tray is None:
        small = cv2.resize(gray, (SMALL_WIDTH, max(1, round(h * SMALL_WIDTH / w))),
                           interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (5, 5), 0)
    half = 2 * SMALL_WIDTH / w  # halve the picture first (area), then warp to the tray
    gray = cv2.resize(gray, None, fx=half, fy=half, interpolation=cv2.INTER_AREA)
    fitted = tray.fitted(w, h)
    tw, th = fitted.size
    scale = SMALL_WIDTH / tw
    into = np.diag([scale, scale, 1.0]) @ fitted.homography() @ np.diag([1 / half, 1 / half, 1])
    small = cv2.warpPerspective(gray, into, (SMALL_WIDTH, max(1, round(th * scale))),
                                flags=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(small, (5, 5), 0)


def motion(previous: np.ndarray, current: np.ndarray) -> float:
    """The share of the (small) picture that changed by more than MOTION_LEVEL."""
    diff = cv2.absdiff(previous, current)
    return float(np.count_nonzero(diff > MOTION_LEVEL)) / diff.size


def camera_moved(then: np.ndarray, now: np.ndarray) -> bool:
    """Whether two small pictures (:func:`_small`) are of another size or differ over
    :data:`MOVED_CAMERA` of them: not the camera as it stood."""
    return then.shape != now.shape or motion(then, now) >= MOVED_CAMERA


def pictures_apart(then: np.ndarray, now: np.ndarray) -> bool:
    """:func:`camera_moved` of two whole frames: whether the roll detector would not hand the
    reader ``then`` as the last roll's picture when reading ``now``."""
    return camera_moved(_small(then), _small(now))


def _unmoved(before: Sequence[DieReading], now: Sequence[DieReading]) -> bool:
    """Every die shows the same face within half a die of where it lay before."""
    if not before or len(before) != len(now):
        return False
    left = list(before)
    for r in now:
        match = next((b for b in left if b.value == r.value and b.color == r.color
                      and abs(b.center[0] - r.center[0]) < 0.5 * b.size
                      and abs(b.center[1] - r.center[1]) < 0.5 * b.size), None)
        if match is None:
            return False
        left.remove(match)
    return True


def keep_kept(readings: Sequence[DieReading], frame: np.ndarray,
              before: Sequence[DieReading], last: LastRoll | None) -> list[DieReading]:
    """``readings`` with the box's physics applied to the kept dice.

    A die is kept when it lies where a die of the last roll (``before``, whose picture and
    places ``last`` holds) lay and its place is unchanged (:func:`vision.reader.kept_since`):
    it was not picked up, so it shows what it showed. Read the same, it is as sure as the
    surer of the two readings; read otherwise, one of the two readings is wrong and the die
    is marked unsure (confidence 0). Nothing is kept without the last roll's picture.
    """
    if last is None or not before:
        return list(readings)
    out = []
    for r, k in zip(readings, kept_since(frame, last, readings), strict=True):
        if k is not None:
            prev = before[k]
            same = (r.value, r.color) == (prev.value, prev.color)
            r = (replace(r, confidence=max(r.confidence, prev.confidence)) if same
                 else replace(r, confidence=0.0, why="kept"))
        out.append(r)
    return out


def _signature(readings: Sequence[DieReading]) -> Counter[tuple[int, Color | None]]:
    return Counter((r.value, r.color) for r in readings)


class RollDetector:
    """Turns a stream of frames into settled throws. Not thread-safe: one feeder."""

    def __init__(self, read: Reader, dice: int | Callable[[], int | None] | None = 6,
                 settle_seconds: float = 0.5, stable_reads: int = 2,
                 strip: Callable[[], AsideStrip | None] | None = None,
                 tray: Callable[[], Tray | None] | None = None,
                 read_doubtful: Reader | None = None) -> None:
        """``dice``: how many dice a throw has (None: any number; a function: asked at
        every reading, as the game changes it). ``strip``: the set-aside strip to split
        the dice by, when the game now played sets dice aside (else None). ``tray``: the
        tray marked at calibration (None: the whole picture), where motion counts.
        ``read_doubtful``: reads as ``read`` and also the dice the reader doubts are there
        (``read`` leaves them out, and the table asks whether one is covered), marked
        unsure: used when the players ask to read again (default: ``read``)."""
        self.read = read
        self.read_doubtful = read_doubtful
        self.dice = dice
        self.strip = strip
        self.tray = tray  # the marked tray, asked at every frame: motion counts only there
        self.settle_seconds = settle_seconds
        self.stable_reads = stable_reads
        self._previous: np.ndarray | None = None
        self._last_motion: float | None = None
        self._armed = False          # motion was seen since the last roll
        self._agreeing: list[list[DieReading]] = []
        self._anchor: np.ndarray | None = None  # the small picture last read
        self._read_frame: np.ndarray | None = None
        self._reread = False
        self.sight = Sight("waiting", "waiting for a throw")
        self.last_readings: tuple[DieReading, ...] = ()
        self.last_throw: tuple[DieReading, ...] = ()
        self.last_frame: np.ndarray | None = None
        self._picture: tuple[np.ndarray, np.ndarray] | None = None
        """The picture a throw is compared with, and its :func:`_small` copy: the last roll's,
        or while there is none since the camera came, the tray's last still picture."""
        self._handed: tuple[LastRoll, tuple[DieReading, ...]] | None = None
        """That picture as the reader is handed it, with its readings (the still tray's read
        once a throw needs them)."""
        self._rolled = False
        """A roll's picture is kept (since the camera came): the still tray no longer stands
        in for it."""

    def request_reread(self) -> None:
        """Read the dice lying in the tray again (the re-read button)."""
        self._reread = True
        self._agreeing, self._anchor = [], None

    def reset(self) -> None:
        """Forget the last frame (after the camera was away): the next frame starts afresh,
        and the last roll's picture is not compared with the camera's new ones."""
        self._previous = None
        self._agreeing, self._anchor = [], None
        self._picture = self._handed = None
        self._rolled = False

    def feed(self, frame: np.ndarray, now: float) -> Throw | None:
        """Look at one frame taken at ``now`` (seconds); a Throw once a throw has settled.

        The dice are read while the tray settles: every still frame after the motion is
        read until ``stable_reads`` readings agree, so the roll is there as soon as the
        tray has been still for ``settle_seconds``. A reading counts only while the picture
        is still the one it was read from: motion between frames, or a slow drift away
        from the picture last read, starts the settling afresh."""
        small = _small(frame, self.tray() if self.tray is not None else None)
        self.last_frame = frame
        moved = (self._previous is not None and self._previous.shape == small.shape
                 and motion(self._previous, small) > MOTION_FRACTION)
        drifted = (self._anchor is not None and self._anchor.shape == small.shape
                   and motion(self._anchor, small) > MOTION_FRACTION)
        self._previous = small
        if moved or drifted:
            self._last_motion = now
            self._armed = True
            self._agreeing, self._anchor = [], None
            self.sight = Sight("moving", "dice rolling or a hand in the tray")
            return None
        if not (self._armed or self._reread):
            if not self._rolled:  # the tray before the throw, kept to compare with
                self._picture, self._handed = (frame, small), None
            if self.sight.seeing == "moving":
                self.sight = Sight("waiting", "waiting for a throw")
            return None
        if len(self._agreeing) < self.stable_reads or self._reread:
            readings = self._read(frame, small)
            if readings is None:
                return None
            self._anchor = small
        settled = (self._reread or self._last_motion is None
                   or now - self._last_motion >= self.settle_seconds - SLACK)
        if len(self._agreeing) < self.stable_reads:
            return None
        if not settled:
            self.sight = Sight("settling", "dice settling", len(self._agreeing[-1]))
            return None
        assert self._read_frame is not None
        return self._settled(self._agreeing[-1], self._read_frame)

    def _read(self, frame: np.ndarray, small: np.ndarray) -> list[DieReading] | None:
        """Read ``frame`` (``small``: its :func:`_small` copy) and count it towards the
        agreeing readings; None when it shows no roll (no dice, or another number than the
        game needs)."""
        wanted = self.dice() if callable(self.dice) else self.dice
        read = self.read_doubtful if self._reread and self.read_doubtful else self.read
        last, before = self._last(small) or (None, ())
        readings = list(read(frame, wanted, last))
        if not self._reread:  # asked to read again: the dice as they look now, nothing kept
            readings = keep_kept(readings, frame, before, last)
        self.last_readings = tuple(readings)
        n = len(readings)
        if n == 0 or (wanted is not None and n != wanted):
            self._agreeing, self._anchor = [], None
            kind: Seeing = "no dice" if n == 0 else ("too few dice" if n < (wanted or 1)
                                                      else "too many dice")
            self.sight = Sight(kind, f"I see {n} dice; a roll needs {wanted or 'some'}"
                               + _WHY.get(kind, ""), n, dice_wanted=wanted)
            return None
        if self._agreeing and _signature(self._agreeing[-1]) != _signature(readings):
            self._agreeing, self._anchor = [], None
        self._agreeing.append(readings)
        self._read_frame = frame
        self.sight = Sight("settling", "reading the dice", n)
        return readings

    def _last(self, small: np.ndarray) -> tuple[LastRoll, tuple[DieReading, ...]] | None:
        """The last roll's picture and where its dice lay, and its readings, for reading a
        frame (``small``: its :func:`_small` copy); before the first roll or after the camera
        was away, the tray's last still picture before the throw, read once; None when the
        picture differs from it too widely (:data:`MOVED_CAMERA`)."""
        if self._picture is None or camera_moved(self._picture[1], small):
            return None
        if self._handed is None:  # the tray before the first throw: read once
            picture = self._picture[0]
            seen = tuple(self.read(picture, None, None))
            self._handed = last_roll(picture, seen), seen
        return self._handed

    def _settled(self, readings: list[DieReading], frame: np.ndarray) -> Throw | None:
        """The agreeing readings of a settled tray: a Throw, unless nothing was thrown."""
        n = len(readings)
        if not self._reread and _unmoved(self.last_throw, readings):
            # a hand passed over the tray but no die moved or changed: not a throw
            self._armed, self._agreeing, self._anchor = False, [], None
            self.sight = Sight("settled", "same dice in the same places: no new roll", n)
            return None
        strip = self.strip() if self.strip is not None else None
        aside: Roll | None = None
        doubtful: tuple[DieReading, ...] = ()
        if strip is not None:
            height, width = frame.shape[:2]
            split = strip.split(readings, width, height)
            readings, aside, doubtful = list(split.active), to_roll(split.aside), split.doubtful
        roll = to_roll(readings)
        ordered = reading_order(readings)
        self.last_throw = tuple(ordered) + (() if aside is None else tuple(split.aside))
        if self._anchor is not None:  # the small copy read
            self._picture, self._rolled = (frame, self._anchor), True
            self._handed = last_roll(frame, self.last_throw), self.last_throw
        unsure = tuple(i + 1 for i, r in enumerate(ordered)
                       if not r.confident or r in doubtful)
        why = tuple((i + 1, w) for i, r in enumerate(ordered)
                    if (w := "strip" if r in doubtful else None if r.confident else r.why))
        message = "dice read" if not unsure else (
            "dice read; please check die " + ", ".join(map(str, unsure)))
        if doubtful:
            message += f"; {len(doubtful)} on the edge of the set-aside strip"
        self.sight = Sight("settled", message, n, unsure, why=why)
        reread, self._reread, self._armed = self._reread, False, False
        self._agreeing, self._anchor = [], None
        return Throw(roll, tuple(ordered), reread, aside, unsure, why)

