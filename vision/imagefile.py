"""Loading a photo of the tray from a file, refusing what is damaged or absurdly large.

OpenCV decodes whatever it can: a JPEG cut short comes back with its missing part grey,
a JPEG with flipped bits comes back smeared, and both are read as dice. A header that
claims 100,000 × 100,000 pixels asks for 30 GB. So :func:`load_image` reads at most
``MAX_FILE_BYTES``, learns the size from the header (the ``imagesize`` library) and
refuses more than ``MAX_PIXELS`` before decoding, and refuses an image whose decoder
reported damage (libjpeg's "Corrupt JPEG data" and "Premature end of JPEG file", a libpng
error; the C decoders only say so on standard error, which is listened to while decoding).
"""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import imagesize
import numpy as np

from rules.inputs import InputTooLarge, read_bytes

MAX_FILE_BYTES = 64 << 20
"""A photo file: at most 64 MiB (a 12-megapixel camera's PNG is about 25 MiB)."""

MAX_PIXELS = 50_000_000
"""At most 50 megapixels (Raspberry Pi cameras take 12), about 150 MB once decoded."""

KINDS = "JPEG, PNG, WebP, BMP or TIFF"

# what the decoders write when the data is damaged (anything else they write is passed on)
DAMAGE = re.compile(r"Corrupt JPEG data|Premature end of JPEG file|libpng error|"
                    r"Not a JPEG file|Invalid (JPEG|SOS)|Bogus", re.IGNORECASE)


class ImageFileError(ValueError):
    """The file is not a photo that can be read; the message names the file and why."""


@contextmanager
def decoder_messages() -> Iterator[list[str]]:
    """Collect what C libraries write to standard error (file descriptor 2) meanwhile."""
    messages: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield messages
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            messages.extend(sink.read().decode("utf-8", "replace").splitlines())


def load_image(path: str | Path) -> np.ndarray:
    """The BGR picture in ``path``; OSError if it cannot be read, ImageFileError if it is
    no image, damaged, or too large."""
    if Path(path).is_dir():
        raise ImageFileError(f"{path}: a folder, not an image")
    try:
        data = read_bytes(path, MAX_FILE_BYTES, "the image")
    except InputTooLarge as err:
        raise ImageFileError(str(err)) from None
    except OSError as err:
        raise OSError(f"{path}: cannot read it: {err.strerror or err}") from None
    try:
        width, height = imagesize.get(io.BytesIO(data))
    except (ValueError, OSError, IndexError):  # imagesize on a broken header
        width = height = -1
    if width <= 0 or height <= 0:
        raise ImageFileError(f"{path}: not an image ({KINDS}), or its header is damaged")
    if width * height > MAX_PIXELS:
        raise ImageFileError(f"{path}: its header says {width} × {height} pixels; at most "
                             f"{MAX_PIXELS // 1_000_000} megapixels are read")
    with decoder_messages() as messages:
        try:
            frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        except cv2.error as err:
            frame = None
            messages.append(str(err).strip().splitlines()[-1])
    damage = [m for m in messages if DAMAGE.search(m)]
    for other in (m for m in messages if m not in damage):  # e.g. a libpng warning
        print(other, file=sys.stderr)
    if damage:
        raise ImageFileError(f"{path}: the image is damaged ({damage[0].strip()})")
    if frame is None:
        raise ImageFileError(f"{path}: the image is damaged or cut short (it cannot be decoded)")
    return frame
