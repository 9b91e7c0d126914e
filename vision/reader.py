"""``read_dice``: every die in a frame with its value, face colour and confidence.

HABA dice (:mod:`vision.habanet`): a learned finder marks each top face (centre, size,
turn) whatever the table and light; each face is cut from the full-size frame, turned
upright, and a learned pip reader gives the chance of each value (or "not a die"); the
face's colour is named against its own pips (:mod:`vision.facecolor`, :mod:`vision.palette`);
a face beside a bigger one, too close to be another die, is that die's side and is dropped;
then the box's physics (:mod:`vision.consistency`: no more than two dice per colour layout)
chooses the most probable reading of all dice together and gives each die the chance that
it is right (:func:`die_chance`: where the box overrules a face, never more than the face
gives that reading). When the game tells how many dice were thrown, the count is used too:
of more faces than dice the likeliest choice is kept (:func:`choose`), and too few are made
up with the dice a second look finds and the faces judged doubtful; a face whose place the
count leaves in doubt is marked; two faces the box says no die shows together (other
layouts, or one colour: :func:`vision.consistency.one_die`) are not weighed as one die's
top and side; of as many faces as dice thrown, the one the pip reader doubts is a die is
made likelier by the count, when it is a die's size and no die's side (:func:`counted`).
Which of two faces beside each other is a die's top (a leaning die's top and
its side) is told by a network that sees both (:mod:`vision.pairnet`): where it is sure, its
odds weigh in the count's choice (:data:`PAIR_ODDS`) and settle it (:data:`PAIR_SURE`), and
it puts a sure reading in doubt that it takes for a die's side (:data:`SIDE_CATCH`). A die below
:data:`vision.reading.HABA_CONFIDENT` is marked for the table to check.

Ordinary dice (any body and pip colour, marbled, translucent, touching) are found and read
by the two small learned networks of :mod:`vision.dicenet`; their confidence is the
finder's times the pip reader's calibrated probability, and low where a classical count of
the pips disagrees (:attr:`vision.dicenet.FoundDie.confidence`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import Literal, NamedTuple

import numpy as np

from vision.choose import weigh
from vision.consistency import (
    Belief,
    Decision,
    layout_chances,
    most_probable,
    obeying,
    one_die,
)
from vision.dicenet import FoundDie
from vision.dicenet import default_net as default_standard_net
from vision.doubt import decide, default_model
from vision.facecolor import face_chroma
from vision.faces import see
from vision.habanet import (
    CROP,
    CROP_MARGIN,
    HINT_PEAK,
    MIN_PEAK,
    FoundFace,
    HabaNet,
    face_crop,
    read_faces,
)
from vision.habanet import default_net as default_haba_net
from vision.pairnet import (
    A_TOP,
    B_TOP,
    FaceLook,
    PairNet,
    default_pair_net,
    look,
    pair_input,
)
from vision.palette import Palette
from vision.reading import HABA_CONFIDENT, DieReading

Kind = Literal["haba", "standard"]
Decider = Literal["model", "rules"]
DECIDER: Decider = "model"
"""Which decides the HABA dice by default (:func:`read_dice`)."""

NOT_A_DIE = 0.5
"""A face the pip reader calls "not a die" at least this surely is dropped."""
SURELY_A_DIE = 0.05
"""A face of the second look for faint dice, or of the look from farther, that the pip reader
calls "not a die" at most this surely is a die like the others, however faint its finder
peak (:func:`see_faces`)."""
NEAR = 0.6
"""Two finds closer than this many face sides are one die (the surer is kept)..."""
FACE_GAP = 0.5
"""...but two finds at least this many sides apart that the pip reader reads as two values are
two faces of one die, a leaning die's top and side, and the count chooses between them
(:func:`_other_faces`); two peaks on one face lie closer, within the face's middle."""
SIDE_SHRINK = 0.75
SIDE_REACH = 0.75
"""A face narrower than :data:`SIDE_SHRINK` of a neighbour's and closer to it than
:data:`SIDE_REACH` of its side is that die's side face, not a die (:func:`_side_of`): a
side face's centre lies half a side plus half its foreshortened width from the top's centre,
a touching die's at least a whole side."""
TOP_AT_MOST = 1.15
"""...the neighbour's side counted as at most this many times the frame's die size (the median
side of the faces taken for dice): every die of a box is as big as the others, so a face the
finder overrates in a cluster does not make a flat die beside it look like its side."""
DOUBT = 0.5
"""The most chance of being a die that a face gets when the count of dice thrown puts it in
doubt (below :data:`vision.reading.HABA_CONFIDENT`, so the table is asked about it)."""
RIVAL = 0.01
"""When more faces are seen than dice were thrown, a choice of faces at least this likely,
relative to the likeliest, is a rival and puts the faces it leaves out in doubt; a choice
whose faces read the same roll as the likeliest's is no rival."""
BESIDE = 1.2
"""A face left out for the count puts the faces closer to it than this many sides in doubt,
when the pip reader took it for a die (:data:`DOUBT`): a leaning die's two faces, or a die
and its side, look alike, and the count cannot tell which is the top."""
TOP_OVER_SIDE = 1.25
"""...except a kept face this much bigger than the face left out beside it (a top seen from
above is bigger than its side seen at a slant), or one that reads the same value and colour
as the face left out (two faces of one die never show one value)."""
TOO_BIG = 1.3
"""A face left out for the count more than this many times as big as the faces kept (their
median side) is no die and puts no face beside it in doubt (:data:`BESIDE`): every die of
a box is as big as the others, while a patterned cloth's shapes come at any size."""
SIDE_INWARD = 0.5
"""...and except a kept face whose left-out neighbour lies towards the middle of the frame (the
cosine of the angle between the two directions at least this): a die away from the middle
shows the camera the side facing the middle, so that face is its side and puts no other kept
face in doubt either; nor is a choice that takes such a side for a die a rival
(:func:`_no_rival`). Near the middle (:data:`SIDE_OFF_MIDDLE`) a die shows no side."""
SIDE_OFF_MIDDLE = 2.0
"""Sides from the middle of the frame within which a die shows no side to speak of."""
TWO_IN_ONE = 0.1
"""Two touching dice of one colour can look like one face to the finder. When a die is missing,
such a face is read again as two dice side by side on the line through its two peaks
(:func:`_two_in_one`); when the pip reader calls both a die, "not a die" at most this
surely, they replace the face."""
SPLIT_GAP = 0.2
"""Peaks closer than this many die sides are one face, not two dice (:data:`TWO_IN_ONE`)."""
MAX_EXTRA = 2
"""More new faces than this, of a second look for a die missed (:data:`WEAK_FACE`), are not
trusted."""
CHOOSE_AMONG = 6
"""More faces than this beyond the dice thrown are not chosen among (:func:`choose`): the
table is asked. Six too many for a throw of six is C(12, 6) = 924 choices, each weighed by
the box (:func:`vision.consistency.obeying`)."""
WEAK_FACE = 0.1
"""Told how many dice were thrown and seeing as many faces, when the pip reader calls one of them
"not a die" at least this surely, the finder may have missed a die and found that face in
its place: the reader looks again with faint peaks counting and weighs what it finds with
the others (:func:`choose`); more than :data:`MAX_EXTRA` new faces are not trusted."""
BOX_SURE = 0.92
"""Where the box overrules a face (:func:`die_chance`), its chance still counts when it is at
least this sure and the face itself gives the box's reading at least :data:`TORN`: a face
torn between two readings, the likelier of which the other dice rule out."""
TORN = 0.2
"""The least a face must give the box's reading for the box to settle it (:data:`BOX_SURE`)."""
VALUE_TEMPERATURE = 0.5
"""The pip reader's probabilities are raised to the power 1/T so that they mean what they
say (fitted by likelihood on the tuning renders by ``tools/fit_haba_confidence.py``; below
1, the reader is surer than its raw numbers)."""
PAIR_SURE = 0.99
"""A choice that takes face *j* in place of kept face *k* beside it is no rival
(:data:`RIVAL`) when the pair network (:mod:`vision.pairnet`) gives "*k* is a die's top,
*j* is not" at least this surely."""
PAIR_ODDS = 0.99
"""Where the pair network is at least this sure which of two faces beside each other is a die's
top (both orders averaged), its odds weigh in the count's choice (:func:`choose`): the pip
reader often calls a leaning die's top and its risen side a die as surely as each other."""
PAIR_FLOOR = 0.001
"""The least chance a pair's answer counts with in :data:`PAIR_ODDS` (odds at most 1000)."""
BESIDE_TOP = 0.9
"""A face left out beside a kept one puts it in no doubt (:data:`BESIDE`) when the pair network
(both orders averaged) gives at least this chance that the kept face is the top and the one
left out is not: the choice and the network agree."""
LEFT_OUT_TOP = 0.7
"""A kept face beside a face left out that the pip reader takes for a die is in doubt
(:data:`DOUBT`) when the pair network (both orders averaged) gives at least this chance that
the face left out is the top and the kept one is not: the choice and the network disagree."""
ONE_DIE = 0.01
"""Two faces beside each other, one kept for the count and one left out, are weighed as one
die's top and side only when their values and colours give at least this chance that they
are faces of one die (:func:`vision.consistency.one_die`); otherwise the face left out puts
the kept one in no doubt and a choice taking it in its place is no rival."""
COUNT_ODDS = 3.0
"""Told how many dice were thrown and seeing as many faces, all sure but one that the pip reader
doubts is a die: when that face is a die's size (between :data:`SIDE_SHRINK` and
:data:`TOO_BIG` times the others' median side) and the pair network calls no face beside it
the top with it not (:data:`COUNT_SIDE`), its odds of being a die are multiplied by this
much (:func:`counted`): the count says a die lies there. The side catch
(:data:`SIDE_CATCH`) still applies to it."""
COUNT_SIDE = 0.5
"""The least chance, the pair network's answers in both orders averaged, that a face beside
the doubted one is a die's top and the doubted one is not, that leaves the count's odds
out (:data:`COUNT_ODDS`)."""
SIDE_CATCH = 0.3
"""A sure reading is put in doubt (:data:`DOUBT`) when, against a face beside it (another
reading, or a finder peak down to :data:`vision.habanet.HINT_PEAK`), the pair network gives
"that face is the top, this one is not" at least this surely: a steeply leaning die's side
read surely while its top, seen at a slant, was missed. Chosen on tuning frames by
``benchmarks/sweep_side_catch.py`` (the fewest asks, a silent frame costing 20)."""


