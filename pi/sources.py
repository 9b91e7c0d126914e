"""Frame sources: where the pictures of the dice tray come from.

All sources share one small face (:class:`FrameSource`): ``open()``, ``read()`` returning a
BGR ``numpy`` frame, ``close()``. A source that fails raises :class:`CameraError`; the
caller keeps the game and tries to open it again later. picamera2 and OpenCV are imported
only when their source is used, so a laptop without them still runs everything else.

* :class:`PiCamera` - the Raspberry Pi camera through picamera2 (RGB888, which is B,G,R in
  memory as OpenCV expects), exposure and white balance locked after a warm-up.
* :class:`OpenCVCamera` - any camera OpenCV can open (a USB webcam).
* :class:`ReplaySource` - a folder of images or a video file, for replaying a session.
* :class:`pi.simtray.SimulatedTray` - rendered HABA dice rolling and settling.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np

from pi.frames import CameraError, FrameSource

log = logging.getLogger(__name__)

__all__ = ["CameraError", "FrameSource", "OpenCVCamera", "PiCamera", "ReplaySource",
           "make_source"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


AF_MANUAL, AF_AUTO = 0, 1
"""libcamera's ``AfModeEnum.Manual`` and ``.Auto`` (Camera Module 3 has autofocus)."""


class PiCamera:
    """The Raspberry Pi camera through picamera2 (installed from Raspberry Pi OS's apt).

    After a warm-up, exposure and white balance are locked at what the camera chose, and a
    camera with autofocus (Camera Module 3) is focused once and locked there: at
    ``focus_cm`` (the lens-to-tray distance) when given, else where one autofocus cycle on
    the tray puts it. Nothing moves between rolls, so colours and sharpness stay the same.
    :attr:`info` says what was locked (``kotd doctor`` shows it).
    """

    name = "picamera"

    def __init__(self, size: tuple[int, int] = (1280, 960), warmup_seconds: float = 1.5,
                 focus_cm: float | None = None) -> None:
        self.size = size
        self.warmup_seconds = warmup_seconds
        self.focus_cm = focus_cm
        self.info: dict[str, str] = {}
        self._cam: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as err:
            raise CameraError("picamera2 is not installed: on Raspberry Pi OS run "
                              "'sudo apt install python3-picamera2' and make the venv with "
                              "--system-site-packages (pi/install.sh does both)") from err
        try:
            cam = Picamera2()
            config = cam.create_still_configuration(
                main={"format": "RGB888", "size": self.size}, buffer_count=2)
            cam.configure(config)
            cam.start()
            focus = self._lock_focus(cam)
            time.sleep(self.warmup_seconds)  # let exposure and white balance settle
            meta = cam.capture_metadata()
            cam.set_controls({
                "AeEnable": False, "AwbEnable": False,
                "ExposureTime": meta["ExposureTime"], "AnalogueGain": meta["AnalogueGain"],
                "ColourGains": meta["ColourGains"],
            })
        except CameraError:
            raise
        except Exception as err:  # libcamera raises many kinds; all mean "no camera"
            raise CameraError(f"Pi camera could not start: {err}") from err
        red, blue = meta["ColourGains"]
        self.info = {
            "model": str(cam.camera_properties.get("Model", "unknown")),
            "mode": f"{self.size[0]}x{self.size[1]} RGB888",
            "exposure": f"locked at {meta['ExposureTime']} µs, gain "
                        f"{meta['AnalogueGain']:.2f}",
            "white balance": f"locked at red {red:.2f}, blue {blue:.2f}",
            "focus": focus,
        }
        log.info("Pi camera %s", "; ".join(f"{k} {v}" for k, v in self.info.items()))
        self._cam = cam

    def _lock_focus(self, cam: Any) -> str:
        if "AfMode" not in cam.camera_controls:
            return "fixed-focus lens (turn its ring by hand until the pips are sharp)"
        if self.focus_cm is not None:
            dioptres = 100.0 / self.focus_cm
            how = f"set to {self.focus_cm:g} cm"
        else:
            cam.set_controls({"AfMode": AF_AUTO})
            if not cam.autofocus_cycle():
                raise CameraError("the camera could not focus on the tray: set focus_cm "
                                  "in config.toml to the lens-to-tray distance")
            dioptres = float(cam.capture_metadata()["LensPosition"])
            how = "found by autofocus at start"
        cam.set_controls({"AfMode": AF_MANUAL, "LensPosition": dioptres})
        distance = f"{100 / dioptres:.0f} cm" if dioptres > 0 else "infinity"
        return f"locked at {dioptres:.2f} dioptres ({distance}, {how})"

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraError("Pi camera is not open")
        try:
            frame: np.ndarray = self._cam.capture_array("main")
            return frame
        except Exception as err:
            raise CameraError(f"Pi camera stopped delivering frames: {err}") from err

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


