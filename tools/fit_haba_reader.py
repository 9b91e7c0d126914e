"""Fit the HABA reader's model and rewrite ``vision/models/haba_reader.toml``.

    .venv/bin/python tools/fit_haba_reader.py tune:0-599 steep:0-199 table-tune:0-479

On tuning frames only (``benchmarks/haba_sets.py``: never a judging set, ``stress`` or
``table``), each frame read twice, told the count and not told (at most the box's dice),
and each reading weighed twice: with the picture of the frame's last roll
(:func:`haba_sets.last_roll`: what changed at each face's place since,
:mod:`vision.lastroll`) and without it (the first roll, a photo):

1. every candidate face with its evidence (:func:`vision.faces.see`, kept in
   ``.cache/haba-reader`` per frame, the finder, pip reader and the code that finds faces;
   after a change of the pair network only its answers are asked again);
2. the pip reader's temperature, by likelihood of the true values of faces on dice;
3. the weights of :data:`vision.choose.TERMS`, by likelihood of the true choice of faces
   (a conditional logit over each frame's choices; convex, Newton's method), and the
   numbers inside the terms (:class:`vision.choose.Shape`) by the same likelihood, each in
   turn over the values of :data:`SHAPES` with the weights fitted again at each;
4. how much a chosen face that may be a die's side lowers the reading's probability
   (:attr:`vision.doubt.ReaderModel.side_doubt`) and the threshold of :mod:`vision.doubt`'s
   one doubt rule, together: the pair that asks least, a frame silently wrong costing
   ``--silent-cost`` frames asking;
5. the marked tray's numbers: from what tilt its corners tell the focal length
   (:attr:`vision.doubt.ReaderModel.telling_tilt`, :func:`fit_telling_tilt`) and how far
   outside it a reading may stand and be kept (:attr:`vision.doubt.ReaderModel.outside`,
   :func:`fit_outside`); ``--tray-only`` fits only these, keeping the rest of the shipped
   model;
6. below what change a die lying where a die of its last roll lay is that die, kept
   (:attr:`vision.doubt.ReaderModel.kept_below`, :func:`fit_kept`); ``--kept-only`` fits
   only this.

It prints the tuning frames' figures at the chosen threshold (and, with ``--check``, those
of tuning frames the fit does not use) and writes the data file with the command and the
date.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import pickle
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from haba_sets import (  # noqa: E402
    RENDERER,
    SETS,
    frame,
    last_roll,
    marked_tray,
    scene,
    tray_around,
    tuning_frames,
)

import vision.choose  # noqa: E402
from rules.dice import Color  # noqa: E402
from rules.kotd.cards import load_box  # noqa: E402
from vision.choose import TERMS, Shape, Weighed, weigh  # noqa: E402
from vision.consistency import Belief  # noqa: E402
from vision.doubt import MODEL_TOML, SHAPE, ReaderModel, a_top, decide  # noqa: E402
from vision.faces import Seen, asked_again, see  # noqa: E402
from vision.habanet import FINDER_ONNX, MODELS, PIPS_ONNX, default_net  # noqa: E402
from vision.lastroll import LastRoll, exposure, lay_at, since, square_change  # noqa: E402
from vision.onnxnet import int8_of  # noqa: E402
from vision.pairnet import PAIR_ONNX, default_pair_net  # noqa: E402
from vision.palette import Palette  # noqa: E402
from vision.render.camera import Projector  # noqa: E402
from vision.render.scene import TruthDie  # noqa: E402
from vision.render.score import score_frame  # noqa: E402
from vision.tray import FOCAL, Tray  # noqa: E402


def _evidence(files: list[Path], sections: list[str]) -> str:
    """A short hash of ``files`` and of these sections of ``haba_nets.toml``."""
    card = tomllib.loads((MODELS / "haba_nets.toml").read_text(encoding="utf-8"))
    parts = [p.read_bytes() for p in files] + [
        json.dumps(card.get(name), sort_keys=True).encode() for name in sections]
    return hashlib.sha1(b"".join(parts)).hexdigest()[:10]


FACES = _evidence([p for net in (FINDER_ONNX, PIPS_ONNX) for p in (net, int8_of(net))
                   if p.is_file()] + [
    ROOT / "vision" / f"{m}.py" for m in ("faces", "habanet", "facecolor", "palette",
                                           "netformat")], ["finder", "pips"])
"""The finder and pip reader, their formats and the code that make a frame's faces: a change
of any reads every frame again."""
PAIRS = _evidence([p for p in (PAIR_ONNX, int8_of(PAIR_ONNX)) if p.is_file()]
                  + [ROOT / "vision" / "pairnet.py"], ["pair"])
"""The pair network and its format: after a change only its answers are asked again
(:func:`vision.faces.asked_again`), the faces kept."""
CACHE = ROOT / ".cache" / "haba-reader" / f"{RENDERER}-{FACES}"
RIDGE = 1.0
"""The weights' L2 penalty (a prior that keeps an unused term near 0)."""
SILENT_COST = 20.0
"""How many frames asking one frame silently wrong costs, unless ``--silent-cost`` says."""
SHAPES = {"clip": (4.0, 6.0, 8.0, 10.0, 12.0), "out_from_middle": (2.0, 3.0, 4.0, 6.0, 8.0),
          "side_shrink": (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9),
          "changed_from": (3.0, 5.0, 8.0, 12.0, 18.0)}
