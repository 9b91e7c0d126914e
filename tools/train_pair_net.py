"""Train the pair network: which of two faces beside each other is a die's top
(:mod:`vision.pairnet`).

    .venv/bin/python tools/train_pair_net.py collect --table --frames 4000 --out t.pkl
    .venv/bin/python tools/train_pair_net.py collect --steep --frames 3000 --out s.pkl
    .venv/bin/python tools/train_pair_net.py collect --frames 3000 --out p.pkl
    .venv/bin/python tools/train_pair_net.py train --start-from vision/models/haba_pair.onnx \\
        --hard 5 --steps 3000 t.pkl s.pkl p.pkl

(the shipped network was trained afresh, then fine-tuned for the real table with the
networks it works beside, as ``docs/log/2026-11-28-issue-44-table.md`` says; its pairs were
collected before the reader's faces came from :func:`vision.faces.see`).
Needs PyTorch (``pip install -e '.[train]'``). After exporting, make its eight-bit copy
again (``tools/quantize_haba_nets.py``) and fit the reader's model again.
``--tray`` reads each frame told the nadir of the tray a family would mark
(``haba_sets.marked_tray``: the camera's angle from four tapped corners) instead of the
frame's middle. ``--table`` collects at a real table
(:func:`vision.render.table.table_scene`: citizen cards, hands, a desk-arm camera; seeds of
its own), ``--pi-lens`` there through the Raspberry Pi
camera's own lens; ``--finder``/``--pips`` read the frames with
other HABA networks than the shipped ones (the faces a retrained finder offers);
``train --start-from haba_pair.onnx`` fine-tunes an exported network instead of starting afresh.

**Collect.** Frames are drawn from :mod:`vision.render` with seeds of their own
(:data:`SEEDS`), never a held-out family of ``benchmarks/haba_sets.py``; 60% of them with
the leaning spacing (``--steep``: all, with steep leans, ``scene_for(steep=True)``). Each
frame's candidate faces are found as the reader finds them, told the count
(:func:`vision.faces.see`), and every pair the reader asks the pair network about
(:func:`vision.faces.pairs_beside`) is kept with its label from the truth: face *a* is a
die's top and *b* is not, *b* is and *a* is not, or neither or both are; and with which of
the two the pip reader takes for a die (:data:`vision.faces.A_DIE`).

**Train.** Frames whose number ends in 0 or 5 are held out; each batch's pairs are mirrored
at random (as :mod:`vision.pairnet` reads them) and their light jittered.

**Format.** The pairs are collected in the pair network's format (:class:`PairFormat`):
``collect --width W --height H --face F --middle M --place P --far R`` (defaults: the
``[pair]`` section of ``haba_nets.toml``), kept with each pair; ``train`` trains on pairs of
one format (``--offset``: the channels', :func:`vision.habanet.normalise`) and writes it, with
the command, into the ``[pair]`` section of the ``haba_nets.toml`` beside the exported
network, the other sections kept.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

from haba_sets import HELD_OUT, marked_tray  # noqa: E402

from vision.faces import A_DIE, pairs_beside, see  # noqa: E402
from vision.habanet import FINDER_ONNX, PIPS_ONNX, HabaNet, normalise  # noqa: E402
from vision.netformat import (  # noqa: E402
    HabaFormats,
    PairFormat,
    add_options,
    card_beside,
    from_options,
    haba_formats,
    write_section,
)
from vision.pairnet import PAIR_ONNX, FaceLook, look, pair_input  # noqa: E402
from vision.palette import Palette  # noqa: E402
from vision.render import random_conditions, render_tray, scene_for  # noqa: E402
from vision.render.scene import TrayScene, TruthDie  # noqa: E402
from vision.render.table import table_scene  # noqa: E402

SEEDS = {"plain": 6_000_000, "steep": 7_000_000, "table": 8_000_000,
         "pi-lens": 8_500_000}
"""First seed of the collected frames: ordinary spacing, steep leans, a real table, a real
table through the Raspberry Pi camera's own lens."""
LEANING = 0.6
"""The share of ordinary and real-table frames drawn in the leaning spacing."""
CLASSES = {1: 0, 0: 1, -1: 2}
"""A label (1: *a* is the top, 0: *b* is, -1: neither or both) as the network's class."""

