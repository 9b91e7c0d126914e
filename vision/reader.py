"""``read_dice``: every die in a frame with its value, face colour and confidence.

HABA dice: every face that may be a die's top is found with its evidence
(:mod:`vision.faces`: the finder and pip reader of :mod:`vision.habanet`, the colour named
against the face's own pips, the pair network's answers about the faces beside it); every
choice of faces for the dice is weighed by one fitted log-linear model
(:mod:`vision.choose`, with the box's physics of :mod:`vision.consistency`); the most
probable reading is taken, and the table is asked when its probability is below the fitted
threshold (:mod:`vision.doubt`). Given the last roll's picture, what changed at each face's
place since weighs it too (:mod:`vision.lastroll`). The weights and the threshold are fitted
on tuning frames by ``tools/fit_haba_reader.py`` and live in
``vision/models/haba_reader.toml``.

Ordinary dice (any body and pip colour, marbled, translucent, touching) are found and read
by the two small learned networks of :mod:`vision.dicenet`; their confidence is the
finder's times the pip reader's calibrated probability, and low where a classical count of
the pips disagrees (:attr:`vision.dicenet.FoundDie.confidence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from vision.choose import weigh
from vision.dicenet import FoundDie
from vision.dicenet import default_net as default_standard_net
from vision.doubt import Reading, decide, default_model
from vision.faces import Seen, see
from vision.habanet import default_net as default_haba_net
from vision.lastroll import LastRoll, kept_dice, since
from vision.pairnet import PairNet, default_pair_net
from vision.palette import Palette
from vision.reading import DieReading, Holds

Kind = Literal["haba", "standard"]


def _check(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 \
            or frame.dtype != np.uint8:
        raise ValueError("read_dice needs an 8-bit BGR frame (height x width x 3)")


def _from_net(found: FoundDie) -> DieReading:
    x0, y0, x1, y1 = found.box
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return DieReading(found.value, None, found.center, outline, found.confidence,
                      float(np.sqrt((x1 - x0) * (y1 - y0))))


def read_dice(frame: np.ndarray, kind: Kind = "haba", palette: Palette | None = None,
              thrown: int | None = None, at_most: int | None = None,
              pair_net: PairNet | Literal[False] | None = None, doubtful: bool = False,
              nadir: tuple[float, float] | None = None, holds: Holds | None = None,
              last: LastRoll | None = None) -> list[DieReading]:
    """Read every die in a BGR ``frame`` (any size; the die size is measured from it).

    ``kind="haba"`` finds HABA faces and names their colour with ``palette`` (default:
    :meth:`Palette.default`); ``"standard"`` reads ordinary dice of any colour and reports
    no colour. ``thrown``: how many dice the table threw, when known; else ``at_most``: how
    many dice there are at most, when known (the box's dice). Readings are in no particular
    order (see ``to_roll``). ``pair_net``: which of two faces beside each other is a die's top
    (:mod:`vision.pairnet`; default: the shipped one; False: none). Told ``thrown``, a face
    where a die is unlikely is left out (the table asks whether one is covered); with
    ``doubtful`` it is read too, marked unsure (the players asked to read again).
    ``nadir``: the point straight below the camera, when the marked tray tells it
    (:meth:`vision.tray.Tray.nadir`; HABA dice: a die's side shows towards it). ``holds``:
    where a die may lie, when the marked tray tells it (:meth:`vision.tray.Tray.holds`): HABA
    dice are chosen only among faces there, ordinary dice kept only there. ``last``: the last
    roll's picture and its dice (HABA dice: what changed since weighs which faces are dice,
    :mod:`vision.lastroll`).
    """
    _check(frame)
    if kind == "standard":
        net = default_standard_net()
        if net is None:
            raise OSError("the ordinary-dice networks are missing from vision/models/: "
                          "reinstall kotd, or make them with tools/train_dice_net.py")
        read = [_from_net(f) for f in net.read(frame)]
        return read if holds is None else [r for r in read if holds(r.center, r.size)]
    return list(read_haba(frame, palette, thrown, at_most, pair_net, doubtful, nadir,
                          holds, last)[1].dice)


def read_haba(frame: np.ndarray, palette: Palette | None = None, thrown: int | None = None,
              at_most: int | None = None, pair_net: PairNet | Literal[False] | None = None,
              doubtful: bool = False, nadir: tuple[float, float] | None = None,
              holds: Holds | None = None, last: LastRoll | None = None
              ) -> tuple[Seen, Reading]:
    """The HABA faces of ``frame`` with their evidence, and the most probable reading of
    them (:func:`read_dice`'s arguments)."""
    _check(frame)
    haba = default_haba_net()
    if haba is None:
        raise OSError("the HABA dice networks are missing from vision/models/: reinstall "
                      "kotd, or make them with tools/train_haba_net.py")
    palette = palette or Palette.default()
    pairs = default_pair_net() if pair_net is None else pair_net or None
    model = default_model()
    count = thrown if thrown is not None else at_most
    with haba.one_frame(frame):
        seen = see(frame, haba, palette, count, pairs, model.temperature, nadir, holds)
    seen = since(seen, frame, last)
    weighed = weigh(seen, count, thrown is not None, palette.colors, model.shape)
    return seen, decide(seen, weighed, model, palette, leave_out=not doubtful)


def kept_since(frame: np.ndarray, last: LastRoll, dice: Sequence[DieReading]
               ) -> list[int | None]:
    """For each die read in ``frame``, the die of the last roll it is when it was kept (lies
    where that die lay, its square unchanged below the fitted model's level):
    :func:`vision.lastroll.kept_dice`."""
    return kept_dice(frame, last, dice, default_model().kept_below)


# the reader's networks too: the benchmarks swap them for others
__all__ = ["default_haba_net", "default_standard_net", "kept_since", "read_dice", "read_haba"]
