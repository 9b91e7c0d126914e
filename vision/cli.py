"""``kotd read`` and ``kotd calibrate``: the dice reader from the command line.

The data directory (where the calibrated palette lives) is not decided here: the command
line hands it down (``args.data_dir_of``, the config's :func:`pi.config.default_data_dir`).
Mistakes become :class:`rules.errors.UsageError` (one line, exit status 2).

The tray (:mod:`vision.tray`): ``kotd calibrate IMAGE --tray x1,y1,...`` keeps its four
corners (pixels of IMAGE, a frame of the camera) in the data directory, ``--find-tray``
prints the corners found from the tray's edge for you to confirm with ``--tray``,
``--clear-tray`` forgets it. ``kotd read --tray x1,y1,...`` reads only that tray.

The dice are described by the command line too: ``args.haba_dice_of()`` gives how many
HABA dice the game's box holds and what they look like (:class:`rules.dice.DiceLook`, the
default palette). Without ``--thrown`` the reader is told that at most the box's dice (six)
lie in the photo, as at the table: a seventh face is a die's side or a leaning die's back,
and fewer faces are looked at again closer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.dice import DiceLook
from rules.errors import UsageError

HabaDice = Callable[[], tuple[int, DiceLook]]
"""How many HABA dice the game's box holds and what they look like (handed down)."""
WHY_WORDS: dict[str | None, str] = {
    "side": "maybe a leaning die's side", "die": "maybe no die", "value": "pips unclear",
    "colour": "colour unclear", "box": "the box has no such roll",
    "kept": "a kept die reads otherwise", "strip": "on the set-aside strip's edge"}
"""Why a die is to check (:data:`vision.reading.Why`), as ``kotd read`` says it."""


def _data_palette(args: argparse.Namespace) -> Path:
    """The palette calibrated into the data directory the command line hands down."""
    from vision.palette import PALETTE_FILE

    data_dir: Callable[[], Path] = args.data_dir_of
    return Path(data_dir()) / PALETTE_FILE


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 30:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of dice (1 to 30)")
    return n


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    read = subparsers.add_parser("read", help="read the dice in photos of the tray")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--dice", choices=("haba", "standard"), default="haba",
                      help="HABA dice (coloured faces) or ordinary dice (default: haba)")
    count = read.add_mutually_exclusive_group()
    count.add_argument("--thrown", type=_count, metavar="N",
                       help="HABA dice: how many dice were thrown (the reader then reads at "
                            "most N, marks the doubtful ones, and says how many it does not "
                            "see: covered, or outside the picture)")
    count.add_argument("--at-most", type=_count, metavar="N",
                       help="HABA dice, count not known: at most N dice lie in view (default: "
                            "the box's dice, 6; more faces are chosen among, fewer looked at "
                            "again)")
    read.add_argument("--json", action="store_true", help="one JSON object per image and line")
    read.add_argument("--palette", type=Path, help="palette file (default: the calibrated one)")
    read.add_argument("--annotate", type=Path, metavar="DIR",
                      help="write each image with the dice outlined and labelled into DIR")
    read.add_argument("--tray", metavar="X1,Y1,...,X4,Y4",
                      help="read only the dice in this tray: its four corners in pixels, in "
                           "order around it (they also tell how the camera looks at it)")
    read.set_defaults(handler=_read)
    cal = subparsers.add_parser("calibrate", help="measure the dice colours from a photo")
    cal.add_argument("image", metavar="IMAGE", nargs="?",
                     help="a photo of the dice, every colour face up (or of the tray)")
    cal.add_argument("--colors", help="the face colours in reading order, e.g. r,g,b,r,g,b")
    cal.add_argument("--out", type=Path, help="where to store it (default: the data dir)")
    tray = cal.add_mutually_exclusive_group()
    tray.add_argument("--tray", metavar="X1,Y1,...,X4,Y4",
                      help="mark the tray instead: its four corners in pixels of IMAGE, in "
                           "order around it (kept in the data dir; only it is read then)")
    tray.add_argument("--find-tray", action="store_true",
                      help="find the tray's edge in IMAGE and print its corners to confirm")
    tray.add_argument("--clear-tray", action="store_true",
                      help="forget the marked tray: the whole picture is read again")
    cal.set_defaults(handler=_calibrate)


def _load_image(path: str) -> Any:  # -> np.ndarray
    from vision.imagefile import load_image

    if not Path(path).exists():
        raise OSError(f"{path}: no such file")
    return load_image(path)  # refuses damaged and oversized images in one line


def _palette(path: Path | None, args: argparse.Namespace) -> Any:  # -> Palette
    from vision.palette import Palette

    try:
        if path is not None:
            return Palette.load(path)
        default = _data_palette(args)
        return Palette.load(default) if default.is_file() else _box_palette(args)
    except (OSError, ValueError) as err:
        raise UsageError("palette", "palette: {why}", why=str(err)) from None


def _box_palette(args: argparse.Namespace) -> Any:  # -> Palette
    """The palette of the dice as the game describes them."""
    from vision.palette import Palette

    haba_dice: HabaDice = args.haba_dice_of
    return Palette.of_look(haba_dice()[1])