class OpenCVCamera:
    """A camera OpenCV can open by index (USB webcams, most laptop cameras)."""

    def __init__(self, index: int = 0, size: tuple[int, int] = (1280, 960)) -> None:
        self.index = index
        self.size = size
        self.name = f"opencv:{index}"
        self._cap: Any = None

    def open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.index)
        if not cap.isOpened():
            raise CameraError(f"camera {self.index} could not be opened")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraError(f"camera {self.index} is not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.index} delivered no frame (unplugged?)")
        return np.asarray(frame)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ReplaySource:
    """Frames from a folder of images (sorted by name) or a video file, then the last again.

    ``repeat`` makes each image last several frames, so a folder of stills looks like a
    tray that moves and then lies still.
    """

    def __init__(self, path: str | Path, repeat: int = 1, loop: bool = False) -> None:
        self.path = Path(path)
        self.name = f"replay:{self.path}"
        self.repeat = max(1, repeat)
        self.loop = loop
        self._files: list[Path] = []
        self._cap: Any = None
        self._i = 0
        self._last: np.ndarray | None = None

    def open(self) -> None:
        import cv2

        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir()
                                 if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise CameraError(f"{self.path}: no images to replay")
        elif self.path.is_file():
            self._cap = cv2.VideoCapture(str(self.path))
            if not self._cap.isOpened():
                raise CameraError(f"{self.path}: not a video OpenCV can read")
        else:
            raise CameraError(f"{self.path}: no such file or folder")
        self._i = 0

    def read(self) -> np.ndarray:
        import cv2

        if self._cap is not None:
            ok, frame = self._cap.read()
            if ok:
                self._last = frame
            elif self._last is None:
                raise CameraError(f"{self.path}: the video has no frames")
            return self._last
        if not self._files:
            raise CameraError(f"{self.path}: not open")
        index = self._i // self.repeat
        if index >= len(self._files):
            index = index % len(self._files) if self.loop else len(self._files) - 1
        self._i += 1
        frame = cv2.imread(str(self._files[index]), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"{self._files[index]}: not an image")
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def make_source(spec: str, focus_cm: float | None = None) -> FrameSource:
    """The frame source a config names: ``sim``, ``picamera``, ``opencv[:N]``, ``replay:PATH``.

    ``auto`` picks the Pi camera if picamera2 and a camera are there, else a webcam that
    opens, else the simulated tray, so a newcomer on a laptop sees it work.
    """
    kind, _, arg = spec.partition(":")
    if kind == "sim":
        from pi.simtray import SimulatedTray

        return SimulatedTray()
    if kind == "picamera":
        return PiCamera(focus_cm=focus_cm)
    if kind == "opencv":
        return OpenCVCamera(int(arg or 0))
    if kind == "replay":
        return ReplaySource(arg, repeat=4)
    if kind == "auto":
        return _auto(focus_cm)
    raise CameraError(f"unknown frame source {spec!r}")


def _auto(focus_cm: float | None = None) -> FrameSource:
    import importlib.util

    if importlib.util.find_spec("picamera2") is not None and Path("/dev/video0").exists():
        return PiCamera(focus_cm=focus_cm)
    if Path("/dev/video0").exists():
        cam = OpenCVCamera(0)
        try:
            cam.open()
            cam.read()
        except CameraError:
            pass
        else:
            cam.close()
            return cam
    from pi.simtray import SimulatedTray

    return SimulatedTray()
