"""The HABA reader's CPU time against an earlier version of its looks, side by side.

Run: .venv/bin/python benchmarks/bench_haba_speed.py --against 5ddfb9d [--frames 400]
         [--module reader]
Reads the first judging frames (``haba_sets``, stress set; timing only) with this
checkout's ``HabaNet`` and with that of git revision ``--against`` (each version's networks
object with its own module's helpers: runtime, input scaling, normalising, decoding), or
with ``--module reader`` this checkout's ``vision/reader.py`` and that revision's (each
with this checkout's networks), alternating frame by frame in one process, so that both
meet the same load on a shared machine; prints the thread CPU time per frame of each
(median, p95, mean). Single-threaded OpenCV, the same networks, the reader told how many
dice were thrown.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from haba_sets import frames  # noqa: E402

import vision.habanet as habanet  # noqa: E402
import vision.reader as reader  # noqa: E402
from vision.reader import read_dice  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", required=True, help="a git revision")
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--module", choices=("habanet", "reader"), default="habanet",
                        help="the module of the earlier revision set beside this checkout's")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    earlier = _earlier(args.against, args.module)
    if args.module == "reader":
        readers = {"this checkout": read_dice, args.against: earlier.read_dice}
    else:
        if not hasattr(earlier.HabaNet, "find_closer"):  # before it: no whole-frame look
            earlier.HabaNet.find_closer = lambda self, frame, side: []
        # each version's own networks object: its methods with its own module's helpers
        nets = {"this checkout": habanet.HabaNet(), args.against: earlier.HabaNet()}

        def with_net(net: object) -> Callable[..., object]:
            def read(img: np.ndarray, thrown: int) -> object:
                # the reader's network swapped (a monkeypatch of its cached loader)
                reader.default_haba_net = lambda: net  # type: ignore[assignment]
                return read_dice(img, thrown=thrown)
            return read
        readers = {name: with_net(net) for name, net in nets.items()}
    cpu: dict[str, list[float]] = {name: [] for name in readers}
    for k, (_, img, truth, _) in enumerate(frames("stress", args.frames + 2, 0, 1)):
        order = list(readers.items())
        for name, read in order if k % 2 else order[::-1]:
            start = time.thread_time()
            read(img, thrown=len(truth))
            if k >= 2:  # the first frames carry each runtime's set-up
                cpu[name].append(time.thread_time() - start)
    for name, times in cpu.items():
        t = sorted(times)
        print(f"{name}: CPU per frame median {1000 * t[len(t) // 2]:.1f} ms, "
              f"p95 {1000 * t[int(0.95 * len(t))]:.1f} ms, mean {1000 * np.mean(t):.1f} ms")


def _earlier(revision: str, module: str) -> types.ModuleType:
    """``vision/<module>.py`` as it was at git ``revision``, as a module of its own."""
    source = subprocess.run(["git", "show", f"{revision}:vision/{module}.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    earlier = types.ModuleType(f"{module}_earlier")
    earlier.__file__ = (habanet if module == "habanet" else reader).__file__
    sys.modules[earlier.__name__] = earlier
    exec(compile(source, f"{module}_earlier.py", "exec"), earlier.__dict__)
    return earlier


if __name__ == "__main__":
    main()
