"""``vision.shrink``: a picture shrunk by area is the exact area average rounded, and OpenCV's
``INTER_AREA`` (the finder was trained on that) to one grey level, whatever the sizes."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.shrink import MAX_RUN_OUT, shrunk_by_area


def exact_area(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """The oracle: each output pixel the mean of the input over its footprint, each input
    pixel weighed by the part of it inside (brute force, float64)."""
    h, w = image.shape[:2]
    pic = image.reshape(h, w, -1).astype(np.float64)

    def weights(n_in: int, n_out: int) -> np.ndarray:
        m = np.zeros((n_out, n_in))
        for o in range(n_out):
            a, b = o * n_in / n_out, (o + 1) * n_in / n_out
            for i in range(n_in):
                m[o, i] = max(0.0, min(b, i + 1) - max(a, i)) / (b - a)
        return m

    out: np.ndarray = np.einsum("oi,ijc,pj->opc", weights(h, height), pic, weights(w, width))
    return out.reshape((height, width, *image.shape[2:]))


@st.composite
def pictures(draw: st.DrawFn) -> tuple[np.ndarray, int, int]:
    """A random 8-bit picture (grey, one channel or colour) and a smaller size: mostly sizes
    whose runs repeat (the fast way), sometimes any (OpenCV's way)."""
    def side() -> tuple[int, int]:
        if draw(st.booleans()):
            q = draw(st.integers(2, 12))
            p = draw(st.integers(1, min(q - 1, MAX_RUN_OUT + 1)))
            k = draw(st.integers(1, 8))
            return q * k, p * k
        n_in = draw(st.integers(2, 60))
        return n_in, draw(st.integers(1, n_in))

    (h, height), (w, width) = side(), side()
    shape = draw(st.sampled_from([(h, w), (h, w, 1), (h, w, 3)]))
    seed = draw(st.integers(0, 2**32 - 1))
    image = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
    return image, width, height


@settings(max_examples=150, deadline=None)
@given(pictures())
def test_a_picture_shrunk_is_its_area_average_rounded(case: tuple[np.ndarray, int, int]
                                                      ) -> None:
    image, width, height = case
    got = shrunk_by_area(image, (width, height))
    opencv = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    assert got.dtype == np.uint8 and got.shape == opencv.shape
    exact = exact_area(image, width, height).reshape(got.shape)
    assert np.abs(got - exact).max() <= 0.5 + 1e-3
    assert np.abs(got.astype(int) - opencv.astype(int)).max() <= 1


def test_the_finder_s_view_of_a_frame_is_opencv_s_to_rounding() -> None:
    """The case it is for: a 1280×960 and a 640×480 frame to 384×288, a real picture (smooth
    areas, so ties in rounding are rare): at most one level, on few pixels."""
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    for size in ((1280, 960), (640, 480)):
        frame = cv2.GaussianBlur(cv2.resize(noise, size, interpolation=cv2.INTER_CUBIC),
                                 (0, 0), 3)
        got = shrunk_by_area(frame, (384, 288)).astype(int)
        opencv = cv2.resize(frame, (384, 288), interpolation=cv2.INTER_AREA).astype(int)
        assert np.abs(got - opencv).max() <= 1
        assert (got != opencv).mean() < 0.01
