"""One small network in an ONNX file, run by ONNX Runtime where it is installed, else by
OpenCV's DNN module.

Both give the same outputs (to about 1e-5: the same arithmetic in another order); ONNX
Runtime runs the ordinary-dice networks about twice as fast on one core (BENCHMARKS.md),
which is what the speed of a tray of dice needs. It is a dependency where it has wheels
(64-bit PCs and 64-bit Raspberry Pi OS); elsewhere, or with ``KOTD_ONNX=opencv`` set, OpenCV
runs the networks as it always did.

Threads: as many as OpenCV is allowed (:func:`cv2.getNumThreads` when the network is
loaded), so ``cv2.setNumThreads(1)`` keeps both runtimes on one core.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np

try:  # an optional speed-up: OpenCV's DNN module does the same work where it is missing
    import onnxruntime
except ImportError:  # pragma: no cover - depends on the platform's wheels
    onnxruntime = None


def runtime() -> str:
    """``"onnxruntime"`` or ``"opencv"``: what runs networks loaded now."""
    if onnxruntime is None or os.environ.get("KOTD_ONNX", "") == "opencv":
        return "opencv"
    return "onnxruntime"


class OnnxNet:
    """The network in ``path`` (one input, one output), loaded once; calling it with an
    NCHW float32 blob gives its output. Safe to call from several threads."""

    def __init__(self, path: Path, use: str | None = None) -> None:
        self.runtime = use or runtime()
        self.path = path
        """The ONNX file run."""
        self._session: Any = None
        self._net: Any = None
        if self.runtime == "onnxruntime":
            assert onnxruntime is not None, "ONNX Runtime is not installed"
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = max(1, cv2.getNumThreads())
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session = onnxruntime.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"])
            self._input = self._session.get_inputs()[0].name
        else:
            self._net = cv2.dnn.readNetFromONNX(str(path))
            self._lock = threading.Lock()  # a cv2.dnn.Net is not re-entrant

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        if self._session is not None:  # an InferenceSession may be run from many threads
            out: np.ndarray = self._session.run(None, {self._input: blob})[0]
            return out
        with self._lock:
            self._net.setInput(blob)
            out = self._net.forward()
        return out


__all__ = ["OnnxNet", "runtime"]
