"""``kotd photo FILE``: one frame from the table's camera, taken as the assistant takes them.

The camera is opened from the same config (source, focus) with exposure, white balance and
focus locked the same way, so a calibration photo sees the colours the assistant will see.
Only one program may own the camera: stop the assistant first.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pi.frames import FrameSource
from rules.errors import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("photo", help="save one frame from the camera (for calibrating)")
    p.add_argument("out", type=Path, metavar="FILE", help="where to write it (.jpg or .png)")
    p.add_argument("--config", metavar="FILE", help="config file (TOML)")
    p.add_argument("--data-dir", metavar="DIR", help="the assistant's data directory")
    p.add_argument("--source", help="auto | sim | picamera | opencv[:N] | replay:PATH")
    p.add_argument("--settle-frames", type=int, default=10,
                   help="frames to skip first (a webcam's exposure settles), default 10")
    p.set_defaults(handler=cmd_photo)


def take_photo(source: FrameSource, out: Path, settle_frames: int = 10) -> tuple[int, int]:
    """Open ``source``, skip ``settle_frames``, write the next frame to ``out``."""
    import cv2

    if out.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise UsageError(f"{out}: name it .jpg or .png")
    source.open()
    try:
        for _ in range(max(0, settle_frames)):
            source.read()
        frame = source.read()
    finally:
        source.close()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"{out.parent}: cannot make the folder: {err.strerror or err}") from None
    params = [cv2.IMWRITE_JPEG_QUALITY, 95] if out.suffix.lower() != ".png" else []
    if not cv2.imwrite(str(out), frame, params):
        raise UsageError(f"{out}: could not write the photo there")
    return frame.shape[1], frame.shape[0]


def cmd_photo(args: argparse.Namespace) -> int:
    from pi.config import load_config
    from pi.doctor import fetch_state
    from pi.sources import CameraError, make_source

    config = load_config(args.config, data_dir=args.data_dir, source=args.source)
    if fetch_state(config.port) is not None:
        raise UsageError("the assistant is running and owns the camera: "
                       "sudo systemctl stop kotd first")
    source = make_source(config.source, focus_cm=config.focus_cm)
    try:
        w, h = take_photo(source, args.out, args.settle_frames)
    except CameraError as err:
        raise UsageError(str(err)) from None
    info = getattr(source, "info", {}) or {}
    print(f"{args.out}: {w}x{h} from {source.name}" +
          "".join(f"; {k} {v}" for k, v in info.items() if k != "mode"))
    return 0
