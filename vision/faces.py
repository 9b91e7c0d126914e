"""Finding: every face in a frame that may be a HABA die's top, each with its evidence.

A face's evidence is one frozen :class:`Face`: where it lies and how big it is, the finder's
peak, the pip reader's chance of each value and of "not a die", its colour's chances, the
pair network's answers about each face beside it (:class:`Neighbour`). Nothing here
decides: which faces are the dice, and what they read, is :mod:`vision.choose`'s; whether to
ask, :mod:`vision.doubt`'s.

Where the faces come from: the finder's first look, and its fainter peaks
(:data:`vision.habanet.HINT_PEAK`: a leaning die's top seen at a slant, a faint die). When
the count (told, or at most the box's dice) wants more dice than the faces the pip reader
takes for dice, the frame is also looked at from farther (dice too big for the finder),
closer (small dice on a busy table), and a face with a faint peak beside it is also read as
two touching dice of the frame's die size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import chain, combinations

import numpy as np

from vision.consistency import Belief
from vision.facecolor import face_chroma
from vision.habanet import (
    CROP,
    CROP_MARGIN,
    HINT_PEAK,
    FoundFace,
    HabaNet,
    face_crop,
    read_faces,
)
from vision.pairnet import A_TOP, B_TOP, PairNet, look, pair_input
from vision.palette import Palette
from vision.reading import Holds

ONE_PLACE = 0.5
"""Finds closer than this many face sides are one face (the surer kept); two candidate faces
that close can never both be dice."""
BESIDE = 1.2
"""Faces closer than this many sides are beside each other: the pair network is asked which
is a die's top."""
A_DIE = 0.5
"""A face the pip reader takes for a die: more likely one than not (even odds)."""


@dataclass(frozen=True)
class Neighbour:
    """What the pair network says of a face and one beside it (both orders averaged)."""

    index: int
    """The other face's place in the frame's faces."""
    top: float
    """The chance that this face is a die's top and the other is not."""
    under: float
    """The chance that the other face is a die's top and this one is not."""


@dataclass(frozen=True)
class Face:
    """One candidate face and everything the reader knows of it on its own."""

    found: FoundFace
    """Where the finder saw it: centre, side and turn in frame pixels, and its peak."""
    not_die: float
    """The pip reader's chance that this is no die's top."""
    belief: Belief
    """Its value's and colour's chances, as a die."""
    chroma: np.ndarray
    look: str
    """Which look found it: "first", "faint", "farther", "closer" or "split"."""
    neighbours: tuple[Neighbour, ...] = ()
    change: float | None = None
    """How much the face's place changed since the last roll's picture (Lab colour distance,
    :mod:`vision.lastroll`); None: no such picture."""
    kept: bool = False
    """Whether a die of the last roll lay at the face's place (:mod:`vision.lastroll`)."""

    @property
    def is_die(self) -> float:
        return 1.0 - self.not_die

    @property
    def beneath(self) -> float:
        """The pair network's surest answer that a face beside this one is a die's top and
        this one is not: that this face is that die's side (0 with no face beside it)."""
        return max((n.under for n in self.neighbours), default=0.0)


@dataclass(frozen=True)
class Seen:
    """Every candidate face of one frame, and the point a die's side shows towards."""

    faces: tuple[Face, ...]
    middle: tuple[float, float]
    """The camera's nadir when known (:func:`see`), else the middle of the frame."""


def apart(found: Sequence[FoundFace], seen: Sequence[FoundFace] = ()) -> list[FoundFace]:
    """``found`` surest first, each dropped that lies within :data:`ONE_PLACE` sides of a
    face of ``seen`` or of one kept before it."""
    kept: list[FoundFace] = []
    for f in sorted(found, key=lambda f: -f.found):
        if all(math.dist(f.center, k.center) >= ONE_PLACE * min(f.side, k.side)
               for k in (*seen, *kept)):
            kept.append(f)
    return kept


def one_place(a: FoundFace, b: FoundFace) -> bool:
    """Whether two faces lie too close to be two dice's tops (:data:`ONE_PLACE`... with room
    for a face the finder placed a little off)."""
    return math.dist(a.center, b.center) < 1.2 * ONE_PLACE * min(a.side, b.side)


