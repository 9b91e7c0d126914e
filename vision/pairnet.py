"""Which of two faces beside each other is a die's top: a small network that sees both.

A die leaning on another, or propped on it, shows the camera its top and one side, and
either may look the squarer; a die touching another shows its top beside the other's. The
pip reader sees one face at a time and cannot tell a side from a top when both are seen at a
slant. This network sees the two faces together:

* a joint crop (:func:`joint_crop`): its format's width × height pixels, the axis from face
  *a* to face *b* level, each face about its format's face pixels wide, each channel divided
  by its mean (:func:`vision.habanet.normalise`);
* the faces' own numbers, *a*'s less *b*'s (:func:`pair_numbers`): size, finder peak, the
  pip reader's "a die" and surest value, how bright the pips and the face are, and how much
  further out from the camera's nadir *a* lies (a die's side shows towards it; the nadir is
  the middle of the frame unless the marked tray tells it, :meth:`vision.tray.Tray.nadir`);
* where the pair lies from the nadir, along and across the axis.

It gives the chance of three answers: *a* is a die's top and *b* is not, *b* is and *a* is
not, or neither or both are. It was trained on pairs mirrored at random (left to right, *a*
and *b* changing places; top to bottom) and reads each pair once: averaging the mirrored
readings as well cost four times as much and read the tuning frames no better
(the pair network's stop 36 in docs/log/2026-11-27-benchmarks-haba-reader.md).

One ONNX file, ``vision/models/haba_pair.onnx``, re-made by ``tools/train_pair_net.py``; run
by ONNX Runtime (its eight-bit copy, ``tools/quantize_haba_nets.py``) or OpenCV's DNN module
like the reader's other networks (:mod:`vision.onnxnet`). The format it was trained with
(the joint crop's size, a face's side in it, how many numbers and how they are scaled) is
its own: the ``[pair]`` section of ``vision/models/haba_nets.toml``
(:class:`vision.netformat.PairFormat`), which the training tool rewrites when it exports the
network. Its one input has four channels: the crop's three and a fourth whose first row
begins with the numbers (OpenCV 4.6, Raspberry Pi OS's, reads no network with two inputs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.habanet import FoundFace, crop_of, cut, normalise
from vision.netformat import PairFormat, haba_formats
from vision.onnxnet import OnnxNet

PAIR_ONNX = Path(__file__).with_name("models") / "haba_pair.onnx"
A_TOP, B_TOP, NEITHER = 0, 1, 2
"""The network's answers, in its output's order."""


@dataclass(frozen=True)
class FaceLook:
    """What the pair network is told of one face on its own."""

    face: FoundFace
    is_die: float
    """The pip reader's chance that the face is a die (one less its "not a die")."""
    surest_value: float
    """The pip reader's chance of the face's likeliest value."""
    pips: float
    """log of the 99th percentile of the face's grey (its pips' brightness)."""
    pips95: float
    """log of the 95th percentile of the face's grey."""
    body: float
    """log of the median grey of the face."""


def look(frame: np.ndarray, face: FoundFace, is_die: float, surest_value: float,
         fmt: PairFormat | None = None) -> FaceLook:
    """``face``'s look in ``frame``: the middle of its upright crop (the format's middle
    share of it; default: ``haba_nets.toml``'s), grey."""
    middle = (fmt or haba_formats().pair).middle
    grey = cv2.cvtColor(crop_of(frame, face), cv2.COLOR_BGR2GRAY)
    inset = round(grey.shape[0] * (1.0 - middle) / 2)
    grey = grey[inset:grey.shape[0] - inset, inset:grey.shape[1] - inset]
    body, pips95, pips = (math.log(max(float(x), 1.0))
                          for x in np.percentile(grey.astype(np.float32), [50, 95, 99]))
    return FaceLook(face, is_die, surest_value, pips, pips95, body)


