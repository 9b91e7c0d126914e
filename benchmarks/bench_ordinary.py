"""Ordinary dice (``--dice standard``) on real photos: what a player with a bag of dice gets.

Run: .venv/bin/python benchmarks/bench_ordinary.py [--part judge|tune|train]
[--source NAME ...] [--conditions] [--curve] [--wrong] [--pips OTHER.onnx] [--finder-size N]
[--speed-vs A.onnx ...] [--runtime-vs]
Single-threaded OpenCV and ONNX Runtime (``KOTD_ONNX=opencv``: OpenCV runs the networks).
Shared data from $KOTD_SHARED or ../shared next to the repo.

The measure is each source's ``judge`` part (:func:`dice_data.part_of`: never trained or
tuned on), read as ``kotd read --dice standard`` reads (not told the count): byler-dev,
matteo-desk (webcam on a desk), rune55-trays (gamer dice in trays) and the tomitomi crops.
Per source: value right (of the labelled dice), readings on no die (of all readings),
frames fully right, frames silently wrong, and one core's time per frame; then a speed
figure on rendered trays of 20-25 dice. ``tune`` is where the decision is fitted. With
``--conditions``, figures per condition, so that weak corners do not hide in the total:

* body, measured from the photo: ``dark`` (median L* under 25: black, dark grey, dark
  purple, navy; marbled or not), ``light`` (L* 65 and up with little colour: white,
  ivory), ``coloured`` (the rest: red, green, yellow, purple, brown, ...); ``multi-hued``
  dice (marbled or translucent: the body's colour varies between its pips, a/b spread
  of 8 or more) are counted apart as well. A measure, not a hand label: approximate;
* die size (the labelled box's side in the 640-pixel photo);
* crowding: ``touching`` when another die's centre is nearer than 1.25 sides.

A reading matches a labelled die when its centre lies in the label's box or the boxes
overlap by IoU >= 0.5 (each label once, :func:`dice_data.match`). "Wrong" = a matched die
with the wrong value or a reading of no die; "silently wrong" = a photo not fully right
whose readings were all confident.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from dice_data import (  # noqa: E402
    ERRATA,
    PARTS,
    PHOTO_SOURCES,
    Part,
    Photo,
    load_part,
    tomitomi_part,
)
from dice_data import match as match_labels  # noqa: E402

import vision.netformat  # noqa: E402
import vision.reader  # noqa: E402
from vision.dicenet import FINDER_ONNX, PIPS_ONNX, DiceNet  # noqa: E402
from vision.netformat import DiceFormats, write_section  # noqa: E402
from vision.reader import read_dice  # noqa: E402
from vision.reading import DieReading  # noqa: E402
from vision.render_standard import OrdinaryTruth, judged_trays, ordinary_tray  # noqa: E402


@dataclass
class Die:
    """One labelled die and what the reader made of it (``read`` None: missed)."""

    value: int
    read: DieReading | None
    body: str
    textured: bool
    side: float
    touching: bool

    @property
    def right(self) -> bool:
        return self.read is not None and self.read.value == self.value


@dataclass
class Sheet:
    """One photo: its labelled dice, the readings that matched no die and one core's time
    to read it (ms)."""

    name: str
    dice: list[Die]
    false: list[DieReading]
    ms: float = 0.0

    @property
    def fully_right(self) -> bool:
        return all(d.right for d in self.dice) and not self.false

    @property
    def readings(self) -> list[DieReading]:
        return [d.read for d in self.dice if d.read is not None] + self.false


def _flagged(die: Die) -> bool:
    """The die was read and the reading is marked for the table to check."""
    return die.read is not None and not die.read.confident


def body_of(image: np.ndarray, box: np.ndarray) -> tuple[str, bool]:
    """(``dark`` | ``light`` | ``coloured``, multi-hued) of the die in ``box`` (see the
    module notes), measured on the middle 70% of its box with the pips (the 40% of pixels
    farthest from the median colour) left out."""
    x0, y0, x1, y1 = box
    mx, my = 0.15 * (x1 - x0), 0.15 * (y1 - y0)
    patch = image[int(y0 + my):int(np.ceil(y1 - my)), int(x0 + mx):int(np.ceil(x1 - mx))]
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    lab[:, 0] *= 100 / 255
    lab[:, 1:] -= 128
    dist = np.linalg.norm(lab - np.median(lab, axis=0), axis=1)
    body = lab[dist <= np.percentile(dist, 60)]
    ll, chroma = float(np.median(body[:, 0])), float(np.hypot(*np.median(body[:, 1:], axis=0)))
    kind = "dark" if ll < 25 else "light" if ll >= 65 and chroma < 25 else "coloured"
    return kind, float(np.std(body[:, 1:], axis=0).mean()) >= 8.0


def sheet(photo: Photo) -> Sheet:
    t = time.thread_time()
    readings = read_dice(photo.image, "standard")
    ms = (time.thread_time() - t) * 1000
    b = photo.boxes
    sides = np.sqrt((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]))
    centres = (photo.boxes[:, :2] + photo.boxes[:, 2:]) / 2
    boxes = [(min(x for x, _ in r.outline), min(y for _, y in r.outline),
              max(x for x, _ in r.outline), max(y for _, y in r.outline)) for r in readings]
    match: dict[int, DieReading] = {}
    false = []
    for r, j in zip(readings, match_labels(photo.boxes, boxes), strict=True):
        if j is None:
            false.append(r)
        else:
            match[j] = r
    dice = []
    for j, (box, value) in enumerate(zip(photo.boxes, photo.values, strict=True)):
        near = np.hypot(*(centres - centres[j]).T)
        near[j] = np.inf
        kind, textured = body_of(photo.image, box)
        dice.append(Die(int(value), match.get(j), kind, textured, float(sides[j]),
                        bool(near.min() < 1.25 * sides[j])))
    return Sheet(photo.name, dice, false, ms)


def as_read(sheets: list[Sheet]) -> list[Sheet]:
    """The sheets with the labels a person reads otherwise (:data:`dice_data.ERRATA`)
    corrected."""
    return [replace(s, dice=[replace(d, value=ERRATA.get((s.name, j), d.value))
                             for j, d in enumerate(s.dice)]) for s in sheets]


def summary(sheets: list[Sheet]) -> dict[str, float]:
    dice = [d for s in sheets for d in s.dice]
    readings = [r for s in sheets for r in s.readings]
    false = sum(len(s.false) for s in sheets)
    right = [d for d in dice if d.right]
    wrong = [d.read for d in dice if d.read is not None and not d.right] + [
        r for s in sheets for r in s.false]
    silent = [s for s in sheets if not s.fully_right and all(r.confident for r in s.readings)]
    return {
        "photos": len(sheets), "dice": len(dice),
        "found": sum(d.read is not None for d in dice) / len(dice),
        "false": false / max(len(readings), 1),
        "value": len(right) / len(dice),
        "photos_right": sum(s.fully_right for s in sheets) / len(sheets),
        "silent": len(silent) / len(sheets),
        "wrong": len(wrong),
        "caught": sum(not r.confident for r in wrong) / max(len(wrong), 1),
        "flagged": sum(_flagged(d) for d in right) / max(len(right), 1),
        "ms": float(np.median([s.ms for s in sheets])),
        "ms_p95": float(np.percentile([s.ms for s in sheets], 95)),
    }


def by_condition(sheets: list[Sheet]) -> list[tuple[str, int, float, float]]:
    """(condition, dice, value right, right dice flagged) per condition."""
    groups: dict[str, list[Die]] = defaultdict(list)
    for s in sheets:
        for d in s.dice:
            groups[f"body {d.body}"].append(d)
            if d.textured:
                groups["body multi-hued (marbled/translucent)"].append(d)
            size = "< 30 px" if d.side < 30 else "30-40 px" if d.side < 40 else ">= 40 px"
            groups[f"size {size}"].append(d)
            groups["touching" if d.touching else "apart"].append(d)
    out = []
    for name in sorted(groups):
        ds = groups[name]
        right = [d for d in ds if d.right]
        out.append((name, len(ds), len(right) / len(ds),
                    sum(_flagged(d) for d in right) / max(len(right), 1)))
    return out


def curve(sheets: list[Sheet], thresholds: list[float]) -> list[tuple[float, float, float, float]]:
    """(threshold, wrong caught, right flagged, photos silently wrong) if readings under the
    threshold were flagged instead."""
    right = [d.read.confidence for s in sheets for d in s.dice if d.read is not None and d.right]
    wrong = [d.read.confidence for s in sheets for d in s.dice
             if d.read is not None and not d.right] + [r.confidence for s in sheets
                                                       for r in s.false]
    out = []
    for t in thresholds:
        silent = sum(not s.fully_right and all(r.confidence >= t for r in s.readings)
                     for s in sheets)
        out.append((t, float(np.mean([c < t for c in wrong])) if wrong else 1.0,
                    float(np.mean([c < t for c in right])), silent / len(sheets)))
    return out


def tomitomi(part: Part = "judge") -> tuple[int, float, float]:
    """(crops, value right, right ones flagged) on the tomitomi crops of ``part``: the
    reading nearest the crop's centre must have the folder's value."""
    n = right = flagged = 0
    for frame, v in tomitomi_part(part):
        h, w = frame.shape[:2]
        readings = read_dice(frame, "standard")
        n += 1
        if readings:
            r = min(readings, key=lambda r: np.hypot(r.center[0] - w / 2, r.center[1] - h / 2))
            right += r.value == v
            flagged += r.value == v and not r.confident
    return n, right / n, flagged / max(right, 1)


def rendered(trays: int = 60, seed: int = 70000
             ) -> tuple[dict[str, tuple[int, float, float, float]], dict[str, float]]:
    """Rendered trays of 6-12 ordinary dice (seeds apart from the training renders'):
    (dice, value right, right flagged, wrong and confident) for flat dice and for dice
    leaning on another (a side face showing its pips), and for ``smoky`` dice: half as many
    trays of small flat smoked dice with red pips (:func:`vision.render_standard.smoky_look`,
    28-45 px in 640 x 480, as the real photos' dark dice). Renders teach; this shows the
    top-face rule and the dark dice, the real photos above are the measure. Then the share
    of ``mixed`` and of ``smoky`` trays silently wrong (a die wrong or missed, every reading
    confident)."""
    acc: dict[str, list[int]] = {k: [0, 0, 0, 0] for k in ("flat", "leaning", "smoky")}
    silent: dict[str, list[bool]] = {"mixed": [], "smoky": []}

    def tally(frame: np.ndarray, truth: list[OrdinaryTruth], kind: str | None) -> None:
        readings = read_dice(frame, "standard")
        wrong = False
        for t in truth:
            k = kind or ("leaning" if t.tilted else "flat")
            a = acc[k]
            a[0] += 1
            r = min(readings, default=None, key=lambda r: np.hypot(
                r.center[0] - t.center[0], r.center[1] - t.center[1]))
            inside = r is not None and t.box[0] <= r.center[0] <= t.box[2] and (
                t.box[1] <= r.center[1] <= t.box[3])
            if r is not None and inside and r.value == t.value:
                a[1] += 1
                a[2] += not r.confident
            else:
                wrong = True
                a[3] += r is not None and inside and r.confident
        silent[kind or "mixed"].append(wrong and all(r.confident for r in readings))

    for frame, truth, family in judged_trays(trays, seed):
        tally(frame, truth, None if family == "mixed" else family)
    return ({k: (n, right / max(n, 1), flagged / max(right, 1), sure / max(n, 1))
             for k, (n, right, flagged, sure) in acc.items()},
            {k: float(np.mean(v)) for k, v in silent.items()})


def use_pips(path: Path) -> None:
    """Read with the pip reader ``path`` (and the shipped finder) from now on."""
    net = DiceNet(FINDER_ONNX, path)
    vision.reader.default_standard_net = lambda: net  # type: ignore[assignment]


def speed(frames: int = 40, dice: tuple[int, int] = (20, 25), seed: int = 50000,
          against: Sequence[Path] = (), runtimes: bool = False
          ) -> dict[str, tuple[float, float]]:
    """(median, p95) ms of one core's time to read a 1280 x 960 rendered tray of ``dice``
    (at least, at most) ordinary dice (dice 40-80 px). Thread CPU time, not wall time: this
    machine is shared, and the CPU time is what one core of a quiet machine would take. Readers with
    the pip readers ``against`` read each frame too, in turn with the one in use (the same
    load for all: the fair comparison on a shared machine); keyed by file name, the one in
    use by "in use"; with ``runtimes`` the shipped networks run by OpenCV's DNN module
    and by ONNX Runtime (:mod:`vision.onnxnet`) too, keyed by the runtime's name."""
    in_use = vision.reader.default_standard_net()
    if in_use is None:
        raise SystemExit("the ordinary-dice networks are missing from vision/models/")
    readers = {"in use": in_use, **{p.name: DiceNet(FINDER_ONNX, p) for p in against}}
    if runtimes:
        readers |= {r: DiceNet(FINDER_ONNX, PIPS_ONNX, r) for r in ("opencv", "onnxruntime")}
    warm, _ = ordinary_tray(np.random.default_rng(seed - 1), dice[1], 1280, 960)
    for net in readers.values():  # warm-up: the first reads of a network set it up
        net.read(warm)
    times: dict[str, list[float]] = {k: [] for k in readers}
    for i in range(frames):
        rng = np.random.default_rng(seed + i)
        frame, _ = ordinary_tray(rng, int(rng.integers(dice[0], dice[1] + 1)), 1280, 960,
                                 die_size=float(rng.uniform(40, 80)))
        for name, net in readers.items():
            t = time.thread_time()
            net.read(frame)
            times[name].append((time.thread_time() - t) * 1000)
    return {k: (float(np.median(v)), float(np.percentile(v, 95))) for k, v in times.items()}


def report(source: str, sheets: list[Sheet], part: str) -> None:
    """Print one source's figures."""
    s = summary(sheets)
    print(f"{source} {part}: {s['photos']} photos, {s['dice']} dice: "
          f"value right {100 * s['value']:.1f}%, readings on no die {100 * s['false']:.2f}%, "
          f"frames fully right {100 * s['photos_right']:.1f}%, "
          f"silently wrong {100 * s['silent']:.1f}%, time {s['ms']:.0f} ms "
          f"(p95 {s['ms_p95']:.0f}; one core)")
    print(f"  found {100 * s['found']:.1f}%; {s['wrong']} wrong readings, "
          f"{100 * s['caught']:.0f}% of them flagged; right dice flagged {100 * s['flagged']:.1f}%")
    fixed = as_read(sheets)
    if fixed != sheets:
        c = summary(fixed)
        print(f"  with {len(ERRATA)} labels read by eye (dice_data.ERRATA): value right "
              f"{100 * c['value']:.1f}%, photos fully right {100 * c['photos_right']:.1f}%, "
              f"silently wrong {100 * c['silent']:.1f}%")


def show_wrong(sheets: list[Sheet]) -> None:
    for sh in sheets:
        for d in sh.dice:
            if not d.right:
                got = f"read {d.read.value} ({d.read.confidence:.2f})" if d.read else "missed"
                print(f"  {sh.name}: {d.value} {got}, {d.body}"
                      f"{' multi-hued' if d.textured else ''}, {d.side:.0f} px"
                      f"{', touching' if d.touching else ''}")
        for r in sh.false:
            print(f"  {sh.name}: no die, read {r.value} ({r.confidence:.2f}) at "
                  f"{r.center[0]:.0f},{r.center[1]:.0f}")


def read_at_size(size: int) -> None:
    """Read with the finder looking at frames ``size`` pixels on their longer side: the run
    reads a card of its own that says so (a scratch copy of ``dice_nets.toml``)."""
    card = Path(tempfile.mkdtemp(prefix="bench-ordinary-")) / "dice_nets.toml"
    finder = replace(vision.netformat.dice_formats().finder, size=size)
    write_section(card, "finder", finder, f"bench_ordinary.py --finder-size {size}", "",
                  DiceFormats)
    vision.netformat.DICE_NETS = card


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--part", default="judge", choices=PARTS)
    parser.add_argument("--split", choices=("test", "calib", "train"),
                        help="the old name of byler-dev's parts (test: judge, calib: tune); "
                             "reads byler-dev alone")
    parser.add_argument("--source", nargs="*", default=list(PHOTO_SOURCES),
                        choices=PHOTO_SOURCES)
    parser.add_argument("--conditions", action="store_true",
                        help="figures per body, size and crowding")
    parser.add_argument("--curve", action="store_true", help="print the confidence curve")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=("tomitomi", "rendered", "speed"))
    parser.add_argument("--wrong", action="store_true", help="list every wrong die")
    parser.add_argument("--pips", type=Path, help="read with this pip reader (ONNX) instead "
                        "of the shipped one")
    parser.add_argument("--finder-size", type=int,
                        help="the finder sees the frame this many pixels on its longer side "
                             "(instead of the size in vision/models/dice_nets.toml)")
    parser.add_argument("--speed-vs", type=Path, nargs="*", default=[],
                        help="pip readers (ONNX) the speed line also times, frame by frame "
                             "in turn with the one in use")
    parser.add_argument("--runtime-vs", action="store_true",
                        help="the speed line also times the shipped networks run by OpenCV "
                             "and by ONNX Runtime, frame by frame in turn")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.pips:
        use_pips(args.pips)
    if args.split:
        args.part = {"test": "judge", "calib": "tune", "train": "train"}[args.split]
        args.source = ["byler-dev"]
    if args.finder_size:
        read_at_size(args.finder_size)
    for source in args.source:
        sheets = [sheet(p) for p in load_part(source, args.part)]
        report(source, sheets, args.part)
        if args.conditions:
            for name, n, value, flagged in by_condition(sheets):
                print(f"  {name:38s} {n:4d} dice: value right {100 * value:5.1f}%, "
                      f"right flagged {100 * flagged:4.1f}%")
        if args.curve:
            print("  threshold  wrong caught  right flagged  photos silently wrong")
            for t, caught, flagged, silent in curve(sheets, [0.3, 0.4, 0.5, 0.6, 0.7, 0.8,
                                                             0.85, 0.9, 0.95]):
                print(f"  {t:9.2f}  {100 * caught:11.0f}%  {100 * flagged:12.1f}%  "
                      f"{100 * silent:20.1f}%")
        if args.wrong:
            show_wrong(sheets)
    if "tomitomi" not in args.skip:
        n, value, flagged = tomitomi(args.part)
        print(f"tomitomi-crops {args.part}: {n} crops: value right {100 * value:.1f}%, "
              f"right flagged {100 * flagged:.1f}%")
    if "rendered" not in args.skip:
        kinds, tray_silent = rendered()
        for kind, (n, value, flagged, sure) in kinds.items():
            print(f"rendered trays, {kind} dice: {n} dice: value right {100 * value:.1f}%, "
                  f"right flagged {100 * flagged:.1f}%, wrong and confident {100 * sure:.1f}%")
        print("rendered trays silently wrong: " + ", ".join(
            f"{kind} {100 * share:.1f}%" for kind, share in tray_silent.items()))
    if "speed" not in args.skip:
        for name, (med, p95) in speed(against=args.speed_vs, runtimes=args.runtime_vs).items():
            print(f"speed, 1280x960 tray of 20-25 ordinary dice, one core (thread CPU time), "
                  f"{name}: median {med:.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
