"""A small learned pip reader for ordinary dice (``--dice standard``).

Ordinary dice come in every body colour, marbled or translucent, with pips of any colour,
where counting blobs is fragile. This model reads the warped face crop that the locator
and :func:`vision.pips.face_crop` make: the crop is turned into a polarity-free "how far
from the face colour" map, described by gradient-orientation histograms on a 4x4 grid
plus the map itself at 12x12, and a one-hidden-layer network (numpy only) scores the
classes "not a die" and 1-6.

The weights are a small file in ``vision/models/`` made by :mod:`vision.train_pips` from
the byler-dev ``train`` split and half of the tomitomi crops; the byler ``test`` split and
the other tomitomi half are never used for training.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL_PATH = Path(__file__).with_name("models") / "pips_mlp.npz"
MAP = 32  # side of the difference map the features are taken from


def difference_map(crop_lab: np.ndarray) -> np.ndarray:
    """``MAP x MAP`` float map 0..1: each pixel's Lab distance from the face's median colour,
    scaled by the crop's 99th percentile (so dark and light pips look the same)."""
    small = cv2.resize(crop_lab, (MAP, MAP), interpolation=cv2.INTER_AREA)
    face = np.median(small[4:-4, 4:-4].reshape(-1, 3), axis=0)
    d = small - face
    dist = np.sqrt((d * d).sum(axis=2))
    top = float(np.percentile(dist, 99)) + 1e-3
    return np.clip(dist / max(top, 10.0), 0.0, 1.0).astype(np.float32)


def features(crop_lab: np.ndarray) -> np.ndarray:
    """Feature vector of one face crop (float Lab, any square size)."""
    m = difference_map(crop_lab)
    gx = cv2.Sobel(m, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(m, cv2.CV_32F, 0, 1, ksize=3)
    mag, ang = cv2.cartToPolar(gx, gy)
    bins = np.minimum((ang % np.pi) / np.pi * 8, 7).astype(np.int32)
    cell = MAP // 4
    hist = np.zeros((4, 4, 8), np.float32)
    for b in range(8):
        w = np.where(bins == b, mag, 0.0)
        hist[..., b] = w.reshape(4, cell, 4, cell).sum(axis=(1, 3))
    hist /= np.linalg.norm(hist) + 1e-6
    raw = cv2.resize(m, (12, 12), interpolation=cv2.INTER_AREA)
    return np.concatenate([hist.ravel(), raw.ravel()]).astype(np.float32)


@dataclass(frozen=True)
class PipModel:
    """One hidden layer (ReLU) and a softmax over classes 0 (not a die) and 1-6."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(x) - self.mean) / self.scale
        h = np.maximum(z @ self.w1 + self.b1, 0.0)
        o = h @ self.w2 + self.b2
        o -= o.max(axis=1, keepdims=True)
        e = np.exp(o)
        return e / e.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{k: getattr(self, k).astype(np.float32)
                                     for k in ("mean", "scale", "w1", "b1", "w2", "b2")})

    @classmethod
    def load(cls, path: Path) -> PipModel:
        with np.load(path) as z:
            return cls(*(z[k] for k in ("mean", "scale", "w1", "b1", "w2", "b2")))


@lru_cache(maxsize=1)
def default_model() -> PipModel | None:
    """The shipped model, or None when it has not been trained."""
    return PipModel.load(MODEL_PATH) if MODEL_PATH.is_file() else None


def classify(crop_lab: np.ndarray, model: PipModel | None = None) -> tuple[int, float] | None:
    """(class 0-6, probability) for a face crop; None without a model."""
    model = model or default_model()
    if model is None:
        return None
    p = model.probabilities(features(crop_lab))[0]
    k = int(np.argmax(p))
    return k, float(p[k])