"""The values tried for each number of :class:`vision.choose.Shape`; the search starts from
the middle of each."""


@dataclass(frozen=True)
class Case:
    """One frame read one way: its faces (pip reader untempered), truth, and the count;
    ``where``: the frame (set, index); ``last``: weighed with its last roll's picture."""

    seen: Seen
    truth: list[TruthDie]
    count: int | None
    told: bool
    where: tuple[str, int] = ("", -1)
    last: bool = False


def collect(frames: list[tuple[str, int]], at_most: int) -> list[Case]:
    """Both readings of every frame, from the cache or made afresh (the faces kept, the pair
    network's answers asked again when only the pair network changed)."""
    net, pairs, palette = default_net(), default_pair_net(), Palette.default()
    if net is None:
        raise SystemExit("the HABA networks are missing")
    out = []
    for n, (name, i) in enumerate(frames):
        path = CACHE / name / f"{i:05d}.pickle"
        kept = pickle.loads(path.read_bytes()) if path.exists() else None
        if kept is not None and kept[0] == PAIRS:
            out += [Case(seen, truth, count, told, (name, i))
                    for seen, truth, count, told in kept[1]]
            continue
        img, truth, _ = frame(name, i)
        if kept is not None:
            cases = [Case(asked_again(img, seen, pairs, 1.0), truth, count, told, (name, i))
                     for seen, truth, count, told in kept[1]]
        else:
            with net.one_frame(img):
                cases = [Case(see(img, net, palette, count, pairs, 1.0), truth, count, told,
                              (name, i))
                         for count, told in ((len(truth), True), (at_most, False))]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(
            (PAIRS, [(c.seen, c.truth, c.count, c.told) for c in cases])))
        out += cases
        if n % 100 == 99:
            print(f"  read {n + 1} of {len(frames)} frames", flush=True)
    return out


def with_last_rolls(cases: list[Case]) -> list[Case]:
    """``cases`` and each again weighed with its frame's last roll (:func:`haba_sets.last_roll`,
    drawn and kept on first use)."""
    out = list(cases)
    pictures: dict[tuple[str, int], tuple[np.ndarray, LastRoll | None]] = {}
    for n, c in enumerate(cases):
        if c.where not in pictures:  # a frame's cases come together: one frame kept
            pictures = {c.where: (frame(*c.where)[0], last_roll(*c.where))}
        out.append(replace(c, seen=since(c.seen, *pictures[c.where]), last=True))
        if n % 500 == 499:
            print(f"  {n + 1} of {len(cases)} readings weighed with their last roll", flush=True)
    return out


def on_dice(case: Case) -> dict[int, TruthDie]:
    """The faces on a die's top: each die's nearest face within half a die."""
    out: dict[int, TruthDie] = {}
    for t in case.truth:
        near = [(math.dist(f.found.center, t.center), k) for k, f in enumerate(case.seen.faces)
                if k not in out]
        if near and min(near)[0] < 0.5 * t.size:
            out[min(near)[1]] = t
    return out


def fit_temperature(cases: list[Case]) -> float:
    """The pip reader's temperature, by likelihood of the true values."""
    rows = [(case.seen.faces[k].belief.value, t.value) for case in cases if case.told
            for k, t in on_dice(case).items()]
    best, best_nll = 1.0, math.inf
    for temp in np.exp(np.linspace(math.log(0.05), math.log(3.0), 60)):
        nll = 0.0
        for v, truth in rows:
            p = np.power(np.maximum(v, 1e-12), 1 / temp)
            nll -= math.log(max(float(p[truth - 1] / p.sum()), 1e-12))
        if nll < best_nll:
            best, best_nll = float(temp), nll
    return best