_nets: dict[str, HabaNet] = {}
"""The finder and pip reader the frames are read with, in each worker."""
_format: dict[str, PairFormat] = {}
"""The pair network's format the pairs are collected in, in each worker."""
_tray: dict[str, bool] = {}
"""Whether the frames are read told the nadir of a marked tray, in each worker."""
COLLECT_OPTIONS = ("width", "height", "face", "middle", "place", "far")
"""The pair network's format a collection chooses (its count of numbers is the code's)."""


def _label(truth: list[TruthDie], a: Any, b: Any) -> int:
    """1 when face *a* is a die's top and *b* is not, 0 the other way, -1 otherwise."""
    def top(face: Any) -> bool:
        return any(math.dist(t.center, face.center) < 0.4 * t.size for t in truth)
    ta, tb = top(a), top(b)
    return -1 if ta == tb else int(ta)


def _row(frame: np.ndarray, truth: list[TruthDie], a: FaceLook, b: FaceLook,
         middle: tuple[float, float], sure: tuple[bool, bool], key: int, fmt: PairFormat
         ) -> dict[str, Any]:
    crop, numbers = pair_input(frame, a, b, middle, fmt)
    return dict(crop=crop, numbers=numbers, label=_label(truth, a.face, b.face), sure=sure,
                key=key, format=fmt)


def _scene(i: int, where: str) -> tuple[np.ndarray, list[TruthDie], TrayScene]:
    """Frame ``i`` of a collection ``where`` (a key of :data:`SEEDS`), never a held-out
    family, and its scene."""
    rng = np.random.default_rng(SEEDS[where] + i)
    if where in ("table", "pi-lens"):
        force = {"spacing": "leaning"} if rng.random() < LEANING else {}
        lens = {"lens": "pi"} if where == "pi-lens" else {}
        scene = table_scene(rng, HELD_OUT, force=force | lens)
    else:
        cond = random_conditions(rng, HELD_OUT)
        if where == "steep" or rng.random() < LEANING:
            cond = replace(cond, spacing="leaning")
        scene = scene_for(rng, cond, steep=where == "steep")
    return (*render_tray(scene, rng), scene)


def _use_nets(finder: Path | None, pips: Path | None, fmt: PairFormat, tray: bool) -> None:
    """Read with ``finder`` and ``pips`` (a network not given stays the shipped one); collect
    pairs in format ``fmt``, told the nadir of a marked tray (``tray``) or not."""
    net = HabaNet(finder or FINDER_ONNX, pips or PIPS_ONNX)
    _nets["haba"] = net
    _format["pair"] = fmt
    _tray["marked"] = tray


def _one(i: int, where: str) -> list[dict[str, Any]]:
    """The labelled pairs of frame ``i`` of a collection ``where``."""
    img, truth, scene = _scene(i, where)
    net = _nets["haba"]
    nadir = marked_tray(scene, SEEDS[where] + i).nadir() if _tray["marked"] else None
    with net.one_frame(img):
        seen = see(img, net, Palette.default(), len(truth), None, 1.0, nadir)
    fmt = _format["pair"]
    looks = [look(img, f.found, f.is_die, float(f.belief.value.max()), fmt) for f in seen.faces]
    return [_row(img, truth, looks[a], looks[b], seen.middle,
                 (seen.faces[a].is_die >= A_DIE, seen.faces[b].is_die >= A_DIE), i, fmt)
            for a, b in pairs_beside(seen.faces)]


def collect(start: int, frames: int, out: Path, where: str, workers: int,
            nets: tuple[Path | None, Path | None] = (None, None),
            fmt: PairFormat | None = None, tray: bool = False) -> None:
    """Collect the labelled pairs of ``frames`` frames from ``start``, in format ``fmt``
    (default: the card's) into ``out``; ``tray``: each frame read told the nadir of the tray
    a family would mark (``haba_sets.marked_tray``)."""
    fmt = fmt or haba_formats().pair
    with ProcessPoolExecutor(workers, initializer=_use_nets,
                             initargs=(*nets, fmt, tray)) as ex:
        rows = [r for got in ex.map(_one, range(start, start + frames), [where] * frames,
                                    chunksize=4) for r in got]
    out.write_bytes(pickle.dumps(rows))
    print(len(rows), "pairs from", frames, "frames",
          dict(Counter((r["sure"], r["label"]) for r in rows)))