def pair_numbers(a: FaceLook, b: FaceLook, middle: tuple[float, float],
                 fmt: PairFormat | None = None) -> list[float]:
    """Nine numbers of faces ``a`` and ``b``, each *a*'s less *b*'s (they change sign when
    the faces change places): log size ratio, finder peak, "a die", surest value, pip and face
    brightness, and how much further out *a* lies along the line from the middle of the
    frame through the pair, in face sides (and that weighed by how far out the pair lies, up
    to the format's ``far``; default: ``haba_nets.toml``'s)."""
    far_cap = (fmt or haba_formats().pair).far
    side = (a.face.side + b.face.side) / 2
    ca, cb = np.array(a.face.center), np.array(b.face.center)
    m = (ca + cb) / 2 - np.array(middle)
    far = float(np.linalg.norm(m)) / side
    out = float((ca - cb) @ (m / (np.linalg.norm(m) + 1e-9))) / side
    return [math.log(a.face.side / b.face.side), a.face.found - b.face.found,
            a.is_die - b.is_die, a.surest_value - b.surest_value, a.pips - b.pips,
            a.pips95 - b.pips95, a.body - b.body, out, out * min(far, far_cap) / far_cap]


def joint_crop(frame: np.ndarray, a: FoundFace, b: FoundFace, fmt: PairFormat | None = None
               ) -> tuple[np.ndarray, float]:
    """The two faces cut from ``frame`` side by side, *a* on the left, the axis from *a* to
    *b* level (the format's width × height, each face its ``face`` pixels wide; default:
    ``haba_nets.toml``'s; BGR), and that axis's angle in degrees."""
    fmt = fmt or haba_formats().pair
    (ax, ay), (bx, by) = a.center, b.center
    mx, my = (ax + bx) / 2, (ay + by) / 2
    angle = math.degrees(math.atan2(by - ay, bx - ax))
    scale = fmt.face / ((a.side + b.side) / 2)
    m = cv2.getRotationMatrix2D((mx, my), angle, scale)
    m[:, 2] += np.array([fmt.width / 2 - mx, fmt.height / 2 - my])
    return cut(frame, m, scale, (fmt.width, fmt.height)), angle


def pair_input(frame: np.ndarray, a: FaceLook, b: FaceLook, middle: tuple[float, float],
               fmt: PairFormat | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The network's input for one pair: the joint crop (HWC, BGR, uint8) and its numbers
    (:func:`pair_numbers` and the pair's place from the ``middle``, along and across the axis
    in face sides, divided by the format's ``place``; default: ``haba_nets.toml``'s). A card
    that says the network takes another count of numbers than these is refused."""
    fmt = fmt or haba_formats().pair
    crop, angle = joint_crop(frame, a.face, b.face, fmt)
    side = (a.face.side + b.face.side) / 2
    mx = (a.face.center[0] + b.face.center[0]) / 2 - middle[0]
    my = (a.face.center[1] + b.face.center[1]) / 2 - middle[1]
    t = math.radians(-angle)
    along = (mx * math.cos(t) - my * math.sin(t)) / side
    across = (mx * math.sin(t) + my * math.cos(t)) / side
    numbers = [*pair_numbers(a, b, middle, fmt), along / fmt.place, across / fmt.place]
    if len(numbers) != fmt.numbers:
        raise ValueError(f"the pair network takes {fmt.numbers} numbers (haba_nets.toml) but "
                         f"{len(numbers)} are made: export it again with tools/train_pair_net.py")
    return crop, np.array(numbers, np.float32)


class PairNet:
    """The pair network in ``path``, loaded once."""

    def __init__(self, path: Path = PAIR_ONNX, use: str | None = None,
                 int8: bool | None = None) -> None:
        """``use``, ``int8``: what runs it (:class:`vision.onnxnet.OnnxNet`)."""
        self._net = OnnxNet(path, use, int8)

    def chances(self, pairs: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """For each pair (:func:`pair_input`), the chances of :data:`A_TOP`, :data:`B_TOP`
        and :data:`NEITHER`."""
        if not pairs:
            return np.zeros((0, 3), np.float32)
        fmt = haba_formats().pair
        blob = np.zeros((len(pairs), 4, fmt.height, fmt.width), np.float32)
        for k, (crop, numbers) in enumerate(pairs):
            blob[k, :3] = normalise(crop, fmt.offset).transpose(2, 0, 1)
            blob[k, 3, 0, :fmt.numbers] = numbers
        logits = self._net(blob)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        out: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return out


@lru_cache(maxsize=1)
def default_pair_net() -> PairNet | None:
    """The shipped pair network, or None when it has not been trained."""
    return PairNet() if PAIR_ONNX.is_file() else None


__all__ = ["A_TOP", "B_TOP", "NEITHER", "FaceLook", "PairNet", "default_pair_net",
           "joint_crop", "look", "pair_input", "pair_numbers"]
