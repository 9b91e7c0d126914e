"""Train the two small networks that find and read HABA dice (:mod:`vision.habanet`).

    .venv/bin/python tools/train_haba_net.py data --frames 1650   # render training frames
    .venv/bin/python tools/train_haba_net.py data --table print --frames 450  # printed tables
    .venv/bin/python tools/train_haba_net.py finder --steps 6000  # train + export the finder
    .venv/bin/python tools/train_haba_net.py mine --frames 2400   # the finder's own mistakes
    .venv/bin/python tools/train_haba_net.py mine --table print --frames 600
    .venv/bin/python tools/train_haba_net.py pips --steps 2000    # train + export the reader

(the commands that made the first shipped models; the shipped ones were then fine-tuned for
the real table, each step's command in ``docs/log/2026-11-28-issue-44-table.md``;
``--start vision/models/haba_pips.onnx`` fine-tunes a shipped network instead of training
afresh; ``--table woven`` draws the woven gingham and
tartan cloths, a training-only family the shipped networks were not trained on: see
BENCHMARKS.md). Needs PyTorch (``pip install -e '.[train]'``:
torch 2.13.0 CPU build, onnx, onnxscript); the
assistant itself never imports it. Training frames come from :mod:`vision.render` with
seeds of their own (:data:`SEEDS`) and never from the held-out families of
``benchmarks/haba_sets.py``, so the judging set's seeds and its held-out table and light
families are never seen while training. ``--family F`` (or ``--table F``) draws every frame
of family ``F`` on whichever axis names it (its own seeds and shards), e.g. the
training-only printed tables (``vision.render.TRAINING_ONLY``), the leaning dice, ``steep``
(dice leaning steeply) or the real table (``at-table``, and its flowered cloth and hands over
a die on every frame: ``at-table-floral``, ``at-table-covering``). Rendered frames are kept
in ``.cache/haba-train/<the renderer's hash>`` (``haba_sets.RENDERER``: a changed renderer
draws them again); frames mined with the networks, or scaled for the finder by code since
changed, are not told apart: delete them then.

**After exporting** the pip reader, make its eight-bit copy again
(``tools/quantize_haba_nets.py``: a copy made from an older network is not run) and fit the
reader's model again (``tools/fit_haba_reader.py``).

**Formats.** Each network's input format (:mod:`vision.netformat`) is written into the
``[finder]`` or ``[pips]`` section of ``haba_nets.toml`` beside the exported network, with
the command that made it, the other sections kept. A new training takes its format from
options whose defaults are the card's: ``data --finder-size N`` renders the finder's frames
scaled to N pixels (kept with the shards: ``finder`` trains and states that size),
``--finder-offset``, ``--pips-offset`` the channels' offset (:func:`vision.habanet.normalise`),
``pips --pips-crop N --pips-margin M`` the pip reader's crop. The finder's stride and padding
are its architecture's (:class:`Finder`), and the sizes of dice it sees best (``zoom_below``,
``far_above``, ...: measured on a trained finder), carried over from the card.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from haba_sets import HELD_OUT, RENDERER  # noqa: E402

from vision.habanet import (  # noqa: E402
    FINDER_ONNX,
    PIPS_ONNX,
    face_angle,
    face_crop,
    finder_input,
    normalise,
)
from vision.netformat import (  # noqa: E402
    FinderFormat,
    HabaFormats,
    PipFormat,
    add_options,
    card_beside,
    from_options,
    haba_formats,
    write_section,
)
from vision.render import AXES, TRAINING_ONLY, random_conditions, render_tray, scene_for  # noqa: E402
from vision.render.generate import Conditions  # noqa: E402
from vision.render.scene import TrayScene  # noqa: E402
from vision.render.table import table_scene  # noqa: E402

SEEDS = {("data", None): 300_000, ("mine", None): 400_000,
         ("data", "print"): 500_000, ("mine", "print"): 600_000,
         ("data", "woven"): 520_000, ("mine", "woven"): 620_000,
         ("data", "leaning"): 200_000, ("mine", "leaning"): 250_000,
         ("data", "at-table"): 540_000, ("mine", "at-table"): 640_000,
         ("data", "at-table-floral"): 560_000, ("mine", "at-table-floral"): 660_000,
         ("data", "at-table-covering"): 580_000, ("mine", "at-table-covering"): 680_000,
         ("data", "steep"): 590_000, ("mine", "steep"): 690_000,
         ("data", "at-table-pi-lens"): 595_000, ("mine", "at-table-pi-lens"): 695_000,
         ("data", "at-table-pi-desk-arm"): 597_000, ("mine", "at-table-pi-desk-arm"): 697_000,
         ("data", "at-table-pi-cards"): 598_000, ("mine", "at-table-pi-cards"): 698_000}
"""The first seed of each kind of training frame (per step and family drawn on every frame)."""
CACHE = ROOT / ".cache" / "haba-train" / RENDERER
SHARD = 50
PATCH = 96
"""Stored patches are this wide, the face :data:`PATCH_FACE` pixels across, upright."""
PATCH_FACE = 48 / 1.3
"""The stored patches' own scale, fixed when they were rendered (the pip crop's face at a
48-pixel crop 1.3 faces wide): any pip crop is cut from them (:func:`_pip_sample`)."""
COUNTED, LEANING, HIDDEN = 0, 1, 2
OPSET = 11
"""The ONNX opset the HABA networks are exported in (Debian's OpenCV 4.6 reads it)."""

# ---------------------------------------------------------------- data


def _patch(frame: np.ndarray, center, side: float, angle: float) -> np.ndarray:
    return face_crop(frame, center, side, angle, PATCH, PATCH / PATCH_FACE)


def _conditions(rng: np.random.Generator, family: str | None) -> tuple[Conditions, int]:
    """A training frame's families (never a held-out one; ``family`` on its axis, when
    given) and how many dice it shows."""
    n = int(rng.choice([6] * 8 + [0, 1, 2, 3, 4, 5]))
    cond = random_conditions(rng, HELD_OUT)
    if family is None:
        return cond, n
    axis = next(a for a, names in {**AXES, **TRAINING_ONLY}.items() if family in names)
    return replace(cond, **{axis: family}), n


AT_TABLE_FRAMES = ("640x480", "1280x960")
"""Frame sizes of the real table's training frames (one finder input shape: 4:3)."""


AT_TABLE_TRAINING: dict[str, dict[str, str]] = {
    "at-table": {}, "at-table-floral": {"table": "floral"},
    "at-table-covering": {"hand": "covering"}, "at-table-pi-lens": {"lens": "pi"},
    "at-table-pi-desk-arm": {"lens": "pi", "camera": "desk-arm"},
    "at-table-pi-cards": {"lens": "pi", "citizens": "over"}}
"""Training families of the real table (:mod:`vision.render.table`), each with the family it
forces on an axis: the flowered cloth and the hand lying over a die get frames of their own
(the hardest parts of the real table, too rare among ``at-table``'s frames), and so does the
Raspberry Pi camera's own lens (never drawn at random), on any camera mount or a desk arm's,
and with the citizen cards reaching under the dice, their printed dice beside real ones."""


def _scene(rng: np.random.Generator, family: str | None, n: int | None = None) -> TrayScene:
    """A training scene: ``at-table*`` draws a real table (:data:`AT_TABLE_TRAINING`: the
    citizen cards, a hand, a desk arm, a lamp, a flowered cloth; never a held-out family),
    ``steep`` the leaning spacing with its dice leaning steeply (``scene_for(steep=True)``:
    a propped die's side as square as its top), any other family as :func:`_conditions`."""
    if family == "steep":
        cond, count = _conditions(rng, "leaning")
        return scene_for(rng, cond, n_dice=count if n is None else n, steep=True)
    if family in AT_TABLE_TRAINING:
        count = int(rng.choice([6] * 8 + [0, 1, 2, 3, 4, 5])) if n is None else n
        return table_scene(rng, HELD_OUT, n_dice=count, frames=AT_TABLE_FRAMES,
                           force=AT_TABLE_TRAINING[family])
    cond, count = _conditions(rng, family)
    return scene_for(rng, cond, n_dice=count if n is None else n)


def _shard_name(step: str, family: str | None) -> str:
    return step if family is None else step + family


def _render_one(family: str | None, finder: FinderFormat, i: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One training frame: finder input (as ``finder`` sees it), its dice, and upright
    patches with labels."""
    rng = np.random.default_rng(SEEDS["data", family] + i)
    scene = _scene(rng, family)
    frame, truth = render_tray(scene, rng)
    small, scale = finder_input(frame, fmt=finder)
    dice, patches, labels = [], [], []
    sides = [t.size for t in truth] or [scene.die_size]
    for t in truth:
        kind = HIDDEN if not t.visible else (LEANING if t.leaning else COUNTED)
        a = face_angle(np.array(t.outline))
        dice.append((t.center[0] * scale, t.center[1] * scale, t.size * scale, a, t.value, kind))
        if kind != HIDDEN:
            patches.append(_patch(frame, t.center, t.size, a))
            labels.append(t.value)
    h, w = frame.shape[:2]
    centres = np.array([t.center for t in truth]).reshape(-1, 2)
    side = float(np.median(sides))
    negatives = []
    for d in scene.distractors:  # things that are not dice
        if d.kind in ("coin", "token", "card", "citizen"):
            from vision.render.camera import Projector

            p = Projector(scene).project(np.array([[d.x, d.y, 0.0]]))[0]
            negatives.append((p, side * rng.uniform(0.8, 1.3)))
    for t in truth[:3]:  # a die's corner, a piece of a face
        c = np.array(t.outline[int(rng.integers(4))])
        negatives.append((c, t.size * rng.uniform(0.8, 1.2)))
        inner = np.array(t.center) + rng.uniform(-0.25, 0.25, 2) * t.size
        negatives.append((inner, t.size * rng.uniform(0.35, 0.5)))
    for a in range(len(truth)):  # between touching dice
        for b in range(a + 1, len(truth)):
            if math.dist(truth[a].center, truth[b].center) < 1.3 * side:
                negatives.append(((np.array(truth[a].center) + truth[b].center) / 2, side))
    for _ in range(4):  # the table
        for _try in range(20):
            p = rng.uniform([0, 0], [w, h])
            if len(centres) == 0 or np.min(np.hypot(*(centres - p).T)) > 1.3 * side:
                negatives.append((p, side * rng.uniform(0.8, 1.3)))
                break
    for p, s in negatives:
        patches.append(_patch(frame, tuple(p), float(s), float(rng.uniform(0, 90))))
        labels.append(0)
    return (small, np.array(dice, np.float32).reshape(-1, 6),
            np.array(patches, np.uint8).reshape(-1, PATCH, PATCH, 3), np.array(labels, np.int64))


def _in_shards(name: str, frames: int, workers: int, job: Callable[[int], Any],
               arrays: Callable[[list[Any]], dict[str, np.ndarray]]) -> None:
    """Run ``job`` on frames ``0 .. frames-1`` in shards of :data:`SHARD`, each saved as
    ``<name>###.npz`` (the ``arrays`` of its results); a shard already saved is skipped."""
    CACHE.mkdir(parents=True, exist_ok=True)
    shards = math.ceil(frames / SHARD)
    for k in range(shards):
        path = CACHE / f"{name}{k:03d}.npz"
        if path.exists():
            continue
        t = time.time()
        ids = range(k * SHARD, min(frames, (k + 1) * SHARD))
        with ProcessPoolExecutor(workers) as pool:
            out = list(pool.map(job, ids, chunksize=2))
        np.savez(path.with_suffix(".tmp.npz"), **arrays(out))
        path.with_suffix(".tmp.npz").rename(path)
        print(f"{name} {k + 1}/{shards}: {time.time() - t:.0f} s", flush=True)


def make_data(frames: int, workers: int, family: str | None, finder: FinderFormat) -> None:
    """Training frames with their dice and pip patches (``shard###.npz``, ``data<family>###``
    for frames all of one family), the frames scaled as ``finder`` sees them (its size kept
    with each shard)."""
    name = "shard" if family is None else _shard_name("data", family)
    _in_shards(name, frames, workers, partial(_render_one, family, finder), lambda out: {
        "finder_size": np.array(finder.size),
        "images": np.stack([o[0] for o in out]),
        "dice": np.concatenate([o[1] for o in out]),
        "offsets": np.cumsum([0] + [len(o[1]) for o in out]),
        "patches": np.concatenate([o[2] for o in out]),
        "labels": np.concatenate([o[3] for o in out])})


MINED_WEIGHT = 3


def _mine_one(family: str | None, i: int) -> tuple[np.ndarray, np.ndarray]:
    """Patches where the current networks' finder looks, on a frame of its own seed: every
    peak on no die is a hard "not a die", every peak on a die that die's value as found."""
    from vision.habanet import HINT_PEAK, HabaNet

    net = _MINER.get("net") or _MINER.setdefault("net", HabaNet())
    rng = np.random.default_rng(SEEDS["mine", family] + i)
    frame, truth = render_tray(_scene(rng, family), rng)
    patches, labels = [], []
    for f in net.find(frame, HINT_PEAK):
        near = min(truth, key=lambda t: math.dist(t.center, f.center), default=None)
        if near is not None and math.dist(near.center, f.center) < 0.4 * near.size:
            if not near.visible or near.leaning:
                continue  # a reader may skip it or read it: no lesson either way
            label = near.value
        else:
            label = 0
        patches.append(_patch(frame, f.center, f.side, f.angle))
        labels.append(label)
    return (np.array(patches, np.uint8).reshape(-1, PATCH, PATCH, 3),
            np.array(labels, np.int64))


_MINER: dict[str, object] = {}


def mine(frames: int, workers: int, family: str | None) -> None:
    """Hard examples for the pip reader from the finder as trained (``mine###.npz``,
    ``mine<family>###`` for frames all of one family)."""
    _in_shards(_shard_name("mine", family), frames, workers, partial(_mine_one, family),
               lambda out: {"patches": np.concatenate([o[0] for o in out]),
                            "labels": np.concatenate([o[1] for o in out])})


def load_data() -> dict[str, list[np.ndarray]]:
    """The rendered and mined shards; ``finder_size``: the sizes the frames were scaled to
    (shards from before it was kept: the card's, which they were made with)."""
    data: dict[str, list[np.ndarray]] = {"images": [], "dice": [], "patches": [], "labels": [],
                                         "finder_size": []}
    for path in sorted(CACHE.glob("shard???.npz")) + sorted(CACHE.glob("data*[0-9].npz")):
        with np.load(path) as z:
            images, dice, offsets = z["images"], z["dice"], z["offsets"]
            size = z["finder_size"] if "finder_size" in z else haba_formats().finder.size
            data["finder_size"].append(np.array(size))
            data["patches"].append(z["patches"])
            data["labels"].append(z["labels"])
        for i in range(len(images)):
            data["images"].append(images[i])
            data["dice"].append(dice[offsets[i]:offsets[i + 1]])
    for path in sorted(CACHE.glob("mine*[0-9].npz")):
        with np.load(path) as z:  # the finder's own mistakes weigh more: seen MINED_WEIGHT
            data["patches"] += [z["patches"]] * MINED_WEIGHT
            data["labels"] += [z["labels"]] * MINED_WEIGHT
    return data


# ---------------------------------------------------------------- networks

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402
from torch_parts import conv, export, freeze_norms, load_exported  # noqa: E402


class Finder(nn.Module):
    """Stride-32 encoder with lateral connections back to stride 4; six output maps."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = conv(3, 12, 2)
        self.s4 = nn.Sequential(conv(12, 24, 2), conv(24, 24))
        self.s8 = nn.Sequential(conv(24, 40, 2), conv(40, 40))
        self.s16 = nn.Sequential(conv(40, 56, 2), conv(56, 56))
        self.s32 = nn.Sequential(conv(56, 72, 2), conv(72, 72))
        self.lat32 = nn.Conv2d(72, 48, 1)
        self.lat16 = nn.Conv2d(56, 48, 1)
        self.up16 = conv(48, 40)
        self.lat8 = nn.Conv2d(40, 40, 1)
        self.up8 = conv(40, 32)
        self.lat4 = nn.Conv2d(24, 32, 1)
        self.up4 = conv(32, 24)
        self.head = nn.Conv2d(24, 6, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.s2(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        y = self.up16(F.interpolate(self.lat32(x32), scale_factor=2.0) + self.lat16(x16))
        y = self.up8(F.interpolate(y, scale_factor=2.0) + self.lat8(x8))
        y = self.up4(F.interpolate(y, scale_factor=2.0) + self.lat4(x4))
        return self.head(y)


class PipNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv(3, 24, 2), conv(24, 32), nn.MaxPool2d(2), conv(32, 48), nn.MaxPool2d(2),
            conv(48, 64), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
            nn.Linear(64, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


# ---------------------------------------------------------------- augmentation


def jitter_light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A global gain, per-channel cast and gamma, as another camera might add."""
    f = img.astype(np.float32) / 255.0
    f = f ** rng.uniform(0.8, 1.25)
    f *= rng.uniform(0.7, 1.3) * rng.uniform(0.85, 1.15, 3)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.0))
    f += rng.normal(0, rng.uniform(0, 0.02), f.shape)
    return np.clip(f * 255, 0, 255).astype(np.uint8)


