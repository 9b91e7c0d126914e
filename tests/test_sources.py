"""Frame sources: replay, the simulated tray, and real cameras failing with a clear error."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from pi.simtray import SimulatedTray
from pi.sources import CameraError, OpenCVCamera, PiCamera, ReplaySource, make_source


def test_replay_a_folder_of_images_repeats_each_then_holds_the_last(tmp_path: Path) -> None:
    for i, shade in enumerate((10, 120, 240)):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), np.full((48, 64, 3), shade, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    source = make_source(f"replay:{tmp_path}")
    assert isinstance(source, ReplaySource)
    source.open()
    shades = [int(source.read()[0, 0, 0]) for _ in range(14)]
    assert shades == [10] * 4 + [120] * 4 + [240] * 6
    source.close()


@pytest.mark.parametrize("spec", ["replay:/no/such/folder", "opencv:9"])
def test_a_missing_source_raises_a_camera_error(spec: str, tmp_path: Path) -> None:
    source = make_source(spec)
    with pytest.raises(CameraError):
        source.open()
    with pytest.raises(CameraError):
        source.read()


def test_an_empty_folder_is_a_camera_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no images to replay"):
        ReplaySource(tmp_path).open()


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None,
                    reason="picamera2 is installed here")
def test_pi_camera_without_picamera2_says_how_to_install_it() -> None:
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera().open()


def test_auto_falls_back_to_the_simulated_tray_without_a_camera() -> None:
    if Path("/dev/video0").exists():
        pytest.skip("this machine has a camera")
    assert isinstance(make_source("auto"), SimulatedTray)
    assert isinstance(make_source("opencv"), OpenCVCamera)


def test_the_simulated_tray_fails_like_an_unplugged_camera() -> None:
    tray = SimulatedTray(seed=2)
    tray.open()
    assert tray.read().shape == (720, 960, 3)
    tray.unplug()
    with pytest.raises(CameraError, match="unplugged"):
        tray.read()
    with pytest.raises(CameraError):
        tray.open()
    tray.plug()
    tray.open()
    assert tray.dice is not None and len(tray.dice) == 6
