"""The rendered frames' cache (``benchmarks/haba_sets.py``): outside the checkout, one folder
per renderer, written whole or not at all, a damaged file drawn again. The renderer is
stood in for by a cheap picture here: what is tested is the keeping, not the drawing."""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import haba_sets

from vision.render.scene import TrayScene, TruthDie


def test_the_cache_lies_outside_the_checkout_one_folder_per_renderer() -> None:
    home = Path.home()
    assert haba_sets.cache_home({}) == home / ".cache" / "kotd" / "haba-sets"
    assert haba_sets.cache_home({"XDG_CACHE_HOME": "/var/c"}) == Path("/var/c/kotd/haba-sets")
    # the XDG rule: a relative path is ignored
    assert haba_sets.cache_home({"XDG_CACHE_HOME": "rel"}) == home / ".cache/kotd/haba-sets"
    assert haba_sets.cache_home({"XDG_CACHE_HOME": "/var/c", "KOTD_FRAME_CACHE": "/f"}
                                ) == Path("/f")
    assert haba_sets.cache_home() / haba_sets.RENDERER == haba_sets.CACHE
    assert haba_sets.ROOT not in haba_sets.CACHE.parents


@pytest.fixture
def drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cache in ``tmp_path``, the renderer a cheap stand-in: a picture of the scene's size
    whose pixels tell how many pictures it has drawn (returned: one number per picture)."""
    monkeypatch.setattr(haba_sets, "CACHE", tmp_path)
    calls: list[int] = []

    def render_tray(scene: TrayScene, rng: np.random.Generator
                    ) -> tuple[np.ndarray, list[TruthDie]]:
        calls.append(len(calls) + 1)
        img = np.full((scene.height, scene.width, 3), 10 * len(calls), np.uint8)
        img[0, 0] = rng.integers(0, 255, 3)  # drawn from the seed's own numbers
        return img, []

    monkeypatch.setattr(haba_sets, "render_tray", render_tray)
    return calls


def _no_parts(folder: Path) -> None:
    assert not [p.name for p in folder.rglob("*") if p.is_file()
                and not p.name[:5].isdigit()]


def test_a_frame_is_drawn_once_and_read_back(drawn: list[int], tmp_path: Path) -> None:
    img, truth, scene = haba_sets.frame("tune", 7)
    again, truth2, scene2 = haba_sets.frame("tune", 7)
    assert drawn == [1]
    assert np.array_equal(img, again) and truth2 == truth and scene2 == scene
    assert haba_sets.scene("tune", 7) == scene
    assert sorted(p.name for p in (tmp_path / "tune").iterdir()) == ["00007.pickle",
                                                                      "00007.png"]


@pytest.mark.parametrize("damage", ["png cut off", "png empty", "pickle cut off",
                                    "pickle not a frame's", "png gone"])
def test_a_damaged_or_partial_frame_is_drawn_again(drawn: list[int], tmp_path: Path,
                                                   damage: str) -> None:
    img, truth, scene = haba_sets.frame("table-tune", 3)
    png, meta = tmp_path / "table-tune" / "00003.png", tmp_path / "table-tune" / "00003.pickle"
    if damage == "png cut off":
        png.write_bytes(png.read_bytes()[: png.stat().st_size // 2])
    elif damage == "png empty":
        png.write_bytes(b"")
    elif damage == "pickle cut off":
        meta.write_bytes(meta.read_bytes()[:-20])
    elif damage == "pickle not a frame's":
        meta.write_bytes(pickle.dumps({"not": "a frame"}))
    else:
        png.unlink()
    again, truth2, scene2 = haba_sets.frame("table-tune", 3)
    assert drawn == [1, 2]  # drawn again, not read
    assert again.shape == img.shape and (truth2, scene2) == (truth, scene)
    assert np.array_equal(again, haba_sets.frame("table-tune", 3)[0]) and drawn == [1, 2]
    _no_parts(tmp_path)


def test_a_damaged_last_roll_or_in_view_is_drawn_again(drawn: list[int], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    first = haba_sets.last_roll("tune", 5)
    n = len(drawn)
    meta = tmp_path / "tune-last" / "00005.pickle"
    meta.write_bytes(meta.read_bytes()[:3])
    again = haba_sets.last_roll("tune", 5)
    assert len(drawn) > n
    assert (first is None) == (again is None)

    def draws(set_name: str, i: int) -> None:
        raise LookupError("drawn")

    monkeypatch.setattr(haba_sets, "_scene", draws)
    kept = tmp_path / "tune" / "00005.in-view.pickle"
    kept.write_bytes(pickle.dumps([0.5, 1.0]))
    assert haba_sets.in_view("tune", 5) == [0.5, 1.0]  # read, not drawn
    kept.write_bytes(pickle.dumps([0.5, 1.0])[:-4])
    with pytest.raises(LookupError):  # drawn again, not read
        haba_sets.in_view("tune", 5)


def test_a_file_is_written_whole_or_not_at_all(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Written into a file of its own in the same folder and renamed over the old one (one
    step, as two workers or clones may draw the same frame at once): a reader sees the old
    file or the new one whole; a write that fails leaves the old one and no part behind."""
    path = tmp_path / "tune" / "00001.pickle"
    path.parent.mkdir()
    path.write_bytes(b"old")
    renamed = []
    real_replace = os.replace

    def replace(src: str | Path, dst: str | Path) -> None:
        assert Path(dst) == path and Path(src).parent == path.parent
        assert path.read_bytes() == b"old" and Path(src).read_bytes() == b"new" * 1000
        renamed.append(dst)
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    haba_sets._keep(path, b"new" * 1000)
    assert renamed == [path] and path.read_bytes() == b"new" * 1000
    _no_parts(tmp_path)

    with pytest.raises(TypeError):  # a write that fails part of the way
        haba_sets._keep(path, object())  # type: ignore[arg-type]
    assert path.read_bytes() == b"new" * 1000
    _no_parts(tmp_path)
