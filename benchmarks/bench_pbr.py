"""The HABA dice reader on the physically based check set (Mitsuba 3 frames, not our renderer).

Run: .venv/bin/python benchmarks/bench_pbr.py [--dir .cache/pbr-set] [--show N]
The set is rendered beforehand by ``tools/render_pbr.py`` (this script never renders):
``.venv/bin/pip install -e '.[pbr]'`` then
``nice -n 10 .venv/bin/python tools/render_pbr.py --frames 200 --start 0 --out .cache/pbr-set``.

It is a check only: nothing is tuned on it. Each frame is read twice: told how many dice
were thrown (``read_dice(frame, thrown=6)``, as the game reads a throw) and not told, at most
the box's six (``read_dice(frame, at_most=6)``, as ``kotd read`` reads a photo). Each is scored
with ``vision.render.score.score_frame`` (the columns are those of ``bench_haba.py``), overall
and per family on every axis of the set (table, light, colour, spacing, size, dice, pips,
camera, clutter). ``--show N`` prints the first N wrong or silently wrong frames of each way
of reading, die by die. ``--tray-around``: each frame read as the assistant reads a marked tray
(``vision.tray.read_in_tray``), the tray marked tight around the frame's dice (their places on
the table, half an edge out, as the frame's own camera sees them; ``tools/render_pbr.py``
plans the frame again from its seed); frames that do not show that tray whole are left out.
``--last-roll``: the reader is also handed each frame's last roll (``frame-SSSSSS-last.png``,
rendered with ``--last-roll``), as the roll detector hands it (none where the two pictures
lie apart, :func:`pi.detector.pictures_apart`); frames without one are left out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

from bench_haba import HEADER, Tally  # noqa: E402
from haba_sets import around, shown_tray  # noqa: E402

from pi.detector import pictures_apart  # noqa: E402
from rules.dice import Color  # noqa: E402
from rules.kotd.cards import load_box  # noqa: E402
from vision.lastroll import LastRoll  # noqa: E402
from vision.reader import read_dice  # noqa: E402
from vision.reading import DieReading, Holds  # noqa: E402
from vision.render.scene import TruthDie  # noqa: E402
from vision.render.score import FrameScore, match, score_frame  # noqa: E402
from vision.tray import Point, Tray, read_in_tray  # noqa: E402

MODES = {"told": "told how many dice were thrown (thrown=6, as the game reads a throw)",
         "read": "not told, at most the box's six (at_most=6, as `kotd read` reads)"}


def truth_dice(data: dict[str, Any]) -> list[TruthDie]:
    """The frame's JSON truth as the scorer's truth dice."""
    return [TruthDie(value=int(d["value"]), color=Color(d["color"]),
                     center=(float(d["center"][0]), float(d["center"][1])),
                     outline=tuple((float(x), float(y)) for x, y in d["outline"]),
                     size=float(d["size"]), visible=bool(d["visible"]),
                     leaning=bool(d["leaning"]))
            for d in data["dice"]]


def tray_around(data: dict[str, Any]) -> Tray | None:
    """The tray marked tight around the frame's dice (their places on the table, half an edge
    out) as the frame's camera sees it; None when the frame does not show it whole."""
    from render_pbr import EDGE, HEIGHT, WIDTH, plan_frame, project

    seed = int(data["seed"])
    camera = plan_frame(seed, data["family"].get("clutter") == "citizens").camera
    if not np.allclose(camera.origin, data["camera"]["origin"], atol=0.02):
        sys.exit(f"frame {seed}: tools/render_pbr.py plans another camera than the one that "
                 "drew it (the renderer changed since): draw the set again")
    table = around([d["world_cm"][0] for d in data["dice"]],
                   [d["world_cm"][1] for d in data["dice"]], EDGE / 2)
    return shown_tray(project(table, camera.to_world(), camera.fov_x), WIDTH, HEIGHT)


