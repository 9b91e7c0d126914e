"""The eye over the tray: one thread that owns the camera, watches for throws, tells the game.

Frames flow one way: frame source -> roll detector -> dice reader -> a typed
:class:`rules.actions.Seen` (the roll, each die's confidence, whether it was a second
reading) handed to the table, which decides under its lock what it means for the game.
The eye also reports its status (:class:`rules.table.EyeStatus`) to the table, which
publishes it with the game. When the camera fails the eye says so (the page and the status
LED show it), keeps the game untouched, and opens the camera again every few seconds until
it is back. The re-read button reads the dice again; the table turns a changed reading into
one ``fix`` (one undo).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import cv2

from pi.detector import RollDetector, Throw
from pi.frames import CameraError, FrameSource
from rules.actions import Seen
from rules.errors import KotdError, UsageError
from rules.store import SaveError
from rules.table import Camera, EyeStatus
from vision.annotate import annotate
from vision.tilt import camera_tilt

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
"""After a camera fails to open, wait this long before trying again."""

STALL_SECONDS = 2.0
"""No frame for this long from an open camera: "camera stalled", and it is opened again."""

WATCH_SECONDS = 0.25
STOP_SECONDS = 7.0
"""How long a stop waits for the eye's threads, in all: within systemd's 10 s to stop."""
LOG_EVERY_SECONDS = 60.0
"""The same camera complaint is logged at most once a minute."""

MAX_ABANDONED = 3
"""Readers stuck in a camera that never returns; no more are started beyond this."""
TILT_DICE = 60
"""The sure dice of the last rolls (about ten) whose sizes tell the camera's tilt."""
ASK_TRAY_FROM = 30.0
"""Degrees from straight down, as the dice's sizes tell it (:func:`vision.tilt.camera_tilt`),
from which, no tray being marked, the page suggests marking it: at a desk arm's angle only
the tray's corners tell the reader where a die's side shows, and unmarked it has read a side
for a top. The sizes tell a tilt high (a top seen at a slant also looks smaller): read from
one frame's sure dice (`lens-tune` 240-479), a desk arm's 28-35° came out over 30° in 45 of
46 frames, a bridge's 0-20° in 6 of 70; the eye pools three rolls or more."""


def _why(err: Exception) -> str:
    """A camera failure in words: the CameraError's own, or the exception named."""
    if isinstance(err, CameraError):
        return str(err)
    return f"the camera failed ({type(err).__name__}: {err})"


class TrayKeeper(Protocol):
    """What the eye needs to mark the tray (:class:`pi.serve.DiceReader`)."""

    tray: Any  # vision.tray.Tray | None

    def keep_tray(self, tray: Any) -> None: ...


class RollTaker(Protocol):
    """What the eye needs of the table (:class:`rules.table.Table`)."""

    def saw(self, seen: Seen) -> object: ...

    def report_eye(self, status: EyeStatus) -> object: ...