def beside(a: FoundFace, b: FoundFace) -> bool:
    """Whether two faces are close enough to be one die's top and side (:data:`BESIDE`)."""
    return math.dist(a.center, b.center) < BESIDE * max(a.side, b.side)


def _first_finds(frame: np.ndarray, net: HabaNet) -> list[tuple[FoundFace, str]]:
    """The frame's candidate faces of the first look and its fainter peaks."""
    first = apart(net.find(frame))
    size = float(np.median([f.side for f in first])) if first else None
    return [(f, "first") for f in first] + [
        (f, "faint") for f in apart(net.find(frame, HINT_PEAK, size), first)]


def _more_finds(frame: np.ndarray, net: HabaNet, seen: list[FoundFace]
                ) -> list[tuple[FoundFace, str]]:
    """The candidate faces the frame looked at from farther and closer adds to ``seen``: from
    farther, every face (dice too big for the first look, which saw their pips as little
    faces in their place: the choice weighs both), closer, only faces in new places."""
    size = float(np.median([f.side for f in seen])) if seen else None
    farther = apart(net.find_farther(frame))
    closer = apart(net.find_closer(frame, size), [*seen, *farther]) if size else []
    return [(f, "farther") for f in farther] + [(f, "closer") for f in closer]


def _splits(faces: Sequence[FoundFace], size: float) -> list[FoundFace]:
    """For two finds of one place (a face and a fainter peak beside it, closer than
    :data:`ONE_PLACE` sides), two faces of the die ``size`` side by side on the line
    through both: two touching dice of one colour that the finder saw as one."""
    out = []
    for a, b in combinations(faces, 2):
        gap = math.dist(a.center, b.center)
        if not 0.2 * size <= gap < ONE_PLACE * 2 * size:
            continue
        ux, uy = (b.center[0] - a.center[0]) / gap, (b.center[1] - a.center[1]) / gap
        mx, my = (a.center[0] + b.center[0]) / 2, (a.center[1] + b.center[1]) / 2
        out += [FoundFace((mx + s * ux * size / 2, my + s * uy * size / 2), size, a.angle,
                          min(a.found, b.found)) for s in (-1.0, 1.0)]
    return out


def _faces(frame: np.ndarray, net: HabaNet, palette: Palette, temperature: float,
           finds: list[tuple[FoundFace, str]]) -> list[Face]:
    """Each find read by the pip reader and named a colour (no neighbours yet)."""
    crops, probs = read_faces(net, frame, [f for f, _ in finds])
    out = []
    for (found, name), crop, p in zip(finds, crops, probs, strict=True):
        chroma, _ = face_chroma(crop, CROP / CROP_MARGIN)
        values = np.power(np.maximum(p[1:], 1e-12), 1.0 / temperature)
        belief = Belief(values / values.sum(), palette.probabilities(chroma)[0])
        out.append(Face(found, float(p[0]), belief, chroma, name))
    return out


def _held(found: FoundFace, holds: Holds | None) -> bool:
    """Whether a die may lie where ``found`` is (``holds``: the marked tray; None: anywhere)."""
    return holds is None or holds(found.center, found.side)


def _with_splits(frame: np.ndarray, net: HabaNet, faces: list[Face], count: int | None,
                 palette: Palette, temperature: float, holds: Holds | None = None
                 ) -> list[Face]:
    """``faces`` and, when the count wants more dice than they hold, the faces of two
    touching dice seen as one (:func:`_splits`; where a die may lie, ``holds``)."""
    dice = [f for f in faces if f.is_die >= A_DIE]
    if count is None or len(dice) >= count or not dice:
        return faces
    size = float(np.median([f.found.side for f in dice]))
    peaks = net.find(frame, HINT_PEAK, size)
    split = [s for s in _splits(peaks, size)
             if all(math.dist(s.center, f.found.center) >= 0.25 * size for f in faces)
             and _held(s, holds)]
    return faces + _faces(frame, net, palette, temperature, [(s, "split") for s in split])


def _surest(face: Face, temperature: float) -> float:
    """The pip reader's own chance of the face's likeliest value (its belief untempered)."""
    raw = np.power(np.maximum(face.belief.value, 1e-12), temperature)
    return float(raw.max() / raw.sum())


