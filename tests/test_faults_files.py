"""Fault injection at the command line: damaged, oversized and endless input files.

Every case must end in one line on standard error naming the problem and a non-zero exit
status: no traceback, no "0 dice" from a broken photo, no memory growing without bound.
The endless inputs run as real processes with an address-space limit, so a regression
fails the test instead of eating the machine.
"""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import KOTD

from pi.cli import main
from vision.render import random_scene, render_tray

MEMORY_LIMIT = 1 << 30  # 1 GiB of address space is far more than any command needs


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(*args: str, stdin: str | int | None = None) -> subprocess.CompletedProcess[str]:
    """``kotd ARGS`` as a process with a memory limit; stdin a path or None."""
    handle = open(stdin, "rb") if isinstance(stdin, str) else subprocess.DEVNULL  # noqa: SIM115
    try:
        return subprocess.run([KOTD, *args], stdin=handle, capture_output=True, text=True,
                              timeout=60, preexec_fn=_limited)
    finally:
        if handle is not subprocess.DEVNULL:
            handle.close()


def one_line_error(stderr: str, *words: str) -> str:
    """The single ``kotd: error:`` line of ``stderr``, which names ``words``."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr, stderr
    assert len(lines) == 1, stderr
    assert lines[0].startswith("kotd: error: "), stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A rendered tray with six HABA dice, as a JPEG file's bytes."""
    rng = np.random.default_rng(17)
    frame, _ = render_tray(random_scene(rng, level="clean"), rng)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def _png(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` (with a few bytes of pixels)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def test_a_good_photo_is_read(photo: bytes, tmp_path: Path, capsys) -> None:
    path = tmp_path / "tray.jpg"
    path.write_bytes(photo)
    assert main(["read", str(path)]) == 0
    assert f"{path}: 6 dice" in capsys.readouterr().out


def test_a_header_claiming_100000_squared_pixels_is_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(_png(100_000, 100_000))
    assert main(["read", str(path)]) == 2
    out, err = capsys.readouterr()
    one_line_error(err, "huge.png", "100000 × 100000")
    assert out == ""


def test_a_decompression_bomb_below_opencvs_own_limit_is_refused(tmp_path: Path,
                                                                 capsys) -> None:
    """20000 × 20000 passes OpenCV's check (2^30 pixels) and would decode to 1.2 GB."""
    path = tmp_path / "bomb.png"
    path.write_bytes(_png(20_000, 20_000))
    assert main(["read", str(path)]) == 2
    one_line_error(capsys.readouterr().err, "bomb.png", "megapixels")


@pytest.mark.parametrize("fraction", [0.33, 0.5, 0.9, 0.99])
def test_a_jpeg_cut_short_is_refused(photo: bytes, tmp_path: Path, capsys,
                                     fraction: float) -> None:
    path = tmp_path / "cut.jpg"
    path.write_bytes(photo[: int(len(photo) * fraction)])
    assert main(["read", "--json", str(path)]) == 2
    out, err = capsys.readouterr()
    one_line_error(err, "cut.jpg", "damaged")
    assert out == ""  # no reading of a half picture


def test_a_jpeg_with_flipped_bits_is_refused(photo: bytes, tmp_path: Path, capsys) -> None:
    data = bytearray(photo)
    rng = np.random.default_rng(3)
    for _ in range(20):  # bits flipped in the picture data (second half of the file)
        data[int(rng.integers(len(data) // 2, len(data) - 2))] ^= 1 << int(rng.integers(8))
    path = tmp_path / "flipped.jpg"
    path.write_bytes(bytes(data))
    assert main(["read", str(path)]) == 2
    out, err = capsys.readouterr()
    one_line_error(err, "flipped.jpg", "damaged")
    assert "dice" not in out


@pytest.mark.parametrize("content", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n"])
def test_files_that_are_no_image_are_refused(tmp_path: Path, capsys, content: bytes) -> None:
    path = tmp_path / "x.png"
    path.write_bytes(content)
    assert main(["read", str(path)]) == 2
    one_line_error(capsys.readouterr().err, "x.png")


def test_a_folder_and_a_missing_file_are_refused(tmp_path: Path, capsys) -> None:
    assert main(["read", str(tmp_path)]) == 2
    one_line_error(capsys.readouterr().err, "folder")
    assert main(["read", str(tmp_path / "gone.jpg")]) == 2
    one_line_error(capsys.readouterr().err, "gone.jpg")


def test_annotate_that_cannot_be_written_is_an_error(photo: bytes, tmp_path: Path,
                                                     capsys) -> None:
    """A folder where the annotated file should go (works as root, where a read-only
    mode bit does not stop anything): the reading is printed, the failed write said."""
    path = tmp_path / "tray.jpg"
    path.write_bytes(photo)
    out_dir = tmp_path / "out"
    (out_dir / "tray.annotated.png").mkdir(parents=True)
    assert main(["read", str(path), "--annotate", str(out_dir)]) == 2
    out, err = capsys.readouterr()
    assert "6 dice" in out
    one_line_error(err, "tray.annotated.png", "cannot write")


def test_annotate_into_a_file_is_an_error(photo: bytes, tmp_path: Path, capsys) -> None:
    path = tmp_path / "tray.jpg"
    path.write_bytes(photo)
    assert main(["read", str(path), "--annotate", str(path / "sub")]) == 2
    one_line_error(capsys.readouterr().err, "cannot make the folder")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_annotate_into_a_read_only_folder_is_an_error(photo: bytes, tmp_path: Path,
                                                      capsys) -> None:
    path = tmp_path / "tray.jpg"
    path.write_bytes(photo)
    out_dir = tmp_path / "ro"
    out_dir.mkdir()
    out_dir.chmod(0o555)
    try:
        assert main(["read", str(path), "--annotate", str(out_dir)]) == 2
    finally:
        out_dir.chmod(0o755)
    one_line_error(capsys.readouterr().err, "cannot write")


# ---- endless and oversized text inputs: real processes, memory capped -------------------

@pytest.mark.parametrize("args", [
    ("check", "--box", "/dev/zero", "--dice", "1r 1g 1b 2r 2g 3b"),
    ("cards", "--box", "/dev/zero"),
    ("cards", "--game", "ukuk", "--box", "/dev/zero"),
    ("check", "--game", "ukuk", "--box", "/dev/zero", "--dice", "1 3 3 6"),
    ("play", "--script", "/dev/zero"),
    ("read", "/dev/zero"),
])
def test_dev_zero_as_an_input_file_is_refused(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2
    one_line_error(done.stderr, "/dev/zero", "larger than")


@pytest.mark.parametrize("args", [("check",), ("play", "--script", "-")])
def test_dev_zero_on_standard_input_is_refused(args: tuple[str, ...]) -> None:
    done = run(*args, stdin="/dev/zero")
    assert done.returncode == 2
    one_line_error(done.stderr, "line 1", "longer than")


def test_an_oversized_script_is_refused_but_long_scripts_are_fine(tmp_path: Path) -> None:
    ok = tmp_path / "ok.txt"
    ok.write_text("players Ann Ben\n" + "# a comment line\n" * 10_000, encoding="utf-8")
    done = run("play", "--script", str(ok))
    assert done.returncode == 0, done.stderr
    big = tmp_path / "big.txt"
    big.write_text("players Ann Ben\n" + "#" * (2 << 20) + "\n", encoding="utf-8")
    done = run("play", "--script", str(big))
    assert done.returncode == 2
    one_line_error(done.stderr, "big.txt", "larger than 1 MiB")


def test_a_card_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    box = tmp_path / "box.toml"
    box.write_bytes(b"\xff\xfe" + os.urandom(64))
    done = run("cards", "--box", str(box))
    assert done.returncode == 2
    one_line_error(done.stderr, "box.toml", "UTF-8")
