"""Eight-bit copies of the ordinary-dice networks for ONNX Runtime (:mod:`vision.dicenet`).

Run: ``.venv/bin/python tools/quantize_dice_nets.py [--shared PATH] [--finder]`` after
``.venv/bin/pip install -e '.[train]'`` (it needs the ``onnx`` package; about a minute on one
core). Writes ``vision/models/dice_pips.int8.onnx`` (and with ``--finder``
``vision/models/dice_finder.int8.onnx``) beside the shipped float networks, which stay:
OpenCV's DNN module (the runtime where ONNX Runtime has no wheel, :mod:`vision.onnxnet`;
OpenCV 5.0 cannot run these copies) and anything asking for the float networks read those.
:class:`vision.dicenet.DiceNet` runs a copy under ONNX Runtime wherever one lies beside its
network. Run it again whenever ``tools/train_dice_net.py`` writes a new float network: each
eight-bit copy records the SHA-256 of the float file it was made from, and a test fails
while they differ.

How: ONNX Runtime's own static quantisation (:func:`onnxruntime.quantization.quantize_static`):
QDQ format, weights signed and per output channel in **7 bits** (``reduce_range``),
activations unsigned 8 bits, ranges by min-max. The ranges are calibrated on what the float
networks are given when they read the ``train`` part of every photo source (each frame as
the finder sees it at both looks, each pip crop as the pip reader sees it, turns and wider
looks included): never a ``tune`` or ``judge`` part.

Only the pip reader's copy is shipped: the finder's (1.35 times as fast, its heat map within
0.06 of the float one's on the tune parts) finds fewer of the gamer trays' small dice (rune55
tune part: 94.0% found by the float finder, 93.2% by its copy, 92.5% with its first and last
convolutions left in float), and the pip reader's copy reads the tune parts as well as the
float one (docs/log/2026-11-29-issue-45.md, issue-45m).

Why 7 bits: on x86 CPUs without VNNI (AVX2 only, as on the dev machines) ONNX Runtime's
unsigned-by-signed 8-bit kernels add pairs of products in 16 bits, which saturate with full
8-bit weights; with them the pip reader's most likely class changed on 9.4% of the tune
parts' crops, with 7-bit weights on 1.3% (none where the float reader is at least 0.9
sure). ARM CPUs (the Pi) have no such limit; 7 bits is what runs the same everywhere.

Each copy carries the float network's ``training_data`` attribution (the photos' licences ask
for it: rune55-trays is CC BY 4.0; ``vision/models/NOTICE.md``) and ``made_by``, this command.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from dice_data import PHOTO_SOURCES, SHARED, load_part

from vision.dicenet import FINDER_ONNX, PIPS_ONNX, DiceNet, int8_of

BATCH = 64
"""Pip crops per calibration batch (the calibrator wants batches of one shape: the last
batch is the last 64 crops, overlapping the one before)."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def network_inputs(shared: Path, finder_too: bool) -> tuple[list[np.ndarray], np.ndarray]:
    """Every input the float networks are given reading the train parts (one thread): the
    finder's blobs (one per look; ``finder_too``, else none) and the pip crops
    (n, 3, h, w), in the order read."""
    net = DiceNet(FINDER_ONNX, PIPS_ONNX, "onnxruntime", int8=False)
    finder: list[np.ndarray] = []
    pips: list[np.ndarray] = []

    def recording(run: Callable[[np.ndarray], np.ndarray], into: list[np.ndarray]) -> Any:
        """``run``, each input kept in ``into`` (stands in for the network it runs)."""
        def call(blob: np.ndarray) -> np.ndarray:
            into.append(blob.copy())
            return run(blob)
        return call

    assert net._pips is not None
    net._pips = recording(net._pips, pips)
    if finder_too:
        net._finder = recording(net._finder, finder)
    for source in PHOTO_SOURCES:
        photos = load_part(source, "train", shared)
        for photo in photos:
            net.read(photo.image)
        print(f"{source}: {len(photos)} train photos read")
    return finder, np.concatenate(pips)


def quantized(src: Path, dst: Path, batches: list[np.ndarray], made_by: str) -> None:
    """``src`` quantised to ``dst`` with ranges from ``batches``, credited and stamped."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self._it = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            b = next(self._it, None)
            return None if b is None else {"image": b}

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(dst), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, reduce_range=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
    credit = {p.key: p.value for p in onnx.load(str(src)).metadata_props}
    model = onnx.load(str(dst))
    del model.metadata_props[:]
    for key, value in (("training_data", credit.get("training_data", "")),
                       ("made_by", made_by),
                       ("quantized_from", f"{src.name} sha256 {sha256(src)}")):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model, str(dst))
    print(f"wrote {dst} ({dst.stat().st_size / 1e6:.2f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--finder", action="store_true",
                        help="make the finder's copy too (measured, not shipped: it finds "
                             "fewer small dice)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    made_by = " ".join(["tools/quantize_dice_nets.py", *sys.argv[1:]])
    finder, crops = network_inputs(args.shared, args.finder)
    print(f"calibrating on {len(finder)} finder looks and {len(crops)} pip crops")
    if args.finder:
        quantized(FINDER_ONNX, int8_of(FINDER_ONNX), finder, made_by)
    starts = [*range(0, len(crops) - BATCH, BATCH), max(0, len(crops) - BATCH)]
    quantized(PIPS_ONNX, int8_of(PIPS_ONNX), [crops[i:i + BATCH] for i in starts], made_by)


if __name__ == "__main__":
    main()
