"""The rendered HABA frame sets the dice reader is tuned and judged on.

* ``tune``: seeds from 100000, every family except the held-out ones. Thresholds, training
  data and choices are made on these (and on other seeds in the same families).
* ``print``: seeds from 700000, every frame on a printed table (a training-only family,
  ``vision.render.TRAINING_ONLY``), the rest as ``tune``: what training on printed tables does,
  without looking at the held-out tables.
* ``woven``: seeds from 720000, every frame on a woven gingham or tartan cloth (the other
  training-only table family), the rest as ``tune``.
* ``steep``: seeds from 7500000, every frame in the leaning spacing with its dice leaning
  steeply (propped 28-40° or leaning 22-32°: ``scene_for(steep=True)``), the rest as
  ``tune``: the frames the pair network's catch was chosen on (stop 36's steep check set).
* ``table-tune``: seeds from 130000, frames at a real table (``vision.render.table``: the
  citizen cards beside or under the dice, a hand, a desk-arm camera, a warm lamp, a flowered
  cloth, 640x480 to 1920x1080), held-out families left out: what the real table's choices
  are made on.
* ``table``: the real table's judging set, seeds from 930000, every family on every axis,
  the held-out ones among them.
* ``lens-tune``: seeds from 160000, frames at a real table as ``table-tune`` draws them,
  every one through a Raspberry Pi camera module's own lens (``vision.render.table.LENSES``:
  about 60° across, where the tray's frames draw any lens from a phone's to a long one far
  above): near such a lens a die's side shows much more, most at a desk arm's tilt.
* ``lens``: its judging twin, seeds from 950000, every family on every axis, as ``table``.
* ``stress``: the frozen judging set, seeds from 910000, every family on every axis,
  including :data:`HELD_OUT` (two table families and a light family never used while tuning).
  Its third edition: the second's seeds drawn again through the mended lens (a barrel lens
  no longer shows a mirror image of the frame at its edges); the first (seeds from 900000,
  before the stone table existed) and the second are retired with the renderers that drew
  them.

A frame is made from its seed alone, so a set is the same on every machine; rendered
frames are kept (PNG, lossless) in a cache outside the checkout, shared by every clone and
worktree on the machine, one folder per version of the renderer (:data:`CACHE`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from pi.detector import pictures_apart
from pi.simtray import HEIGHT, WIDTH, haba_landing
from rules.errors import TrayError
from vision.lastroll import LastRoll
from vision.render import draw, random_conditions, render_tray, scene_for
from vision.render.camera import Projector
from vision.render.scene import TrayScene, TruthDie
from vision.render.table import table_scene
from vision.tray import Tray

HELD_OUT: dict[str, tuple[str, ...]] = {"table": ("cloth", "stone"), "light": ("warm",)}
"""Families never used while tuning or training: reported on, never tuned on. (Training also
draws families the judging sets never show: ``vision.render.TRAINING_ONLY``.)"""

SETS: dict[str, tuple[int, dict[str, tuple[str, ...]] | None, dict[str, str]]] = {
    "tune": (100_000, HELD_OUT, {}), "print": (700_000, HELD_OUT, {"table": "print"}),
    "woven": (720_000, HELD_OUT, {"table": "woven"}),
    "steep": (7_500_000, HELD_OUT, {"spacing": "leaning"}),
    "stress": (910_000, None, {}),
    "table-tune": (130_000, HELD_OUT, {}),
    "table": (930_000, None, {}),
    "lens-tune": (160_000, HELD_OUT, {"lens": "pi"}),
    "lens": (950_000, None, {"lens": "pi"}),
    "simtray": (20_000, HELD_OUT, {})}
"""Per set: the first seed, the families left out, the family every frame is on per axis."""
JUDGING = frozenset({"stress", "table", "lens"})
"""The judging sets: read to report, never to fit or choose anything on."""
STEEP = frozenset({"steep"})
"""The sets whose leaning dice lean steeply."""
AT_TABLE = frozenset({"table-tune", "table", "lens-tune", "lens"})
"""The sets drawn at a real table (:func:`vision.render.table.table_scene`)."""
SIMTRAY = frozenset({"simtray"})
"""The sets of the simulated tray's landings (:func:`pi.simtray.haba_landing`, 960×720: what
``make run`` shows; a neutral table in daylight, never a held-out family). The cache is the
renderer's: after a change to ``haba_landing`` alone, remove ``simtray*`` from :data:`CACHE`
(its last rolls too)."""
ROOT = Path(__file__).resolve().parents[1]
_SOURCES = sorted(p for p in (ROOT / "vision" / "render").glob("*.py") if p.name != "score.py")
RENDERER = hashlib.sha1(b"".join(p.read_bytes() for p in _SOURCES)).hexdigest()[:10]


def cache_home(environ: Mapping[str, str] = os.environ) -> Path:
    """The folder holding the rendered frames, one folder per renderer in it:
    ``$KOTD_FRAME_CACHE`` if set, else ``kotd/haba-sets`` in ``$XDG_CACHE_HOME`` (an absolute
    path) or in ``~/.cache``. Outside the checkout, as uv's wheels and ``make test``'s mypy
    cache are, so a fresh clone reads the frames an earlier one drew."""
    if environ.get("KOTD_FRAME_CACHE"):
        return Path(environ["KOTD_FRAME_CACHE"]).expanduser()
    xdg = environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "kotd" / "haba-sets"


CACHE = cache_home() / RENDERER
"""Frames of this version of the renderer (a changed renderer starts a new cache; a change to
what this module or ``haba_landing`` draws needs its sets' folders removed)."""


def _keep(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` whole or not at all: into a file of its own in the same
    folder, then renamed over ``path`` (one step), so that processes drawing the same frame at
    once (``make test``'s workers, clones and worktrees) never read half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


def _keep_png(path: Path, img: np.ndarray) -> None:
    ok, png = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    if not ok:
        raise RuntimeError(f"{path}: the picture could not be encoded")
    _keep(path, png.tobytes())


MISSING = object()
"""What :func:`_kept` gives for a file that is not there or cannot be read."""


def _kept(path: Path) -> object:
    """What the pickle at ``path`` holds; :data:`MISSING` when there is none or it cannot be
    read (a damaged file: the caller draws it again)."""
    try:
        return pickle.loads(path.read_bytes())
    except Exception:  # not there, or anything unpickling a damaged file may raise
        return MISSING


def _kept_truth(path: Path) -> tuple[list[TruthDie], TrayScene] | None:
    """A kept frame's truth and scene (its pickle at ``path``); None when there is none or it
    cannot be read whole."""
    kept = _kept(path)
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], TrayScene):
        return kept
    return None


def _kept_png(path: Path) -> np.ndarray | None:
    """The picture at ``path``; None when there is none or it cannot be decoded whole."""
    if not path.exists():
        return None
    img: np.ndarray | None = cv2.imread(str(path), cv2.IMREAD_COLOR)
    return img


def tuning_frames(texts: list[str]) -> list[tuple[str, int]]:
    """``set:first-last`` arguments as (set, frame) pairs, for a tool that fits or chooses
    something: a judging set is refused."""
    out = []
    for text in texts:
        name, _, rng = text.partition(":")
        if name not in SETS or name in JUDGING:
            raise SystemExit(f"{name!r}: fit on tuning sets only: "
                             f"{', '.join(sorted(set(SETS) - JUDGING))}")
        first, _, last = rng.partition("-")
        out += [(name, i) for i in range(int(first), int(last or first) + 1)]
    return out


def _scene(set_name: str, i: int) -> tuple[TrayScene, np.random.Generator]:
    """Frame ``i``'s scene, and its seed's generator as drawing the frame goes on with it."""
    seed, exclude, fixed = SETS[set_name]
    rng = np.random.default_rng(seed + i)
    if set_name in AT_TABLE:
        return table_scene(rng, exclude, force=fixed), rng
    cond = replace(random_conditions(rng, exclude), **fixed)
    return scene_for(rng, cond, steep=set_name in STEEP), rng


def scene(set_name: str, i: int) -> TrayScene:
    """Frame ``i``'s scene, as :func:`frame` gives it, without decoding the picture when the
    frame is kept already."""
    kept = _kept_truth(CACHE / set_name / f"{i:05d}.pickle")
    if kept is not None:
        return kept[1]
    return frame(set_name, i)[2]


def frame(set_name: str, i: int) -> tuple[np.ndarray, list[TruthDie], TrayScene]:
    """Frame ``i`` of a set: its picture, its dice's truth and its scene, read from
    :data:`CACHE`, or drawn (and kept) when it is not there whole."""
    png = CACHE / set_name / f"{i:05d}.png"
    meta = png.with_suffix(".pickle")
    kept = _kept_truth(meta)
    if kept is not None:
        img = _kept_png(png)
        truth, scene = kept
        if img is not None and img.shape[:2] == (scene.height, scene.width):
            return img, truth, scene
    if set_name in SIMTRAY:
        rng = np.random.default_rng(SETS[set_name][0] + i)
        img, scene, truth = haba_landing(rng, WIDTH, HEIGHT)
    else:
        scene, rng = _scene(set_name, i)
        img, truth = render_tray(scene, rng)
    _keep_png(png, img)
    _keep(meta, pickle.dumps((truth, scene)))
    return img, truth, scene


KEPT = 0.25
"""The share of dice a last roll leaves where they lie (kept from that roll)."""
NEW_CARD = 0.4
"""The share of last rolls after which a citizen card was laid anew (a claimed card
replaced by the next one of the pile, not quite where the old one lay)."""
NOISE = 3.0
"""The camera's noise (grey levels) between the two pictures."""


def last_roll(set_name: str, i: int) -> LastRoll | None:
    """Frame ``i``'s table as the last roll left it (:class:`vision.lastroll.LastRoll`): the
    same table, light, cards and camera, drawn with the same random numbers, each die lying
    1.2-5 die sizes from where it lies now showing another face (:data:`KEPT` of them where
    they lie, unchanged), a hand 3-6 die sizes from where it is now; after :data:`NEW_CARD` of
    rolls one citizen card laid anew a little off and turned; the camera's own noise,
    exposure (±5%) and a tremble (0.3 pixels) between the two pictures. The last roll's dice
    are its whole tops in view. None where the roll detector would not hand that picture to
    the reader (:func:`pi.detector.pictures_apart`: here, a hand so big that moving it changes
    half the picture, or a renderer whose random numbers then drew the table anew). For the
    simulated tray's sets, the same tray as the throw before left it (every die laid out
    anew, as ``make run`` throws: :func:`pi.simtray.haba_landing`). Kept in :data:`CACHE`
    beside the frames (a picture not handed to the reader, as ``None``)."""
    png = CACHE / f"{set_name}-last" / f"{i:05d}.png"
    meta = png.with_suffix(".pickle")
    kept = _kept(meta)
    if kept is None:
        return None
    if isinstance(kept, tuple):
        img = _kept_png(png)
        if img is not None:
            return LastRoll(img, kept)
    other = np.random.default_rng([SETS[set_name][0] + i, 1])
    if set_name in SIMTRAY:  # the same tray thrown before: its dice laid out anew
        img, _, truth = haba_landing(other, WIDTH, HEIGHT, on=scene(set_name, i))
    else:
        img, truth = _moved(set_name, i, other)
    places = tuple((t.center[0], t.center[1], t.size) for t in truth if t.visible)
    apart = pictures_apart(img, frame(set_name, i)[0])
    _keep_png(png, img)
    _keep(meta, pickle.dumps(None if apart else places))
    return None if apart else LastRoll(img, places)


def _moved(set_name: str, i: int, other: np.random.Generator
           ) -> tuple[np.ndarray, list[TruthDie]]:
    """Frame ``i``'s table as the last roll left it (:func:`last_roll`), drawn with ``other``'s
    random numbers for what moved: the picture and its dice."""
    now, rng = _scene(set_name, i)
    dice = []
    for d in now.dice:
        if other.random() < KEPT:
            dice.append(d)
            continue
        turn, far = other.uniform(0, 2 * np.pi), other.uniform(1.2, 5.0) * now.die_size
        dice.append(replace(d, x=d.x + far * np.cos(turn), y=d.y + far * np.sin(turn),
                            value=int(other.integers(1, 7)), angle=float(other.uniform(0, 90)),
                            lift=0.0, lean=0.0))
    things = list(now.distractors)
    for k, t in enumerate(things):
        if t.kind == "hand":
            turn, far = other.uniform(0, 2 * np.pi), other.uniform(3.0, 6.0) * now.die_size
            things[k] = replace(t, x=t.x + far * np.cos(turn), y=t.y + far * np.sin(turn))
    cards = [k for k, t in enumerate(things) if t.kind == "citizen"]
    if cards and other.random() < NEW_CARD:
        k = cards[int(other.integers(len(cards)))]
        off = other.uniform(0.1, 0.4) * things[k].scale * now.die_size
        turn = other.uniform(0, 2 * np.pi)
        things[k] = replace(things[k], x=things[k].x + off * np.cos(turn),
                            y=things[k].y + off * np.sin(turn),
                            angle=things[k].angle + float(other.uniform(-6, 6)))
    img, truth = render_tray(replace(now, dice=tuple(dice), distractors=tuple(things)), rng)
    shift = np.array([[1, 0, other.normal(0, 0.3)], [0, 1, other.normal(0, 0.3)]], np.float32)
    img = cv2.warpAffine(img, shift, (img.shape[1], img.shape[0]),
                         borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    img = img * other.uniform(0.95, 1.05) + other.normal(0, NOISE, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), truth


def _last_roll(args: tuple[str, int]) -> None:
    last_roll(*args)


def last_rolls(set_name: str, count: int, start: int = 0, workers: int = 2) -> None:
    """Draws the last rolls of frames ``start`` .. ``start + count - 1`` (kept in the cache)."""
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_last_roll, [(set_name, i) for i in range(start, start + count)],
                      chunksize=4))


def in_view(set_name: str, i: int) -> list[float]:
    """How much of each truth die's top face is not covered (0-1, in the order of the frame's
    truth; a die under a hand or another die shows less; of a die cut by the frame's edge, the
    part inside the frame is measured): the renderer's own measure, which the truth keeps only
    as ``visible`` (inside the frame and more than 0.9 uncovered), taken while the frame is
    drawn again from its seed, and kept beside the frame."""
    if set_name in SIMTRAY:  # the tray's walls keep every die whole in view
        return [1.0] * len(frame(set_name, i)[1])
    kept = CACHE / set_name / f"{i:05d}.in-view.pickle"
    known = _kept(kept)
    if isinstance(known, list):
        return known
    scene, rng = _scene(set_name, i)
    seen: dict[int, tuple[float, np.ndarray]] = {}
    measure = draw._visible_share

    def record(owner: np.ndarray, quad: np.ndarray, index: int) -> float:
        seen[index] = (measure(owner, quad, index), quad)
        return seen[index][0]

    draw._visible_share = record
    try:
        img, truth = draw.render_tray(scene, rng)
    finally:
        draw._visible_share = measure
    h, w = img.shape[:2]
    project = Projector(scene)
    shares = [share for index, (share, quad) in sorted(seen.items())
              if 0 <= (c := project.distort(quad).mean(axis=0))[0] < w and 0 <= c[1] < h]
    if len(shares) != len(truth):
        raise RuntimeError(f"{set_name} {i}: {len(shares)} shares for {len(truth)} dice")
    _keep(kept, pickle.dumps(shares))
    return shares


TAP = 0.005
"""How far a tap on the page's live view lands from a tray's corner: this share of the frame's
width (a standard deviation; 6 pixels of a 1280-wide frame shown on a phone)."""


def marked_tray(scene: TrayScene, seed: int) -> Tray:
    """The tray as a family marks it at calibration: the four corners, tapped with
    :data:`TAP`, of the largest rectangle on the table (its sides 5:4 to 8:5, drawn from
    ``seed``) around the middle of the view that the frame shows whole. (A set's dice lie
    anywhere in view, so the tray is what tells the camera's angle here, not where dice
    may lie.)"""
    rng = np.random.default_rng(seed)
    project = Projector(scene)
    w, h = scene.width, scene.height
    cx, cy = project.to_table(np.array([[w / 2, h / 2]]))[0]
    aspect = rng.uniform(1.25, 1.6)

    def corners(k: float) -> np.ndarray:
        table = np.array([(cx + sx * aspect * k, cy + sy * k, 0.0)
                          for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        seen: np.ndarray = project.distort(project.project(table))
        return seen

    def shown(k: float) -> bool:
        q = corners(k)
        return bool((q[:, 0] > 0.03 * w).all() and (q[:, 0] < 0.97 * w).all()
                    and (q[:, 1] > 0.03 * h).all() and (q[:, 1] < 0.97 * h).all())

    # the largest rectangle whose corners the frame shows, 3% in: grown from a die's size
    # (far out a barrel lens's formula folds points back into the frame)
    lo = scene.die_size
    while shown(2 * lo) and lo < 1000 * scene.die_size:
        lo *= 2
    hi = 2 * lo
    for _ in range(30):
        k = (lo + hi) / 2
        lo, hi = (k, hi) if shown(k) else (lo, k)
    return _tapped(corners(lo), rng, w, h)


def _tapped(corners: np.ndarray, rng: np.random.Generator, w: int, h: int) -> Tray:
    """The tray whose ``corners`` (frame pixels) are each tapped with :data:`TAP`."""
    tapped = np.clip(corners + rng.normal(0.0, TAP * w, (4, 2)), 0, (w, h))
    return Tray.mark([(float(x), float(y)) for x, y in tapped], w, h)


def tray_around(scene: TrayScene, seed: int) -> Tray | None:
    """The tray as a family marks it whose dice lie tight against its walls: the rectangle
    on the table around the dice's centres, half a die edge out, its corners tapped with
    :data:`TAP`; None when the frame does not show all four corners."""
    if not scene.dice:
        return None
    project = Projector(scene)
    table = around([d.x for d in scene.dice], [d.y for d in scene.dice], scene.die_size / 2)
    return shown_tray(project.distort(project.project(table)), scene.width, scene.height,
                      np.random.default_rng(seed))


def around(xs: Sequence[float], ys: Sequence[float], half: float) -> np.ndarray:
    """The corners on the table (x, y, 0) of the rectangle around points ``xs``, ``ys``,
    ``half`` out, in order around it."""
    x0, x1, y0, y1 = min(xs) - half, max(xs) + half, min(ys) - half, max(ys) + half
    return np.array([(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)])


def shown_tray(corners: np.ndarray, w: int, h: int,
               rng: np.random.Generator | None = None) -> Tray | None:
    """The tray whose corners a ``w`` x ``h`` frame shows at ``corners`` (pixels), each
    tapped with :data:`TAP` when ``rng`` is given; None when one lies outside the frame or
    they outline no tray."""
    if not ((corners >= 0).all() and (corners[:, 0] <= w).all() and (corners[:, 1] <= h).all()):
        return None
    try:
        return (_tapped(corners, rng, w, h) if rng is not None
                else Tray.mark([(float(x), float(y)) for x, y in corners], w, h))
    except TrayError:
        return None


def _in_view(args: tuple[str, int]) -> list[float]:
    return in_view(*args)


def in_views(set_name: str, count: int, start: int = 0, workers: int = 2
             ) -> dict[int, list[float]]:
    """:func:`in_view` of frames ``start .. start+count-1``, by ``workers`` processes."""
    jobs = [(set_name, i) for i in range(start, start + count)]
    with ProcessPoolExecutor(workers) as pool:
        return dict(zip(range(start, start + count), pool.map(_in_view, jobs, chunksize=4),
                        strict=True))


def _frame(args: tuple[str, int]) -> tuple[np.ndarray, list[TruthDie], TrayScene]:
    return frame(*args)


def frames(set_name: str, count: int, start: int = 0, workers: int = 2
           ) -> Iterator[tuple[int, np.ndarray, list[TruthDie], TrayScene]]:
    """Frames ``start .. start+count-1`` of a set, rendered by ``workers`` processes."""
    jobs = [(set_name, i) for i in range(start, start + count)]
    if workers <= 1:
        for i, job in zip(range(start, start + count), jobs, strict=True):
            yield (i, *_frame(job))
        return
    with ProcessPoolExecutor(workers) as pool:
        for i, out in zip(range(start, start + count), pool.map(_frame, jobs, chunksize=4),
                          strict=True):
            yield (i, *out)