def _side_read_sure(row: dict[str, Any]) -> bool:
    """Whether the pair is a face the pip reader takes for a die that is the side of the
    other, that die's top: the mistake that makes the reader silently wrong. (Pairs collected
    before the reader's faces came from :func:`vision.faces.see` say ``kind`` instead.)"""
    if "sure" not in row:
        return bool(row.get("kind") == "faint" and row["label"] == 0)
    sure_a, sure_b = row["sure"]
    return bool((row["label"] == 0 and sure_a) or (row["label"] == 1 and sure_b))


def _networks(fmt: PairFormat) -> tuple[Any, Any]:
    """The pair network for input of format ``fmt`` (an image and its numbers in, three
    classes out) and its packed form of one input, as :class:`vision.pairnet.PairNet` feeds
    it: the crop's three channels and a fourth whose first row begins with the numbers
    (OpenCV 4.6 reads no network with two inputs). The packed form holds the network, so an
    exported file loads back into it."""
    import torch
    from torch import nn
    from torch_parts import conv

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                conv(3, 24, 2), conv(24, 32), nn.MaxPool2d(2), conv(32, 48), nn.MaxPool2d(2),
                conv(48, 64), nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.2),
                nn.Linear(64 * (fmt.height // 16) * (fmt.width // 16), 64), nn.ReLU())
            self.head = nn.Sequential(nn.Linear(64 + fmt.numbers, 64), nn.ReLU(),
                                      nn.Linear(64, 3))

        def forward(self, image: torch.Tensor, numbers: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = self.head(torch.cat([self.body(image), numbers], 1))
            return out

    class Packed(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = Net()

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = self.net(x[:, 0:3],
                                         torch.flatten(x[:, 3:4, 0:1, 0:fmt.numbers], 1))
            return out

    packed = Packed()
    return packed.net, packed


def export_packed(packed: Any, out: Path, fmt: PairFormat) -> None:
    """The packed network (:func:`_networks`) for input of format ``fmt`` as an ONNX file."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(packed.eval(), (torch.zeros(1, 4, fmt.height, fmt.width),), str(out),
                      input_names=["image"], output_names=["out"], opset_version=13,
                      dynamo=False, dynamic_axes={"image": {0: "n"}, "out": {0: "n"}})


def _collected_format(rows: list[dict[str, Any]]) -> PairFormat:
    """The one format the pairs were collected in (pairs collected before it was kept with
    them: the card's, which they were collected in); refused when they differ."""
    formats = {r.get("format", haba_formats().pair) for r in rows}
    if len(formats) != 1:
        raise SystemExit(f"the pairs were collected in {len(formats)} formats: collect them "
                         "again in one")
    return formats.pop()


def train(data: list[Path], steps: int, seed: int, threads: int, out: Path,
          start: Path | None = None, hard: int = 1, offset: float | None = None
          ) -> PairFormat:
    """Train (or fine-tune ``start``) on the collected pairs; ``hard``: how many times as
    often a face the pip reader takes for a die that is a die's side is drawn
    (:func:`_side_read_sure`); ``offset``: the channels' (default: the card's). The format
    trained: the pairs', with that offset."""
    import torch
    from torch import nn
    from torch_parts import freeze_norms, load_exported
    from train_haba_net import jitter_light

    rows = [r for f in data for r in pickle.loads(f.read_bytes())]
    fmt = _collected_format(rows)
    if offset is not None:
        fmt = replace(fmt, offset=offset)
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    net, packed = _networks(fmt)
    if start is not None:
        load_exported(packed, start)

    def prep(r: dict[str, Any], lr: bool, tb: bool, rng: np.random.Generator | None
             ) -> tuple[np.ndarray, np.ndarray, int]:
        crop, numbers, c = r["crop"], r["numbers"].copy(), CLASSES[r["label"]]
        if rng is not None:
            crop = jitter_light(crop, rng)
        if lr:
            across = numbers[-1]
            crop, numbers, c = crop[:, ::-1], -numbers, {0: 1, 1: 0, 2: 2}[c]
            numbers[-1] = across
        if tb:
            crop = crop[::-1]
            numbers[-1] = -numbers[-1]
        return normalise(np.ascontiguousarray(crop), fmt.offset).transpose(2, 0, 1), numbers, c

    held = [r for r in rows if r["key"] % 5 == 0]
    fit = [r for r in rows if r["key"] % 5 != 0]
    fit += [r for r in fit if _side_read_sure(r)] * (hard - 1)
    print(len(fit), "to train on,", len(held), "held out; classes",
          np.bincount([CLASSES[r["label"]] for r in rows]))
    rng = np.random.default_rng(seed)
    lr = 2e-3 if start is None else 5e-4
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)
    t0 = time.time()
    for step in range(steps):
        net.train()
        if start is not None:
            freeze_norms(net)  # as loaded: see torch_parts.load_exported
        got = [prep(fit[i], rng.random() < 0.5, rng.random() < 0.5, rng)
               for i in rng.choice(len(fit), 64)]
        image = torch.from_numpy(np.stack([g[0] for g in got]))
        numbers = torch.from_numpy(np.stack([g[1] for g in got]))
        loss = nn.functional.cross_entropy(net(image, numbers),
                                           torch.tensor([g[2] for g in got]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 500 == 0:
            print(step, round(loss.item(), 3), f"{time.time() - t0:.0f} s", flush=True)
    net.eval()
    export_packed(packed, out, fmt)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)")
    from vision.pairnet import A_TOP, PairNet
    if fmt != haba_formats().pair:
        print("(held out: not read here, the network's format is not the shipped card's)")
        return fmt
    p = PairNet(out).chances([(r["crop"], r["numbers"]) for r in held])
    y = np.array([CLASSES[r["label"]] for r in held])
    print(f"held out: {(p.argmax(1) == y).mean():.1%} right")
    for sure in (0.9, 0.99):
        s = p[:, A_TOP] >= sure
        print(f"'a is the top, b not' at {sure}: {int(s.sum())} of {int((y == A_TOP).sum())},"
              f" wrongly {int((s & (y != A_TOP)).sum())}")
    return fmt


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["collect", "train"])
    parser.add_argument("data", nargs="*", type=Path)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--steep", action="store_true")
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--pi-lens", dest="pi_lens", action="store_true",
                        help="collect: at a real table, through the Raspberry Pi camera's lens")
    parser.add_argument("--tray", action="store_true",
                        help="collect: each frame read told the nadir of the tray a family "
                             "would mark (haba_sets.marked_tray), not the frame's middle")
    parser.add_argument("--finder", type=Path, default=None)
    parser.add_argument("--pips", type=Path, default=None)
    parser.add_argument("--start-from", dest="start_from", type=Path, default=None,
                        help="train: fine-tune this exported pair network")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hard", type=int, default=1,
                        help="train: draw a sure reading that is a side this many times as often")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS", "2")))
    card = haba_formats().pair
    add_options(parser, card, COLLECT_OPTIONS, "", "collect")
    add_options(parser, card, ("offset",), "", "train")
    a = parser.parse_args()
    if a.what == "collect":
        where = ("pi-lens" if a.pi_lens else "table" if a.table else "steep" if a.steep
                 else "plain")
        collect(a.start, a.frames, a.out or Path("pairs.pkl"), where, a.workers,
                (a.finder, a.pips), from_options(a, card, COLLECT_OPTIONS, ""), a.tray)
    else:
        out = a.out or PAIR_ONNX
        fmt = train(a.data, a.steps, a.seed, a.threads, out, a.start_from, a.hard, a.offset)
        write_section(card_beside(out, HabaFormats), "pair", fmt,
                      " ".join(["tools/train_pair_net.py", *sys.argv[1:]]),
                      time.strftime("%Y-%m-%d", time.gmtime()), HabaFormats)


if __name__ == "__main__":
    main()
