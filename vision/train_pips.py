"""Train the ordinary-dice pip model (:mod:`vision.classify`) from the shared data.

Run: ``.venv/bin/python -m vision.train_pips [--shared PATH]``; writes
``vision/models/pips_mlp.npz``. Deterministic (fixed seed). Training data: every die
candidate the locator finds in the byler-dev ``train`` photos (labelled with the value of
the box it lies in, or "not a die"), the labelled boxes themselves, and the even-numbered
tomitomi crops; each crop in its eight rotations and mirror images. Held out: the byler
``test`` split and the odd-numbered tomitomi crops, on which it reports accuracy.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.classify import MODEL_PATH, PipModel, features
from vision.locate import Candidate, WorkFrame, find_blobs, to_lab
from vision.pips import face_crop

GROW = 1.0


def _dihedral(crop: np.ndarray) -> Iterator[np.ndarray]:
    for k in range(4):
        r = np.rot90(crop, k)
        yield r
        yield r[:, ::-1]


def byler_samples(root: Path, split: str) -> Iterator[tuple[np.ndarray, int, bool]]:
    """(crop Lab, class, from the locator) for one split of byler-dev."""
    for js in sorted(root.glob("*.json")):
        meta = json.loads(js.read_text())
        if meta["author_split"] != split:
            continue
        frame = cv2.imread(str(js.with_name(meta["image"])))
        work = WorkFrame.of(frame)
        for cand in find_blobs(work):
            label = 0
            for d in meta["dice"]:
                b = d["box"]
                if b[0] <= cand.center[0] <= b[2] and b[1] <= cand.center[1] <= b[3]:
                    label = d["value"]
                    break
            yield to_lab(face_crop(frame, cand, GROW), work.gains), label, True
        for d in meta["dice"]:
            x0, y0, x1, y1 = d["box"]
            side = 0.85 * min(x1 - x0, y1 - y0)
            cand = Candidate(((x0 + x1) / 2, (y0 + y1) / 2), (side, side), 0.0)
            yield to_lab(face_crop(frame, cand, GROW), work.gains), d["value"], False


def tomitomi_candidate(frame: np.ndarray) -> Candidate:
    """The die in a tomitomi crop: the locator's candidate nearest the centre, else the
    central square."""
    h, w = frame.shape[:2]
    cands = find_blobs(WorkFrame.of(frame))
    near = [c for c in cands if np.hypot(c.center[0] - w / 2, c.center[1] - h / 2) < 0.25 * w]
    if near:
        return max(near, key=lambda c: c.side)
    return Candidate((w / 2, h / 2), (0.42 * w, 0.42 * h), 0.0)


def tomitomi_samples(root: Path, parity: int) -> Iterator[tuple[np.ndarray, int]]:
    for v in range(1, 7):
        for i, p in enumerate(sorted((root / str(v)).glob("*.png"))):
            if i % 2 != parity:
                continue
            frame = cv2.imread(str(p))
            cand = tomitomi_candidate(frame)
            yield to_lab(face_crop(frame, cand, GROW), np.ones(3, np.float32)), v


def train(x: np.ndarray, y: np.ndarray, hidden: int = 64, epochs: int = 400,
          seed: int = 0) -> PipModel:
    """Full-batch Adam on softmax cross-entropy with balanced class weights."""
    rng = np.random.default_rng(seed)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    n, d = z.shape
    k = 7
    w1 = rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, np.sqrt(2 / hidden), (hidden, k)).astype(np.float32)
    b2 = np.zeros(k, np.float32)
    counts = np.bincount(y, minlength=k).astype(np.float32)
    cw = (n / (k * np.maximum(counts, 1)))[y]
    onehot = np.eye(k, dtype=np.float32)[y]
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, decay = 3e-3, 1e-4
    for t in range(1, epochs + 1):
        h = np.maximum(z @ w1 + b1, 0)
        o = h @ w2 + b2
        o -= o.max(axis=1, keepdims=True)
        p = np.exp(o)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) * cw[:, None] / n
        gw2 = h.T @ g + decay * w2
        gb2 = g.sum(axis=0)
        gh = (g @ w2.T) * (h > 0)
        gw1 = z.T @ gh + decay * w1
        gb1 = gh.sum(axis=0)
        for i, grad in enumerate((gw1, gb1, gw2, gb2)):
            m[i] = 0.9 * m[i] + 0.1 * grad
            v[i] = 0.999 * v[i] + 0.001 * grad * grad
            params[i] -= lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
    return PipModel(mean.astype(np.float32), scale.astype(np.float32), *params)


def accuracy(model: PipModel, crops: list[np.ndarray], labels: list[int]) -> float:
    if not crops:
        return float("nan")
    x = np.stack([features(c) for c in crops])
    return float((model.probabilities(x).argmax(axis=1) == np.array(labels)).mean())


def main() -> None:
    here = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(os.environ.get("KOTD_SHARED", here.parent / "shared")))
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=400)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    byler, tomi = args.shared / "data" / "byler-dev", args.shared / "data" / "tomitomi-crops"
    xs, ys = [], []
    for crop, label, _ in byler_samples(byler, "train"):
        for c in _dihedral(crop):
            xs.append(features(c))
            ys.append(label)
    for crop, label in tomitomi_samples(tomi, 0):
        for c in _dihedral(crop):
            xs.append(features(c))
            ys.append(label)
    x, y = np.stack(xs), np.array(ys)
    print(f"training on {len(y)} samples, classes {np.bincount(y, minlength=7).tolist()}")
    model = train(x, y, args.hidden, args.epochs)
    print(f"train accuracy {float((model.probabilities(x).argmax(1) == y).mean()):.3f}")
    test = [(c, lab) for c, lab, located in byler_samples(byler, "test") if located]
    acc = accuracy(model, [c for c, _ in test], [lab for _, lab in test])
    print(f"byler test candidates (held out): {acc:.3f}")
    held = list(tomitomi_samples(tomi, 1))
    acc = accuracy(model, [c for c, _ in held], [lab for _, lab in held])
    print(f"tomitomi odd crops (held out): {acc:.3f}")
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
