"""Fit the ordinary-dice reader's decision (:mod:`vision.dicedecision`) on the tune parts.

Run: ``.venv/bin/python tools/fit_dice_decision.py`` (no PyTorch; a few minutes on one
core: each photo is seen by the networks once, what they say of each input remembered
(:class:`Remembering`), then looked at with every margin and way of turning and decided on
at every threshold). Reads the ``tune`` part of every photo source
(:func:`dice_data.part_of`; never a ``judge`` part) with the shipped networks as the reader
runs them (under ONNX Runtime the pip reader's eight-bit copy, ``tools/quantize_dice_nets.py``;
``KOTD_INT8=0``: the float one) and writes ``vision/models/dice_decision.json``:

1. **keep**, **wider** and **turning**: of the thresholds :data:`KEEPS` on a find's chance of
   being a die, the margins :data:`WIDERS` of a second look at an unsure die (or none), and
   the ways :data:`TURNINGS` of reading an unsure die again turned
   (:class:`vision.dicedecision.Turning`), each choice's mistakes a person at the table
   would count, each source apart: dice not read right plus readings on no die, over the
   labelled dice (the readings on no die against the targets, :data:`NO_DIE` and
   :data:`NO_DIE_TRAYS` for the gamer trays, are printed for each). Each is fitted as in 2
   and 3 and also tried at the shift of the **decision shipped now** and :data:`NEAR` steps
   around it; kept is the one with the fewest pip crops of the tune photos (the pip
   reader's time is linear in its crops: a tray's time), then the fewest right readings
   asked about, among those **no worse than the shipped decision** on any guard: per
   source no more mistakes, silently wrong frames or right readings asked about, no smaller
   share of the wrong readings flagged, and per family of rendered trays
   (:func:`rendered_trays`: the bench's kinds, other seeds) no more dice or trays wrong and
   confident (:func:`choose`). Where none is, the shipped decision stays as it is: reading
   faster may not cost the table accuracy, silence or questions;
2. **weights**: a logistic regression, on every reading kept, of "the reading is right"
   (a labelled die, its value) on the reading's evidence (:func:`vision.dicedecision.evidence`);
3. **shift**: the least shift of that function (in logits, steps of 0.25) with at most
   :data:`SILENT` of the tune frames silently wrong (a die wrong, missed or not there, and
   every reading confident), all sources' tune frames together (a source's tune part is
   too small for 1% of it alone: 8 gamer trays), or as few as any shift gives where the
   frames with no reading at all (nothing to ask about) are more. Each source's share is
   printed.

A reading is right when it matches the label **as the photo shows it**: the labels of
:data:`dice_data.ERRATA` (looked at by eye) corrected, so that a known label error does not
drive the fit (``--as-labelled``: the labels as the shared data has them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from dice_data import ERRATA, PHOTO_SOURCES, SHARED, Photo, load_part, match

from vision.dicedecision import DECISION_JSON, Decision, Turning
from vision.dicenet import DiceNet, FoundDie, Look, kept_dice
from vision.pipcount import count_pips
from vision.reading import CONFIDENT
from vision.render_standard import OrdinaryTruth, judged_trays

WIDERS = (None, 1.2, 1.25, 1.3, 1.4)
KEEPS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8)
TURNINGS = (Turning(), *(
    Turning(sure, turns) for turns in ((1, 2, 3), (1, 3), (1,))
    for sure in (0.98, 0.95, 0.93, 0.9, 0.85, 0.8, 0.7) if (sure, turns) != (0.98, (1, 2, 3))))
"""The ways of turning tried, the reader's own (every unsure die in all four turns) first."""
NO_DIE, NO_DIE_TRAYS = 0.01, 0.03
SILENT = 0.01
RENDER_SEED, RENDER_TRAYS = 90000, 60
"""The rendered trays a faster way may not let through more silently (:func:`rendered_trays`):
seeds apart from the bench's (70000+) and its speed trays' (50000+)."""
COMMAND = "tools/fit_dice_decision.py"


@dataclass
class Frame:
    """One tune photo as read: its finds, whether each is right, and the labels missed."""

    source: str
    name: str
    found: list[FoundDie]
    right: list[bool]
    on_no_die: int
    missed: int


