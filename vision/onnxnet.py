"""One small network in an ONNX file, run by ONNX Runtime where it is installed, else by
OpenCV's DNN module.

Both give the same outputs (to about 1e-5: the same arithmetic in another order); ONNX
Runtime runs the ordinary-dice networks about twice as fast on one core (BENCHMARKS.md),
which is what the speed of a tray of dice needs. It is a dependency where it has wheels
(64-bit PCs and 64-bit Raspberry Pi OS); elsewhere, or with ``KOTD_ONNX=opencv`` set, OpenCV
runs the networks as it always did.

**Eight-bit copies.** Under ONNX Runtime a network runs as its eight-bit copy when one lies
beside it (``dice_pips.int8.onnx`` beside ``dice_pips.onnx``; ``tools/quantize_*_nets.py``
make them): the same network with 7-bit weights and 8-bit activations, calibrated on
training or tuning data, about a third faster. A copy records the float file it was made
from; a copy of another (the network trained again since) is not run, and the log says so.
OpenCV (which cannot run them), ``int8=False`` or ``KOTD_INT8=0`` run the float file.

Threads: as many as OpenCV is allowed (:func:`cv2.getNumThreads` when the network is
loaded), so ``cv2.setNumThreads(1)`` keeps both runtimes on one core.
"""

from __future__ import annotations

import hashlib
import logging
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

QUANTIZED_FROM = "quantized_from"
"""The key of an eight-bit copy's metadata naming the float file it was made from
(:func:`made_from`)."""

log = logging.getLogger(__name__)


def runtime() -> str:
    """``"onnxruntime"`` or ``"opencv"``: what runs networks loaded now."""
    if onnxruntime is None or os.environ.get("KOTD_ONNX", "") == "opencv":
        return "opencv"
    return "onnxruntime"


def wants_int8() -> bool:
    """Whether ONNX Runtime runs the networks' eight-bit copies where they lie: yes, unless
    ``KOTD_INT8=0`` is set."""
    return os.environ.get("KOTD_INT8", "") != "0"


def int8_of(path: Path) -> Path:
    """Where the eight-bit copy of the network in ``path`` lies (``x.onnx``: ``x.int8.onnx``)."""
    return path.with_suffix(".int8.onnx")


def made_from(path: Path) -> str:
    """What a copy made from the float file ``path`` records (:data:`QUANTIZED_FROM`): its
    name and SHA-256."""
    return f"{path.name} sha256 {hashlib.sha256(path.read_bytes()).hexdigest()}"


class OnnxNet:
    """The network in ``path`` (one input, one output), loaded once; calling it with an
    NCHW float32 blob gives its output. Safe to call from several threads."""

    def __init__(self, path: Path, use: str | None = None, int8: bool | None = None) -> None:
        """``use``: ``"onnxruntime"`` or ``"opencv"`` (default: :func:`runtime`); ``int8``:
        run the eight-bit copy under ONNX Runtime, when one made from ``path`` lies beside it
        (default: :func:`wants_int8`)."""
        self.runtime = use or runtime()
        self.path = path
        """The ONNX file run: ``path`` or its eight-bit copy."""
        self._session: Any = None
        self._net: Any = None
        if self.runtime == "onnxruntime":
            assert onnxruntime is not None, "ONNX Runtime is not installed"
            if (wants_int8() if int8 is None else int8) and int8_of(path).is_file():
                self._session = self._load(int8_of(path))
                meta = self._session.get_modelmeta().custom_metadata_map
                if meta.get(QUANTIZED_FROM) == made_from(path):
                    self.path = int8_of(path)
                else:
                    log.warning("%s was made from another %s: the float network runs (make "
                                "the copy again: tools/quantize_*_nets.py)", int8_of(path).name,
                                path.name)
            if self.path == path:
                self._session = self._load(path)
            self._input = self._session.get_inputs()[0].name
        else:
            self._net = cv2.dnn.readNetFromONNX(str(path))
            self._lock = threading.Lock()  # a cv2.dnn.Net is not re-entrant

    @staticmethod
    def _load(path: Path) -> Any:
        """An ONNX Runtime session of ``path`` on as many threads as OpenCV may use."""
        assert onnxruntime is not None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return onnxruntime.InferenceSession(str(path), options,
                                            providers=["CPUExecutionProvider"])

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        if self._session is not None:  # an InferenceSession may be run from many threads
            out: np.ndarray = self._session.run(None, {self._input: blob})[0]
            return out
        with self._lock:
            self._net.setInput(blob)
            out = self._net.forward()
        return out


__all__ = ["QUANTIZED_FROM", "OnnxNet", "int8_of", "made_from", "runtime", "wants_int8"]
