"""ONNX Runtime and OpenCV's DNN module run the networks alike (vision/onnxnet.py): the
ordinary-dice networks give the same maps, probabilities and readings on real photos, the
HABA networks on rendered frames."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED

from vision import onnxnet
from vision.dicenet import FINDER_ONNX, PIPS_ONNX, DiceNet, crop_for_pips

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tools")]
BYLER = SHARED / "data" / "byler-dev"
needs_ort = pytest.mark.skipif(onnxnet.onnxruntime is None, reason="no ONNX Runtime here")


def test_opencv_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOTD_ONNX", "opencv")
    assert onnxnet.runtime() == "opencv"
    assert DiceNet().runtime == "opencv"


@needs_ort
def test_onnxruntime_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOTD_ONNX", raising=False)
    assert DiceNet().runtime == "onnxruntime"


@needs_ort
@pytest.mark.skipif(not BYLER.is_dir(), reason="shared byler-dev data not present")
def test_both_runtimes_read_real_photos_alike() -> None:
    """Every other calibration photo (of every sixth of the train split: 10 photos, 80
    labelled dice; any photo shows a runtime that differs): the finder's maps and the pip
    reader's probabilities agree to 1e-4, and every die is found in the same place with the
    same value. A die whose first reading sits within that 1e-4 of `Turning.sure` may be read
    again in turns by one runtime and not the other: its confidence then moves (and so may
    its place in the list), never its value. That is rare: on all 19 photos, all but two
    dice's confidences agree to 1e-3."""
    import cv2
    from dice_data import calibration_split, load_byler

    _, calib = calibration_split(load_byler("train"))
    fast, slow = (DiceNet(FINDER_ONNX, PIPS_ONNX, r) for r in ("onnxruntime", "opencv"))
    dice = alike = 0
    for photo in calib[::2]:
        blob = cv2.dnn.blobFromImage(cv2.resize(photo.image, (384, 288)), 1 / 255.0)
        assert np.abs(fast._finder(blob) - slow._finder(blob)).max() < 1e-4
        crops = [crop_for_pips(photo.image, box) for box in photo.boxes]
        pips_in = DiceNet._blob(crops)
        assert np.abs(fast._classify_blob(pips_in) - slow._classify_blob(pips_in)).max() < 1e-4
        a, b = (sorted(r.read(photo.image), key=lambda d: d.box) for r in (fast, slow))
        assert [(d.value, d.pips) for d in a] == [(d.value, d.pips) for d in b], photo.name
        assert all(np.allclose(d.box, e.box, atol=1e-3) for d, e in zip(a, b, strict=True))
        gaps = [abs(d.confidence - e.confidence) for d, e in zip(a, b, strict=True)]
        dice += len(a)
        alike += sum(g < 1e-3 for g in gaps)
    assert dice >= 76  # 80 labelled dice: the photos were read, not skipped
    assert alike >= dice - 2  # a turn read by one runtime only is rare


@needs_ort
def test_both_runtimes_read_haba_frames_alike() -> None:
    """Tuning frames of the HABA reader (every table family it is tuned on, the closer look
    on small dice included): the same faces found to 1e-3 px, pip probabilities to 1e-4,
    and every die read the same. The frames are the reader's gate's
    (``test_vision_gate.py``), drawn once for both tests (``.cache/haba-sets``)."""
    from habakit import frame

    from vision.habanet import HabaNet, face_crop

    fast, slow = HabaNet(use="onnxruntime"), HabaNet(use="opencv")
    assert (fast.runtime, slow.runtime) == ("onnxruntime", "opencv")
    dice = 0
    for i in range(4000, 4008):
        img, _, _ = frame("tune", i)
        a, b = fast.find(img), slow.find(img)
        assert len(a) == len(b)
        for f, g in zip(a, b, strict=True):
            assert np.allclose(f.center, g.center, atol=1e-3) and abs(f.side - g.side) < 1e-3
        crops = [face_crop(img, f.center, f.side, f.angle) for f in a]
        assert np.abs(fast.read(crops) - slow.read(crops)).max() < 1e-4
        dice += len(a)
    assert dice >= 40  # 45 dice in the eight frames