class Remembering(DiceNet):
    """The shipped networks, remembering what they said of each input (a frame, by its
    object; a pip reader's batch of crops, by its pixels) and how many pips each crop shows
    (:meth:`count`): a photo looked at with many margins and ways of turning is seen by each
    network once per batch, and the readings are the reader's own to the last bit (the same
    batch, the same call). :attr:`crops` counts the pip crops read as if nothing were
    remembered (what the reader would read)."""

    def __init__(self) -> None:
        super().__init__()
        self._finds: dict[int, list[tuple[tuple[float, float, float, float], float]]] = {}
        self._blobs: dict[bytes, np.ndarray] = {}
        self._counts: dict[bytes, int | None] = {}
        self.crops = 0

    def count(self, crop: np.ndarray) -> int | None:
        """:func:`vision.pipcount.count_pips` of ``crop``, remembered."""
        key = hashlib.sha1(crop.tobytes()).digest()
        if key not in self._counts:
            self._counts[key] = count_pips(crop)
        return self._counts[key]

    def find(self, frame: np.ndarray) -> list[tuple[tuple[float, float, float, float], float]]:
        key = id(frame)
        if key not in self._finds:
            self._finds[key] = super().find(frame)
        return self._finds[key]

    def _classify_blob(self, blob: np.ndarray) -> np.ndarray:
        self.crops += len(blob)
        key = hashlib.sha1(blob.tobytes()).digest() + str(blob.shape).encode()
        if key not in self._blobs:
            self._blobs[key] = super()._classify_blob(blob)
        return self._blobs[key].copy()


def looks(net: DiceNet, photos: dict[str, list[Photo]], wider: float | None,
          turning: Turning | None = None) -> dict[str, list[list[Look]]]:
    """Each tune photo as the networks see it with ``wider`` and ``turning``
    (:meth:`DiceNet.look`): what every ``keep`` then decides on."""
    return {source: [net.look(ph.image, wider, turning) for ph in part]
            for source, part in photos.items()}


def read_frames(photos: dict[str, list[Photo]], seen: dict[str, list[list[Look]]], keep: float,
                as_read: bool = True,
                count: Callable[[np.ndarray], int | None] = count_pips) -> list[Frame]:
    """The tune ``photos``, ``seen`` by the networks, read with ``keep``; a reading is right
    when it matches the value a person reads on the die (``as_read``: the label, or
    :data:`dice_data.ERRATA` where that says otherwise), or the label as it stands."""
    errata = ERRATA if as_read else {}
    out = []
    for source, part in photos.items():
        for ph, lk in zip(part, seen[source], strict=True):
            found = kept_dice(lk, keep, count=count)
            labels = match(ph.boxes, [d.box for d in found])
            right = [j is not None and d.value == errata.get((ph.name, j), int(ph.values[j]))
                     for d, j in zip(found, labels, strict=True)]
            out.append(Frame(source, ph.name, found, right, sum(j is None for j in labels),
                             len(ph.boxes) - sum(j is not None for j in labels)))
    return out


@dataclass
class Choice:
    """One way of reading tried on the tune photos, and how it did."""

    keep: float
    wider: float | None
    turning: Turning
    crops: int
    """The pip crops read (of every tune photo)."""
    mistakes: tuple[float, ...]
    """:func:`mistakes`, per source (:data:`PHOTO_SOURCES`)."""
    frames: list[Frame]

    def cost(self) -> float:
        """The mistakes, every source weighing the same."""
        return float(np.mean(self.mistakes))


def no_die_share(frames: list[Frame], source: str) -> float:
    mine = [f for f in frames if f.source == source]
    return sum(f.on_no_die for f in mine) / max(sum(len(f.found) for f in mine), 1)


def mistakes(frames: list[Frame], source: str) -> float:
    """Dice of ``source`` not read right plus readings on no die, over its labelled dice."""
    mine = [f for f in frames if f.source == source]
    labelled = sum(f.missed + len(f.found) - f.on_no_die for f in mine)
    wrong = sum(f.missed + (len(f.found) - f.on_no_die - sum(f.right)) + f.on_no_die
                for f in mine)
    return wrong / max(labelled, 1)


def logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> tuple[np.ndarray, float]:
    """Weights and bias of a logistic regression of ``y`` (0/1) on ``x`` (n, k), by Newton's
    method with a small ridge penalty ``l2`` on the weights (not the bias)."""
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    ridge = np.diag([l2] * x.shape[1] + [0.0])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        grad = a.T @ (p - y) + ridge @ w
        hess = (a * (p * (1 - p))[:, None]).T @ a + ridge + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def silent(frame: Frame, decision: Decision) -> bool:
    """``frame`` is wrong (a die wrong, missed or not there) with every reading confident."""
    wrong = frame.missed > 0 or not all(frame.right)
    return wrong and all(decision.confidence(d.evidence) >= CONFIDENT
                         and not (d.pips is not None and d.pips != d.value)
                         for d in frame.found)