def true_choices(cases: list[Case]) -> list[int | None]:
    """Each case's true choice (the faces on dice) as its place among the case's choices
    (None when it is not one of them: a die not found)."""
    out = []
    for c in cases:
        choices = list(vision.choose.choices(c.seen, c.count))
        true = tuple(sorted(on_dice(c)))
        out.append(choices.index(true) if true in choices else None)
    return out


def tempered(seen: Seen, temperature: float) -> Seen:
    """``seen`` with the pip reader's value chances at ``temperature``."""
    def one(b: Belief) -> Belief:
        v = np.power(np.maximum(b.value, 1e-12), 1 / temperature)
        return Belief(v / v.sum(), b.color)
    return replace(seen, faces=tuple(replace(f, belief=one(f.belief)) for f in seen.faces))


def fit_weights(weighed: list[Weighed], truths: list[int | None]) -> tuple[np.ndarray, float]:
    """The weights that make the true choices likeliest (conditional logit, ridge), and the
    penalised log-likelihood they reach."""
    data = [(w.terms, y) for w, y in zip(weighed, truths, strict=True)
            if y is not None and len(w.choices) > 1]
    weights = np.zeros(len(TERMS))
    for _ in range(30):
        grad, hess = -RIDGE * weights, -RIDGE * np.eye(len(TERMS))
        for terms, y in data:
            logp = terms @ weights
            p = np.exp(logp - logp.max())
            p /= p.sum()
            mean = p @ terms
            grad += terms[y] - mean
            hess -= (terms * p[:, None]).T @ terms - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        weights -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    fit = -RIDGE / 2 * float(weights @ weights)
    for terms, y in data:
        logp = terms @ weights
        fit += float(logp[y] - logp.max() - np.log(np.exp(logp - logp.max()).sum()))
    return weights, fit


def weighed_at(cases: list[Case], shape: Shape, colors: Sequence[Color]) -> list[Weighed]:
    """Every case's choices and terms with ``shape``."""
    return [weigh(c.seen, c.count, c.told, colors, shape) for c in cases]


