"""The HABA dice reader on rendered frames, per family of conditions.

Run: .venv/bin/python benchmarks/bench_haba.py [--set stress|tune|print] [--frames N]
Prints the overall figures (also for frames of six flat dice all in view: a frame with a
leaning or hidden die rightly asks the table), then one table per axis (table, light,
spacing, size, dice) and the table x spacing cross, so a weak corner cannot hide in an
average. The reader is told how many dice were thrown, as the game tells it (``--no-count``:
not told, as ``kotd read`` without ``--thrown``: at most the box's six). ``asks``: the
table would be asked (a die marked unsure, or not as many readings as dice thrown);
``silent``: that many confident readings, not all right. The row "read as a
roll" holds the frames read with as many dice as were thrown: at the table only such frames
give a roll (``pi/detector.py`` shows "too few dice" or "too many dice" for the others and
waits), so its asks are the rolls the table is asked about. ``--in-view`` adds the row of
frames where no die is more than 40% hidden under a hand or another die (a die further
under may ask instead),
from the renderer's own measure of each die's top in view (``haba_sets.in_view``: each
frame drawn once more, the first time). ``--tray``: the tray marked at calibration, as a
family marks it (``haba_sets.marked_tray``: four tapped corners of a rectangle on the
table), tells the reader the camera's nadir (``vision.tray.Tray.nadir``). ``--tray-around``: the
tray marked tight around the frame's dice, as a family whose dice lie in a tray marks it
(``haba_sets.tray_around``), read as the assistant reads a marked tray
(``vision.tray.read_in_tray``: told the nadir, choosing only among faces in the tray); frames
that do not show that tray whole are left out. ``--last-roll``: the reader is handed the
picture of the frame's last roll (``haba_sets.last_roll``: the same table with the dice
elsewhere, a quarter kept where they lay), as the assistant hands it from the second throw
on (``vision.lastroll``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from haba_sets import (  # noqa: E402
    HELD_OUT,
    SETS,
    frames,
    in_views,
    last_roll,
    last_rolls,
    marked_tray,
    tray_around,
)

from rules.kotd.cards import load_box  # noqa: E402
from vision.doubt import default_model  # noqa: E402
from vision.lastroll import LastRoll  # noqa: E402
from vision.reader import read_dice  # noqa: E402
from vision.reading import DieReading, Holds  # noqa: E402
from vision.render.score import FrameScore, score_frame  # noqa: E402
from vision.tray import Point, read_in_tray  # noqa: E402


class Tally:
    def __init__(self) -> None:
        self.n = self.dice = self.found = self.value = self.color = self.false = 0
        self.right = self.asks = self.silent = self.sure_right = self.wrong_sure = 0

    def add(self, s: FrameScore) -> None:
        self.n += 1
        self.dice += s.dice
        self.found += s.found
        self.value += s.value
        self.color += s.color
        self.false += s.false
        self.right += s.right
        self.asks += s.asks
        self.silent += s.silent
        self.sure_right += s.right and not s.asks
        self.wrong_sure += s.wrong_sure

    def row(self) -> str:
        d = max(self.dice, 1)
        n = max(self.n, 1)
        die = min(self.value, self.color) / d
        return (f"| {self.n} | {self.dice} | {100 * self.found / d:.1f} | "
                f"{100 * self.value / d:.1f} | {100 * self.color / d:.1f} | {100 * die:.1f} | "
                f"{100 * self.false / d:.2f} | {100 * self.right / n:.1f} | "
                f"{100 * self.sure_right / n:.1f} | "
                f"{100 * self.asks / n:.1f} | {100 * self.silent / n:.1f} |")


HEADER = ("| frames | dice | found % | value % | colour % | min(value, colour) % | false % | "
          "frames right % | right, not asking % | asks % | silent % |\n|" + "---|" * 11)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", default="stress",
                        choices=sorted(SETS))
    parser.add_argument("--frames", type=int, default=1100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-count", action="store_true",
                        help="do not tell the reader how many dice were thrown (as `kotd read` "
                             "without --thrown: at most the box's dice); by default it is told, "
                             "as the game tells it")
    parser.add_argument("--at-most", type=int, default=load_box().dice,
                        help="with --no-count: at most this many dice lie in view (default: "
                             "the box's dice, 6, as `kotd read`; 0: no limit)")
    parser.add_argument("--show", type=int, default=0, help="print the first N wrong frames")
    parser.add_argument("--tray", action="store_true",
                        help="the tray marked at calibration tells the reader the camera's "
                             "nadir (four tapped corners of a rectangle on the table)")
    parser.add_argument("--tray-around", action="store_true",
                        help="the tray marked tight around the frame's dice: told the nadir "
                             "and where dice may lie (frames not showing it whole left out)")
    parser.add_argument("--last-roll", action="store_true",
                        help="hand the reader the picture of the frame's last roll (drawn "
                             "and kept on first use)")
    parser.add_argument("--in-view", action="store_true",
                        help="also the frames where no die is more than 40%% hidden")
    args = parser.parse_args()
    views = in_views(args.set, args.frames, args.start, args.workers) if args.in_view else {}
    if args.last_roll:
        last_rolls(args.set, args.frames, args.start, args.workers)
    cv2.setNumThreads(1)
    total = Tally()
    held = Tally()
    seen = Tally()
    six = Tally()
    whole = Tally()
    hidden = Tally()
    mostly = Tally()
    rolls = Tally()
    no_roll: dict[str, int] = defaultdict(int)
    by: dict[tuple[str, str], Tally] = defaultdict(Tally)
    times, cpu = [], []
    cpu_by_size: dict[str, list[float]] = defaultdict(list)
    shown = 0
    no_tray = 0
    for i, img, truth, scene in frames(args.set, args.frames, args.start, args.workers):
        nadir = marked_tray(scene, SETS[args.set][0] + i).nadir() if args.tray else None
        around = tray_around(scene, SETS[args.set][0] + i) if args.tray_around else None
        if args.tray_around and around is None:
            no_tray += 1
            continue
        thrown, at_most = (None, args.at_most or None) if args.no_count else (len(truth), None)
        last = last_roll(args.set, i) if args.last_roll else None

        def read(f: np.ndarray, nadir: Point | None, holds: Holds | None = None,
                 thrown: int | None = thrown, at_most: int | None = at_most,
                 last: LastRoll | None = last) -> list[DieReading]:
            return read_dice(f, thrown=thrown, at_most=at_most, nadir=nadir, holds=holds,
                             last=last)

        t, c = time.perf_counter(), time.thread_time()
        readings = read(img, nadir) if around is None else read_in_tray(read, img, around)
        times.append(time.perf_counter() - t)
        cpu.append(time.thread_time() - c)
        cpu_by_size[f"{img.shape[1]}x{img.shape[0]}"].append(cpu[-1])
        s = score_frame(readings, truth)
        fam = dict(scene.family)
        total.add(s)
        is_held = any(fam[a] in v for a, v in HELD_OUT.items())
        (held if is_held else seen).add(s)
        if s.dice == len(truth) == 6:  # a clean roll: no die leaning, hidden or out of view
            six.add(s)
        # every die in view (flat or leaning), or one under a hand or out of the frame
        in_view = all(t.visible for t in truth)
        (whole if in_view else hidden).add(s)
        if i in views and min(views[i], default=1.0) >= 0.6:
            mostly.add(s)
        if len(readings) == len(truth):
            rolls.add(s)
        else:
            no_roll["every die in view" if in_view else "a die hidden or partly out of view"] += 1
        for axis, name in scene.family:
            by[(axis, name)].add(s)
        by[("table x spacing", f"{fam['table']} / {fam['spacing']}")].add(s)
        if (not s.right or s.silent) and shown < args.show:
            shown += 1
            print(f"frame {i} {fam}: right={s.right} asks={s.asks} silent={s.silent} "
                  f"found {s.found}/{s.dice} value {s.value} colour {s.color} false {s.false}")
    times.sort()
    cpu.sort()
    print(f"set {args.set}, frames {args.start}..{args.start + args.frames - 1}; "
          f"held-out families: {HELD_OUT}; reader "
          + (f"not told how many dice were thrown (at most {args.at_most or 'any'})"
             if args.no_count else "told how many dice were thrown")
          + ("; the camera's nadir from the tray marked at calibration" if args.tray else "")
          + (f"; the tray marked tight around the dice ({no_tray} frames not showing it whole "
             "left out)" if args.tray_around else "")
          + ("; handed the last roll's picture" if args.last_roll else "")
          + f"; {default_model().fitted_by}")
    print(f"read time per {img.shape[1]}x{img.shape[0]} frame, one thread: CPU time median "
          f"{1000 * cpu[len(cpu) // 2]:.1f} ms, p95 {1000 * cpu[int(0.95 * len(cpu))]:.1f} ms;"
          f" wall time median {1000 * times[len(times) // 2]:.1f} ms (the machine is shared)")
    for size, spent in sorted(cpu_by_size.items()):
        spent.sort()
        print(f"  {size}: {len(spent)} frames, CPU time median {1000 * spent[len(spent) // 2]:.1f}"
              f" ms, p95 {1000 * spent[int(0.95 * len(spent))]:.1f} ms")
    print(f"dice right (value and colour): {min(total.value, total.color)} of {total.dice} "
          f"({100 * min(total.value, total.color) / max(total.dice, 1):.2f}%); readings on no "
          f"die: {total.false} ({100 * total.false / max(total.dice, 1):.2f}%); frames right "
          f"{total.right} of {total.n}; asking {total.asks}; silently wrong {total.silent}")
    print(HEADER)
    print("| **all** " + total.row())
    print("| held-out families " + held.row())
    print("| tuned-on families " + seen.row())
    print("| six dice flat and in view " + six.row())
    print("| every die in view, flat or leaning " + whole.row())
    print("| a die hidden or partly out of view " + hidden.row())
    if views:
        print("| no die more than 40% hidden " + mostly.row())
    print("| read as a roll (as many readings as dice thrown) " + rolls.row())
    print(f"\nframes read with more or fewer dice than thrown (no roll; the table waits): "
          f"{total.n - rolls.n}: " + ", ".join(f"{k} {v}" for k, v in sorted(no_roll.items())))
    axes: dict[str, list[str]] = defaultdict(list)
    for axis, name in sorted(by):
        axes[axis].append(name)
    for axis, names in axes.items():
        print(f"\n**{axis}**\n\n| family " + HEADER + "---|")
        for name in names:
            print(f"| {name} " + by[(axis, name)].row())


if __name__ == "__main__":
    main()
