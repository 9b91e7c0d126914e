"""Train the two small networks that read ordinary dice (:mod:`vision.dicenet`).

Run: ``.venv/bin/python tools/train_dice_net.py [--shared PATH]`` after
``.venv/bin/pip install -e '.[train]'`` (PyTorch 2.13.0, the CPU build; run it under
``nice``: the finder and the pip reader take about 40 minutes on two cores). Writes
``vision/models/dice_finder.onnx`` and ``vision/models/dice_pips.onnx``; the reader runs
them with OpenCV's DNN module, so the assistant itself never needs PyTorch (this tool lives
outside the product package for that reason). After a new pip reader, run
``tools/quantize_dice_nets.py`` (its eight-bit copy, which ONNX Runtime runs; a test fails
until it is made again) and then ``tools/fit_dice_decision.py``.

* The **finder** is a small fully convolutional network (CenterNet-style): for a frame
  scaled to its size (``dice_nets.toml``) it gives, on a grid of stride 4, the chance
  that a die's centre lies there and the die's box width and height.
* The **pip reader** classifies a crop around one found die into "not a die" or 1-6 (the
  top face's value: a tilted die's side faces show pips too, and do not count).

Training data: the ``train`` part of every photo source (:func:`dice_data.part_of`:
byler-dev, matteo-desk's webcam desk with its cables, labels and laptop, rune55's gamer
dice in trays on carpet), each source drawn as often (:func:`dice_data.source_weights`),
the even-numbered tomitomi crops (close-ups of one die, boxed by :func:`tomitomi_box`) and
rendered trays of ordinary dice (:mod:`vision.render_standard`: what the photos lack,
leaning dice, crowded trays, many looks; renders only teach). The finder's mistakes on
the training photos (labels, keys, a cable's ferrite bead, carpet) teach the pip reader
"not a die". Augmentation for what a table does: any scale (camera height), the eight
rotations and mirror images plus small angles, brightness, contrast, colour casts, hue
shifts, blur, noise and JPEG.

Confidence: the pip reader's temperature is fitted on the ``tune`` parts (never a
``judge`` part) and folded into its last layer (:func:`fit_temperature`); the reader's
decision is fitted after, on the same parts, by ``tools/fit_dice_decision.py``.

Each exported network carries the photos' attribution (:data:`CREDIT`;
``vision/models/NOTICE.md``).

A narrower (cheaper) pip reader: ``--pips-from`` the shipped one with narrower
``--pip-widths`` starts it as the shipped one pruned (:func:`pruned`), and ``--teacher``
the shipped one distils it (:func:`train_pips`). Measured, not shipped: BENCHMARKS.md.

**Formats.** Each network's input format (:mod:`vision.netformat`) is written into the
``[finder]`` or ``[pips]`` section of ``dice_nets.toml`` beside the exported network, with
the command that made it, the other section kept. A new training takes its format from
options whose defaults are the card's: ``--finder-size``, ``--finder-min-die``,
``--finder-max-die`` (the dice sizes the finder is trained on, at its size), ``--pips-crop``,
``--pips-margin``; every crop and look of the run is made in that format (:func:`in_format`).
The finder's stride, padding and second look and both networks' pixel scale (255) are
carried over from the card.

Held out, never trained or tuned on: the ``judge`` parts (``benchmarks/bench_ordinary.py``).
Seeded: the same seed gives nearly the same networks (threaded CPU kernels are not
bit-exact).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from dice_data import (
    PHOTO_SOURCES,
    SHARED,
    Photo,
    load_part,
    source_weights,
    tomitomi_part,
)
from torch import nn
from torch.nn import functional as F
from torch_parts import conv, export, freeze_norms, load_exported

import vision.netformat
from vision.dicenet import (
    FINDER_ONNX,
    PIPS_ONNX,
    DiceNet,
    crop_for_pips,
)
from vision.netformat import (
    DiceFormats,
    add_options,
    card_beside,
    dice_formats,
    from_options,
    write_section,
)
from vision.render_standard import ordinary_tray

# ---------------------------------------------------------------- data


def rendered_photos(count: int, rng: np.random.Generator, tilted: float = 0.25,
                    smoky: float = 0.0, see_through: float = 0.0) -> list[Photo]:
    """``count`` rendered trays of 3-15 ordinary dice (dice of 18-70 px in 640 x 480), up to
    ``tilted`` of the crowded ones leaning on a neighbour, each look a smoked die with red
    pips (:func:`vision.render_standard.smoky_look`) by chance ``smoky``, a gamer's
    see-through die (:func:`~vision.render_standard.see_through_look`) by chance
    ``see_through``."""
    out = []
    for _ in range(count):
        frame, truth = ordinary_tray(
            rng, int(rng.integers(3, 16)), 640, 480,
            die_size=float(np.exp(rng.uniform(np.log(18), np.log(70)))),
            crowded=float(rng.uniform(0.2, 0.9)), tilted=float(rng.uniform(0.0, tilted)),
            same_look=bool(rng.random() < 0.2), smoky=smoky, see_through=see_through)
        boxes = np.array([t.box for t in truth], np.float32).reshape(-1, 4)
        out.append(Photo(frame, boxes, np.array([t.value for t in truth], np.int64)))
    return out


def tomitomi_box(image: np.ndarray) -> np.ndarray | None:
    """The box of the white die in a tomitomi crop (the brightest square blob near the
    centre), or None when it cannot be told from the cup's bright rim."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    mask = (grey > np.percentile(grey, 84)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask)
    h, w = grey.shape
    best = None
    for i in range(1, count):
        x, y, bw, bh, _ = stats[i]
        if not (0.3 * w <= min(bw, bh) and max(bw, bh) <= 0.58 * w):
            continue  # not one die (merged with the rim, or a speck)
        d = float(np.hypot(centres[i][0] - w / 2, centres[i][1] - h / 2))
        if d < 0.25 * w and (best is None or d < best[0]):
            best = (d, np.array([x, y, x + bw, y + bh], np.float32))
    return None if best is None else best[1]


