"""The input formats the reader's networks were trained with, read from cards beside them.

A network reads right only input made as in its training: the frame scaled to the size the
finder learnt on, a face cut with the margin the pip reader learnt on, each channel divided
as it was then. Those numbers belong to the network, not to the reader, so they live in a
card in ``vision/models/`` next to the ONNX files, one section per network:

* ``haba_nets.toml``: the HABA finder, pip reader and pair network (:class:`FinderFormat`,
  :class:`PipFormat`, :class:`PairFormat`), written by ``tools/train_haba_net.py`` and
  ``tools/train_pair_net.py``;
* ``dice_nets.toml``: the ordinary-dice finder and pip reader (:class:`DiceFinderFormat`,
  :class:`DicePipFormat`), written by ``tools/train_dice_net.py``.

A training tool that exports a network rewrites its own section (:func:`write_section`,
the others kept as they are), with the command that made it; a new training takes its
format from options whose defaults are the card's (:func:`add_options`). The reader reads
each card once (:func:`haba_formats`, :func:`dice_formats`); a card that lacks a number
is refused with the file's name. One card per family, as each family has its own trainers
and its own decision file (``haba_reader.toml``, ``dice_decision.json``).
"""

from __future__ import annotations

import argparse
import tomllib
import typing
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

MODELS = Path(__file__).with_name("models")
HABA_NETS = MODELS / "haba_nets.toml"
DICE_NETS = MODELS / "dice_nets.toml"


@dataclass(frozen=True)
class FinderFormat:
    """How the HABA finder's input is made and its output grid read, and the sizes of dice
    it sees best (:meth:`vision.habanet.HabaNet.find`)."""

    size: int
    """The frame's longer side as the finder sees it, in pixels."""
    stride: int
    """Finder input pixels per cell of its output grid."""
    pad: int
    """Its input is padded to a multiple of this many pixels (its encoder halves it five
    times), and is at least this wide."""
    offset: float
    """Each channel is divided by its mean plus this (:func:`vision.habanet.normalise`)."""
    zoom_below: float
    """Faces narrower than this many finder pixels (a 60-pixel die in a 1280-pixel frame at
    384) are smaller than it sees well: they are looked at a second time, closer."""
    zoom_side: float
    """The closer look scales the dice to this many finder pixels."""
    far_above: float
    """Faces wider than this many finder pixels are bigger than it learnt to see (dice up to
    about 160 pixels in a 1280-pixel frame at 384): such a frame is looked at from farther."""
    far_side: float
    """The look from farther scales the dice to this many finder pixels."""


@dataclass(frozen=True)
class PipFormat:
    """How the HABA pip reader's crop of a face is made."""

    crop: int
    """Side of the square crop it reads, in pixels."""
    margin: float
    """The crop is this many face sides wide (room for a face found a little off)."""
    offset: float
    """Each channel is divided by its mean plus this (:func:`vision.habanet.normalise`)."""


@dataclass(frozen=True)
class PairFormat:
    """How the HABA pair network's input is made (:mod:`vision.pairnet`)."""

    width: int
    """The joint crop's width in pixels: two faces side by side."""
    height: int
    """The joint crop's height in pixels."""
    face: float
    """A face's side in the joint crop (the mean of the two faces' sides), in pixels."""
    numbers: int
    """How many numbers go with each joint crop (:func:`vision.pairnet.pair_input`)."""
    middle: float
    """A face's pip and body brightness is measured on the middle of its pip crop, this
    share of the crop's side (:func:`vision.pairnet.look`)."""
    place: float
    """The pair's place from the middle of the frame (in face sides) is divided by this."""
    far: float
    """How far out the pair lies (in face sides) counts up to this, divided by it."""
    offset: float
    """Each channel is divided by its mean plus this (:func:`vision.habanet.normalise`)."""


@dataclass(frozen=True)
class DiceFinderFormat:
    """How the ordinary-dice finder's input is made and its output read (:mod:`vision.dicenet`)."""

    size: int
    """The frame's longer side as the finder sees it, in pixels."""
    stride: int
    """Finder input pixels per cell of its output map."""
    pad: int
    """Its input is padded to a multiple of this many pixels (it halves the size five times)."""
    min_die: float
    """The smallest dice it was trained on, in pixels at :attr:`size`."""
    max_die: float
    """The biggest dice it was trained on, in pixels at :attr:`size`."""
    coarse: float
    """It looks a second time at this fraction of :attr:`size`, for dice too big for the
    first look."""
    big_die: float
    """On the coarser look only dice at least this wide (at :attr:`size`) count."""
    pixel_max: float
    """Its input is each pixel divided by this."""


@dataclass(frozen=True)
class DicePipFormat:
    """How the ordinary-dice pip reader's crop of a die is made (:mod:`vision.dicenet`)."""

    crop: int
    """Side of the square crop it reads, in pixels."""
    margin: float
    """The crop is this much larger than the die's box (room for a box found a bit off)."""
    pixel_max: float
    """Its input is each pixel divided by this."""


@dataclass(frozen=True)
class HabaFormats:
    """The HABA networks' formats, as ``haba_nets.toml`` states them."""

    finder: FinderFormat
    pips: PipFormat
    pair: PairFormat


@dataclass(frozen=True)
class DiceFormats:
    """The ordinary-dice networks' formats, as ``dice_nets.toml`` states them."""

    finder: DiceFinderFormat
    pips: DicePipFormat


F = TypeVar("F")
Family = TypeVar("Family", HabaFormats, DiceFormats)

WRITERS = {HabaFormats: "tools/train_haba_net.py / tools/train_pair_net.py",
           DiceFormats: "tools/train_dice_net.py"}
