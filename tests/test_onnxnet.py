"""ONNX Runtime and OpenCV's DNN module run the networks alike (vision/onnxnet.py): the
ordinary-dice networks give the same maps, probabilities and readings on real photos, the
HABA networks on rendered frames. ONNX Runtime runs the eight-bit copy of an ordinary-dice
network where one is shipped (tools/quantize_dice_nets.py): made from the shipped float
network, credited, and reading nearly as it does."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED

from vision import onnxnet
from vision.dicenet import FINDER_ONNX, PIPS_ONNX, DiceNet, crop_for_pips, int8_of

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
    fast, slow = (DiceNet(FINDER_ONNX, PIPS_ONNX, r, int8=False)
                  for r in ("onnxruntime", "opencv"))
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


SHIPPED_INT8 = [p for p in (FINDER_ONNX, PIPS_ONNX) if int8_of(p).is_file()]


def test_the_pip_reader_has_an_eight_bit_copy() -> None:
    assert int8_of(PIPS_ONNX) == PIPS_ONNX.with_name("dice_pips.int8.onnx")
    assert PIPS_ONNX in SHIPPED_INT8


@needs_ort
def test_onnxruntime_runs_the_eight_bit_copies_opencv_the_float_networks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ONNX Runtime runs a network's eight-bit copy where one lies beside it, unless
    ``int8=False`` or ``KOTD_INT8=0``; OpenCV's DNN module (which cannot run them) always the
    float network."""
    import shutil

    monkeypatch.delenv("KOTD_ONNX", raising=False)
    monkeypatch.delenv("KOTD_INT8", raising=False)

    def files(net: DiceNet) -> tuple[Path, Path]:
        assert net._pips is not None
        return net._finder.path, net._pips.path

    finder = int8_of(FINDER_ONNX) if FINDER_ONNX in SHIPPED_INT8 else FINDER_ONNX
    assert files(DiceNet()) == (finder, int8_of(PIPS_ONNX))
    assert files(DiceNet(int8=False)) == (FINDER_ONNX, PIPS_ONNX)
    assert files(DiceNet(runtime="opencv")) == (FINDER_ONNX, PIPS_ONNX)
    assert files(DiceNet(runtime="opencv", int8=True)) == (FINDER_ONNX, PIPS_ONNX)
    lone = tmp_path / "candidate.onnx"  # a pip reader with no copy beside it: itself
    shutil.copy(PIPS_ONNX, lone)
    assert files(DiceNet(FINDER_ONNX, lone)) == (finder, lone)
    monkeypatch.setenv("KOTD_INT8", "0")
    assert files(DiceNet()) == (FINDER_ONNX, PIPS_ONNX)
    monkeypatch.setenv("KOTD_ONNX", "opencv")
    monkeypatch.delenv("KOTD_INT8")
    assert files(DiceNet()) == (FINDER_ONNX, PIPS_ONNX)


@needs_ort
@pytest.mark.parametrize("float_net", SHIPPED_INT8, ids=lambda p: p.stem)
def test_each_eight_bit_copy_is_of_the_shipped_network_and_credited(float_net: Path) -> None:
    """A copy records the SHA-256 of the float network it was made from: a newly trained
    float network fails this until ``tools/quantize_dice_nets.py`` is run again. It carries
    the photos' attribution (rune55-trays is CC BY 4.0) and the command that made it."""
    import hashlib

    import onnxruntime

    meta = onnxruntime.InferenceSession(
        str(int8_of(float_net)), providers=["CPUExecutionProvider"]
    ).get_modelmeta().custom_metadata_map
    digest = hashlib.sha256(float_net.read_bytes()).hexdigest()
    assert meta["quantized_from"] == f"{float_net.name} sha256 {digest}"
    assert meta["made_by"].startswith("tools/quantize_dice_nets.py")
    assert "Rune55" in meta["training_data"] and "CC BY 4.0" in meta["training_data"]


@needs_ort
@pytest.mark.skipif(not BYLER.is_dir(), reason="shared byler-dev data not present")
def test_the_eight_bit_pip_reader_reads_real_photos_nearly_as_the_float_one() -> None:
    """Every labelled die of the byler-dev calibration photos (19 photos, 137 dice), as it
    lies and turned a quarter: no class's probability more than 0.15 from the float
    reader's (measured 0.09), the most likely class the same but for at most 2 of the 274
    crops (1) and wherever the float reader is at least 0.9 sure. The copy made with full
    8-bit weights (saturating on AVX2: 0.40, 7 crops) fails it."""
    from dice_data import calibration_split, load_byler

    _, calib = calibration_split(load_byler("train"))
    whole = DiceNet(FINDER_ONNX, PIPS_ONNX, "onnxruntime", int8=False)
    eight = DiceNet(FINDER_ONNX, PIPS_ONNX, "onnxruntime", int8=True)
    gap, changed, crops = 0.0, 0, 0
    for photo in calib:
        blob = DiceNet._blob([crop_for_pips(photo.image, box, angle)
                              for box in photo.boxes for angle in (0, 90)])
        a, b = whole._classify_blob(blob), eight._classify_blob(blob)
        gap = max(gap, float(np.abs(a - b).max()))
        differ = a.argmax(axis=1) != b.argmax(axis=1)
        assert not (differ & (a.max(axis=1) >= 0.9)).any(), photo.name
        changed += int(differ.sum())
        crops += len(a)
    assert crops == 274
    assert gap < 0.15
    assert changed <= 2


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