def silent_share(frames: list[Frame], decision: Decision, source: str | None) -> float:
    """The share of ``source``'s frames (None: all) silently wrong under ``decision``."""
    mine = [f for f in frames if source is None or f.source == source]
    return sum(silent(f, decision) for f in mine) / max(len(mine), 1)


def flagged_share(frames: list[Frame], decision: Decision, source: str) -> float:
    """The share of ``source``'s right readings that ``decision`` asks the table about."""
    conf = [d.confidence_by(decision) for f in frames if f.source == source
            for d, r in zip(f.found, f.right, strict=True) if r]
    return float(np.mean(np.array(conf) < CONFIDENT)) if conf else 0.0


def caught_share(frames: list[Frame], decision: Decision, source: str) -> float:
    """The share of ``source``'s wrong readings (a wrong value, or no die there) that
    ``decision`` asks the table about (1 where there are none)."""
    conf = [d.confidence_by(decision) for f in frames if f.source == source
            for d, r in zip(f.found, f.right, strict=True) if not r]
    return float(np.mean(np.array(conf) < CONFIDENT)) if conf else 1.0


@dataclass
class RenderedTray:
    """A rendered tray, the truth of its dice, and its family: ``mixed`` (flat dice and dice
    leaning on another) or ``smoky`` (small dark dice)."""

    frame: np.ndarray
    truth: list[OrdinaryTruth]
    kind: str


def rendered_trays(trays: int = RENDER_TRAYS, seed: int = RENDER_SEED) -> list[RenderedTray]:
    """The bench's rendered trays (:func:`vision.render_standard.judged_trays`) at other
    seeds."""
    return [RenderedTray(*tray) for tray in judged_trays(trays, seed)]


def rendered_silence(net: DiceNet, trays: list[RenderedTray], decision: Decision,
                     count: Callable[[np.ndarray], int | None] = count_pips
                     ) -> dict[str, float]:
    """How often ``decision`` (its wider look, turning and keep) is wrong and confident on
    the rendered ``trays``, as the bench counts (each die's nearest reading, inside its box):
    per family of dice (``flat``, ``leaning``, ``smoky``) the share of dice read wrong and
    confident, and per family of trays (``mixed trays``, ``smoky trays``) the share silently
    wrong (a die wrong or missed, every reading confident)."""
    dice: dict[str, list[bool]] = {"flat": [], "leaning": [], "smoky": []}
    silent_trays: dict[str, list[bool]] = {"mixed trays": [], "smoky trays": []}
    for tray in trays:
        found = kept_dice(net.look(tray.frame, decision.wider, decision.turning),
                          decision.keep, count=count)
        sure = [d.confidence_by(decision) >= CONFIDENT for d in found]
        wrong = False
        for t in tray.truth:
            i = min(range(len(found)), default=None, key=lambda i: np.hypot(
                found[i].center[0] - t.center[0], found[i].center[1] - t.center[1]))
            inside = i is not None and (t.box[0] <= found[i].center[0] <= t.box[2]
                                        and t.box[1] <= found[i].center[1] <= t.box[3])
            right = i is not None and inside and found[i].value == t.value
            wrong |= not right
            family = "smoky" if tray.kind == "smoky" else "leaning" if t.tilted else "flat"
            dice[family].append(not right and i is not None and inside and sure[i])
        silent_trays[f"{tray.kind} trays"].append(wrong and all(sure))
    return {k: float(np.mean(v)) if v else 0.0 for k, v in (dice | silent_trays).items()}


def fit(choice: Choice, fitted_by: str) -> Decision:
    """The decision of ``choice`` (its keep, wider look and turning): the weights of the
    logistic regression on its readings and the least shift with at most :data:`SILENT` of
    the frames silently wrong (or as few as any shift gives)."""
    frames = choice.frames
    x = np.array([d.evidence for f in frames for d in f.found])
    y = np.array([r for f in frames for r in f.right], np.float64)
    weights, bias = logistic(x, y)
    base = Decision(choice.keep, tuple(float(w) for w in weights), bias, 0.0, SILENT,
                    f"{fitted_by} (tune parts: {len(frames)} photos, {len(y)} readings)",
                    choice.wider, choice.turning)
    floor = silent_share(frames, replace(base, shift=100.0), None)
    shift = 0.0
    while (silent_share(frames, replace(base, shift=shift), None) > max(SILENT, floor)
           and shift < 20):
        shift += 0.25
    return replace(base, shift=shift)


