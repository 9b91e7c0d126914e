"""ONNX Runtime and OpenCV's DNN module run the networks alike (vision/onnxnet.py): the
ordinary-dice networks give the same maps, probabilities and readings on real photos, the
HABA networks on rendered frames. ONNX Runtime runs the eight-bit copy of a network where one
is shipped (tools/quantize_dice_nets.py, tools/quantize_haba_nets.py): made from the shipped
float network, credited, and reading nearly as it does; a copy of another network is not
run."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED

from vision import onnxnet
from vision.dicenet import FINDER_ONNX, PIPS_ONNX, DiceNet, crop_for_pips
from vision.habanet import FINDER_ONNX as HABA_FINDER
from vision.habanet import PIPS_ONNX as HABA_PIPS
from vision.onnxnet import int8_of
from vision.pairnet import PAIR_ONNX

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


SHIPPED_INT8 = [p for p in (FINDER_ONNX, PIPS_ONNX, HABA_FINDER, HABA_PIPS, PAIR_ONNX)
                if int8_of(p).is_file()]


def test_the_pip_readers_and_the_pair_network_have_eight_bit_copies() -> None:
    """The ordinary and HABA pip readers and the pair network ship eight-bit copies (each
    checked below)."""
    assert int8_of(PIPS_ONNX) == PIPS_ONNX.with_name("dice_pips.int8.onnx")
    assert {PIPS_ONNX, HABA_PIPS, PAIR_ONNX} <= set(SHIPPED_INT8)


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
    """A copy records the SHA-256 of the float network it was made from, and runs: a newly
    trained float network fails this until its ``tools/quantize_*_nets.py`` is run again. It
    carries the command that made it and, made from the photos, their attribution
    (rune55-trays is CC BY 4.0)."""
    import hashlib

    import onnxruntime

    meta = onnxruntime.InferenceSession(
        str(int8_of(float_net)), providers=["CPUExecutionProvider"]
    ).get_modelmeta().custom_metadata_map
    digest = hashlib.sha256(float_net.read_bytes()).hexdigest()
    assert meta["quantized_from"] == f"{float_net.name} sha256 {digest}"
    assert onnxnet.OnnxNet(float_net, "onnxruntime").path == int8_of(float_net)
    if float_net.name.startswith("dice_"):  # trained on the real photos
        assert meta["made_by"].startswith("tools/quantize_dice_nets.py")
        assert "Rune55" in meta["training_data"] and "CC BY 4.0" in meta["training_data"]
    else:
        assert meta["made_by"].startswith("tools/quantize_haba_nets.py")


@needs_ort
def test_a_copy_made_from_another_network_is_not_run(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A copy beside a float file it was not made from (the network trained again since) is
    not run: the float file is, and the log says which copy to make again."""
    import shutil

    retrained = tmp_path / "haba_pips.onnx"
    shutil.copy(HABA_FINDER, retrained)  # another network under the pip reader's name
    shutil.copy(int8_of(HABA_PIPS), int8_of(retrained))
    with caplog.at_level("WARNING", logger="vision.onnxnet"):
        net = onnxnet.OnnxNet(retrained, "onnxruntime")
    assert net.path == retrained
    assert "haba_pips.int8.onnx was made from another haba_pips.onnx" in caplog.text
    shutil.copy(HABA_PIPS, retrained)  # the very network again
    assert onnxnet.OnnxNet(retrained, "onnxruntime").path == int8_of(retrained)


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
    (``test_vision_gate.py``), drawn once for both tests (``haba_sets.CACHE``)."""
    from habakit import frame

    from vision.habanet import HabaNet, face_crop

    fast, slow = HabaNet(use="onnxruntime", int8=False), HabaNet(use="opencv")
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


@needs_ort
def test_the_haba_copies_read_frames_as_the_float_networks(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The gate's tuning frames read whole with the eight-bit pip reader and pair network
    and with the float ones: every die found by both, nearly every one read the same, the
    readings' confidences close: thousandths (a copy calibrated on noise is off by a hundredth
    and more)."""
    from habakit import frame

    import vision.reader
    from vision.habanet import HabaNet
    from vision.pairnet import PairNet

    def read(int8: bool) -> list[list[tuple[float, float, int, str, float]]]:
        net = HabaNet(use="onnxruntime", int8=int8)
        monkeypatch.setattr(vision.reader, "default_haba_net", lambda: net)
        pair = PairNet(use="onnxruntime", int8=int8)
        return [[(*r.center, r.value, r.color.value, r.confidence) for r in
                 vision.reader.read_dice(img, thrown=len(truth), pair_net=pair)]
                for img, truth, _ in (frame("tune", i) for i in range(4000, 4008))]

    dice = same = 0
    gaps: list[float] = []
    for a, b in zip(read(False), read(True), strict=True):
        for x, y, value, color, sure in a:
            near = [r for r in b if np.hypot(r[0] - x, r[1] - y) < 5]
            assert near, "a die the float networks read is missing"
            dice += 1
            same += near[0][2:4] == (value, color)
            gaps.append(abs(near[0][4] - sure))
    assert dice >= 40  # 45 dice in the eight frames
    assert same >= dice - 1
    assert float(np.median(gaps)) < 0.001 and max(gaps) < 0.02
