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

How: :func:`quantize.quantized` (ONNX Runtime's static quantisation, 7-bit weights: why, in
its module). The ranges are calibrated on what the float networks are given when they read
the ``train`` part of every photo source (each frame as the finder sees it at both looks,
each pip crop as the pip reader sees it, turns and wider looks included): never a ``tune``
or ``judge`` part.

Only the pip reader's copy is shipped: the finder's (1.35 times as fast, its heat map within
0.06 of the float one's on the tune parts) finds fewer of the gamer trays' small dice (rune55
tune part: 94.0% found by the float finder, 93.2% by its copy, 92.5% with its first and last
convolutions left in float), and the pip reader's copy reads the tune parts as well as the
float one (docs/log/2026-11-29-issue-45.md, issue-45m).

Each copy carries the float network's ``training_data`` attribution (the photos' licences ask
for it: rune55-trays is CC BY 4.0; ``vision/models/NOTICE.md``) and ``made_by``, this command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
from dice_data import PHOTO_SOURCES, SHARED, load_part
from quantize import Recording, quantized

from vision.dicenet import FINDER_ONNX, PIPS_ONNX, DiceNet

BATCH = 64
"""Pip crops per calibration batch (the calibrator wants batches of one shape: the last
batch is the last 64 crops, overlapping the one before)."""


def network_inputs(shared: Path, finder_too: bool) -> tuple[list[np.ndarray], np.ndarray]:
    """Every input the float networks are given reading the train parts (one thread): the
    finder's blobs (one per look; ``finder_too``, else none) and the pip crops
    (n, 3, h, w), in the order read."""
    net = DiceNet(FINDER_ONNX, PIPS_ONNX, "onnxruntime", int8=False)
    assert net._pips is not None
    finder, pips = Recording(net._finder), Recording(net._pips)
    net._pips = pips  # type: ignore[assignment]
    if finder_too:
        net._finder = finder  # type: ignore[assignment]
    for source in PHOTO_SOURCES:
        photos = load_part(source, "train", shared)
        for photo in photos:
            net.read(photo.image)
        print(f"{source}: {len(photos)} train photos read")
    return finder.inputs, np.concatenate(pips.inputs)


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
        quantized(FINDER_ONNX, finder, made_by)
    starts = [*range(0, len(crops) - BATCH, BATCH), max(0, len(crops) - BATCH)]
    quantized(PIPS_ONNX, [crops[i:i + BATCH] for i in starts], made_by)


if __name__ == "__main__":
    main()