def pairs_beside(faces: Sequence[Face]) -> list[tuple[int, int]]:
    """Every two faces (their places, in order) beside each other but not in one place: the
    pairs the pair network is asked about."""
    return [(a, b) for a, b in combinations(range(len(faces)), 2)
            if beside(faces[a].found, faces[b].found)
            and not one_place(faces[a].found, faces[b].found)]


def _neighbours(frame: np.ndarray, faces: list[Face], pair_net: PairNet | None,
                middle: tuple[float, float], temperature: float) -> list[Face]:
    """``faces`` with the pair network's answers about each face beside them (told the pip
    reader's own chances)."""
    near = pairs_beside(faces)
    answers: dict[tuple[int, int], float] = {}
    if pair_net is not None and near:
        looks = {k: look(frame, faces[k].found, faces[k].is_die,
                         _surest(faces[k], temperature)) for k in sorted({*chain(*near)})}
        ordered = near + [(b, a) for a, b in near]
        chances = pair_net.chances([pair_input(frame, looks[a], looks[b], middle)
                                    for a, b in ordered])
        for (a, b), c in zip(ordered, chances, strict=True):
            answers[a, b] = answers.get((a, b), 0.0) + float(c[A_TOP]) / 2
            answers[b, a] = answers.get((b, a), 0.0) + float(c[B_TOP]) / 2
    out = []
    for k, face in enumerate(faces):
        others = [j for a, b in near for j in (a, b) if k in (a, b) and j != k]
        out.append(replace(
            face,
            neighbours=tuple(Neighbour(j, answers.get((k, j), 0.5), answers.get((j, k), 0.5))
                             for j in others if (k, j) in answers)))
    return out


def see(frame: np.ndarray, net: HabaNet, palette: Palette, count: int | None,
        pair_net: PairNet | None, temperature: float,
        nadir: tuple[float, float] | None = None, holds: Holds | None = None) -> Seen:
    """Every candidate face of ``frame`` with its evidence; ``count``: how many dice the
    table wants at most or threw (None: not known), which decides how hard to look.
    ``nadir``: the point straight below the camera in frame pixels, where the picture's
    vertical lines meet and towards which a die's side shows (:meth:`vision.tray.Tray.nadir`;
    below the frame under a camera at a desk arm's angle); None: the middle of the frame, as
    under a camera looking straight down. ``holds``: where a die may lie (the marked tray,
    :meth:`vision.tray.Tray.holds`): no face elsewhere is read or counted; None: anywhere."""
    def where(finds: list[tuple[FoundFace, str]]) -> list[tuple[FoundFace, str]]:
        return [(f, n) for f, n in finds if _held(f, holds)]

    faces = _faces(frame, net, palette, temperature, where(_first_finds(frame, net)))
    if count is not None and sum(f.is_die >= A_DIE for f in faces) < count:
        more = where(_more_finds(frame, net, [f.found for f in faces]))
        faces += _faces(frame, net, palette, temperature, more)
    faces = _with_splits(frame, net, faces, count, palette, temperature, holds)
    middle = nadir or (frame.shape[1] / 2, frame.shape[0] / 2)
    return asked_again(frame, Seen(tuple(faces), middle), pair_net, temperature)


def asked_again(frame: np.ndarray, seen: Seen, pair_net: PairNet | None, temperature: float,
                nadir: tuple[float, float] | None = None) -> Seen:
    """``seen`` with the pair network's answers asked afresh: another pair network, or the
    camera's nadir told (:func:`see`'s ``nadir``; None: the middle :func:`see` used). The
    faces themselves do not depend on either (each face's answers are replaced)."""
    middle = nadir or seen.middle
    return Seen(tuple(_neighbours(frame, list(seen.faces), pair_net, middle, temperature)),
                middle)


def crop(frame: np.ndarray, face: Face) -> np.ndarray:
    """The face's upright crop, as the pip reader reads it."""
    f = face.found
    return face_crop(frame, f.center, f.side, f.angle)


__all__ = ["A_DIE", "BESIDE", "ONE_PLACE", "Face", "Neighbour", "Seen", "apart",
           "asked_again", "beside", "crop", "one_place", "pairs_beside", "see"]
