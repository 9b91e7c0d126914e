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
from collections.abc import Callable
from typing import Any, Protocol

import cv2

from pi.detector import RollDetector, Throw
from pi.frames import CameraError, FrameSource
from rules.actions import Seen
from rules.errors import KotdError, UsageError
from rules.table import Camera, EyeStatus

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


class RollTaker(Protocol):
    """What the eye needs of the table (:class:`rules.table.Table`)."""

    def saw(self, seen: Seen) -> object: ...

    def report_eye(self, status: EyeStatus) -> object: ...


class Eye:
    """The camera side: status, annotated picture, re-read and (simulated tray) throw;
    the page's :class:`web.ports.TableEye`."""

    def __init__(self, source: FrameSource, detector: RollDetector, table: RollTaker,
                 fps: float = 8.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.detector = detector
        self.table = table
        self.period = 1.0 / fps
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
        self._opened = False
        self.calibrator: Callable[[Any], object] | None = None  # measures and saves a palette

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
        return EyeStatus(camera, getattr(self.source, "name", "?"), sight.seeing,
                         sight.dice_seen, sight.unsure, message, self.simulated,
                         self._dice_at(), self.calibrator is not None and camera != "lost",
                         tuple((str(k), str(v)) for k, v in info.items()))

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

    def annotated_jpeg(self) -> bytes | None:
        frame = self.detector.last_frame
        if frame is None:
            return None
        readings = self.detector.last_readings
        try:
            from vision.annotate import annotate

            picture = annotate(frame, readings)
        except ImportError:  # pragma: no cover - vision without annotate
            picture = frame
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

    # ---- the thread ----------------------------------------------------------------

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="kotd-eye", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close()

    def _close(self) -> None:
        if self._opened:
            try:
                self.source.close()
            except Exception:  # closing a dead camera may fail too; nothing to keep
                log.debug("closing the frame source failed", exc_info=True)
            self._opened = False

    def _lost(self, why: str) -> None:
        self._close()
        self.camera = "lost"
        self.camera_message = f"{why}; the game is kept, reading resumes when it is back"
        self.detector.reset()
        log.warning("camera: %s", why)

    def step(self) -> None:
        """One pass of the loop: open if needed, read one frame, feed the detector."""
        if not self._opened:
            try:
                self.source.open()
            except CameraError as err:
                self._lost(str(err))
                self._changed()
                self._stop.wait(RETRY_SECONDS)
                return
            self._opened = True
            self.camera, self.camera_message = "ok", ""
            self._changed()
        try:
            frame = self.source.read()
        except CameraError as err:
            self._lost(str(err))
            self._changed()
            return
        self.frames += 1
        throw = self.detector.feed(frame, self.clock())
        if throw is not None:
            self._deliver(throw)
        self._changed()

    def _run(self) -> None:
        while not self._stop.is_set():
            start = time.monotonic()
            try:
                self.step()
            except Exception:  # never let one bad frame end the eye
                log.exception("the eye failed on a frame")
            self._stop.wait(max(0.0, self.period - (time.monotonic() - start)))

    def _deliver(self, throw: Throw) -> None:
        seen = Seen(throw.roll, tuple(r.confidence for r in throw.readings),
                    tuple(i for i, r in enumerate(throw.readings, start=1) if not r.confident),
                    throw.reread, throw.aside)
        self.last_refusal = ""
        try:
            self.table.saw(seen)
        except KotdError as err:
            self.last_refusal = f"saw {throw.roll}, but {err}"
            log.info("throw not taken: %s", err)
            return
        self.rolls_delivered += 1
        self.last_delivery = time.monotonic()

    def _changed(self) -> None:
        self.table.report_eye(self.status())
