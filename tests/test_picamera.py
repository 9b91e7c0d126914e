"""The Pi camera adapter against a fake picamera2 with the same face.

picamera2 cannot run off a Raspberry Pi, so :class:`FakePicamera2` stands in for the calls
:class:`pi.sources.PiCamera` makes (configure, start, metadata, controls, autofocus, frames)
and records what was set, so the tests see exposure, white balance and focus locked.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from pi.sources import AF_AUTO, AF_MANUAL, CameraError, PiCamera


class FakePicamera2:
    """The part of ``picamera2.Picamera2`` that PiCamera uses; ``autofocus`` for CM3."""

    autofocus = True
    focus_ok = True
    fail_start = False

    def __init__(self) -> None:
        self.controls: dict[str, object] = {}
        self.history: list[dict[str, object]] = []
        self.started = False
        self.camera_properties = {"Model": "imx708" if self.autofocus else "imx219"}
        self.camera_controls = {"ExposureTime": (1, 1000000, 0), "AeEnable": (0, 1, 1)}
        if self.autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.size = (0, 0)

    def create_still_configuration(self, main: dict, buffer_count: int) -> dict:
        assert main["format"] == "RGB888"  # B,G,R in memory, as OpenCV wants
        return {"main": main, "buffer_count": buffer_count}

    def configure(self, config: dict) -> None:
        self.size = config["main"]["size"]

    def start(self) -> None:
        if self.fail_start:
            raise RuntimeError("Camera __init__ sequence did not complete.")
        self.started = True

    def set_controls(self, controls: dict[str, object]) -> None:
        self.history.append(dict(controls))
        self.controls.update(controls)

    def autofocus_cycle(self) -> bool:
        assert self.controls.get("AfMode") == AF_AUTO
        return self.focus_ok

    def capture_metadata(self) -> dict[str, object]:
        meta: dict[str, object] = {"ExposureTime": 12000, "AnalogueGain": 2.5,
                                   "ColourGains": (1.9, 1.6)}
        if self.autofocus:
            meta["LensPosition"] = 2.0  # dioptres: 50 cm
        return meta

    def capture_array(self, stream: str) -> np.ndarray:
        assert self.started and stream == "main"
        w, h = self.size
        return np.zeros((h, w, 3), np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        pass


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch):
    made: list[FakePicamera2] = []

    class Camera(FakePicamera2):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    module = types.ModuleType("picamera2")
    module.Picamera2 = Camera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return Camera, made


def test_exposure_white_balance_and_autofocus_are_locked(fake) -> None:
    _, made = fake
    cam = PiCamera(size=(640, 480), warmup_seconds=0)
    cam.open()
    (pc,) = made
    assert pc.controls["AeEnable"] is False and pc.controls["AwbEnable"] is False
    assert pc.controls["ExposureTime"] == 12000 and pc.controls["ColourGains"] == (1.9, 1.6)
    assert pc.controls["AfMode"] == AF_MANUAL and pc.controls["LensPosition"] == 2.0
    # autofocus ran once, then the lens was locked before exposure was locked
    modes = [c["AfMode"] for c in pc.history if "AfMode" in c]
    assert modes == [AF_AUTO, AF_MANUAL]
    assert cam.read().shape == (480, 640, 3)
    assert cam.info["model"] == "imx708"
    assert cam.info["focus"].startswith("locked at 2.00 dioptres (50 cm")
    assert "locked at 12000 µs" in cam.info["exposure"]
    cam.close()
    assert not pc.started


def test_focus_distance_from_the_config_skips_autofocus(fake) -> None:
    _, made = fake
    cam = PiCamera(warmup_seconds=0, focus_cm=40)
    cam.open()
    (pc,) = made
    assert [c["AfMode"] for c in pc.history if "AfMode" in c] == [AF_MANUAL]
    assert pc.controls["LensPosition"] == pytest.approx(2.5)
    assert "set to 40 cm" in cam.info["focus"]


def test_fixed_focus_camera_and_failures_are_told_plainly(fake) -> None:
    Camera, made = fake
    Camera.autofocus = False
    cam = PiCamera(warmup_seconds=0)
    cam.open()
    assert "AfMode" not in made[0].controls and "fixed-focus" in cam.info["focus"]
    Camera.autofocus, Camera.focus_ok = True, False
    with pytest.raises(CameraError, match=r"could not focus.*focus_cm"):
        PiCamera(warmup_seconds=0).open()
    Camera.focus_ok, Camera.fail_start = True, True
    with pytest.raises(CameraError, match="could not start: Camera __init__"):
        PiCamera(warmup_seconds=0).open()
    with pytest.raises(CameraError, match="not open"):
        PiCamera().read()