def _read(args: argparse.Namespace) -> int:
    from vision.annotate import annotate
    from vision.reader import read_dice
    from vision.reading import reading_order
    from vision.tray import Tray, read_in_tray

    if args.dice == "standard" and (args.thrown or args.at_most):
        raise UsageError("count_for_standard", "--{flag} is for HABA dice: ordinary dice are "
                         "read as many as lie in view", flag="thrown" if args.thrown
                         else "at-most")
    palette = _palette(args.palette, args) if args.dice == "haba" else None
    corners: str | None = args.tray
    at_most = args.at_most or (args.haba_dice_of()[0] if args.dice == "haba" and not args.thrown
                               else None)
    status = 0
    if args.annotate:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError("annotate_dir", "{dir}: cannot make the folder: {why}",
                             dir=str(args.annotate), why=err.strerror or str(err)) from None
    for path in args.images:
        try:
            frame = _load_image(path)
        except (OSError, ValueError) as err:
            print(f"kotd: error: {err}", file=sys.stderr)
            status = 2
            continue
        try:
            def read(picture: Any, nadir: Any = None, holds: Any = None) -> list[Any]:
                return read_dice(picture, args.dice, palette, args.thrown, at_most, nadir=nadir,
                                 holds=holds)

            readings = reading_order(read(frame) if corners is None else read_in_tray(
                read, frame, Tray.parse(corners, frame.shape[1], frame.shape[0])))
        except OSError as err:  # the reader's own files are missing: a broken install
            raise UsageError("reader", "{why}", why=str(err)) from None
        unseen = max(args.thrown - len(readings), 0) if args.thrown else 0
        if args.json:
            out_json: dict[str, Any] = {"image": path, "dice": [r.to_json() for r in readings]}
            if args.thrown:
                out_json["not_seen"] = unseen
            print(json.dumps(out_json))
        else:
            print(f"{path}: {len(readings)} dice"
                  + (f"; {unseen} of the {args.thrown} thrown not seen: covered, or outside "
                     "the picture?" if unseen else ""))
            print("  #  value  colour  centre         confidence")
            for i, r in enumerate(readings, 1):
                col = r.color.value if r.color else "-"
                flag = "" if r.confident else f"  (check: {WHY_WORDS.get(r.why, 'unsure')})"
                print(f"  {i:<2} {r.value:>5}  {col:<6}  "
                      f"({r.center[0]:6.1f},{r.center[1]:6.1f})  {r.confidence:.2f}{flag}")
        if args.annotate:
            out = args.annotate / (Path(path).stem + ".annotated.png")
            if not _write(out, annotate(frame, readings)):
                print(f"kotd: error: {out}: cannot write the annotated image", file=sys.stderr)
                status = 2
        sys.stdout.flush()
    return status


def _write(path: Path, picture: Any) -> bool:
    import cv2

    try:
        return bool(cv2.imwrite(str(path), picture))
    except cv2.error:
        return False


def _tray_file(args: argparse.Namespace) -> Path:
    from vision.tray import TRAY_FILE

    data_dir: Callable[[], Path] = args.data_dir_of
    return Path(data_dir()) / TRAY_FILE


def _tray(args: argparse.Namespace) -> int:
    """``kotd calibrate --tray/--find-tray/--clear-tray``: the tray, kept or forgotten."""
    from vision.tray import Tray, find_tray

    path = args.out or _tray_file(args)
    if args.clear_tray:
        path.unlink(missing_ok=True)
        print(f"tray forgotten ({path}): the whole picture is read")
        return 0
    if args.image is None:
        raise UsageError("tray_image", "give a frame of the camera: kotd calibrate IMAGE "
                         "--tray ...")
    frame = _load_image(args.image)
    height, width = frame.shape[:2]
    if args.find_tray:
        found = find_tray(frame)
        if found is None:
            raise UsageError("tray_not_found", "{image}: no tray found; give its corners "
                             "with --tray x1,y1,...,x4,y4", image=args.image)
        corners = ",".join(f"{x:.0f},{y:.0f}" for x, y in found.corners)
        print(f"tray found: if it is right, keep it with\n  kotd calibrate {args.image} "
              f"--tray {corners}")
        return 0
    tray = Tray.parse(args.tray, width, height)  # a TrayError says what is wrong
    tray.save(path)
    print(f"tray written to {path}: corners "
          + " ".join(f"({x:.0f},{y:.0f})" for x, y in tray.corners)
          + f" of a {width}x{height} frame")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from rules.dice import Color
    from vision.calibrate import calibrate

    if args.tray or args.find_tray or args.clear_tray:
        try:
            return _tray(args)
        except (OSError, ValueError) as err:
            raise UsageError("calibrate", "{why}", why=str(err)) from None
    if args.image is None:
        raise UsageError("calibrate_image", "give a photo of the dice: kotd calibrate IMAGE")

    colors = None
    if args.colors:
        try:
            colors = [Color.from_letter(t.strip()[0]) for t in args.colors.split(",") if t.strip()]
        except (KeyError, IndexError):
            raise UsageError("colors", "--colors {colors!r}: use r, g, b separated by commas",
                             colors=args.colors) from None
    try:
        frame = _load_image(args.image)
        palette = calibrate(frame, colors, _box_palette(args))
        out = args.out or _data_palette(args)
        palette.save(out)
    except (OSError, ValueError) as err:
        raise UsageError("calibrate", "{why}", why=str(err)) from None
    print(f"palette written to {out}")
    for c, chroma in palette.chroma.items():
        print(f"  {c.value:<5} chroma (B, G, R relative to the pips) "
              + " ".join(f"{x:+.2f}" for x in chroma))
    return 0
