"""The networks' formats live in cards beside them (``vision/models/haba_nets.toml``,
``dice_nets.toml``): they load, round-trip, refuse a missing number by the file's name, a
training tool's writer keeps the other networks' sections, and the reader cuts and scales
its input as the card says."""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import fields, replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vision.netformat as netformat
from vision.dicenet import crop_for_pips
from vision.habanet import FoundFace, decode, face_crop, finder_input
from vision.netformat import (
    DICE_NETS,
    HABA_NETS,
    DiceFinderFormat,
    DiceFormats,
    DicePipFormat,
    FinderFormat,
    HabaFormats,
    PairFormat,
    PipFormat,
    add_options,
    dice_formats,
    from_options,
    haba_formats,
    read_card,
    write_section,
)
from vision.pairnet import FaceLook, joint_crop, pair_input

FAMILIES = [(HABA_NETS, HabaFormats), (DICE_NETS, DiceFormats)]


def _formats(cls: type) -> st.SearchStrategy:
    """Any format of ``cls``: whole numbers for its int fields, finite floats for the rest."""
    kinds = {f.name: st.integers(1, 4096) if f.type == "int" else
             st.floats(1e-6, 1e6, allow_nan=False) for f in fields(cls)}
    return st.builds(cls, **kinds)


@pytest.mark.parametrize(("path", "family"), FAMILIES)
def test_the_shipped_cards_load_with_the_header_naming_their_writer(path: Path, family: type
                                                                   ) -> None:
    card = read_card(path, family)
    assert isinstance(card, family)
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert netformat.WRITERS[family] in first and "do not edit by hand" in first


def test_the_pair_card_says_as_many_numbers_as_the_reader_makes() -> None:
    """The pair network's input width in the card is the count :func:`pair_input` makes."""
    frame = np.full((480, 640, 3), 120, np.uint8)
    a = FaceLook(FoundFace((300.0, 240.0), 40.0, 0.0, 0.9), 0.9, 0.8, 5.0, 4.9, 4.0)
    b = FaceLook(FoundFace((345.0, 240.0), 40.0, 0.0, 0.7), 0.4, 0.6, 4.0, 3.9, 4.0)
    crop, numbers = pair_input(frame, a, b, (320.0, 240.0))
    pair = haba_formats().pair
    assert numbers.shape == (pair.numbers,) and crop.shape == (pair.height, pair.width, 3)


@settings(max_examples=40, deadline=None)
@given(_formats(FinderFormat), _formats(PipFormat), _formats(PairFormat))
def test_a_haba_card_written_reads_back_the_same(tmp_path_factory: pytest.TempPathFactory,
                                                 finder: FinderFormat, pips: PipFormat,
                                                 pair: PairFormat) -> None:
    card = tmp_path_factory.mktemp("card") / "haba_nets.toml"
    for name, fmt in (("finder", finder), ("pips", pips), ("pair", pair)):
        write_section(card, name, fmt, 'tools/x.py --a "b"', "2026-11-28", HabaFormats)
    assert read_card(card, HabaFormats) == HabaFormats(finder, pips, pair)


@settings(max_examples=40, deadline=None)
@given(_formats(DiceFinderFormat), _formats(DicePipFormat))
def test_a_dice_card_written_reads_back_the_same(tmp_path_factory: pytest.TempPathFactory,
                                                 finder: DiceFinderFormat,
                                                 pips: DicePipFormat) -> None:
    card = tmp_path_factory.mktemp("card") / "dice_nets.toml"
    write_section(card, "pips", pips, "tools/train_dice_net.py", "2026-11-28", DiceFormats)
    write_section(card, "finder", finder, "tools/train_dice_net.py", "2026-11-28", DiceFormats)
    assert read_card(card, DiceFormats) == DiceFormats(finder, pips)


def _every_key() -> list[tuple[Path, type, str, str]]:
    out = []
    for path, family in FAMILIES:
        for section in fields(family):
            cls = netformat._types(family)[section.name]
            out += [(path, family, section.name, f.name) for f in fields(cls)]
    return out


