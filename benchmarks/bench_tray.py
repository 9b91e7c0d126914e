"""Time from the dice settling to the roll being in the game, over the simulated tray.

Run: ``.venv/bin/python benchmarks/bench_tray.py [--throws 10] [--fps 10] [--slower 3.5]``

Wall clock: the eye runs in its own thread at the configured frame rate, exactly as under
``kotd serve``; the simulated tray is thrown, tumbles for 0.8 s and settles. Prints the
latency (settled -> roll event stored by the table). On a shared machine this figure is
mostly the other processes' load.

CPU clock: the same eye, detector, reader and table, stepped on a virtual clock that
advances by each frame's CPU time in the eye's thread (``time.thread_time``, one core) or
the frame period, whichever is longer, as the eye's loop does on an idle core. The tray's
pictures cost nothing (a camera's frame is ready when it is read), the throw falls at a
random moment between two frames. ``--slower K`` multiplies every frame's CPU time by K:
the estimate for a computer whose one core is K times slower than this one's.

Last, the frame rate the reader sustains on 1280x960 frames (one core).
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
from pi.simtray import MOTION_PICTURES, SimulatedTray
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Snapshot, Table
from vision.reader import read_dice
from vision.render import random_scene, render_tray


def latency(throws: int, fps: float) -> list[float]:
    tray = SimulatedTray(seed=3)
    table = _table()
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
    detector = RollDetector(lambda frame, thrown, last: read_dice(frame, thrown=thrown,
                                                                  last=last),
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


class VirtualClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _table() -> Table:
    table = Table(EventStore(None), game_pack("kotd"))
    for line in ("players Ann Ben", "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g"):
        table.act(table.parse(line))
    return table


def latency_cpu(throws: int, fps: float, slower: float = 1.0, seed: int = 3) -> list[float]:
    """Settled -> roll delivered, on the virtual clock (the module's docstring)."""
    cv2.setNumThreads(1)  # and so the networks' runtime: all reading in the eye's thread
    clock = VirtualClock()
    tray = SimulatedTray(seed=seed, clock=clock)
    table = _table()
    detector = RollDetector(lambda frame, thrown, last: read_dice(frame, thrown=thrown,
                                                                  last=last),
                            settle_seconds=0.4, stable_reads=2)
    eye = Eye(tray, detector, table, fps, clock=clock)
    period, rng = 1.0 / fps, np.random.default_rng(seed)

    def step() -> float:
        """One frame of the eye's loop; the virtual time its work ended."""
        start = time.thread_time()
        eye.step()
        cost = (time.thread_time() - start) * slower
        end = clock.t + cost
        clock.t += max(period, cost)
        return end

    results = []
    for n in range(throws + MOTION_PICTURES):  # the first throws draw the tumble's pictures
        if table.state.rolls_used >= 3:
            for _ in range(3):
                table.act(table.parse("undo"))
        for _ in range(3):
            step()
        next_frame, before = clock.t, eye.rolls_delivered
        clock.t -= float(rng.uniform(0, period))  # thrown at any moment between two frames
        tray.throw()
        clock.t = next_frame
        tray.wait_landing()  # a camera's picture is there when the dice land
        end, limit = clock.t, clock.t + 10.0
        while eye.rolls_delivered == before and clock.t < limit:
            end = step()
        if eye.rolls_delivered > before and tray.settled_at is not None \
                and n >= MOTION_PICTURES:
            results.append(end - tray.settled_at)
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
    parser.add_argument("--slower", type=float, action="append", default=[],
                        help="also on the CPU clock with one core this many times slower "
                             "(repeatable)")
    parser.add_argument("--no-wall", action="store_true", help="skip the wall-clock run")
    args = parser.parse_args()
    if not args.no_wall:
        results = latency(args.throws, args.fps)
        print(f"wall clock: settled -> roll in the game, {len(results)} throws at "
              f"{args.fps:g} fps (settle_seconds 0.4, 2 stable reads): median "
              f"{statistics.median(results):.2f} s, max {max(results):.2f} s")
    for slower in [1.0, *args.slower]:
        results = latency_cpu(args.throws, args.fps, slower)
        print(f"CPU clock, one core{'' if slower == 1 else f' {slower:g}x slower'}: settled "
              f"-> roll in the game, {len(results)} throws at {args.fps:g} fps: median "
              f"{statistics.median(results):.2f} s, max {max(results):.2f} s")
    fps, median_ms = reader_fps()
    print(f"reader on 1280x960 frames, one core: {fps:.1f} frames/s "
          f"(median {median_ms:.1f} ms per frame)")


if __name__ == "__main__":
    main()
