"""Time from the dice settling to the roll being in the game, over the simulated tray.

Run: ``.venv/bin/python benchmarks/bench_tray.py [--throws 10] [--fps 8]``

The eye runs in its own thread at the configured frame rate, exactly as under
``kotd serve``; the simulated tray is thrown, tumbles for 0.8 s and settles. Prints the
latency (settled -> roll event stored by the table) and the frame rate the reader
sustains on 1280x960 frames (one core).
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

import cv2
import numpy as np

from pi.detector import RollDetector
from pi.eye import Eye
from pi.simtray import SimulatedTray
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Snapshot, Table
from vision.reader import read_dice
from vision.render import random_scene, render_tray


def latency(throws: int, fps: float) -> list[float]:
    tray = SimulatedTray(seed=3)
    table = Table(EventStore(None), game_pack("kotd"))
    for line in ("players Ann Ben", "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g"):
        table.act(table.parse(line))
    arrived = threading.Event()
    stamps: list[float] = []
    last = [table.record]

    def on_change(snapshot: Snapshot) -> None:
        if snapshot.record is last[0]:
            return  # the camera's status changed, not the game
        last[0] = snapshot.record
        if snapshot.record is not None and snapshot.record.actions[-1].verb == "roll":
            stamps.append(time.monotonic())
            arrived.set()

    table.subscribe(on_change)
    # told how many dice were thrown, as the assistant's reader is (pi.serve)
    detector = RollDetector(lambda frame, thrown: read_dice(frame, thrown=thrown),
                            settle_seconds=0.4, stable_reads=2)
    eye = Eye(tray, detector, table, fps)
    eye.start()
    time.sleep(1.0)
    results = []
    for _ in range(throws):
        if table.state.rolls_used >= 3:
            for _ in range(3):
                table.act(table.parse("undo"))
        arrived.clear()
        tray.throw()
        if not arrived.wait(10):
            print("  a throw was not read within 10 s")
            continue
        if tray.settled_at is not None:
            results.append(stamps[-1] - tray.settled_at)
        time.sleep(0.3)
    eye.stop()
    return results


def reader_fps(frames: int = 30) -> tuple[float, float]:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    images = [render_tray(random_scene(rng, level="mixed"), rng)[0] for _ in range(frames)]
    read_dice(images[0])
    times = []
    for img in images:
        t = time.perf_counter()
        read_dice(img)
        times.append(time.perf_counter() - t)
    return 1.0 / statistics.mean(times), statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--throws", type=int, default=10)
    parser.add_argument("--fps", type=float, default=10.0)
    args = parser.parse_args()
    results = latency(args.throws, args.fps)
    print(f"settled -> roll in the game, {len(results)} throws at {args.fps:g} fps "
          f"(settle_seconds 0.4, 2 stable reads): median {statistics.median(results):.2f} s, "
          f"max {max(results):.2f} s")
    fps, median_ms = reader_fps()
    print(f"reader on 1280x960 frames, one core: {fps:.1f} frames/s "
          f"(median {median_ms:.1f} ms per frame)")


if __name__ == "__main__":
    main()