def tomitomi_photos(crops: list[tuple[np.ndarray, int]]) -> list[Photo]:
    """Tomitomi crops as photos of one big die (close-up camera) for the finder."""
    out = []
    for image, value in crops:
        box = tomitomi_box(image)
        if box is not None:
            out.append(Photo(image, box[None, :], np.array([value])))
    return out


def jitter_colors(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brightness, contrast, gamma, colour cast, hue shift, grey, blur, noise, JPEG."""
    f = img.astype(np.float32) / 255.0
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(f, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 360)) % 360
        hsv[..., 1] *= rng.uniform(0.6, 1.3)
        f = cv2.cvtColor(np.clip(hsv, 0, [360, 1, 1]).astype(np.float32), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.1:
        f = np.repeat(f.mean(axis=2, keepdims=True), 3, axis=2)
    f = f * rng.uniform(0.85, 1.15, 3).astype(np.float32)  # colour cast
    f = (f - 0.5) * rng.uniform(0.6, 1.3) + 0.5 + rng.uniform(-0.2, 0.15)
    f = np.clip(f, 0, 1) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.3:
        h, w = f.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = rng.uniform(0, 2 * np.pi)
        ramp = (np.cos(t) * xx / w + np.sin(t) * yy / h)
        f = f * (1 + rng.uniform(-0.4, 0.4) * ramp)[..., None]
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        f = f + rng.normal(0, rng.uniform(0.005, 0.03), f.shape).astype(np.float32)
    out = (np.clip(f, 0, 1) * 255).astype(np.uint8)
    if rng.random() < 0.3:
        _, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def dihedral(img: np.ndarray, boxes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rotate by k*90 degrees (k 0-3), mirrored when k >= 4; boxes follow exactly."""
    w = img.shape[1]
    b = boxes.copy()
    if k >= 4:
        img = img[:, ::-1]
        b[:, [0, 2]] = w - boxes[:, [2, 0]]
    for _ in range(k % 4):  # 90 degrees counter-clockwise
        w = img.shape[1]
        img = np.rot90(img)
        b = np.stack([b[:, 1], w - b[:, 2], b[:, 3], w - b[:, 0]], axis=1)
    return np.ascontiguousarray(img), b


def finder_sample(photo: Photo, rng: np.random.Generator, size: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """One augmented ``size x size`` crop and its boxes (in crop pixels)."""
    img, boxes = dihedral(photo.image, photo.boxes, int(rng.integers(8)))
    side = np.sqrt((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))
    med = float(np.median(side)) if len(side) else 40.0
    # the finder sees frames scaled to its size: byler's 640 px photos become
    # about 0.6 of their size at 384 (dice of about 24 px); spread the die size over
    # min_die-max_die px to cover camera heights (big dice: their pips are no dice)
    fmt = dice_formats().finder
    target = float(np.exp(rng.uniform(np.log(fmt.min_die), np.log(fmt.max_die))))
    s = target / med
    ang = rng.uniform(-12, 12)
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    if len(boxes) and rng.random() < 0.7:  # mostly centred near some die
        j = int(rng.integers(len(boxes)))
        cx = (boxes[j, 0] + boxes[j, 2]) / 2 + rng.normal(0, size / (3 * s))
        cy = (boxes[j, 1] + boxes[j, 3]) / 2 + rng.normal(0, size / (3 * s))
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), ang, s)
    m[:, 2] += (size / 2 - cx, size / 2 - cy)
    fill = tuple(int(x) for x in np.median(img.reshape(-1, 3), axis=0))
    out = cv2.warpAffine(img, m, (size, size), flags=cv2.INTER_AREA if s < 1 else
                         cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    c = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2,
                  np.ones(len(boxes))], axis=1) @ m.T
    bw, bh = (boxes[:, 2] - boxes[:, 0]) * s, (boxes[:, 3] - boxes[:, 1]) * s
    grow = 1 + 0.2 * abs(np.sin(np.radians(2 * ang)))  # the box of a turned square
    nb = np.stack([c[:, 0] - bw * grow / 2, c[:, 1] - bh * grow / 2,
                   c[:, 0] + bw * grow / 2, c[:, 1] + bh * grow / 2], axis=1)
    return jitter_colors(out, rng), nb.astype(np.float32)