NEAR = 2
"""The steps of 0.25 either side of the shipped shift tried for each way (:func:`shifts`)."""


def in_use(tried: list[Choice], shipped: Decision) -> Choice:
    """The way tried that reads as ``shipped`` does (its keep, wider look and turning)."""
    for c in tried:
        if (c.keep, c.wider, c.turning) == (shipped.keep, shipped.wider, shipped.turning):
            return c
    raise ValueError(f"no way tried reads as the shipped decision ({shipped.fitted_by})")


def shifts(own: float, held: float) -> list[float]:
    """The shifts tried for a way: its own least shift (:func:`fit`) and the shipped shift
    ``held`` with :data:`NEAR` steps either side, none below its own, ascending."""
    near = (held + 0.25 * k for k in range(-NEAR, NEAR + 1))
    return sorted({own, *(s for s in near if s > own)})


def asked(choice: Choice, decision: Decision) -> float:
    """The share of right readings ``decision`` asks about, every source weighing the same."""
    return float(np.mean([flagged_share(choice.frames, decision, s) for s in PHOTO_SOURCES]))


def no_worse_on_photos(choice: Choice, decision: Decision, old: Choice, shipped: Decision
                       ) -> bool:
    """Per tune source, ``decision`` (reading as ``choice``) has no more mistakes, silently
    wrong frames or right readings asked about, and flags no smaller share of the wrong
    readings, than the ``shipped`` decision (reading as ``old``)."""
    return all(m <= r for m, r in zip(choice.mistakes, old.mistakes, strict=True)) and all(
        silent_share(choice.frames, decision, s) <= silent_share(old.frames, shipped, s)
        and flagged_share(choice.frames, decision, s) <= flagged_share(old.frames, shipped, s)
        and caught_share(choice.frames, decision, s) >= caught_share(old.frames, shipped, s)
        for s in PHOTO_SOURCES)


def no_worse_on_renders(mine: dict[str, float], shipped: dict[str, float]) -> bool:
    """No family of rendered dice or trays wrong and confident more often than shipped."""
    return all(mine[k] <= v for k, v in shipped.items())


def choose(tried: list[Choice], fit_one: Callable[[Choice], Decision], shipped: Decision,
           say: Callable[[str], None] = lambda _: None,
           rendered: Callable[[Decision], dict[str, float]] = lambda _: {},
           ) -> tuple[Choice, Choice, Decision]:
    """The way the ``shipped`` decision reads, the way kept and its decision, among
    ``tried`` (each fitted by ``fit_one``, at the :func:`shifts` around its own and the
    shipped one): of the decisions no worse than ``shipped`` on any guard
    (:func:`no_worse_on_photos`, :func:`no_worse_on_renders` with ``rendered``:
    :func:`rendered_silence`), the fewest pip crops, then the fewest right readings asked
    about; ``shipped`` itself where no other is."""
    old = in_use(tried, shipped)
    say(f"shipped: {describe(old, shipped)}")
    cache: dict[int, tuple[Decision, dict[str, float]]] = {}  # the decision kept: its id stays

    def renders(d: Decision) -> dict[str, float]:
        if id(d) not in cache:
            cache[id(d)] = d, rendered(d)
        return cache[id(d)][1]

    by_crops = sorted((c for c in tried if all(m <= r for m, r in zip(
        c.mistakes, old.mistakes, strict=True))), key=lambda c: (c.crops, c.cost()))
    for crops in sorted({c.crops for c in by_crops}):
        kept = [(old, shipped)] if crops == old.crops else []
        for chosen in (c for c in by_crops if c.crops == crops):
            kept += passing(chosen, fit_one(chosen), old, shipped, renders, say)
        if kept:
            chosen, decision = min(kept, key=lambda cd: asked(*cd))
            say(f"chosen: {describe(chosen, decision)}; rendered trays wrong and confident: "
                f"{_percent(renders(decision))} (shipped {_percent(renders(shipped))})")
            return old, chosen, decision
    return old, old, shipped  # not reached: the shipped decision is kept at its own crops