class Eye:
    """The camera side: status, annotated picture, re-read and (simulated tray) throw;
    the page's :class:`web.ports.TableEye`."""

    def __init__(self, source: FrameSource, detector: RollDetector, table: RollTaker,
                 fps: float = 8.0, clock: Callable[[], float] = time.monotonic,
                 stall_seconds: float = STALL_SECONDS) -> None:
        self.source = source
        self.detector = detector
        self.table = table
        self.period = 1.0 / fps
        self.stall_seconds = stall_seconds  # the tests set a shorter stall than the table's
        self.clock = clock
        self.camera: Camera = "starting"
        self.camera_message = ""
        self.last_refusal = ""
        self.frames = 0
        self.rolls_delivered = 0
        self.last_delivery: float | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: threading.Thread | None = None
        self._abandoned: list[threading.Thread] = []
        self._generation = 0
        self._said: dict[str, tuple[float, int]] = {}
        self.last_frame_at: float | None = None
        self._opened = False
        self.calibrator: Callable[[Any], object] | None = None  # measures and saves a palette
        self.tray_keeper: TrayKeeper | None = None  # keeps the tray marked at calibration
        self._dice_sizes: deque[tuple[float, float, float]] = deque(maxlen=TILT_DICE)
        self._sizes_in: tuple[int, int] | None = None  # the pictures the sizes were seen in
        self.tilt: float | None = None  # the camera's tilt the dice's sizes tell, if they do

    @property
    def simulated(self) -> bool:
        return getattr(self.source, "name", "") == "sim"

    # ---- the page's TableEye -------------------------------------------------------

    def status(self) -> EyeStatus:
        sight = self.detector.sight
        camera = self.camera
        if camera == "ok" and self.simulated:
            camera = "simulated"
        message = self.camera_message if self.camera != "ok" else sight.message
        if self.last_refusal and self.camera == "ok":
            message = self.last_refusal
        info = getattr(self.source, "info", None) or {}
        tray = self._tray_at()
        return EyeStatus(camera, getattr(self.source, "name", "?"), sight.seeing,
                         sight.dice_seen, sight.unsure, message, self.simulated,
                         self._dice_at(), self.calibrator is not None and camera != "lost",
                         tuple((str(k), str(v)) for k, v in info.items()),
                         dice_wanted=sight.dice_wanted, tray=tray, why=sight.why,
                         tilted=not tray and self._tilted())

    def _tilted(self) -> bool:
        """The dice's sizes say the camera looks at an angle (:data:`ASK_TRAY_FROM`)."""
        tilt = self.tilt
        return tilt is not None and tilt > ASK_TRAY_FROM

    def _tray_at(self) -> tuple[tuple[float, float], ...]:
        tray = self.tray_keeper.tray if self.tray_keeper is not None else None
        return tray.fractions() if tray is not None else ()

    def _dice_at(self) -> tuple[tuple[float, float], ...]:
        """Where the dice of the last throw lie, as fractions of the picture, in the order
        the page numbers them (the live view labels them so)."""
        frame = self.detector.last_frame
        if frame is None or not self.detector.last_throw:
            return ()
        height, width = frame.shape[:2]
        return tuple((round(r.center[0] / width, 4), round(r.center[1] / height, 4))
                     for r in self.detector.last_throw)

    def calibrate(self) -> None:
        """Teach the reader the dice colours from the picture in the tray now (all six dice
        apart, faces up): the palette is measured, saved and used from the next reading."""
        if self.calibrator is None:
            raise UsageError("no_calibration", "this camera cannot be calibrated from the page")
        frame = self.detector.last_frame
        if frame is None:
            raise UsageError("no_picture", "no camera picture yet: put the dice under the "
                             "camera")
        self.calibrator(frame)
        self.detector.request_reread()

    # ---- the tray (vision/tray.py), marked on the page's live view -----------------------

    def _picture(self) -> Any:
        if self.tray_keeper is None:
            raise UsageError("no_calibration", "this camera cannot be calibrated from the page")
        frame = self.detector.last_frame
        if frame is None:
            raise UsageError("no_picture", "no camera picture yet: put the dice under the "
                             "camera")
        return frame

    def mark_tray(self, corners: Any) -> dict[str, Any]:
        """Read only the tray from now on: ``corners`` are its four corners as fractions of
        the picture (x, y), in order around it; kept in the data dir. Returns how far the
        camera looks from straight down at it (``tilt``, whole degrees) and whether that is
        more than the reader was made for (``too_tilted``: :data:`vision.tray.MOST_TILT`)."""
        from vision.tray import MOST_TILT, Tray

        frame = self._picture()
        height, width = frame.shape[:2]
        try:
            points = [(float(x) * width, float(y) * height) for x, y in corners]
        except (TypeError, ValueError):
            raise UsageError("tray_body", "send the tray's corners as {{\"corners\": "
                             "[[x, y], ...]}}, fractions of the picture") from None
        assert self.tray_keeper is not None
        tray = Tray.mark(points, width, height)
        self.tray_keeper.keep_tray(tray)
        self.detector.request_reread()
        self._changed()
        tilt = tray.tilt()
        return {"tilt": round(tilt), "too_tilted": tilt > MOST_TILT}

    def clear_tray(self) -> None:
        """Forget the tray: the whole picture is read again."""
        self._picture()
        assert self.tray_keeper is not None
        self.tray_keeper.keep_tray(None)
        self.detector.request_reread()
        self._changed()

    def suggest_tray(self) -> tuple[tuple[float, float], ...]:
        """The tray found from its edge in the picture now, as fractions (to confirm)."""
        from rules.errors import TrayError
        from vision.tray import find_tray

        tray = find_tray(self._picture())
        if tray is None:
            raise TrayError("not_found", "no tray found in the picture: tap its four "
                            "corners on the camera view")
        return tray.fractions()

    def annotated_jpeg(self) -> bytes | None:
        frame = self.detector.last_frame
        if frame is None:
            return None
        picture = annotate(frame, self.detector.last_readings, labels=False)
        ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    def reread(self) -> None:
        self.detector.request_reread()

    def throw(self) -> bool:
        """Throw the simulated tray's dice (the page's demo button); False for real cameras."""
        throw = getattr(self.source, "throw", None)
        if throw is None:
            return False
        throw()
        return True

    # ---- the threads ---------------------------------------------------------------
    #
    # A reader thread opens the source, reads frames and feeds the detector. The eye's own
    # thread is its watchdog: when no frame came for ``stall_seconds`` it says "camera
    # stalled", abandons the reader (a blocked read cannot be interrupted; whatever it
    # returns later is thrown away) and starts a new one that opens the camera again.

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, name="kotd-eye", daemon=True)
        self._thread.start()

    def stop(self, wait: float = STOP_SECONDS) -> bool:
        """Stop the eye: its watchdog and every reader, the abandoned ones too, are asked to
        end and waited for, ``wait`` seconds in all; True when every one ended. (A read
        blocked in a camera driver may never return; a thread still inside OpenCV or the
        driver when Python tears itself down may abort the process.)"""
        self._stop.set()
        deadline = time.monotonic() + wait
        threads = [t for t in (self._thread, self._reader, *self._abandoned) if t is not None]
        for t in threads:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
        self._close()
        return not any(t.is_alive() for t in threads)

    def _close(self) -> None:
        if self._opened:
            self._opened = False
            try:
                self.source.close()
            except Exception:  # closing a dead camera may fail too; nothing to keep
                log.debug("closing the frame source failed", exc_info=True)

    def _lost(self, why: str) -> None:
        self._close()
        self.camera = "lost"
        self.camera_message = f"{why}; the game is kept, reading resumes when it is back"
        self.detector.reset()
        self._complain(f"camera: {why}")

    def _complain(self, line: str, exc_info: bool = False) -> None:
        """Log ``line`` at most once a minute (with how often it came meanwhile): a camera
        failing ten times a second must not fill the SD card with the same words."""
        now = time.monotonic()
        with self._lock:
            first, since = self._said.get(line, (None, 0))
            if first is not None and now - first < LOG_EVERY_SECONDS:
                self._said[line] = (first, since + 1)
                return
            if len(self._said) > 64:
                self._said.clear()
            self._said[line] = (now, 0)
        more = f" (and {since} more times in the last minute)" if since else ""
        log.warning("%s%s", line, more, exc_info=exc_info)

    def step(self, generation: int | None = None) -> None:
        """One pass of the reader: open if needed, read one frame, feed the detector.

        Any failure of the source (not only :class:`CameraError`: a driver's own
        exception, an image OpenCV cannot decode, no picture at all) is a camera problem:
        the status says it, the log says it once a minute, the camera is opened again."""
        if not self._opened:
            try:
                self.source.open()
            except Exception as err:
                self._lost(_why(err))
                self._changed()
                self._stop.wait(RETRY_SECONDS)
                return
            self._opened = True
            self.last_frame_at = time.monotonic()
            if self.camera != "stalled":  # a stalled camera is "ok" at its first frame
                self.camera, self.camera_message = "ok", ""
            self._changed()
        try:
            frame = self.source.read()
            if getattr(frame, "ndim", 0) not in (2, 3) or not getattr(frame, "size", 0):
                raise CameraError("the camera gave no picture")
        except Exception as err:
            if generation is None or generation == self._generation:
                self._lost(_why(err))
                self._changed()
            return
        if generation is not None and generation != self._generation:
            return  # a reader given up for stalling: its late frame is not used
        self.last_frame_at = time.monotonic()
        if self.camera != "ok":
            self.camera, self.camera_message = "ok", ""
        self.frames += 1
        throw = self.detector.feed(frame, self.clock())
        if throw is not None:
            self._deliver(throw)
        self._changed()

    def _read(self, generation: int) -> None:
        while not self._stop.is_set() and generation == self._generation:
            start = time.monotonic()
            try:
                self.step(generation)
            except Exception:  # never let one bad frame end the eye; a bug, said once a minute
                self._complain("the eye failed on a frame", exc_info=True)
            self._stop.wait(max(0.0, self.period - (time.monotonic() - start)))

    def _watch(self) -> None:
        while not self._stop.is_set():
            reader = self._reader
            if reader is None or not reader.is_alive():
                self._start_reader()
            elif (self._opened and self.last_frame_at is not None
                  and time.monotonic() - self.last_frame_at > self.stall_seconds):
                self._stalled()
            self._stop.wait(WATCH_SECONDS)

    def _start_reader(self) -> None:
        self._abandoned = [t for t in self._abandoned if t.is_alive()]
        if len(self._abandoned) >= MAX_ABANDONED:
            return  # the camera blocks every reader: wait until one of them returns
        self._reader = threading.Thread(target=self._read, args=(self._generation,),
                                        name="kotd-eye-reader", daemon=True)
        self._reader.start()

    def _stalled(self) -> None:
        """No frame for ``stall_seconds``: say so, give up the reader, open the camera again."""
        self._generation += 1
        if self._reader is not None:
            self._abandoned.append(self._reader)
        self._reader = None
        self.camera = "stalled"
        self.camera_message = (f"no picture from the camera for {self.stall_seconds:g} s; "
                               "opening it again (the game is kept)")
        self.detector.reset()
        self._complain(f"camera stalled: no frame for {self.stall_seconds:g} s, opening it again")
        self._changed()
        closing = threading.Thread(target=self._close, name="kotd-eye-close", daemon=True)
        closing.start()  # closing a hung camera may hang too: not on the watchdog
        closing.join(timeout=1.0)
        self._opened = False
        self.last_frame_at = None
        self._start_reader()

    def _measure(self, throw: Throw) -> None:
        """Keep the sure dice's places and sizes, and what they tell of the camera's tilt."""
        frame = self.detector.last_frame
        if frame is None:
            return
        height, width = frame.shape[:2]
        if self._sizes_in != (width, height):  # another camera mode: start again
            self._dice_sizes.clear()
            self._sizes_in = (width, height)
        self._dice_sizes.extend((r.center[0], r.center[1], r.size) for r in throw.readings
                                if r.confidence >= r.sure_at)
        self.tilt = camera_tilt(self._dice_sizes, width, height)

    def _deliver(self, throw: Throw) -> None:
        self._measure(throw)
        seen = Seen(throw.roll, tuple(r.confidence for r in throw.readings), throw.unsure,
                    throw.reread, throw.aside, throw.why)
        self.last_refusal = ""
        try:
            self.table.saw(seen)
        except (KotdError, SaveError) as err:
            self.last_refusal = f"saw {throw.roll}, but {err}"
            log.info("throw not taken: %s", err)
            return
        self.rolls_delivered += 1
        self.last_delivery = time.monotonic()

    def _changed(self) -> None:
        self.table.report_eye(self.status())