def fit_shape(cases: list[Case], truths: list[int | None], colors: Sequence[Color]
              ) -> tuple[Shape, np.ndarray, list[Weighed]]:
    """The shape (of :data:`SHAPES`, one number at a time, each in its turn until none moves)
    whose fitted weights make the true choices likeliest; those weights; the cases weighed."""
    values = {k: v[len(v) // 2] for k, v in SHAPES.items()}
    tried: dict[tuple[float, ...], tuple[float, np.ndarray, list[Weighed]]] = {}

    def at(vals: dict[str, float]) -> tuple[float, np.ndarray, list[Weighed]]:
        key = tuple(vals[k] for k in SHAPE)
        if key not in tried:
            weighed = weighed_at(cases, Shape(**vals), colors)
            weights, fit = fit_weights(weighed, truths)
            tried[key] = (fit, weights, weighed)
            print(f"  shape {vals}: log-likelihood {fit:.1f}", flush=True)
        return tried[key]

    moved = True
    while moved:
        moved = False
        for name in SHAPE:
            best = max(SHAPES[name], key=lambda v: at({**values, name: v})[0])
            moved |= best != values[name]
            values[name] = best
    _, weights, weighed = at(values)
    return Shape(**values), weights, weighed


Row = tuple[float, bool, bool, float]
"""Per case: the reading's probability with no side doubt, whether it reads as many dice as
the truth, whether it is right, and the log of its side doubt's factor at power 1
(:func:`vision.doubt.a_top`). (Read at threshold 0, every chosen face is reported; at the
fitted threshold a face is left out only where the reading asks anyway.)"""
Doubted = tuple[float, bool, bool]
"""A :data:`Row` at one side doubt: the reading's probability, as many dice, right."""
SIDE_DOUBTS = np.round(np.arange(0.0, 2.01, 0.1), 2)
"""The side doubts tried."""


def outcomes(cases: list[Case], weighed: list[Weighed], model: ReaderModel,
             palette: Palette) -> list[Row]:
    """Each case's :data:`Row`, read by ``model`` with no side doubt."""
    out = []
    plain, unit = replace(model, side_doubt=0.0), replace(model, side_doubt=1.0)
    for case, w in zip(cases, weighed, strict=True):
        reading = decide(case.seen, w, plain, palette)
        s = score_frame(list(reading.dice), case.truth)
        side = sum(math.log(max(a_top(case.seen.faces[k], unit), 1e-12))
                   for k in reading.chosen)
        out.append((reading.chance, len(reading.dice) == len(case.truth), s.right, side))
    return out


def doubted(rows: list[Row], side_doubt: float) -> list[Doubted]:
    """The rows' probabilities at ``side_doubt``."""
    return [(c * math.exp(side_doubt * side), n, r) for c, n, r, side in rows]


def loss(rows: list[Doubted], t: float, cost: float) -> float:
    """Frames asking at threshold ``t``, and each frame silently wrong as ``cost`` asks."""
    asks = sum(c < t or not n for c, n, _ in rows)
    silent = sum(c >= t and n and not r for c, n, r in rows)
    return asks + cost * silent


def fit_doubt(rows: list[Row], cost: float) -> tuple[float, float]:
    """The side doubt (of :data:`SIDE_DOUBTS`) and threshold that ask least, a silently wrong
    frame costing ``cost`` asks (the smaller side doubt on a tie)."""
    fits = []
    for side_doubt in SIDE_DOUBTS:
        at = doubted(rows, float(side_doubt))
        t = fit_threshold(at, cost)
        fits.append((loss(at, t, cost), float(side_doubt), t))
    _, side_doubt, t = min(fits)
    return side_doubt, t


def fit_threshold(rows: list[Doubted], cost: float) -> float:
    """The threshold that asks least, a silently wrong frame costing ``cost`` asks (the
    smallest on a tie). The loss only changes at the rows' probabilities: each threshold
    tried lies midway between two of them (or at 0 or 1; at the larger of two with no
    number between them)."""
    values = sorted({0.0, 1.0, *(c for c, _, _ in rows)})
    options = [0.0, *(m if (m := (a + b) / 2) > a else b for a, b in pairwise(values)), 1.0]
    return min(options, key=lambda t: (loss(rows, t, cost), t))


TILTS = tuple(float(t) for t in np.arange(0.0, 30.01, 2.5))
"""The tilts tried as :attr:`vision.doubt.ReaderModel.telling_tilt`."""


KEPT_LEVELS = (2.0, 3.0, 5.0, 8.0, 12.0, 18.0)
"""The levels tried for :attr:`vision.doubt.ReaderModel.kept_below`."""


def kept_changes(frames: list[tuple[str, int]]) -> tuple[list[float], list[float]]:
    """Of the dice of ``frames`` that lie where a die of their last roll lay
    (:func:`vision.lastroll.lay_at`; the truth's places), how much each one's square changed
    since (:func:`vision.lastroll.square_change`): of the dice kept (lying just where that
    die lay) and of those thrown onto that place."""
    kept: list[float] = []
    thrown: list[float] = []
    for name, i in frames:
        last = last_roll(name, i)
        if last is None:
            continue
        img, truth, _ = frame(name, i)
        gain = exposure(img, last.frame)
        for t in (t for t in truth if t.visible):
            k = lay_at(t.center, t.size, last.dice)
            if k is None:
                continue
            was = last.dice[k]
            (kept if math.dist(t.center, was[:2]) < 0.05 * t.size else thrown).append(
                square_change(img, last.frame, t.center, t.size, gain))
    return kept, thrown


def kept_level(kept: Sequence[float], thrown: Sequence[float]) -> float:
    """The highest of :data:`KEPT_LEVELS` below which no die thrown onto a die's place counts
    as kept (0 when even the lowest lets one through): a die taken for kept that reads
    otherwise is asked about, so a level too high costs questions; one too low only keeps
    fewer kept dice sure."""
    fit = [level for level in KEPT_LEVELS if all(c >= level for c in thrown)]
    return max(fit, default=0.0)


def fit_kept(frames: list[tuple[str, int]]) -> float:
    """:attr:`vision.doubt.ReaderModel.kept_below`, fitted on ``frames`` (:func:`kept_level`)."""
    kept, thrown = kept_changes(frames)
    level = kept_level(kept, thrown)
    print(f"kept: below {level:g}, {sum(c < level for c in kept)} of {len(kept)} kept dice "
          f"found; none of {len(thrown)} dice thrown onto a die's place taken for kept")
    return level


def fit_telling_tilt(frames: list[tuple[str, int]]) -> float:
    """:attr:`vision.doubt.ReaderModel.telling_tilt`: the one of :data:`TILTS` (the smallest on
    a tie) from which trusting the marked tray's corners for the focal length (else the
    lens's usual :data:`vision.tray.FOCAL`) puts the camera's nadir (:meth:`Tray.nadir`) in
    the truest direction from the frames' dice (towards it a die's side shows: the mean
    angle, over the flat dice more than two sizes from the nadir); each frame's tray tapped
    as a family marks it (:func:`haba_sets.marked_tray`)."""
    errors, dice = np.zeros(len(TILTS)), 0
    for name, i in frames:
        drawn = scene(name, i)
        project, edge = Projector(drawn), drawn.die_size
        below = project.distort(project.project(np.array([(drawn.width / 2,
                                                           drawn.height / 2, 0.0)])))[0]
        flat = [d for d in drawn.dice if d.lift == 0 and d.lean == 0]
        if not flat:
            continue
        tops = project.distort(project.project(np.array([(d.x, d.y, edge) for d in flat])))
        sizes = np.array([project.scale_at(d.x, d.y, edge) * edge for d in flat])
        far = np.linalg.norm(below - tops, axis=1) > 2 * sizes
        if not far.any():
            continue
        true = np.arctan2(*(below - tops[far]).T[::-1])
        tray = marked_tray(drawn, SETS[name][0] + i)  # as bench_haba.py --tray taps it
        told = tray.focal(telling_tilt=0.0)
        tilt = tray.tilt(told) if told is not None else -1.0
        for k, least in enumerate(TILTS):
            nadir = np.array(tray.nadir(told if told is not None and tilt >= least else FOCAL))
            off = np.arctan2(*(nadir - tops[far]).T[::-1]) - true
            errors[k] += float(np.degrees(np.abs(np.angle(np.exp(1j * off)))).sum())
        dice += int(np.sum(far))
    if not dice:
        raise SystemExit("no frame has a flat die: fit the telling tilt on other frames")
    best = TILTS[int(np.argmin(errors))]
    print(f"tray: the nadir's direction from {dice} flat dice off by {errors[0] / dice:.2f}° "
          f"trusting the corners at any tilt, {errors[-1] / dice:.2f}° from {TILTS[-1]:g}°, "
          f"{errors.min() / dice:.2f}° from {best:g}°: telling tilt {best:g}°")
    return best


def fit_outside(cases: list[Case], weighed: list[Weighed], model: ReaderModel,
                palette: Palette) -> float:
    """:attr:`vision.doubt.ReaderModel.outside`: the farthest (in its own sizes, rounded up to
    0.05) that a die read by ``model``, told the count, stands outside the tray marked tight
    around the frame's dice (:func:`haba_sets.tray_around`), over the frames whose four
    corners the frame shows; the focal length as ``model.telling_tilt`` has it. Prints how
    many readings on no die, not told, stand further out."""
    far, dice, frames, beyond_no_die = -math.inf, 0, 0, []
    trays: dict[tuple[str, int], Tray | None] = {}
    for case, w in zip(cases, weighed, strict=True):
        if case.where not in trays:
            trays[case.where] = tray_around(scene(*case.where), case.where[1])
        tray = trays[case.where]
        if tray is None:
            continue
        readings = list(decide(case.seen, w, model, palette).dice)
        beyond = tray.beyond(readings, tray.focal(model.telling_tilt) or FOCAL)
        on_die = [any(math.dist(r.center, t.center) < 0.5 * t.size for t in case.truth)
                  for r in readings]
        if case.told:
            frames += 1
            out = [b for b, d in zip(beyond, on_die, strict=True) if d]
            dice += len(out)
            far = max([far, *out])
        else:
            beyond_no_die += [b for b, d in zip(beyond, on_die, strict=True) if not d]
    if not dice:
        raise SystemExit("no frame shows a tray around its dice: fit the tray's margin on "
                         "other frames")
    outside = math.ceil(far / 0.05 - 1e-9) * 0.05
    dropped = sum(b > outside for b in beyond_no_die)
    print(f"tray: {dice} dice of {frames} frames stand at most {far:.3f} of their sizes outside "
          f"a tray tight around them: margin {outside:.2f}; not told, {dropped} of "
          f"{len(beyond_no_die)} readings on no die stand further out")
    return outside


def figures(label: str, cases: list[Case], weighed: list[Weighed], model: ReaderModel,
            palette: Palette) -> None:
    """The frames' figures read by the fitted ``model``, as the reader reads them."""
    scores = [score_frame(list(decide(c.seen, w, model, palette).dice), c.truth)
              for c, w in zip(cases, weighed, strict=True)]
    print(f"{label}: frames {len(scores)}, right {sum(s.right for s in scores)}, asking "
          f"{sum(s.asks for s in scores)}, silently wrong {sum(s.silent for s in scores)}, "
          f"readings on no die {sum(s.false for s in scores)}")


WAYS = {(True, False): "told", (False, False): "not told",
        (True, True): "told, with the last roll", (False, True): "not told, with the last roll"}
"""The ways a frame is read, as the figures name them: (told, with the last roll)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("frames", nargs="+", help="tuning frames, as set:first-last")
    parser.add_argument("--silent-cost", type=float, default=SILENT_COST)
    parser.add_argument("--out", type=Path, default=MODEL_TOML)
    parser.add_argument("--check", nargs="+", default=[], metavar="SET:FIRST-LAST",
                        help="tuning frames the fit does not use, read by the fitted model "
                             "too: a refit that only fits its own frames shows here")
    parser.add_argument("--tray-only", action="store_true",
                        help="keep the shipped model and fit only the marked tray's numbers "
                             "(its [tray] section: the margin and the telling tilt)")
    parser.add_argument("--kept-only", action="store_true",
                        help="keep the shipped model and fit only its [kept] section (below "
                             "what change a die lying where one lay is that die, kept)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    palette = Palette.default()
    command = "tools/fit_haba_reader.py " + " ".join(args.frames)
    if args.kept_only:
        shipped = ReaderModel.from_toml(MODEL_TOML.read_text(encoding="utf-8"), kept=False)
        model = replace(shipped, kept_below=fit_kept(tuning_frames(args.frames)),
                        kept_fitted_by=command + " --kept-only")
        args.out.write_text(model.to_toml(), encoding="utf-8")
        print(f"wrote {args.out}")
        return
    cases = with_last_rolls(collect(tuning_frames(args.frames), load_box().dice))
    if args.tray_only:
        shipped = ReaderModel.from_toml(MODEL_TOML.read_text(encoding="utf-8"), tray=False,
                                        kept=False)
        cases = [replace(c, seen=tempered(c.seen, shipped.temperature)) for c in cases]
        shipped = replace(shipped, telling_tilt=fit_telling_tilt(tuning_frames(args.frames)))
        outside = fit_outside(cases, weighed_at(cases, shipped.shape, palette.colors),
                              shipped, palette)
        model = replace(shipped, outside=outside, tray_fitted_by=command + " --tray-only")
        args.out.write_text(model.to_toml(), encoding="utf-8")
        print(f"wrote {args.out}")
        return
    temperature = fit_temperature(cases)
    cases = [replace(c, seen=tempered(c.seen, temperature)) for c in cases]
    truths = true_choices(cases)
    shape, weights, weighed = fit_shape(cases, truths, palette.colors)
    model = ReaderModel(weights, shape, 0.0, temperature)
    read = outcomes(cases, weighed, model, palette)
    side_doubt, threshold = fit_doubt(read, args.silent_cost)
    command += (f" --silent-cost {args.silent_cost:g}"
                if args.silent_cost != SILENT_COST else "")
    model = replace(model, threshold=threshold, side_doubt=side_doubt, fitted_by=command,
                    date=datetime.date.today().isoformat())
    model = replace(model, telling_tilt=fit_telling_tilt(tuning_frames(args.frames)))
    model = replace(model, outside=fit_outside(cases, weighed, model, palette),
                    tray_fitted_by=command)
    model = replace(model, kept_below=fit_kept(tuning_frames(args.frames)),
                    kept_fitted_by=command)
    print(f"temperature {temperature:.3f}; weights "
          + ", ".join(f"{t} {w:.3f}" for t, w in zip(TERMS, weights, strict=True))
          + f"; {shape}; side doubt {side_doubt:.2f}; threshold {threshold:.4f}; true choice among "
          f"the choices in {sum(y is not None for y in truths)} of {len(cases)}")
    for (told, last), label in WAYS.items():
        picked = [(c, w) for c, w in zip(cases, weighed, strict=True)
                  if (c.told, c.last) == (told, last)]
        figures(label, [c for c, _ in picked], [w for _, w in picked], model, palette)
    for span in args.check:
        checked = [replace(c, seen=tempered(c.seen, temperature)) for c in
                   with_last_rolls(collect(tuning_frames([span]), load_box().dice))]
        for (told, last), label in WAYS.items():
            part = [c for c in checked if (c.told, c.last) == (told, last)]
            figures(f"check {span}, {label}", part, weighed_at(part, shape, palette.colors),
                    model, palette)
    args.out.write_text(model.to_toml(), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
