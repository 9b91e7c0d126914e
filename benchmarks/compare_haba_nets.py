"""Candidate HABA networks against the shipped ones, frame by frame.

Run: .venv/bin/python benchmarks/compare_haba_nets.py --finder F.onnx [--pips P.onnx]
         [--pair A.onnx] tune:0:1100 print:0:100 woven:0:200 .cache/pbr-set-5 [--no-count]
Reads every frame twice with this checkout's reader, once with the shipped networks
(``vision/models/``) and once with the candidates (a network not given stays the shipped
one), told how many dice were thrown (``--no-count``: at most the box's six, as ``kotd
read``). Prints each frame whose score changed, then per set: frames right, asking, silently
wrong, counted dice right for value and for colour, readings on no die, shipped -> candidate.
Sources: ``set:start:count`` of ``haba_sets`` (our renderer; cached), or a directory of
Mitsuba frames (``tools/render_pbr.py``). Two worker processes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import haba_sets  # noqa: E402
from bench_pbr import truth_dice  # noqa: E402

import vision.reader as reader  # noqa: E402
from rules.kotd.cards import load_box  # noqa: E402
from vision.habanet import FINDER_ONNX, PIPS_ONNX, HabaNet  # noqa: E402
from vision.pairnet import PAIR_ONNX, PairNet  # noqa: E402
from vision.render.scene import TruthDie  # noqa: E402
from vision.render.score import score_frame  # noqa: E402

FIELDS = ("right", "asks", "silent", "value", "color", "false")
Job = tuple[str, int]
_NETS: dict[str, HabaNet] = {}
_PAIRS: dict[str, PairNet] = {}


def jobs(source: str) -> list[Job]:
    """The frames of a source: ``set:start:count`` of ``haba_sets``, or a Mitsuba directory."""
    if Path(source).is_dir():
        return [(source, int(p.stem.split("-")[1])) for p in sorted(Path(source).glob(
            "frame-*.json"))]
    parts = source.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts[1:]):
        raise SystemExit(f"{source!r}: give set:start:count (e.g. tune:0:1100) or a directory "
                         "of Mitsuba frames")
    name, start, count = parts[0], int(parts[1]), int(parts[2])
    if name not in haba_sets.SETS:
        raise SystemExit(f"no set {name!r}: one of {', '.join(haba_sets.SETS)}, or a directory")
    return [(name, i) for i in range(start, start + count)]


def source_frame(job: Job) -> tuple[np.ndarray, list[TruthDie]]:
    """A frame of :func:`jobs` and its truth."""
    source, i = job
    if source in haba_sets.SETS:
        img, truth, _ = haba_sets.frame(source, i)
        return img, truth
    path = Path(source) / f"frame-{i:06d}"
    png = cv2.imread(str(path.with_suffix(".png")), cv2.IMREAD_COLOR)
    if png is None:
        raise SystemExit(f"cannot read {path.with_suffix('.png')}")
    return png, truth_dice(json.loads(path.with_suffix(".json").read_text()))


def _score(job: Job, finder: Path, pips: Path, pair: Path, at_most: int | None
           ) -> tuple[Job, tuple[int, ...], tuple[int, ...]]:
    """The frame's score with either networks: told how many dice were thrown, or, given
    ``at_most``, only that no more lie in view."""
    if not _NETS:
        cv2.setNumThreads(1)
        _NETS["shipped"], _NETS["candidate"] = HabaNet(), HabaNet(finder, pips)
        _PAIRS["shipped"], _PAIRS["candidate"] = PairNet(), PairNet(pair)
    img, truth = source_frame(job)
    out = []
    for name in ("shipped", "candidate"):
        # the reader's network swapped (a monkeypatch of its cached loader)
        reader.default_haba_net = lambda net=_NETS[name]: net  # type: ignore[assignment]
        readings = (reader.read_dice(img, thrown=len(truth), pair_net=_PAIRS[name])
                    if at_most is None
                    else reader.read_dice(img, at_most=at_most, pair_net=_PAIRS[name]))
        s = score_frame(readings, truth)
        out.append(tuple(int(getattr(s, f)) for f in FIELDS))
    return job, out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sources", nargs="+", help="set:start:count, or a Mitsuba directory")
    parser.add_argument("--finder", type=Path, default=FINDER_ONNX)
    parser.add_argument("--pips", type=Path, default=PIPS_ONNX)
    parser.add_argument("--pair", type=Path, default=PAIR_ONNX)
    parser.add_argument("--no-count", action="store_true")
    args = parser.parse_args()
    for net in (args.finder, args.pips, args.pair):
        if not net.is_file():
            raise SystemExit(f"no network at {net}")
    todo = [j for s in args.sources for j in jobs(s)]
    at_most = load_box().dice if args.no_count else None
    totals: dict[str, list[np.ndarray]] = defaultdict(lambda: [np.zeros(6, int),
                                                               np.zeros(6, int)])
    count: dict[str, int] = defaultdict(int)
    with ProcessPoolExecutor(2) as pool:
        for (source, i), a, b in pool.map(_score, todo, [args.finder] * len(todo),
                                          [args.pips] * len(todo),
                                          [args.pair] * len(todo),
                                          [at_most] * len(todo), chunksize=8):
            if a != b:
                print(f"{source} {i}: " + ", ".join(
                    f"{f} {x}->{y}" for f, x, y in zip(FIELDS, a, b, strict=True) if x != y),
                    flush=True)
            totals[source][0] += a
            totals[source][1] += b
            count[source] += 1
    for source, (shipped, candidate) in totals.items():
        print(f"{source} ({count[source]} frames): " + ", ".join(
            f"{f} {x}->{y}" for f, x, y in zip(FIELDS, shipped, candidate, strict=True)))


if __name__ == "__main__":
    main()