@dataclass(frozen=True)
class SeenFace:
    """One HABA face as measured, before the box's physics: for calibration and tests."""

    face: FoundFace
    belief: Belief
    chroma: np.ndarray
    is_die: float


Tops = Callable[[Sequence[tuple[SeenFace, SeenFace]]], np.ndarray]
"""For pairs of faces beside each other, the chances that the first is a die's top and the
second is not, the other way, or neither or both (:meth:`vision.pairnet.PairNet.chances`)."""


def _pair_net(pair_net: PairNet | Literal[False] | None) -> PairNet | None:
    """The pair network asked for: None for the shipped one (None when it is missing), False
    for none."""
    return default_pair_net() if pair_net is None else pair_net or None


def _tops(frame: np.ndarray, pair_net: PairNet, middle: tuple[float, float]) -> Tops:
    """The pair network's :data:`Tops` for faces of ``frame`` (each face looked at once)."""
    def tops(pairs: Sequence[tuple[SeenFace, SeenFace]]) -> np.ndarray:
        looks = {id(s): look(frame, s.face, s.is_die, float(s.belief.value.max()))
                 for pair in pairs for s in pair}  # the faces live as long as ``pairs``
        return pair_net.chances([pair_input(frame, looks[id(a)], looks[id(b)], middle)
                                 for a, b in pairs])
    return tops