def _dihedral(img: np.ndarray, dice: np.ndarray, k: int, flip: bool
              ) -> tuple[np.ndarray, np.ndarray]:
    """Turn the finder image by k quarter turns (and mirror it) with its dice."""
    d = dice.copy()
    h, w = img.shape[:2]
    if flip:
        img = img[:, ::-1]
        d[:, 0] = w - d[:, 0]
        d[:, 3] = (-d[:, 3]) % 90
    for _ in range(k % 4):  # 90 degrees clockwise on screen
        h, w = img.shape[:2]
        img = np.rot90(img, -1)
        x, y = d[:, 0].copy(), d[:, 1].copy()
        d[:, 0], d[:, 1] = h - y, x
    return np.ascontiguousarray(img), d


STRIDE = haba_formats().finder.stride
"""The finder's output stride (its architecture's, :class:`Finder`; as the card says)."""


def finder_target(dice: np.ndarray, shape: tuple[int, int]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat map, regression targets and their weights on the output grid."""
    gh, gw = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((gh, gw), np.float32)
    ignore = np.zeros((gh, gw), np.float32)
    reg = np.zeros((5, gh, gw), np.float32)
    wreg = np.zeros((gh, gw), np.float32)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for cx, cy, side, angle, _value, kind in dice:
        gx, gy = cx / STRIDE, cy / STRIDE
        r = max(0.7, side / STRIDE / 5)
        g = np.exp(-((xs + 0.5 - gx) ** 2 + (ys + 0.5 - gy) ** 2) / (2 * r * r))
        if kind == HIDDEN:
            ignore = np.maximum(ignore, (g > 0.05).astype(np.float32))
            continue
        heat = np.maximum(heat, g)
        i, j = int(gy), int(gx)
        if 0 <= i < gh and 0 <= j < gw:
            heat[i, j] = 1.0  # the cell holding the centre is the peak
        t = math.radians(angle) * 4
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                ii, jj = i + di, j + dj
                if 0 <= ii < gh and 0 <= jj < gw:
                    reg[:, ii, jj] = (gx - jj - 0.5, gy - ii - 0.5, math.log(side), math.cos(t),
                                      math.sin(t))
                    wreg[ii, jj] = 1.0 if (di, dj) == (0, 0) else 0.3
    return np.stack([heat, ignore]), reg, wreg


def focal(logit: torch.Tensor, heat: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.ge(0.99).float()
    neg = (1 - pos) * (1 - ignore)
    lp = -torch.log(p) * (1 - p) ** 2 * pos
    ln = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg
    return (lp.sum() + ln.sum()) / pos.sum().clamp(min=1)


def _window(img: np.ndarray, dice: np.ndarray, rng: np.random.Generator,
            size: tuple[int, int] = (192, 256)) -> tuple[np.ndarray, np.ndarray]:
    """A random window of the finder image (the network is fully convolutional)."""
    h, w = img.shape[:2]
    y0 = int(rng.integers(0, h - size[0] + 1)) // STRIDE * STRIDE
    x0 = int(rng.integers(0, w - size[1] + 1)) // STRIDE * STRIDE
    d = dice.copy()
    d[:, 0] -= x0
    d[:, 1] -= y0
    return img[y0:y0 + size[0], x0:x0 + size[1]], d


def _started(net: nn.Module, start: Path | None) -> tuple[nn.Module, bool]:
    """``net`` from scratch, from the weights an earlier run saved (``*.pt``), or from an
    exported network (``*.onnx``, e.g. the shipped one in ``vision/models/``: its batch
    norms are folded into the convolutions, so they stay as loaded while fine-tuning);
    and whether its batch norms stay frozen."""
    if start is None:
        return net, False
    if start.suffix == ".onnx":
        return load_exported(net, start), True
    net.load_state_dict(torch.load(start))
    return net, False


def _train_mode(net: nn.Module, frozen: bool) -> None:
    net.train()
    if frozen:
        freeze_norms(net)


def train_finder(data: dict, steps: int, fmt: FinderFormat, batch: int = 8, seed: int = 1,
                 start: Path | None = None) -> FinderFormat:
    """Train (or fine-tune ``start``) and export the finder; its format: ``fmt`` at the size
    the frames were scaled to."""
    sizes = {int(s) for s in data["finder_size"]}
    if len(sizes) != 1:
        raise SystemExit(f"the shards' frames were scaled to {sorted(sizes)} pixels: render "
                         "them again at one size (data --finder-size N)")
    fmt = replace(fmt, size=sizes.pop())
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    images, dice = data["images"], data["dice"]
    net, frozen = _started(Finder(), start)
    lr = 1e-3 if frozen else 3e-3  # fine-tuning a shipped network: a third of the rate
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=0.1)
    _train_mode(net, frozen)
    t0 = time.time()
    for step in range(steps):
        xs, heats, regs, wregs = [], [], [], []
        for _ in range(batch):
            k = int(rng.integers(len(images)))
            img, d = _dihedral(images[k], dice[k], int(rng.integers(4)), bool(rng.random() < .5))
            if img.shape[0] > img.shape[1]:  # keep batches one shape: landscape
                img, d = _dihedral(img, d, 1, False)
            img, d = _window(img, d, rng)
            img = jitter_light(img, rng)
            xs.append(normalise(img, fmt.offset).transpose(2, 0, 1))
            hm, reg, wreg = finder_target(d, img.shape[:2])
            heats.append(hm)
            regs.append(reg)
            wregs.append(wreg)
        x = torch.from_numpy(np.stack(xs))
        hm = torch.from_numpy(np.stack(heats))
        reg = torch.from_numpy(np.stack(regs))
        wreg = torch.from_numpy(np.stack(wregs))
        out = net(x)
        loss_h = focal(out[:, 0], hm[:, 0], hm[:, 1])
        wsum = wreg.sum().clamp(min=1)
        loss_o = (F.smooth_l1_loss(out[:, 1:3], reg[:, 0:2], reduction="none").sum(1)
                  * wreg).sum() / wsum
        loss_s = (F.smooth_l1_loss(out[:, 3], reg[:, 2], reduction="none") * wreg).sum() / wsum
        loss_a = (F.smooth_l1_loss(out[:, 4:6], reg[:, 3:5], reduction="none").sum(1)
                  * wreg).sum() / wsum
        loss = loss_h + loss_o + 2 * loss_s + loss_a
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"finder {step}/{steps}: heat {loss_h.item():.3f} off {loss_o.item():.3f} "
                  f"size {loss_s.item():.3f} angle {loss_a.item():.3f} "
                  f"({time.time() - t0:.0f} s)", flush=True)
        if step % 250 == 249:  # a snapshot to look at while training goes on
            export(net, (1, 3, 288, 384), CACHE / "finder-latest.onnx", OPSET)
            _train_mode(net, frozen)
    torch.save(net.state_dict(), CACHE / "finder.pt")
    export(net, (1, 3, 288, 384), FINDER_ONNX, OPSET)
    return fmt


def _pip_sample(patch: np.ndarray, rng: np.random.Generator, fmt: PipFormat) -> np.ndarray:
    """A crop as the reader of format ``fmt`` sees it, from a stored upright patch, found a
    little off."""
    c = PATCH / 2 + rng.normal(0, 0.08, 2) * PATCH_FACE
    side = PATCH_FACE * math.exp(rng.uniform(-0.29, 0.29))  # the finder's size: 0.75-1.33
    turn = rng.normal(0, 4) if rng.random() < 0.9 else rng.uniform(-20, 20)
    angle = turn + 90 * int(rng.integers(4))
    img = patch[:, ::-1] if rng.random() < 0.5 else patch
    crop = face_crop(np.ascontiguousarray(img), (float(c[0]), float(c[1])), side, angle,
                     fmt.crop, fmt.margin)
    return jitter_light(crop, rng)


def train_pips(data: dict, steps: int, fmt: PipFormat, batch: int = 96, seed: int = 2,
               start: Path | None = None) -> PipFormat:
    """Train (or fine-tune ``start``) and export the pip reader on crops of format ``fmt``."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    patches = np.concatenate(data["patches"])
    labels = np.concatenate(data["labels"])
    print(f"pip patches: {len(labels)}, classes {np.bincount(labels, minlength=7).tolist()}")
    net, frozen = _started(PipNet(), start)
    lr = 1e-3 if frozen else 3e-3
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=0.1)
    _train_mode(net, frozen)
    t0 = time.time()
    dice_idx, other_idx = np.nonzero(labels > 0)[0], np.nonzero(labels == 0)[0]
    for step in range(steps):
        n_other = batch * 3 // 10  # a third of each batch is "not a die"
        idx = np.concatenate([rng.choice(dice_idx, batch - n_other),
                              rng.choice(other_idx, n_other)])
        x = np.stack([normalise(_pip_sample(patches[i], rng, fmt), fmt.offset).transpose(2, 0, 1)
                      for i in idx])
        out = net(torch.from_numpy(x))
        loss = F.cross_entropy(out, torch.from_numpy(labels[idx]), label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            acc = (out.argmax(1).numpy() == labels[idx]).mean()
            print(f"pips {step}/{steps}: loss {loss.item():.3f} acc {acc:.3f} "
                  f"({time.time() - t0:.0f} s)", flush=True)
        if step % 250 == 249:
            export(net, (1, 3, fmt.crop, fmt.crop), CACHE / "pips-latest.onnx", OPSET)
            _train_mode(net, frozen)
    torch.save(net.state_dict(), CACHE / "pips.pt")
    export(net, (1, 3, fmt.crop, fmt.crop), PIPS_ONNX, OPSET)
    return fmt


FINDER_OPTIONS = ("size", "offset")
"""The finder's format a training chooses (its stride and padding are its architecture's; the
sizes of dice it sees best are measured on it once trained)."""
PIP_OPTIONS = ("crop", "margin", "offset")
"""The pip reader's format a training chooses."""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["data", "finder", "mine", "pips"])
    parser.add_argument("--frames", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--family", "--table", dest="family", default=None,
                        choices=sorted({f for _, f in SEEDS if f is not None}),
                        help="data, mine: every frame of this family (a table, a spacing; "
                             "each has seeds of its own in SEEDS)")
    parser.add_argument("--start", type=Path, default=None,
                        help="finder, pips: start from these weights (finder.pt, pips.pt in "
                        "the cache, saved by every run, or an exported network such as "
                        "vision/models/haba_pips.onnx) instead of from scratch")
    card = haba_formats()
    add_options(parser, card.finder, FINDER_OPTIONS, "finder-", "data, finder")
    add_options(parser, card.pips, PIP_OPTIONS, "pips-", "pips")
    args = parser.parse_args()
    finder_fmt = from_options(args, card.finder, FINDER_OPTIONS, "finder-")
    pip_fmt = from_options(args, card.pips, PIP_OPTIONS, "pips-")
    made_by = " ".join(["tools/train_haba_net.py", *sys.argv[1:]])
    cv2.setNumThreads(1)
    torch.set_num_threads(args.threads)
    if args.what == "data":
        make_data(args.frames, args.workers, args.family, finder_fmt)
        return
    if args.what == "mine":
        mine(args.frames, args.workers, args.family)
        return
    data = load_data()
    print(f"{len(data['images'])} frames loaded")
    today = time.strftime("%Y-%m-%d", time.gmtime())
    if args.what == "finder":
        finder_fmt = train_finder(data, args.steps, finder_fmt, start=args.start)
        write_section(card_beside(FINDER_ONNX, HabaFormats), "finder", finder_fmt, made_by,
                      today, HabaFormats)
    else:
        pip_fmt = train_pips(data, args.steps, pip_fmt, start=args.start)
        write_section(card_beside(PIPS_ONNX, HabaFormats), "pips", pip_fmt, made_by, today,
                      HabaFormats)


if __name__ == "__main__":
    main()