def passing(choice: Choice, fitted_one: Decision, old: Choice, shipped: Decision,
            renders: Callable[[Decision], dict[str, float]], say: Callable[[str], None]
            ) -> list[tuple[Choice, Decision]]:
    """``choice`` with ``fitted_one`` at the least of its :func:`shifts` no worse than the
    ``shipped`` decision on any guard, or nothing."""
    for shift in shifts(fitted_one.shift, shipped.shift):
        decision = replace(fitted_one, shift=shift)
        if (no_worse_on_photos(choice, decision, old, shipped)
                and no_worse_on_renders(renders(decision), renders(shipped))):
            return [(choice, decision)]
    say(f"not taken (worse than shipped at every shift tried): {describe(choice, fitted_one)}")
    return []


def _percent(shares: dict[str, float]) -> str:
    return ", ".join(f"{k} {100 * v:.1f}%" for k, v in shares.items())


def describe(choice: Choice, decision: Decision) -> str:
    return (f"{choice.turning}, wider {choice.wider}, keep {choice.keep}: {choice.crops} pip "
            f"crops, shift {decision.shift}; per source (" + ", ".join(PHOTO_SOURCES)
            + "): mistakes " + "/".join(f"{100 * m:.1f}" for m in choice.mistakes)
            + "%, silently wrong " + "/".join(
                f"{100 * silent_share(choice.frames, decision, s):.1f}" for s in PHOTO_SOURCES)
            + "%, right readings asked about " + "/".join(
                f"{100 * flagged_share(choice.frames, decision, s):.1f}" for s in PHOTO_SOURCES)
            + "%, wrong readings flagged " + "/".join(
                f"{100 * caught_share(choice.frames, decision, s):.1f}" for s in PHOTO_SOURCES)
            + "%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--as-labelled", action="store_true",
                        help="fit on the labels as the shared data has them, not with "
                             "dice_data.ERRATA corrected (the default)")
    args = parser.parse_args()
    fitted_by = f"{COMMAND}{' --as-labelled' if args.as_labelled else ''}"
    cv2.setNumThreads(1)
    shipped = Decision.from_json(json.loads(DECISION_JSON.read_text()))
    net = Remembering()
    photos = {s: load_part(s, "tune", args.shared) for s in PHOTO_SOURCES}
    limit = {s: NO_DIE_TRAYS if s == "rune55-trays" else NO_DIE for s in PHOTO_SOURCES}
    tried: list[Choice] = []
    for turning in TURNINGS:
        for wider in WIDERS:
            net.crops = 0
            seen = looks(net, photos, wider, turning)
            crops = net.crops
            for keep in KEEPS:
                frames = read_frames(photos, seen, keep, not args.as_labelled, net.count)
                shares = {s: no_die_share(frames, s) for s in PHOTO_SOURCES}
                tried.append(Choice(keep, wider, turning, crops,
                                    tuple(mistakes(frames, s) for s in PHOTO_SOURCES), frames))
                print(f"{turning}, wider {wider}, keep {keep:.2f}: {crops} pip crops; "
                      "mistakes " + ", ".join(f"{s} {100 * m:.1f}%" for s, m
                                              in zip(PHOTO_SOURCES, tried[-1].mistakes,
                                                     strict=True))
                      + "; readings on no die "
                      + ", ".join(f"{s} {100 * v:.1f}%{'' if v <= limit[s] else ' (over)'}"
                                  for s, v in shares.items()), flush=True)
    trays = rendered_trays()
    _, chosen, decision = choose(tried, lambda c: fit(c, fitted_by), shipped, print,
                                 lambda d: rendered_silence(net, trays, d, net.count))
    frames = chosen.frames
    less = replace(decision, shift=max(decision.shift - 0.25, 0.0))
    binding = [f for f in frames if silent(f, less) and not silent(f, decision)]
    print("frames the last step of the shift flags: " + (", ".join(
        f"{f.source} {f.name} ({f.missed} missed, {f.right.count(False)} wrong)"
        for f in binding) or "none (the shift held above its own least)"))
    print(f"weights {np.round(decision.weights, 3).tolist()}, bias {decision.bias:.3f}")
    y = np.array([r for f in frames for r in f.right], np.float64)
    conf = np.array([decision.confidence(d.evidence) for f in frames for d in f.found])
    print(f"right readings flagged on tune: {100 * np.mean(conf[y == 1] < CONFIDENT):.1f}%, "
          f"wrong ones flagged: {100 * np.mean(conf[y == 0] < CONFIDENT):.1f}%")

    DECISION_JSON.write_text(json.dumps(decision.to_json(), indent=1) + "\n")
    print(f"wrote {DECISION_JSON}")


if __name__ == "__main__":
    main()
