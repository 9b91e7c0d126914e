"""Eight-bit copies of the HABA reader's pip reader and pair network for ONNX Runtime.

    .venv/bin/python tools/quantize_haba_nets.py table-tune:0-479 lens-tune:0-239 \\
        tune:0-599 steep:0-199 [--frames 200] [--finder]

Reads ``--frames`` of the tuning frames given (spread evenly over them, each told its count
and handed its last roll, as the table reads) with the float networks, keeps what each is
shown (the pip reader's crops, the pair network's pairs; with ``--finder`` the finder's
looks too), and writes ``haba_pips.int8.onnx`` and ``haba_pair.int8.onnx`` beside the float
files with :func:`quantize.quantized` (ONNX Runtime's static quantisation, 7-bit weights; a
copy runs only beside the float file it was made from: :mod:`vision.onnxnet`). Needs ``pip
install -e '.[train]'`` (the ``onnx`` package); about a minute.

The finder's copy is not shipped: on the checked tuning frames it let three more frames be
silently wrong, and it runs no faster than the float finder on an x86 core without VNNI
(``docs/log/2026-11-29-issue-44.md``). The reader's model stays fitted to the
float networks: the copies' answers differ from theirs by thousandths.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

from haba_sets import frame, last_roll, tuning_frames  # noqa: E402
from quantize import Recording, quantized  # noqa: E402

import vision.reader  # noqa: E402
from vision.habanet import FINDER_ONNX, PIPS_ONNX, HabaNet  # noqa: E402
from vision.pairnet import PAIR_ONNX, PairNet  # noqa: E402

KEEP = 600
"""At most this many inputs of each network (one picture, crop or pair each) calibrate its
copy, spread over all it was shown."""


def shown(frames: list[tuple[str, int]], count: int) -> dict[Path, list[np.ndarray]]:
    """What each float network is shown while ``count`` of ``frames`` are read (told their
    count, handed their last roll), one input each, by network file."""
    haba, pair = HabaNet(int8=False), PairNet(int8=False)
    finder, pips, pairs = Recording(haba._finder), Recording(haba._pips), Recording(pair._net)
    haba._finder, haba._pips, pair._net = finder, pips, pairs  # type: ignore[assignment]
    vision.reader.default_haba_net = lambda: haba  # type: ignore[assignment]
    step = max(1, len(frames) // count)
    for name, i in frames[::step][:count]:
        img, truth, _ = frame(name, i)
        vision.reader.read_dice(img, thrown=len(truth), pair_net=pair, last=last_roll(name, i))
    rng = np.random.default_rng(0)
    out = {}
    for path, seen in ((FINDER_ONNX, finder), (PIPS_ONNX, pips), (PAIR_ONNX, pairs)):
        ones = [blob[k:k + 1] for blob in seen.inputs for k in range(len(blob))]
        out[path] = [ones[k] for k in sorted(rng.permutation(len(ones))[:KEEP])]
        print(f"{path.name}: {len(ones)} inputs shown, {len(out[path])} kept")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("frames", nargs="+", help="tuning frames, as set:first-last")
    parser.add_argument("--frames", dest="count", type=int, default=200,
                        help="how many of them to read (spread evenly)")
    parser.add_argument("--finder", action="store_true",
                        help="make the finder's copy too (measured, not shipped)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    made_by = " ".join(["tools/quantize_haba_nets.py", *sys.argv[1:]])
    inputs = shown(tuning_frames(args.frames), args.count)
    for path in (FINDER_ONNX, PIPS_ONNX, PAIR_ONNX)[0 if args.finder else 1:]:
        quantized(path, inputs[path], made_by)


if __name__ == "__main__":
    main()