@pytest.mark.parametrize(("path", "family", "section", "key"), _every_key())
def test_a_card_without_a_number_is_refused_by_the_file_s_name(
        tmp_path: Path, path: Path, family: type, section: str, key: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index(f"[{section}]")
    gone = next(i for i in range(at, len(lines)) if lines[i].startswith(f"{key} = "))
    card = tmp_path / path.name
    card.write_text("\n".join(lines[:gone] + lines[gone + 1:]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{card.name}.*\[{section}\] lacks {key}\b") as e:
        read_card(card, family)
    assert str(card) in str(e.value) and netformat.WRITERS[family] in str(e.value)


@pytest.mark.parametrize("text", ["crop = 48.5", 'crop = "48"', "crop = true"])
def test_a_number_of_the_wrong_kind_is_refused(tmp_path: Path, text: str) -> None:
    card = tmp_path / "haba_nets.toml"
    card.write_text(HABA_NETS.read_text(encoding="utf-8").replace("crop = 48", text),
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[pips\] crop = .* is not int"):
        read_card(card, HabaFormats)


def test_a_missing_card_or_section_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="missing"):
        read_card(tmp_path / "haba_nets.toml", HabaFormats)
    card = tmp_path / "dice_nets.toml"
    card.write_text(DICE_NETS.read_text(encoding="utf-8").split("[pips]")[0], encoding="utf-8")
    with pytest.raises(ValueError, match=r"no \[pips\] section.*train_dice_net"):
        read_card(card, DiceFormats)


def _sections() -> list[tuple[Path, type, str]]:
    return [(path, family, f.name) for path, family in FAMILIES for f in fields(family)]


@pytest.mark.parametrize("there", [True, False], ids=["card there", "no card yet"])
@pytest.mark.parametrize(("path", "family", "name"), _sections())
def test_the_writer_rewrites_its_own_section_and_keeps_the_others(
        tmp_path: Path, path: Path, family: type, name: str, there: bool) -> None:
    """As a training tool exports one network: its section states the new format and the
    command that made it, every other section (with its own command) is as it was; a card
    not there yet starts as the shipped one, which is left as it is."""
    shipped_text = path.read_text(encoding="utf-8")
    shipped = tomllib.loads(shipped_text)
    card = tmp_path / path.name
    if there:
        card.write_text(shipped_text, encoding="utf-8")
    old = getattr(read_card(path, family), name)
    first = fields(old)[0].name
    new = replace(old, **{first: getattr(old, first) * 2})
    write_section(card, name, new, f"tools/train.py {name} --steps 9", "2026-12-01", family)
    got = tomllib.loads(card.read_text(encoding="utf-8"))
    assert getattr(read_card(card, family), name) == new
    assert got[name]["made_by"] == f"tools/train.py {name} --steps 9"
    assert got[name]["date"] == "2026-12-01"
    assert {k: v for k, v in got.items() if k != name} == {
        k: v for k, v in shipped.items() if k != name}
    assert path.read_text(encoding="utf-8") == shipped_text


def test_options_default_to_the_card_and_make_the_new_format() -> None:
    pips = haba_formats().pips
    parser = argparse.ArgumentParser()
    add_options(parser, pips, ("crop", "margin"), "pips-", "pips")
    assert from_options(parser.parse_args([]), pips, ("crop", "margin"), "pips-") == pips
    args = parser.parse_args(["--pips-crop", "64", "--pips-margin", "1.5"])
    assert from_options(args, pips, ("crop", "margin"), "pips-") == replace(pips, crop=64,
                                                                             margin=1.5)


@pytest.fixture
def other_haba_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HabaFormats:
    """The reader reads a HABA card of other formats: a 64-pixel crop 1.6 faces wide, a
    finder of 256 pixels and stride 8, a 64 x 32 joint crop."""
    card = tmp_path / "haba_nets.toml"
    shipped = haba_formats()
    other = HabaFormats(replace(shipped.finder, size=256, stride=8),
                        replace(shipped.pips, crop=64, margin=1.6),
                        replace(shipped.pair, width=64, height=32, face=12.0))
    for name in ("finder", "pips", "pair"):
        write_section(card, name, getattr(other, name), "test", "", HabaFormats)
    monkeypatch.setattr(netformat, "HABA_NETS", card)
    assert haba_formats() == other
    return other


def _white_square(side: int, turn: float = 0.0) -> tuple[np.ndarray, tuple[float, float]]:
    frame = np.zeros((600, 800, 3), np.uint8)
    box = cv2.boxPoints(((400.0, 300.0), (side, side), turn)).astype(np.int32)
    cv2.fillConvexPoly(frame, box, (255, 255, 255))
    return frame, (400.0, 300.0)


@pytest.mark.parametrize("side", [30, 80, 200])
def test_face_crop_cuts_the_card_s_crop(other_haba_card: HabaFormats, side: int) -> None:
    """With a card of a 64-pixel crop 1.6 faces wide, a face is cut 64 pixels square and
    spans 64 / 1.6 = 40 of them, whatever its size in the frame."""
    frame, centre = _white_square(side, 20.0)
    crop = face_crop(frame, centre, float(side), 20.0)
    assert crop.shape == (64, 64, 3)
    lit = np.nonzero(crop[32, :, 0] > 127)[0]
    assert abs((lit[-1] - lit[0] + 1) - 64 / 1.6) <= 2


def test_the_finder_sees_the_card_s_size_and_reads_its_stride(other_haba_card: HabaFormats
                                                             ) -> None:
    frame = np.zeros((960, 1280, 3), np.uint8)
    small, scale = finder_input(frame)
    assert max(small.shape[:2]) == 256 and scale == 256 / 1280
    heat = np.full((6, 24, 32), -9.0, np.float32)  # one peak at row 5, column 7
    heat[0, 5, 7], heat[1:6, 5, 7] = 9.0, (0.0, 0.0, np.log(10.0), 1.0, 0.0)
    (face,) = decode(heat, scale, 1280, 960)
    assert face.center == pytest.approx(((7 + 0.5) * 8 / scale, (5 + 0.5) * 8 / scale))


def test_the_joint_crop_is_the_card_s(other_haba_card: HabaFormats) -> None:
    frame = np.zeros((600, 800, 3), np.uint8)
    a, b = FoundFace((380.0, 300.0), 30.0, 0.0, 0.9), FoundFace((420.0, 300.0), 30.0, 0.0, 0.9)
    crop, _ = joint_crop(frame, a, b)
    assert crop.shape == (32, 64, 3)


def test_a_card_of_more_numbers_than_the_reader_makes_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    card = tmp_path / "haba_nets.toml"
    pair = haba_formats().pair
    write_section(card, "pair", replace(pair, numbers=pair.numbers + 1), "test", "",
                  HabaFormats)
    monkeypatch.setattr(netformat, "HABA_NETS", card)
    frame = np.zeros((480, 640, 3), np.uint8)
    a = FaceLook(FoundFace((300.0, 240.0), 40.0, 0.0, 0.9), 0.9, 0.8, 5.0, 4.9, 4.0)
    b = FaceLook(FoundFace((345.0, 240.0), 40.0, 0.0, 0.7), 0.4, 0.6, 4.0, 3.9, 4.0)
    with pytest.raises(ValueError, match=f"takes {pair.numbers + 1} numbers"):
        pair_input(frame, a, b, (320.0, 240.0))


def test_the_dice_pip_crop_is_the_card_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """With a card of a 32-pixel crop 2 boxes wide, a die is cut 32 pixels square and spans
    16 of them."""
    card = tmp_path / "dice_nets.toml"
    write_section(card, "pips", replace(dice_formats().pips, crop=32, margin=2.0), "test", "",
                  DiceFormats)
    monkeypatch.setattr(netformat, "DICE_NETS", card)
    frame, _ = _white_square(60)
    crop = crop_for_pips(frame, (370.0, 270.0, 430.0, 330.0))
    assert crop.shape == (32, 32, 3)
    lit = np.nonzero(crop[16, :, 0] > 127)[0]
    assert abs((lit[-1] - lit[0] + 1) - 16) <= 1