def last_roll(img: np.ndarray, path: Path) -> LastRoll | None:
    """The last roll (``path``: its truth) of a frame ``img``, as the roll detector hands it:
    its picture and where its dice lay (their tops in view), None where the two pictures lie
    apart."""
    before = cv2.imread(str(path.with_suffix(".png")), cv2.IMREAD_COLOR)
    if before is None or pictures_apart(before, img):
        return None
    return LastRoll(before, tuple((t.center[0], t.center[1], t.size)
                                  for t in truth_dice(json.loads(path.read_text()))
                                  if t.visible))


def describe(seed: int, data: dict[str, Any], truth: Sequence[TruthDie],
             readings: Sequence[DieReading], s: FrameScore) -> str:
    """A wrong frame, die by die: truth against reading, and readings on no die."""
    fam = " ".join(f"{k}={v}" for k, v in data["family"].items())
    lines = [f"frame {seed} ({fam}; die {truth[0].size:.0f} px, jpeg q"
             f"{data['camera']['jpeg_quality']}): right={s.right} asks={s.asks} "
             f"silent={s.silent}; {len(readings)} readings for {len(truth)} dice, "
             f"false {s.false}"]
    pairs = match(readings, truth)
    used = {id(r) for _, r in pairs if r is not None}
    for t, r in pairs:
        tags = ("" if t.visible else " not-in-view") + (" leaning" if t.leaning else "")
        head = (f"  truth {t.value}{t.color.letter} at ({t.center[0]:.0f},{t.center[1]:.0f})"
                f"{tags}: ")
        if r is None:
            lines.append(head + "MISSED")
            continue
        verdict = "ok" if (r.value, r.color) == (t.value, t.color) else "WRONG"
        colour = r.color.letter if r.color else "?"
        lines.append(head + f"read {r.value}{colour} conf {r.confidence:.2f}"
                     f"{'' if r.confident else ' (unsure)'} {verdict}")
    for r in readings:
        if id(r) not in used:
            colour = r.color.letter if r.color else "?"
            lines.append(f"  reading on no die: {r.value}{colour} at ({r.center[0]:.0f},"
                         f"{r.center[1]:.0f}) size {r.size:.0f} conf {r.confidence:.2f}"
                         f"{'' if r.confident else ' (unsure)'}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / ".cache/pbr-set")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--frames", type=int, default=0, help="at most this many (0: all)")
    parser.add_argument("--mode", choices=["both", *MODES], default="both")
    parser.add_argument("--show", type=int, default=0,
                        help="print the first N wrong frames of each way of reading")
    parser.add_argument("--frame", type=int, action="append", default=[],
                        help="print this frame die by die, right or wrong (repeatable)")
    parser.add_argument("--tray-around", action="store_true",
                        help="read each frame within a tray marked tight around its dice "
                             "(frames not showing it whole left out)")
    parser.add_argument("--last-roll", action="store_true",
                        help="hand the reader each frame's last roll (rendered with "
                             "--last-roll; frames without one left out)")
    args = parser.parse_args()
    files = sorted(f for f in args.dir.glob("frame-*.json") if not f.stem.endswith("-last"))
    files = [f for f in files if int(f.stem.split("-")[1]) >= args.start]
    if args.frames:
        files = files[:args.frames]
    if not files:
        sys.exit(f"no frames in {args.dir}: render them first (this does not render):\n"
                 f"  .venv/bin/pip install -e '.[pbr]'\n"
                 f"  nice -n 10 .venv/bin/python tools/render_pbr.py --frames 200 --start 0 "
                 f"--out {args.dir}")
    cv2.setNumThreads(1)
    box_dice = load_box().dice
    modes = list(MODES) if args.mode == "both" else [args.mode]
    total = {m: Tally() for m in modes}
    six = {m: Tally() for m in modes}
    rolls = {m: Tally() for m in modes}
    by: dict[str, dict[tuple[str, str], Tally]] = {m: defaultdict(Tally) for m in modes}
    shown = dict.fromkeys(modes, 0)
    cpu: dict[str, list[float]] = {m: [] for m in modes}
    wrong: dict[str, list[int]] = {m: [] for m in modes}
    asking: dict[str, list[int]] = {m: [] for m in modes}
    no_tray = no_last = 0
    for path in files:
        data = json.loads(path.read_text())
        seed = int(data["seed"])
        img = cv2.imread(str(path.with_suffix(".png")), cv2.IMREAD_COLOR)
        if img is None:
            print(f"frame {seed}: no image, skipped", file=sys.stderr)
            continue
        truth = truth_dice(data)
        tray = tray_around(data) if args.tray_around else None
        if args.tray_around and tray is None:
            no_tray += 1
            continue
        before = path.with_name(f"{path.stem}-last.json")
        if args.last_roll and not before.exists():
            no_last += 1
            continue
        last = last_roll(img, before) if args.last_roll else None
        for m in modes:
            thrown, at_most = (len(truth), None) if m == "told" else (None, box_dice)

            def read(f: np.ndarray, nadir: Point | None = None, holds: Holds | None = None,
                     thrown: int | None = thrown, at_most: int | None = at_most,
                     last: LastRoll | None = last) -> list[DieReading]:
                return read_dice(f, thrown=thrown, at_most=at_most, nadir=nadir, holds=holds,
                                 last=last)

            c = time.thread_time()
            readings = read(img) if tray is None else read_in_tray(read, img, tray)
            cpu[m].append(time.thread_time() - c)
            s = score_frame(readings, truth)
            total[m].add(s)
            if s.dice == len(truth) == 6:
                six[m].add(s)
            if len(readings) == len(truth):
                rolls[m].add(s)
            for axis, name in data["family"].items():
                by[m][(axis, name)].add(s)
            if s.asks:
                asking[m].append(seed)
            if not s.right or s.silent:
                wrong[m].append(seed)
                if shown[m] < args.show:
                    shown[m] += 1
                    print(f"[{m}] " + describe(seed, data, truth, readings, s))
            elif seed in args.frame:
                print(f"[{m}] " + describe(seed, data, truth, readings, s))
    for m in modes:
        t = total[m]
        cpu[m].sort()
        print(f"\n## {MODES[m]}\n")
        print(f"set {args.dir.name}: {t.n} frames (seeds {files[0].stem[6:]}.."
              f"{files[-1].stem[6:]}); read CPU time median "
              f"{1000 * cpu[m][len(cpu[m]) // 2]:.0f} ms per 1280x960 frame"
              + (f"; within a tray marked tight around the dice ({no_tray} frames not "
                 "showing it whole left out)" if args.tray_around else "")
              + (f"; handed the last roll ({no_last} frames without one left out)"
                 if args.last_roll else ""))
        print(f"dice right (value and colour): {min(t.value, t.color)} of {t.dice} "
              f"({100 * min(t.value, t.color) / max(t.dice, 1):.2f}%); readings on no die: "
              f"{t.false} ({100 * t.false / max(t.dice, 1):.2f}%); frames right {t.right} of "
              f"{t.n} ({100 * t.right / max(t.n, 1):.1f}%); asking {t.asks}; silently wrong "
              f"{t.silent}")
        print(f"wrong frames: {' '.join(map(str, wrong[m])) or 'none'}; asking frames: "
              f"{' '.join(map(str, asking[m])) or 'none'}\n")
        print(HEADER)
        print("| **all** " + t.row())
        print("| six dice flat and in view " + six[m].row())
        print("| read as a roll (as many readings as dice thrown) " + rolls[m].row())
        axes: dict[str, list[str]] = defaultdict(list)
        for axis, name in sorted(by[m]):
            axes[axis].append(name)
        for axis, names in axes.items():
            print(f"\n**{axis}**\n\n| family " + HEADER + "---|")
            for name in names:
                print(f"| {name} " + by[m][(axis, name)].row())


if __name__ == "__main__":
    main()