"""The tools that write each family's card."""
ABOUT = ("made_by", "date")
"""What a section says of how its network was made (kept, not read as its format)."""


def _types(cls: type) -> dict[str, type]:
    hints: dict[str, type] = typing.get_type_hints(cls)
    return hints


def _section(path: Path, name: str, data: dict[str, Any], cls: type[F], writer: str) -> F:
    """Section ``name`` of the card at ``path`` as ``cls``; a clear error when a number is
    missing or not a number of its kind."""
    if not isinstance(data.get(name), dict):
        raise ValueError(f"{path} has no [{name}] section: export that network again with "
                         f"{writer}")
    section = data[name]
    types = _types(cls)
    missing = [k for k in types if k not in section]
    if missing:
        raise ValueError(f"{path}: [{name}] lacks {', '.join(missing)}: export that network "
                         f"again with {writer}")
    values: dict[str, int | float] = {}
    for key, kind in types.items():
        v = section[key]
        if isinstance(v, bool) or not isinstance(v, int | float) or (
                kind is int and not isinstance(v, int)):
            raise ValueError(f"{path}: [{name}] {key} = {v!r} is not {kind.__name__}")
        values[key] = kind(v)
    return cls(**values)


def _parse(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise ValueError(f"{path} is missing: the networks' formats live there") from e
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path} is not TOML: {e}") from e


def read_card(path: Path, family: type[Family]) -> Family:
    """The formats in the card at ``path`` (not cached: :func:`haba_formats` and
    :func:`dice_formats` are)."""
    return _formats(path, _parse(path), family)


def _formats(path: Path, data: dict[str, Any], family: type[Family]) -> Family:
    return family(**{name: _section(path, name, data, cls, WRITERS[family])
                     for name, cls in _types(family).items()})


@lru_cache(maxsize=4)
def _haba_card(path: Path) -> HabaFormats:
    return read_card(path, HabaFormats)


@lru_cache(maxsize=4)
def _dice_card(path: Path) -> DiceFormats:
    return read_card(path, DiceFormats)


def haba_formats() -> HabaFormats:
    """The HABA networks' formats, as :data:`HABA_NETS` states them; each card read once."""
    return _haba_card(HABA_NETS)


def dice_formats() -> DiceFormats:
    """The ordinary-dice networks' formats, as :data:`DICE_NETS` states them; each card read
    once."""
    return _dice_card(DICE_NETS)


def _value(v: object) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, float):
        return repr(v)  # the shortest text that reads back as the same float
    return str(v)


def card_text(family: type, sections: dict[str, dict[str, Any]]) -> str:
    """A card's text: its header, then each section (its :data:`ABOUT` first)."""
    lines = [f"# The networks' input formats: written by {WRITERS[family]} when they "
             "export a network; do not edit by hand."]
    for name, section in sections.items():
        lines += ["", f"[{name}]"]
        keys = [k for k in ABOUT if k in section] + [k for k in section if k not in ABOUT]
        lines += [f"{k} = {_value(section[k])}" for k in keys]
    return "\n".join(lines) + "\n"


def write_section(path: Path, name: str, fmt: object, made_by: str, date: str,
                  family: type[Family]) -> None:
    """Rewrite the card at ``path`` with section ``name`` stating ``fmt`` (and the command
    that made its network, on ``date``), every other section as it was; a card not there yet
    starts as a copy of the shipped one. The card must read back whole."""
    shipped = HABA_NETS if family is HabaFormats else DICE_NETS
    data = _parse(path if path.is_file() else shipped)
    data[name] = {"made_by": made_by, "date": date,
                  **{f.name: getattr(fmt, f.name) for f in fields(fmt)}}  # type: ignore[arg-type]
    order = list(_types(family)) + [k for k in data if k not in _types(family)]
    text = card_text(family, {k: data[k] for k in order if k in data})
    _formats(path, tomllib.loads(text), family)  # refuse to write a card that cannot be read
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def card_beside(onnx: Path, family: type[Family]) -> Path:
    """The card that states the format of the network exported to ``onnx``: its family's
    card in the same folder (the shipped card for a shipped network)."""
    return onnx.with_name((HABA_NETS if family is HabaFormats else DICE_NETS).name)


def add_options(parser: argparse.ArgumentParser, fmt: object, names: tuple[str, ...],
                prefix: str, what: str) -> None:
    """Options ``--<prefix><name>`` for the fields ``names`` of ``fmt``, whose defaults are
    ``fmt``'s (the card's) values."""
    types = _types(type(fmt))
    for name in names:
        flag = f"--{prefix}{name}".replace("_", "-")
        parser.add_argument(flag, dest=f"{prefix}{name}".replace("-", "_"), type=types[name],
                            default=getattr(fmt, name),
                            help=f"{what}: the new network's {name} (the card's: "
                                 f"{getattr(fmt, name)})")


def from_options(args: argparse.Namespace, fmt: F, names: tuple[str, ...], prefix: str) -> F:
    """``fmt`` with the fields ``names`` as the options of :func:`add_options` give them."""
    return replace(fmt, **{n: getattr(args, f"{prefix}{n}".replace("-", "_"))  # type: ignore[type-var]
                           for n in names})


__all__ = ["DICE_NETS", "HABA_NETS", "DiceFinderFormat", "DiceFormats", "DicePipFormat",
           "FinderFormat", "HabaFormats", "PairFormat", "PipFormat", "add_options",
           "card_beside", "dice_formats", "from_options", "haba_formats", "read_card",
           "write_section"]