def _check(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 \
            or frame.dtype != np.uint8:
        raise ValueError("read_dice needs an 8-bit BGR frame (height x width x 3)")


def square(face: FoundFace) -> tuple[tuple[float, float], ...]:
    (cx, cy), h = face.center, face.side / 2
    t = math.radians(face.angle)
    ux, uy = (math.cos(t) * h, math.sin(t) * h), (-math.sin(t) * h, math.cos(t) * h)
    return tuple((cx + sx * ux[0] + sy * uy[0], cy + sx * ux[1] + sy * uy[1])
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def _side_of(face: FoundFace, top: FoundFace, size: float = math.inf) -> bool:
    """True when ``face`` is a side of the die whose top is ``top``: a die seen from
    above at a slant shows a side face beside its top, foreshortened; a touching die's
    top face is as big as this one's. ``size``: the frame's die size; the top counts as no
    bigger than :data:`TOP_AT_MOST` of it."""
    top_side = min(top.side, TOP_AT_MOST * size)
    return (face.side < SIDE_SHRINK * top_side
            and math.dist(face.center, top.center) < SIDE_REACH * top_side)


def _likeliest(face: SeenFace) -> tuple[int, int]:
    """A face's likeliest value and colour (as indices), on its own."""
    return int(np.argmax(face.belief.value)), int(np.argmax(face.belief.color))


def _apart(found: list[FoundFace], seen: Sequence[FoundFace] = ()) -> list[FoundFace]:
    """The faces of ``found`` (surest first) that are not one die with a face of ``seen`` or
    with a surer one kept before them: closer than :data:`NEAR` sides, the surer is kept."""
    kept: list[FoundFace] = []
    for f in found:
        if all(math.dist(f.center, k.center) >= NEAR * min(f.side, k.side)
               for k in (*seen, *kept)):
            kept.append(f)
    return kept


def see_faces(frame: np.ndarray, palette: Palette, net: HabaNet | None = None,
              temperature: float = VALUE_TEMPERATURE, thrown: int | None = None,
              at_most: int | None = None, pair_net: PairNet | Literal[False] | None = None
              ) -> list[SeenFace]:
    """Every HABA face in the frame with what each tells on its own.

    Two finds closer than :data:`NEAR` sides are one die, the surer kept, unless they are two
    faces of one die the pip reader reads as two values (:data:`FACE_GAP`).
    ``thrown``: how many dice the table threw (None: not known). When fewer dice are seen
    first, the frame is looked at from farther (:meth:`vision.habanet.HabaNet.find_farther`:
    dice too big for the finder, a photo taken close, may show it only their pips); when that
    look sees more faces that the pip reader surely calls dice (:data:`SURELY_A_DIE`), they
    are the frame's. Later looks are taken at the size of the dice seen
    (:meth:`vision.habanet.HabaNet.find`). When more faces are seen than dice thrown, the
    likeliest choice of that many is kept (:func:`choose`); when as many but one in doubt
    (:data:`WEAK_FACE`), the reader looks again for a die missed; when fewer, it looks again
    down to the finder's fainter peaks (:data:`vision.habanet.HINT_PEAK`, its closer looks then
    around those too). A face that look finds as surely as the first look finds a die
    (:data:`vision.habanet.MIN_PEAK`: a small die whose peak was faint only in the whole frame),
    or that the pip reader surely calls a die (:data:`SURELY_A_DIE`), not beside a die as its
    side, is a die like the others, unless there are more such faces than dice missing. When
    dice are still missing and the dice are small, the same is done with the faces the finder
    sees surely in the whole frame looked at closer (:meth:`vision.habanet.HabaNet.find_closer`:
    a small die on a busy table may give no peak at all at first, so no closer look was taken
    around it). A face that is two touching dice of one colour seen as one (:data:`TWO_IN_ONE`)
    is then read again as two. Then the faces judged not a die or a die's side, and the second
    look's other faces that the pip reader takes for a die, are taken back, surest first, to
    make up the count: a face whose place is in doubt gets at most :data:`DOUBT` chance of being
    a die, so the table is asked about it. Seeing as many faces as dice thrown, one of which the
    pip reader doubts is a die, the count makes it likelier (:data:`COUNT_ODDS`).

    ``at_most``: when the count is not known, how many dice there are at most (the box's
    dice: no more can lie in the tray). More faces are chosen among as for a throw of that
    many; fewer are looked at again (faint dice, two dice seen as one) but not made up
    with doubtful faces: fewer dice may have been thrown.

    ``pair_net``: the network that tells which of two faces beside each other is a die's top
    (:mod:`vision.pairnet`; default: the shipped one; False: none), for the count's choice
    (:data:`PAIR_SURE`).
    """
    _check(frame)
    net = net or default_haba_net()
    if net is None:
        raise OSError("the HABA dice networks are missing from vision/models/: reinstall "
                      "kotd, or make them with tools/train_haba_net.py")
    count = thrown if thrown is not None else at_most
    kept, crops, probs, dice, size, good = _first_faces(frame, net, net.find(frame))
    if count is not None and len(good) < count and (far := net.find_farther(frame)):
        looked = _first_faces(frame, net, far)
        surely = [k for k in looked.good if looked.probs[k][0] <= SURELY_A_DIE]
        if len(surely) > len(good):  # the dice are bigger than the first look sees
            kept, crops, probs, dice, size, good = looked

    def seen(k: int, doubt: bool = False) -> SeenFace:
        chroma, _ = face_chroma(crops[k], CROP / CROP_MARGIN)
        values = np.power(np.maximum(probs[k][1:], 1e-12), 1.0 / temperature)
        values /= values.sum()
        is_die = float(1.0 - probs[k][0])
        return SeenFace(kept[k], Belief(values, palette.probabilities(chroma)[0]), chroma,
                        min(is_die, DOUBT) if doubt else is_die)

    faces = [seen(k) for k in good]
    middle = (frame.shape[1] / 2, frame.shape[0] / 2)
    pairs = _pair_net(pair_net)
    tops = _tops(frame, pairs, middle) if pairs is not None else None
    if count is None or (len(faces) == count and all(
            f.is_die > 1.0 - WEAK_FACE for f in faces)):
        return faces
    if len(faces) > count:
        return choose(faces, count, palette, middle, tops)
    sure: list[int] = []

    def look_again(peaks: list[FoundFace], room: int) -> None:
        nonlocal kept, crops, probs
        faint, faint_crops, faint_probs = _faint_dice(frame, net, peaks, kept)
        kept, crops = kept + faint, crops + faint_crops
        probs = np.concatenate([probs, faint_probs])
        new = [k for k in range(len(kept) - len(faint), len(kept))
               if (kept[k].found >= MIN_PEAK or probs[k][0] <= SURELY_A_DIE)
               and not any(_side_of(kept[k], d, size) for d, _ in dice)]
        if len(new) <= room:  # else which of them are the dice is in doubt
            faces.extend(seen(k) for k in new)
            sure.extend(new)

    peaks = net.find(frame, HINT_PEAK, size if dice else None)
    if len(faces) == count:  # as many faces as dice, one of them doubtful: a die missed?
        look_again(peaks, MAX_EXTRA)
        if len(faces) > count:
            return choose(faces, count, palette, middle, tops)
        return faces if thrown is None else counted(faces, tops)
    look_again(peaks, count - len(faces))
    if faces and len(faces) < count:
        look_again(net.find_closer(frame, float(np.median([s.face.side for s in faces]))),
                   count - len(faces))
    split = len(kept)
    while len(faces) < count and (two := _two_in_one(frame, net, [s.face for s in faces],
                                                       peaks)) is not None:
        one, pair, pair_crops, pair_probs = two
        kept, crops = kept + pair, crops + pair_crops
        probs = np.concatenate([probs, pair_probs])
        faces = [s for s in faces if s.face is not one] + [seen(len(kept) - 2),
                                                            seen(len(kept) - 1)]
    if thrown is None:
        return faces
    if len(faces) == count:
        return counted(faces, tops)
    others = sorted((k for k in range(split) if k not in good and k not in sure),
                    key=lambda k: probs[k][0])
    taken = [seen(k, doubt=True) for k in others[:thrown - len(faces)]]
    if len(others) == 1 and len(faces) == thrown - 1:  # the one face the count leaves
        return counted(faces + taken, tops)
    return faces + taken


def counted(faces: list[SeenFace], tops: Tops | None) -> list[SeenFace]:
    """``faces``, as many as the dice thrown, with the one the pip reader doubts is a die
    made likelier by the count (:data:`COUNT_ODDS`): it is a die's size and the pair
    network calls no face beside it the top with it not (:data:`COUNT_SIDE`)."""
    weak = [f for f in faces if f.is_die < HABA_CONFIDENT]
    if len(weak) != 1 or len(faces) < 2:
        return faces
    (face,) = weak
    others = [f for f in faces if f is not face]
    size = float(np.median([f.face.side for f in others]))
    if not SIDE_SHRINK * size <= face.face.side <= TOO_BIG * size:
        return faces
    near = [f for f in others if _beside(f.face, face.face)]
    if near:
        if tops is None:
            return faces
        chances = tops([*((f, face) for f in near), *((face, f) for f in near)])
        if max(_top_not(ab, ba) for ab, ba in zip(chances[:len(near)], chances[len(near):],
                                                   strict=True)) >= COUNT_SIDE:
            return faces
    odds = face.is_die / (1.0 - face.is_die) * COUNT_ODDS
    return [replace(f, is_die=odds / (1.0 + odds)) if f is face else f for f in faces]


class _FirstFaces(NamedTuple):
    """What the first look's finds tell (:func:`_first_faces`)."""

    kept: list[FoundFace]
    """One face per die (:func:`_apart`), and another face of a die read as another value
    (:func:`_other_faces`)."""
    crops: list[np.ndarray]
    probs: np.ndarray
    """The pip reader's probabilities of each kept face."""
    dice: list[tuple[FoundFace, np.ndarray]]
    """The kept faces it takes for dice (:data:`NOT_A_DIE`), with theirs."""
    size: float
    """The frame's die size: their median side."""
    good: list[int]
    """The kept faces that are dice and not a die's side (:func:`_side_of`)."""


def _first_faces(frame: np.ndarray, net: HabaNet, found: list[FoundFace]) -> _FirstFaces:
    """What the first look's finds ``found`` tell (:class:`_FirstFaces`)."""
    kept = _apart(found)
    crops, probs = read_faces(net, frame, kept)
    other, other_crops, other_probs = _other_faces(frame, net, found, kept, probs)
    if other:
        kept, crops = kept + other, crops + other_crops
        probs = np.concatenate([probs, other_probs])
    dice = [(f, p) for f, p in zip(kept, probs, strict=True) if p[0] < NOT_A_DIE]
    size = float(np.median([f.side for f, _ in dice])) if dice else math.inf
    good = [k for k, (f, p) in enumerate(zip(kept, probs, strict=True))
            if p[0] < NOT_A_DIE and not any(_side_of(f, d, size) for d, _ in dice)]
    return _FirstFaces(kept, crops, probs, dice, size, good)


def _other_faces(frame: np.ndarray, net: HabaNet, found: list[FoundFace],
                 kept: list[FoundFace], probs: np.ndarray
                 ) -> tuple[list[FoundFace], list[np.ndarray], np.ndarray]:
    """The finds dropped as one die with a kept face (:data:`NEAR`) but at least
    :data:`FACE_GAP` sides from the nearest, that the pip reader takes for a die of another
    value: another face of that die (a leaning die's top and side lie that close), with
    their crops and the pip reader's probabilities."""
    nearest = {}
    for f in found:
        if all(f is not k for k in kept):
            k = min(range(len(kept)), key=lambda k: math.dist(kept[k].center, f.center))
            if math.dist(kept[k].center, f.center) >= FACE_GAP * min(kept[k].side, f.side):
                nearest[id(f)] = k
    if not nearest:
        return [], [], np.zeros((0, 7), np.float32)
    dice, crops, read = _dice_among(frame, net, [f for f in found if id(f) in nearest])
    keep = [j for j, f in enumerate(dice)
            if int(np.argmax(read[j][1:])) != int(np.argmax(probs[nearest[id(f)]][1:]))]
    return [dice[j] for j in keep], [crops[j] for j in keep], read[keep]


def _two_in_one(frame: np.ndarray, net: HabaNet, faces: list[FoundFace],
                peaks: list[FoundFace]
                ) -> tuple[FoundFace, list[FoundFace], list[np.ndarray], np.ndarray] | None:
    """The face of ``faces`` most likely two touching dice the finder saw as one
    (:data:`TWO_IN_ONE`), with the two faces, their crops and the pip reader's
    probabilities; None when no face reads as two dice."""
    best: tuple[float, FoundFace, list[FoundFace], list[np.ndarray], np.ndarray] | None = None
    for one in faces:
        others = [f.side for f in faces if f is not one]
        side = min(one.side, float(np.median(others))) if len(others) >= 2 else one.side
        for peak in peaks:
            gap = math.dist(peak.center, one.center)
            if not SPLIT_GAP * side <= gap < NEAR * max(one.side, peak.side) or any(
                    math.dist(peak.center, f.center) < NEAR * f.side
                    for f in faces if f is not one):
                continue
            ux, uy = ((peak.center[0] - one.center[0]) / gap,
                      (peak.center[1] - one.center[1]) / gap)
            mx, my = ((peak.center[0] + one.center[0]) / 2,
                      (peak.center[1] + one.center[1]) / 2)
            found = min(one.found, peak.found)
            pair = [FoundFace((mx + sign * ux * side / 2, my + sign * uy * side / 2), side,
                              one.angle, found) for sign in (-1.0, 1.0)]
            crops = [face_crop(frame, f.center, f.side, f.angle) for f in pair]
            probs = net.read(crops)
            chance = float(np.prod(1.0 - probs[:, 0]))
            if float(probs[:, 0].max()) <= TWO_IN_ONE and (best is None or chance > best[0]):
                best = (chance, one, pair, crops, probs)
    return None if best is None else best[1:]


def _faint_dice(frame: np.ndarray, net: HabaNet, peaks: list[FoundFace],
                seen: list[FoundFace]) -> tuple[list[FoundFace], list[np.ndarray], np.ndarray]:
    """The faces of a second look, ``peaks`` with the finder's faint peaks counting
    (:data:`vision.habanet.HINT_PEAK`), none beside a face in ``seen``, that the pip reader
    takes for a die: with their crops and the pip reader's probabilities."""
    return _dice_among(frame, net, _apart(peaks, seen))


def _dice_among(frame: np.ndarray, net: HabaNet, finds: list[FoundFace]
                ) -> tuple[list[FoundFace], list[np.ndarray], np.ndarray]:
    """The faces of ``finds`` that the pip reader takes for a die (:data:`NOT_A_DIE`), with
    their crops and its probabilities (:func:`vision.habanet.read_faces`: within one reading,
    each face is read once, here or by :func:`doubt_sides`)."""
    crops, probs = read_faces(net, frame, finds)
    dice = [j for j in range(len(finds)) if probs[j][0] < NOT_A_DIE]
    return [finds[j] for j in dice], [crops[j] for j in dice], probs[dice]


def _within(u: tuple[float, float], v: tuple[float, float], cos: float) -> bool:
    """Whether directions ``u`` and ``v`` are at most the angle of cosine ``cos`` apart."""
    return u[0] * v[0] + u[1] * v[1] >= cos * math.hypot(*u) * math.hypot(*v)


def _side_of_top(top: FoundFace, side: FoundFace, middle: tuple[float, float] | None
                 ) -> bool:
    """Whether ``side`` lies where the side of a flat die whose top is ``top`` shows: from
    it towards the ``middle`` of the frame (:data:`SIDE_INWARD`)."""
    if middle is None:
        return False
    to_side = (side.center[0] - top.center[0], side.center[1] - top.center[1])
    to_middle = (middle[0] - top.center[0], middle[1] - top.center[1])
    if math.hypot(*to_middle) < SIDE_OFF_MIDDLE * top.side:
        return False
    return _within(to_side, to_middle, SIDE_INWARD)


def _beside(face: FoundFace, other: FoundFace) -> bool:
    """Whether two faces are close enough to be one die's (:data:`BESIDE`)."""
    return math.dist(face.center, other.center) < BESIDE * max(face.side, other.side)


def _no_rival(best: tuple[int, ...], other: tuple[int, ...], side_of: set[tuple[int, int]],
              sides: set[int]) -> bool:
    """Whether choice ``other`` is no rival to ``best`` because each face it takes that
    ``best`` leaves out is a side: one of ``sides`` (lying, beside every kept face it is
    beside, where that face's side shows, or being no face of its die), or one taken in
    place of a kept face beside which it lies where that face's side shows, or which cannot
    be another face of that face's die (``side_of``: such (kept, taken) pairs;
    :data:`SIDE_INWARD`, :data:`PAIR_SURE`, :data:`ONE_DIE`)."""
    out = [k for k in best if k not in other]
    taken = [j for j in other if j not in best and j not in sides]
    return any(all((k, j) in side_of for k, j in zip(order, taken, strict=True))
               for order in permutations(out, len(taken)))


def _pair_chances(faces: list[SeenFace], tops: Tops) -> dict[tuple[int, int], np.ndarray]:
    """The pair network's answers (:data:`Tops`) for every two faces beside each other
    (:data:`BESIDE`), each face seen first: asked once, in one batch."""
    near = [(a, b) for a, b in combinations(range(len(faces)), 2)
            if _beside(faces[a].face, faces[b].face)]
    ordered = near + [(b, a) for a, b in near]
    if not ordered:
        return {}
    return dict(zip(ordered, tops([(faces[a], faces[b]) for a, b in ordered]), strict=True))


def _top_not(ab: np.ndarray, ba: np.ndarray) -> float:
    """The pair network's chance that face *a* is a die's top and face *b* is not: its
    answers with *a* seen first (``ab``) and with *b* seen first (``ba``), averaged."""
    return float(ab[A_TOP] + ba[B_TOP]) / 2


def _pair_odds(top_not: dict[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    """For faces *a* < *b* beside each other of which the pair network is sure
    (:data:`PAIR_ODDS`; ``top_not``: its chance that the first is the top and the second not,
    both orders averaged, :func:`_top_not`) which is the top: the square root of the odds
    that *a* is the top and *b* not, against *b* the top and *a* not; a choice keeping *a*
    alone is weighed by it, one keeping *b* alone by its inverse, so the two differ by the
    odds."""
    odds = {}
    for (a, b), a_top in top_not.items():
        if a < b:
            b_top = top_not[b, a]
            if max(a_top, b_top) >= PAIR_ODDS:
                odds[a, b] = math.sqrt(max(a_top, PAIR_FLOOR) / max(b_top, PAIR_FLOOR))
    return odds


def choose(faces: list[SeenFace], thrown: int, palette: Palette,
           middle: tuple[float, float] | None = None, tops: Tops | None = None
           ) -> list[SeenFace]:
    """``thrown`` of ``faces``, when more faces were seen than dice thrown: the likeliest
    choice, weighing each face's chance of being a die (in or out), the chance that the
    faces chosen obey the box (:func:`vision.consistency.obeying`) and, of two faces beside
    each other one of which it keeps, the pair network's odds that the one kept is the top,
    where the network is sure (``tops``, :data:`PAIR_ODDS`). A face that a rival
    choice (:data:`RIVAL`) leaves out is in doubt, and so is a face beside one left out that
    the pip reader took for a die (:data:`BESIDE`), unless the two cannot be faces of one die
    (:data:`ONE_DIE`: then a choice taking either for the other is no rival either), or that
    one is the kept face's side:
    by its size (:data:`TOP_OVER_SIDE`) or, knowing the ``middle`` of the frame, by where it
    lies (:data:`SIDE_INWARD`: a die's side shows towards the middle, so of a leaning die's
    two faces the top is the one further out). A choice that takes such a side for a die is
    no rival (:func:`_no_rival`). Otherwise a leaning die's two faces stay in doubt,
    whichever way it leans: a die leaning on another tips its top towards it, one propped on
    it (its near side lifted onto the other's edge) tips its top away, and a camera seeing
    either at a slant may see the face tipped up the squarer of the two. ``tops``, the pair
    network (:data:`PAIR_SURE`), tells more of them apart: a choice that takes a face in place
    of a kept face beside it which the network surely calls the top, and that face not, is no
    rival either. Nor is a choice that reads the same roll (:data:`RIVAL`); and a face left
    out puts none in doubt that reads its value and colour (:data:`TOP_OVER_SIDE`), nor when
    it is too big to be a die (:data:`TOO_BIG`), nor a kept face the network, less sure, still
    calls the top with it not (:data:`BESIDE_TOP`). Where the network calls the face left out
    the top and the kept one not (:data:`LEFT_OUT_TOP`), the kept face is in doubt.
    More than :data:`CHOOSE_AMONG` faces too many are not chosen among: all are returned, and
    the table is asked.
    """
    if len(faces) - thrown > CHOOSE_AMONG:
        return faces
    chances = _pair_chances(faces, tops) if tops is not None else {}
    top_not = {(a, b): _top_not(ab, chances[b, a]) for (a, b), ab in chances.items()}
    odds = _pair_odds(top_not)
    layouts = [layout_chances(f.belief, palette.colors) for f in faces]
    weights = {}
    for chosen in combinations(range(len(faces)), thrown):
        w = obeying([layouts[k] for k in chosen])
        for k, face in enumerate(faces):
            w *= face.is_die if k in chosen else 1.0 - face.is_die
        for (a, b), r in odds.items():
            if (a in chosen) != (b in chosen):
                w *= r if a in chosen else 1.0 / r
        weights[chosen] = w
    best = max(weights, key=lambda c: weights[c])
    top = weights[best]
    beside = [(k, j) for k in best for j in range(len(faces)) if j not in best
              and _beside(faces[k].face, faces[j].face)]  # a kept face, one left out
    apart = {(k, j) for k, j in beside  # no two faces of one die
             if one_die(faces[k].belief, faces[j].belief, palette.colors) < ONE_DIE}
    side_of = {(k, j) for k, j in beside if _side_of_top(faces[k].face, faces[j].face, middle)}
    side_of |= {p for p in beside if p not in apart and p in chances
                and chances[p][A_TOP] >= PAIR_SURE}
    sides = {j for _, j in side_of}
    only_sides = {j for j in sides if all(p in side_of or p in apart
                                          for p in beside if p[1] == j)}

    def roll(chosen: tuple[int, ...]) -> list[tuple[int, int]]:
        return sorted(_likeliest(faces[k]) for k in chosen)

    best_roll = roll(best)
    settled = side_of | apart
    doubtful = {k for c, w in weights.items() if c != best and w >= RIVAL * top
                and roll(c) != best_roll and not _no_rival(best, c, settled, only_sides)
                for k in best if k not in c}
    die_size = float(np.median([faces[k].face.side for k in best])) if best else math.inf
    doubtful |= {k for k, j in beside if j not in sides and (k, j) not in apart
                 and faces[j].is_die >= DOUBT and faces[j].face.side <= TOO_BIG * die_size
                 and faces[k].face.side < TOP_OVER_SIDE * faces[j].face.side
                 and _likeliest(faces[k]) != _likeliest(faces[j])
                 and top_not.get((k, j), 0.0) < BESIDE_TOP}
    doubtful |= {k for k, j in beside if (k, j) not in apart and faces[j].is_die >= DOUBT
                 and top_not.get((j, k), 0.0) >= LEFT_OUT_TOP}
    return [replace(faces[k], is_die=min(faces[k].is_die, DOUBT)) if k in doubtful
            else faces[k] for k in best]


def _from_net(found: FoundDie) -> DieReading:
    x0, y0, x1, y1 = found.box
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return DieReading(found.value, None, found.center, outline, found.confidence,
                      float(np.sqrt((x1 - x0) * (y1 - y0))))


def own_chance(belief: Belief, decision: Decision, palette: Palette) -> float:
    """The chance a face gives, on its own, to the value and colour chosen for it."""
    return float(belief.value[decision.value - 1]
                 * belief.color[palette.colors.index(decision.color)])


def die_chance(belief: Belief, decision: Decision, palette: Palette) -> float:
    """The chance that a die is read right: its chance under the box's physics, where the
    box settles what the face leaves open (a face torn between two colours, the other dice
    leaving one of them possible); but where the box overrules the face (a reading that is
    not the face's own likeliest), never more than the face's own chance for it: something
    is off, and the table is asked. Unless the box is sure (:data:`BOX_SURE`) of a reading
    the face itself gives a fair chance (:data:`TORN`): the face was torn, and the other
    dice settle it."""
    own = own_chance(belief, decision, palette)
    favourite = (int(np.argmax(belief.value)) + 1 == decision.value
                 and palette.colors[int(np.argmax(belief.color))] == decision.color)
    settled = decision.chance >= BOX_SURE and own >= TORN
    return decision.chance if favourite or settled else min(decision.chance, own)


def side_chances(frame: np.ndarray, readings: list[DieReading], net: HabaNet,
                 pair_net: PairNet) -> list[float]:
    """Per reading, the pair network's surest "that face is the top, this one is not"
    against a face beside it (another reading's face or a finder peak down to
    :data:`vision.habanet.HINT_PEAK`, found at the readings' size, each told the pip
    reader's own chances; not one of its own die's finds); 0 for a reading not sure."""
    out = [0.0] * len(readings)
    if not any(r.confident for r in readings):
        return out
    finds = net.find(frame, HINT_PEAK, float(np.median([r.size for r in readings])))
    if len(finds) < 2:
        return out
    _, probs = read_faces(net, frame, finds)
    middle = (frame.shape[1] / 2, frame.shape[0] / 2)

    looks: dict[int, FaceLook] = {}

    def face_look(j: int) -> FaceLook:
        if j not in looks:
            looks[j] = look(frame, finds[j], 1.0 - float(probs[j][0]),
                            float(probs[j][1:].max()))
        return looks[j]

    asked = []  # (the reading, one pair) for every sure reading and each face beside it
    for i, r in enumerate(readings):
        if r.confident:
            k = min(range(len(finds)), key=lambda j: math.dist(finds[j].center, r.center))
            mine = finds[k]
            asked += [(i, pair_input(frame, face_look(k), face_look(j), middle))
                      for j, f in enumerate(finds) if j != k and _beside(mine, f)
                      and math.dist(f.center, mine.center) >= NEAR * min(f.side, mine.side)]
    if asked:
        chances = pair_net.chances([pair for _, pair in asked])
        for (i, _), c in zip(asked, chances, strict=True):
            out[i] = max(out[i], float(c[B_TOP]))
    return out


def doubt_sides(frame: np.ndarray, readings: list[DieReading], net: HabaNet,
                pair_net: PairNet, catch: float = SIDE_CATCH) -> list[DieReading]:
    """``readings`` with each sure one put in doubt (:data:`DOUBT`) that the pair network
    takes for a die's side beside its top at least ``catch`` surely (:func:`side_chances`)."""
    sides = side_chances(frame, readings, net, pair_net)
    return [replace(r, confidence=min(r.confidence, DOUBT)) if side >= catch else r
            for r, side in zip(readings, sides, strict=True)]


def read_dice(frame: np.ndarray, kind: Kind = "haba", palette: Palette | None = None,
              thrown: int | None = None, at_most: int | None = None,
              pair_net: PairNet | Literal[False] | None = None,
              decider: Decider | None = None) -> list[DieReading]:
    """Read every die in a BGR ``frame`` (any size; the die size is measured from it).

    ``kind="haba"`` finds HABA faces and names their colour with ``palette`` (default:
    :meth:`Palette.default`); ``"standard"`` reads ordinary dice of any colour and reports
    no colour. ``thrown``: how many dice the table threw, when known; else ``at_most``: how
    many dice there are at most, when known (the box's dice; HABA dice: see
    :func:`see_faces`). Readings are in no particular order (see ``to_roll``).
    ``pair_net``: which of two faces beside each other is a die's top (:mod:`vision.pairnet`;
    default: the shipped one; False: none), for the count's choice and to doubt a sure
    reading that may be a die's side (:func:`doubt_sides`).
    ``decider``: which decides the HABA dice (default :data:`DECIDER`): ``"model"``, the
    fitted model (:mod:`vision.faces`, :mod:`vision.choose`, :mod:`vision.doubt`), or
    ``"rules"``, this module's hand-set rules.
    """
    if kind == "standard":
        _check(frame)
        net = default_standard_net()
        if net is None:
            raise OSError("the ordinary-dice networks are missing from vision/models/: "
                          "reinstall kotd, or make them with tools/train_dice_net.py")
        return [_from_net(f) for f in net.read(frame)]
    palette = palette or Palette.default()
    pairs = _pair_net(pair_net)
    haba = default_haba_net()
    if (decider or DECIDER) == "model":
        return _read_by_model(frame, palette, thrown, at_most, pairs, haba)
    with haba.one_frame(frame) if haba is not None else nullcontext():
        seen = see_faces(frame, palette, thrown=thrown, at_most=at_most,
                         pair_net=pairs or False)
        decisions = most_probable([s.belief for s in seen], palette.colors)
        readings = [DieReading(d.value, d.color, s.face.center, square(s.face),
                               die_chance(s.belief, d, palette) * s.is_die, s.face.side,
                               HABA_CONFIDENT)
                    for s, d in zip(seen, decisions, strict=True)]
        if pairs is None or haba is None:
            return readings
        return doubt_sides(frame, readings, haba, pairs)


def _read_by_model(frame: np.ndarray, palette: Palette, thrown: int | None,
                   at_most: int | None, pairs: PairNet | None, haba: HabaNet | None
                   ) -> list[DieReading]:
    """The HABA dice as the fitted model reads them (:mod:`vision.doubt`)."""
    _check(frame)
    if haba is None:
        raise OSError("the HABA dice networks are missing from vision/models/: reinstall "
                      "kotd, or make them with tools/train_haba_net.py")
    model = default_model()
    count = thrown if thrown is not None else at_most
    with haba.one_frame(frame):
        seen = see(frame, haba, palette, count, pairs, model.temperature)
    weighed = weigh(seen, count, thrown is not None, palette.colors)
    return list(decide(seen, weighed, model, palette).dice)


# the reader's two networks too: the benchmarks swap them for others
__all__ = ["SeenFace", "Tops", "choose", "counted", "default_haba_net", "default_standard_net",
           "die_chance", "doubt_sides", "own_chance", "read_dice", "see_faces", "side_chances",
           "square"]