def finder_target(boxes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat map (1, g, g), log box size (2, g, g) and its mask (1, g, g) on the stride-4 grid."""
    stride = dice_formats().finder.stride
    g = size // stride
    heat = np.zeros((1, g, g), np.float32)
    wh = np.zeros((2, g, g), np.float32)
    mask = np.zeros((1, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        w, h = (x1 - x0), (y1 - y0)
        if not (0 <= cx < g and 0 <= cy < g):
            continue
        # a die cut by the crop's edge still counts when its centre is inside
        sigma = max(0.6, np.sqrt(w * h) / stride / 5)
        heat[0] = np.maximum(heat[0], np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2)))
        i, j = int(cy), int(cx)
        heat[0, i, j] = 1.0
        wh[:, i, j] = (np.log(w), np.log(h))
        mask[0, i, j] = 1.0
    return heat, wh, mask


def to_tensor(imgs: list[np.ndarray]) -> torch.Tensor:
    x = np.stack(imgs).astype(np.float32) / 255.0
    return torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()


# ---------------------------------------------------------------- networks


class Finder(nn.Module):
    """Stride-4 centre heat map (logit) and log box size, a small U-shaped network."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = nn.Sequential(conv(3, 16, 2), conv(16, 16))
        self.s4 = nn.Sequential(conv(16, 24, 2), conv(24, 24))
        self.s8 = nn.Sequential(conv(24, 48, 2), conv(48, 48))
        self.s16 = nn.Sequential(conv(48, 64, 2), conv(64, 64))
        self.s32 = nn.Sequential(conv(64, 96, 2), conv(96, 96))  # sees a whole big die
        self.lat32 = nn.Conv2d(96, 64, 1)
        self.m16 = conv(64, 64)
        self.lat16 = nn.Conv2d(64, 48, 1)
        self.m8 = conv(48, 48)
        self.lat8 = nn.Conv2d(48, 24, 1)
        self.m4 = conv(24, 32)
        self.head = nn.Conv2d(32, 3, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -2.2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.5) / 0.25
        a = self.s4(self.s2(x))
        b = self.s8(a)
        c = self.s16(b)
        d = self.s32(c)
        c = self.m16(c + F.interpolate(self.lat32(d), scale_factor=2.0, mode="nearest"))
        b = self.m8(b + F.interpolate(self.lat16(c), scale_factor=2.0, mode="nearest"))
        a = self.m4(a + F.interpolate(self.lat8(b), scale_factor=2.0, mode="nearest"))
        return self.head(a)


PIP_WIDTHS = (24, 48, 64, 96)
"""Channels of the pip reader's four convolutions."""


class PipNet(nn.Module):
    """Classes 0 (not a die) and 1-6 from a square crop (:func:`vision.dicenet.crop_for_pips`)."""

    def __init__(self, widths: tuple[int, int, int, int] = PIP_WIDTHS) -> None:
        super().__init__()
        a, b, c, d = widths
        self.body = nn.Sequential(
            conv(3, a), nn.MaxPool2d(2), conv(a, b), nn.MaxPool2d(2),
            conv(b, c), nn.MaxPool2d(2), conv(c, d), nn.AdaptiveAvgPool2d(1),
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(d, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body((x - 0.5) / 0.25)


def focal_loss(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pl = -torch.log(p) * (1 - p) ** 2 * pos
    nl = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    return (pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


# ---------------------------------------------------------------- training


FINDER_RENDER_SHARE = 0.25
"""Of the finder's samples, this share is cut from renders (crowded trays, leaning dice)."""


def train_finder(photos: list[Photo], close: list[Photo], renders: list[Photo], steps: int,
                 rng: np.random.Generator, batch: int = 8, size: int = 256,
                 start: Path | None = None, checkpoint: Checkpoint | None = None,
                 weigh: dict[str, float] | None = None) -> Finder:
    """The finder, trained afresh or fine-tuned from the exported one ``start`` (then at a
    third of the learning rate, its batch norms as loaded). ``close``-ups of one die make
    a tenth of the samples, ``renders`` :data:`FINDER_RENDER_SHARE`, photos the rest (each
    source as often, :func:`dice_data.source_weights`, times its ``weigh``). Fine-tuning
    keeps the first two stages as loaded (half the cost of a step)."""
    weights = weighed(photos, weigh or {})
    net = Finder() if start is None else load_exported(Finder(), start)
    lr = 3e-3 if start is None else 1e-3
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    checkpoint = checkpoint or Checkpoint(None)
    first = checkpoint.resume(net, opt, sched, rng)
    net.train()
    if start is not None:  # fine-tuning: the first two stages (edges, spots) stay as loaded
        freeze_norms(net)
        for p in (*net.s2.parameters(), *net.s4.parameters()):
            p.requires_grad_(False)
    t0 = time.time()
    for step in range(first, steps):
        imgs, heats, whs, masks = [], [], [], []
        for _ in range(batch):
            r = rng.random()
            pool = (close if close and r < 0.1 else
                    renders if renders and r < 0.1 + FINDER_RENDER_SHARE else photos)
            k = (int(rng.choice(len(pool), p=weights)) if pool is photos else
                 int(rng.integers(len(pool))))
            img, boxes = finder_sample(pool[k], rng, size)
            h, wh, m = finder_target(boxes, size)
            imgs.append(img)
            heats.append(h)
            whs.append(wh)
            masks.append(m)
        x = to_tensor(imgs)
        heat, wh, mask = (torch.from_numpy(np.stack(a)) for a in (heats, whs, masks))
        out = net(x)
        lh = focal_loss(out[:, :1], heat)
        lw = (F.l1_loss(out[:, 1:], wh, reduction="none") * mask).sum() / mask.sum().clamp(min=1)
        loss = lh + lw
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        checkpoint.save(step + 1, net, opt, sched, rng)
        if step % 100 == 0 or step == steps - 1:
            print(f"finder {step}/{steps} heat {lh.item():.3f} size {lw.item():.3f} "
                  f"({time.time() - t0:.0f} s)", flush=True)
    return net.eval()


Found = dict[tuple[int, int], np.ndarray]
"""The trained finder's box of a labelled die: (photo index, label index) -> box."""


def finder_view(photos: list[Photo]) -> tuple[list[tuple[int, np.ndarray]], Found]:
    """What the trained finder makes of ``photos``, for the pip reader to learn from: its
    mistakes, where it takes for a die what is none (a screw hole, a speck, a gap between
    dice): (photo index, box) to learn "not a die"; and its box of each labelled die it
    finds (the surest find whose centre lies in the label's box), to learn the crops the
    reader will be given."""
    net = DiceNet(FINDER_ONNX, None)
    hard: list[tuple[int, np.ndarray]] = []
    found: Found = {}
    for i, ph in enumerate(photos):
        for box, conf in sorted(net.find(ph.image), key=lambda f: -f[1]):
            if conf < 0.2:
                continue
            c = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
            margin = 0.1 * (ph.boxes[:, 2:3] - ph.boxes[:, 0:1])
            grown = ph.boxes + np.array([-1, -1, 1, 1]) * margin
            inside = ((grown[:, 0] <= c[0]) & (c[0] <= grown[:, 2]) & (grown[:, 1] <= c[1])
                      & (c[1] <= grown[:, 3]))
            if not inside.any():
                hard.append((i, np.array(box, np.float32)))
            elif conf >= 0.4:
                j = int(np.argmax(inside))
                found.setdefault((i, j), np.array(box, np.float32))
    print(f"hard negatives: {len(hard)}; labelled dice found: {len(found)}")
    return hard, found


FOUND_SHARE = 0.5
"""Of the crops of labelled dice the finder found, this share is cut by the finder's box
(the rest by the label's, jittered)."""


RENDER_SHARE = 0.15
"""Of the crops of labelled dice for the pip reader, this share is cut from renders."""
HARD_SHARE = 0.15
"""Of the pip reader's crops, this share is the finder's mistakes on the photos (class 0)."""


def pip_samples(photos: list[Photo], tomi: list[tuple[np.ndarray, int]],
                hard: list[tuple[int, np.ndarray]], renders: list[Photo],
                rng: np.random.Generator, n: int,
                found: tuple[Found, Found] = ({}, {}),
                weigh: dict[str, float] | None = None,
                mined: tuple[list[tuple[int, int]], float] = ([], 0.0)
                ) -> tuple[np.ndarray, np.ndarray]:
    """``n`` augmented crops: labelled dice (the finder's box, see :data:`FOUND_SHARE`, or
    the label's jittered), tomitomi dice, rendered dice (:data:`RENDER_SHARE` of the
    labelled ones), and negatives (background, between dice, a die's corner, the finder's
    mistakes: labels, keys, carpet) as class 0. ``found``: the finder's boxes in photos and
    in renders. Photos are drawn so that each source is drawn as often, times its
    ``weigh`` (e.g. ``{"rune55-trays": 2.0}``: the gamer trays twice as often). ``mined``:
    (photo index, die index) of the dice the starting reader misreads (:func:`mine_dice`)
    and the share of the photo dice drawn from them."""
    crops, labels = [], []
    weights = weighed(photos, weigh or {})
    while len(crops) < n:
        r = rng.random()
        if r > 1 - HARD_SHARE and hard:
            i, box = hard[int(rng.integers(len(hard)))]
            img, v = photos[i].image, 0
        elif r < 0.12 and tomi:
            img, v = tomi[int(rng.integers(len(tomi)))]
            h, w = img.shape[:2]
            side = w * rng.uniform(0.36, 0.46)
            box = np.array([w / 2 - side / 2, h / 2 - side / 2, w / 2 + side / 2, h / 2 + side / 2])
        else:
            rendered = bool(renders) and rng.random() < RENDER_SHARE
            pool = renders if rendered else photos
            k = int(rng.integers(len(pool)) if rendered else rng.choice(len(pool), p=weights))
            ph = pool[k]
            if len(ph.boxes) == 0:
                continue
            j = int(rng.integers(len(ph.boxes)))
            if not rendered and r <= 0.75 and mined[0] and rng.random() < mined[1]:
                k, j = mined[0][int(rng.integers(len(mined[0])))]
                ph = photos[k]
            img = ph.image
            box, v = ph.boxes[j].copy(), int(ph.values[j])
            by_finder = found[int(rendered)].get((k, j))
            if r <= 0.75 and by_finder is not None and rng.random() < FOUND_SHARE:
                box = by_finder.copy()  # as the reader will get it: jittered a little
                c = (box[:2] + box[2:]) / 2 + rng.normal(0, 0.02, 2) * (box[2:] - box[:2])
                half = (box[2:] - box[:2]) / 2 * rng.uniform(0.95, 1.05)
                crop = crop_for_pips(img, np.concatenate([c - half, c + half]),
                                     angle=rng.uniform(-180, 180))
                crops.append(_turned(crop, rng))
                labels.append(v)
                continue
            if r > 0.75:  # a negative: shifted far off the die, or a patch of background
                bw = box[2] - box[0]
                if rng.random() < 0.5:
                    off = rng.uniform(0.55, 1.2, 2) * bw * rng.choice([-1, 1], 2)
                else:
                    off = rng.uniform(-4, 4, 2) * bw
                box = box + np.array([off[0], off[1], off[0], off[1]])
                c = (box[:2] + box[2:]) / 2
                d = np.hypot(*(((ph.boxes[:, :2] + ph.boxes[:, 2:]) / 2) - c).T)
                if (d < 0.45 * bw).any():
                    continue
                v = 0
        bw, bh = box[2] - box[0], box[3] - box[1]
        # the finder's box is off by a little: jitter centre and size
        c = (box[:2] + box[2:]) / 2 + rng.normal(0, 0.06, 2) * (bw, bh)
        s = rng.uniform(0.85, 1.2)
        jb = np.array([c[0] - bw * s / 2, c[1] - bh * s / 2, c[0] + bw * s / 2, c[1] + bh * s / 2])
        crops.append(_turned(crop_for_pips(img, jb, angle=rng.uniform(-180, 180)), rng))
        labels.append(v)
    return np.stack(crops), np.array(labels, np.int64)


MINE_BELOW = 0.5
"""A training die is mined (:func:`mine_dice`) when the starting reader gives its label
less than this probability..."""
MINE_LABEL_ERROR = (0.02, 0.95)
"""... unless it gives the label under the first and another value over the second: then
the label is as likely wrong as the reader (``dice_data.ERRATA`` holds such labels), and
drawing it often would teach the label's mistake."""


def hard_dice(probs: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, int]:
    """The indices of the dice worth mining, given a reader's class probabilities ``probs``
    (n, 7) and the labels ``values`` (n,): the label's probability under
    :data:`MINE_BELOW`, the likely label errors (:data:`MINE_LABEL_ERROR`) left out; and
    how many were left out so."""
    p_label = probs[np.arange(len(values)), values]
    hard = p_label < MINE_BELOW
    doubtful = hard & (p_label < MINE_LABEL_ERROR[0]) & (probs[:, 1:].max(axis=1)
                                                          > MINE_LABEL_ERROR[1])
    return np.nonzero(hard & ~doubtful)[0], int(doubtful.sum())


def mine_dice(photos: list[Photo], found: Found, start: Path) -> list[tuple[int, int]]:
    """(photo index, die index) of the labelled dice of ``photos`` (the train parts only)
    that the exported pip reader ``start`` reads wrong or unsure (:func:`hard_dice`), each
    cut as the reader is given it (the finder's box where ``found`` has one, else the
    label's) and read as the reader reads it (in four quarter turns when unsure)."""
    net = DiceNet(FINDER_ONNX, start)
    keys = [(i, j) for i, ph in enumerate(photos) for j in range(len(ph.boxes))]
    crops = [crop_for_pips(photos[i].image, found.get((i, j), photos[i].boxes[j]))
             for i, j in keys]
    probs = np.zeros((len(keys), 7))
    for i in range(0, len(crops), 256):
        probs[i:i + 256] = net.read_pips(crops[i:i + 256])
    values = np.array([photos[i].values[j] for i, j in keys], np.int64)
    chosen, doubtful = hard_dice(probs, values)
    mined = [keys[int(k)] for k in chosen]
    by_source: dict[str, int] = {}
    for i, _ in mined:
        by_source[photos[i].source] = by_source.get(photos[i].source, 0) + 1
    print(f"mined {len(mined)} of {len(keys)} training dice ({by_source}); "
          f"{doubtful} left out as maybe mislabelled", flush=True)
    return mined


def weighed(photos: list[Photo], weigh: dict[str, float]) -> np.ndarray:
    """:func:`dice_data.source_weights` with each source's chance times ``weigh[source]``."""
    w = source_weights(photos) * np.array([weigh.get(p.source, 1.0) for p in photos])
    out: np.ndarray = w / w.sum()
    return out


def _turned(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` in one of its eight turns and mirror images, its colours jittered."""
    k = int(rng.integers(8))
    crop = np.rot90(crop, k % 4)
    if k >= 4:
        crop = crop[:, ::-1]
    return jitter_colors(np.ascontiguousarray(crop), rng)


POOL = 12000
"""Augmented pip crops drawn afresh every 1000 training steps."""


class Checkpoint:
    """A long run's state saved every ``every`` steps to ``path`` (net, optimiser,
    schedule, step, random state), so a run stopped midway goes on where it was."""

    def __init__(self, path: Path | None, every: int = 200) -> None:
        self.path, self.every = path, every

    def resume(self, net: nn.Module, opt: torch.optim.Optimizer,
               sched: torch.optim.lr_scheduler.LRScheduler, rng: np.random.Generator) -> int:
        """The step to go on from (0: none saved)."""
        if self.path is None or not self.path.is_file():
            return 0
        st = torch.load(self.path, weights_only=False)
        net.load_state_dict(st["net"])
        opt.load_state_dict(st["opt"])
        sched.load_state_dict(st["sched"])
        rng.bit_generator.state = st["rng"]
        print(f"resumed from {self.path} at step {st['step']}", flush=True)
        return int(st["step"])

    def save(self, step: int, net: nn.Module, opt: torch.optim.Optimizer,
             sched: torch.optim.lr_scheduler.LRScheduler, rng: np.random.Generator) -> None:
        if self.path is None or step % self.every:
            return
        tmp = self.path.with_suffix(".tmp")
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(),
                    "sched": sched.state_dict(), "step": step,
                    "rng": rng.bit_generator.state}, tmp)
        tmp.replace(self.path)


def widths_of(path: Path) -> tuple[int, int, int, int]:
    """The channels of the exported pip reader ``path``'s four convolutions."""
    import onnx

    shapes = [list(t.dims) for t in onnx.load(str(path)).graph.initializer if len(t.dims) == 4]
    a, b, c, d = (int(s[0]) for s in shapes)
    return a, b, c, d


def pruned(net: PipNet, widths: tuple[int, int, int, int]) -> PipNet:
    """A narrower pip reader cut from ``net`` (as :func:`load_exported` gives it: batch norms
    identities with the folded biases): each convolution keeps its ``widths`` output
    channels of largest weight (L1), the next layer the inputs that feed on them."""
    small = PipNet(widths)
    big_convs = [m for m in net.body if isinstance(m, nn.Sequential)]
    small_convs = [m for m in small.body if isinstance(m, nn.Sequential)]
    keep = torch.arange(3)
    with torch.no_grad():
        for big, little in zip(big_convs, small_convs, strict=True):
            w = big[0].weight[:, keep]
            out = torch.argsort(w.abs().sum(dim=(1, 2, 3)), descending=True)
            out = torch.sort(out[:little[0].out_channels]).values
            little[0].weight.copy_(w[out])
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(little[1], name).copy_(getattr(big[1], name)[out])
            keep = out
        small.body[-1].weight.copy_(net.body[-1].weight[:, keep])
        small.body[-1].bias.copy_(net.body[-1].bias)
    return small


WIDEN_NOISE = 0.01
"""The noise :func:`train_pips` sets a widened reader's copied channels apart with (of each
layer's weights' spread): enough for training to move them apart, 3% of a logit at most on
the shipped reader (tried at (24, 48, 64, 192) and (32, 64, 96, 128))."""


def widened(net: PipNet, widths: tuple[int, int, int, int], noise: float = 0.0,
             seed: int = 0) -> PipNet:
    """A wider pip reader grown from ``net`` (as :func:`load_exported` gives it: batch norms
    identities with the folded biases) that reads exactly as ``net`` does (Net2WiderNet):
    each convolution keeps its channels and adds copies of randomly drawn ones up to
    ``widths``; the next layer's weights from a channel and its copies are split evenly
    between them. ``noise`` (relative to each weight's layer's spread) is added to the
    copies' incoming weights so that training can tell them apart (0: exactly the same
    function)."""
    gen = torch.Generator().manual_seed(seed)
    wide = PipNet(widths)
    old_convs = [m for m in net.body if isinstance(m, nn.Sequential)]
    new_convs = [m for m in wide.body if isinstance(m, nn.Sequential)]
    source = torch.arange(3)  # each input channel of the next layer: the old one it copies
    with torch.no_grad():
        for old, new in zip(old_convs, new_convs, strict=True):
            w = old[0].weight  # (out, in, 3, 3)
            c = w.shape[0]
            extra = torch.randint(0, c, (new[0].out_channels - c,), generator=gen)
            out = torch.cat([torch.arange(c), extra])
            copies = torch.bincount(source, minlength=w.shape[1]).to(w.dtype)
            grown = w[:, source] / copies[source][None, :, None, None]
            grown = grown[out]
            if noise and len(extra):
                spread = float(w.std())
                grown[c:] += noise * spread * torch.randn(grown[c:].shape, generator=gen)
            new[0].weight.copy_(grown)
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(new[1], name).copy_(getattr(old[1], name)[out])
            source = out
        copies = torch.bincount(source, minlength=net.body[-1].weight.shape[1]).to(torch.float32)
        wide.body[-1].weight.copy_(net.body[-1].weight[:, source] / copies[source][None, :])
        wide.body[-1].bias.copy_(net.body[-1].bias)
    return wide


DISTILL = 0.5
"""With a teacher, this share of the pip reader's loss is matching the teacher's
probabilities (softened by :data:`DISTILL_T`), the rest the labels."""
DISTILL_T = 2.0


def teacher_logits(teacher: cv2.dnn.Net, crops: np.ndarray) -> np.ndarray:
    """The exported pip reader ``teacher``'s log-probabilities (n, 7) of ``crops``, each
    read in its four quarter turns and averaged (the teacher at its best: how the reader
    reads a die it is unsure of)."""
    probs = np.zeros((len(crops), 7), np.float64)
    for k in range(4):
        for i in range(0, len(crops), 256):
            part = [np.ascontiguousarray(np.rot90(c, k)) for c in crops[i:i + 256]]
            teacher.setInput(cv2.dnn.blobFromImages(part, 1 / 255.0))
            logits = teacher.forward().reshape(-1, 7).astype(np.float64)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs[i:i + 256] += e / e.sum(axis=1, keepdims=True) / 4
    return np.log(np.maximum(probs, 1e-9)).astype(np.float32)


def train_pips(photos: list[Photo], tomi: list[tuple[np.ndarray, int]],
               renders: list[Photo], steps: int, rng: np.random.Generator, batch: int = 64,
               start: Path | None = None, checkpoint: Checkpoint | None = None,
               teacher: Path | None = None, widths: tuple[int, int, int, int] = PIP_WIDTHS,
               weigh: dict[str, float] | None = None, mine: float = 0.0) -> PipNet:
    """The pip reader, trained from scratch or fine-tuned from the exported one ``start``
    (then at a third of the learning rate; :func:`pruned` to ``widths`` when they are
    narrower than the exported one's, :func:`widened` when they are wider). With an exported
    ``teacher`` (a bigger reader) it is distilled: it learns the labels and, for
    :data:`DISTILL` of its loss, the teacher's softened probabilities of the same crops.
    ``mine``: the share of the photo dice drawn from those ``start`` reads wrong or unsure
    (:func:`mine_dice`; hard examples)."""
    net = PipNet(widths) if start is None else load_exported(PipNet(widths_of(start)), start)
    if start is not None and widths_of(start) != widths:
        grow = all(n >= o for n, o in zip(widths, widths_of(start), strict=True))
        net = widened(net, widths, WIDEN_NOISE) if grow else pruned(net, widths)
    lr = 3e-3 if start is None else 1e-3
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    checkpoint = checkpoint or Checkpoint(None)
    first = checkpoint.resume(net, opt, sched, rng)
    hard, found = finder_view(photos)
    found_r = finder_view(renders)[1]
    teach = cv2.dnn.readNetFromONNX(str(teacher)) if teacher is not None else None
    mined = mine_dice(photos, found, start or PIPS_ONNX) if mine > 0 else []

    def pool() -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        x, y = pip_samples(photos, tomi, hard, renders, rng, POOL, (found, found_r), weigh,
                           (mined, mine))
        return x, y, None if teach is None else teacher_logits(teach, x)

    pool_x, pool_y, pool_t = pool()
    print(f"pip crops: {len(pool_y)}, classes {np.bincount(pool_y, minlength=7).tolist()}"
          + ("" if pool_t is None else
             f", teacher right on {100 * (pool_t.argmax(1) == pool_y).mean():.1f}%"))
    net.train()
    if start is not None:
        freeze_norms(net)
    t0 = time.time()
    for step in range(first, steps):
        idx = rng.integers(len(pool_y), size=batch)
        x = to_tensor(list(pool_x[idx]))
        y = torch.from_numpy(pool_y[idx])
        out = net(x)
        loss = F.cross_entropy(out, y, label_smoothing=0.05)
        if pool_t is not None:
            soft = F.softmax(torch.from_numpy(pool_t[idx]) / DISTILL_T, dim=1)
            kd = F.kl_div(F.log_softmax(out / DISTILL_T, dim=1), soft,
                          reduction="batchmean") * DISTILL_T**2
            loss = (1 - DISTILL) * loss + DISTILL * kd
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        checkpoint.save(step + 1, net, opt, sched, rng)
        if step % 200 == 0 or step == steps - 1:
            print(f"pips {step}/{steps} loss {loss.item():.3f} ({time.time() - t0:.0f} s)",
                  flush=True)
        if step and step % 1000 == 0:  # fresh augmentations
            pool_x, pool_y, pool_t = pool()
    return net.eval()


def fit_temperature(net: PipNet, calib: list[Photo], rng: np.random.Generator) -> float:
    """The temperature that makes the pip reader's probabilities honest on the calibration
    photos (least negative log-likelihood of the labelled values), folded into its last
    layer. Each labelled die is cut four times: by the finder's box in its four quarter
    turns where the finder finds it (as the reader is given it), else by the label's box
    with the finder's typical error."""
    crops, labels = [], []
    found = finder_view(calib)[1]
    for i, ph in enumerate(calib):
        for j, (box, v) in enumerate(zip(ph.boxes, ph.values, strict=True)):
            bw, bh = box[2] - box[0], box[3] - box[1]
            if (i, j) in found:
                crop = crop_for_pips(ph.image, found[i, j])
                crops += [np.ascontiguousarray(np.rot90(crop, k)) for k in range(4)]
                labels += [int(v)] * 4
                continue
            for _ in range(4):
                c = (box[:2] + box[2:]) / 2 + rng.normal(0, 0.04, 2) * (bw, bh)
                s = rng.uniform(0.92, 1.1)
                jb = np.array([c[0] - bw * s / 2, c[1] - bh * s / 2,
                               c[0] + bw * s / 2, c[1] + bh * s / 2])
                crops.append(crop_for_pips(ph.image, jb))
                labels.append(int(v))
    with torch.no_grad():
        logits = net(to_tensor(crops))
    y = torch.tensor(labels)
    log_t = torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200)

    def nll() -> torch.Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), y)
        loss.backward()
        return loss

    opt.step(nll)
    t = float(log_t.detach().exp())
    right = (logits.argmax(1) == y).float().mean().item()
    print(f"temperature {t:.3f} from {len(labels)} calibration crops "
          f"(single-crop accuracy {100 * right:.1f}%)")
    last = net.body[-1]
    with torch.no_grad():
        last.weight /= t
        last.bias /= t
    return t


CREDIT = ("Trained on rendered trays and real photos: \"Rune55\" by rune-zkmvl, Roboflow "
          "Universe, CC BY 4.0 (changed: see vision/models/NOTICE.md); matteo-desk (MIT, (c) "
          "2021 Matteo Anthony Penlington); byler-dev (BSD-3-Clause, (c) 2019 Nell Byler); "
          "tomitomi crops (MIT, (c) 2018 N.Tomi). vision/models/NOTICE.md has the details.")
"""The attribution written into each exported network (the photos' licences ask for it)."""


def credited(path: Path) -> None:
    """Write :data:`CREDIT` into the exported network ``path`` (its ``training_data``)."""
    import onnx

    model = onnx.load(str(path))
    del model.metadata_props[:]
    entry = model.metadata_props.add()
    entry.key, entry.value = "training_data", CREDIT
    onnx.save(model, str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--finder-steps", type=int, default=4000)
    parser.add_argument("--pip-steps", type=int, default=4000)
    parser.add_argument("--renders", type=int, default=600,
                        help="rendered trays of ordinary dice to mix in")
    parser.add_argument("--tilted", type=float, default=0.25,
                        help="at most this share of a rendered tray's dice lean on another")
    parser.add_argument("--smoky", type=float, default=0.0,
                        help="chance of a rendered die being smoked with red pips (the "
                             "dark dice real photos hold many of)")
    parser.add_argument("--see-through", type=float, default=0.0,
                        help="chance of a rendered die being a gamer's see-through die, the "
                             "far faces' pips showing (the trays' commonest misreads)")
    parser.add_argument("--only", choices=("finder", "pips"))
    parser.add_argument("--pips-from", type=Path,
                        help="fine-tune this exported pip reader instead of starting afresh")
    parser.add_argument("--finder-from", type=Path,
                        help="fine-tune this exported finder instead of starting afresh")
    parser.add_argument("--teacher", type=Path,
                        help="distil the pip reader from this exported one (a bigger reader)")
    parser.add_argument("--pip-widths", type=lambda s: tuple(int(v) for v in s.split(",")),
                        default=PIP_WIDTHS,
                        help="channels of the pip reader's four convolutions, e.g. 16,32,64,96 "
                             "(with --pips-from: the exported reader pruned or widened to "
                             "them)")
    parser.add_argument("--checkpoint", type=Path,
                        help="save the training (finder or pips: use with --only) here every "
                             "200 steps and go on from it when it exists")
    parser.add_argument("--threads", type=int, default=1,
                        help="PyTorch threads (the machine is shared: one by default)")
    parser.add_argument("--weigh", nargs="*", default=[], metavar="SOURCE=W",
                        help="draw this photo source's photos W times as often (for the "
                             "finder and the pip reader), e.g. rune55-trays=2")
    parser.add_argument("--mine", type=float, default=0.0, metavar="SHARE",
                        help="draw this share of the photo dice from those the starting pip "
                             "reader reads wrong or unsure (hard examples, train parts only)")
    parser.add_argument("--pips-out", type=Path, default=PIPS_ONNX,
                        help="write the pip reader here (default: the shipped one's place)")
    parser.add_argument("--seed", type=int, default=0)
    card = dice_formats()
    add_options(parser, card.finder, FINDER_OPTIONS, "finder-", "finder")
    add_options(parser, card.pips, PIP_OPTIONS, "pips-", "pips")
    args = parser.parse_args()
    chosen = DiceFormats(from_options(args, card.finder, FINDER_OPTIONS, "finder-"),
                         from_options(args, card.pips, PIP_OPTIONS, "pips-"))
    in_format(chosen)
    made_by = " ".join(["tools/train_dice_net.py", *sys.argv[1:]])
    today = time.strftime("%Y-%m-%d", time.gmtime())
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    data = args.shared / "data"
    photos = [p for s in PHOTO_SOURCES for p in load_part(s, "train", args.shared)]
    calib = [p for s in PHOTO_SOURCES for p in load_part(s, "tune", args.shared)]
    tomi = tomitomi_part("train", data / "tomitomi-crops")
    t0 = time.time()
    renders = rendered_photos(args.renders, rng, args.tilted, args.smoky, args.see_through)
    print(f"{len(renders)} rendered trays ({time.time() - t0:.0f} s); {len(photos)} photos "
          f"to train on, {len(calib)} to calibrate")
    weighs = {k: float(v) for k, v in (w.split("=") for w in args.weigh)}
    if args.only != "pips":
        close = tomitomi_photos(tomi)
        print(f"close-ups for the finder: {len(close)} of {len(tomi)} tomitomi crops")
        finder = train_finder(photos, close, renders, args.finder_steps, rng,
                              start=args.finder_from, checkpoint=Checkpoint(args.checkpoint),
                              weigh=weighs)
        size = chosen.finder.size
        export(finder, (1, 3, size, size), FINDER_ONNX, 13)
        credited(FINDER_ONNX)
        write_section(card_beside(FINDER_ONNX, DiceFormats), "finder", chosen.finder, made_by,
                      today, DiceFormats)
    if args.only != "finder":
        pips = train_pips(photos, tomi, renders, args.pip_steps, rng, start=args.pips_from,
                          checkpoint=Checkpoint(args.checkpoint), teacher=args.teacher,
                          widths=args.pip_widths,
                          weigh=weighs, mine=args.mine)
        fit_temperature(pips, calib, rng)
        crop = chosen.pips.crop
        export(pips, (1, 3, crop, crop), args.pips_out, 13)
        credited(args.pips_out)
        write_section(card_beside(args.pips_out, DiceFormats), "pips", chosen.pips, made_by,
                      today, DiceFormats)


FINDER_OPTIONS = ("size", "min_die", "max_die")
"""The finder's format a training chooses (its stride, padding and second look: the card's)."""
PIP_OPTIONS = ("crop", "margin")
"""The pip reader's format a training chooses."""


def in_format(chosen: DiceFormats) -> None:
    """Make every crop and look of this run in the ``chosen`` format: when it is not the
    card's, the run reads a card of its own (a scratch copy that states it)."""
    if chosen == dice_formats():
        return
    card = Path(tempfile.mkdtemp(prefix="dice-nets-")) / "dice_nets.toml"
    for name in ("finder", "pips"):
        write_section(card, name, getattr(chosen, name), "(this run's format)", "", DiceFormats)
    vision.netformat.DICE_NETS = card


if __name__ == "__main__":
    main()
