"""How every eight-bit copy of a network is made (``tools/quantize_dice_nets.py``,
``tools/quantize_haba_nets.py``): ONNX Runtime's own static quantisation.

:func:`onnxruntime.quantization.quantize_static`: QDQ format, weights signed and per output
channel in **7 bits** (``reduce_range``), activations unsigned 8 bits, their ranges the
minimum and maximum of what the float network is shown while reading calibration data
(:class:`Recording`). Why 7 bits: on x86 CPUs without VNNI (AVX2 only, as on the dev
machines) ONNX Runtime's unsigned-by-signed 8-bit kernels add pairs of products in 16 bits,
which saturate with full 8-bit weights (the ordinary pip reader's most likely class changed
on 9.4% of its tune crops, on 1.3% with 7 bits); ARM CPUs (the Pi) have no such limit, and 7
bits run the same everywhere.

A copy records the float file it was made from (:func:`vision.onnxnet.made_from`: only
beside that very file does it run), the command that made it, and the float network's
``training_data`` attribution when it has one. Needs the ``onnx`` package (``pip install -e
'.[train]'``).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.onnxnet import QUANTIZED_FROM, int8_of, made_from

OPSET = 13
"""The ONNX opset a network is brought to first (per-channel weights need it)."""


class Recording:
    """A network that keeps every input it is shown (stands in for it while calibration data
    is read)."""

    def __init__(self, net: Callable[[np.ndarray], np.ndarray]) -> None:
        self.net = net
        self.inputs: list[np.ndarray] = []

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        self.inputs.append(blob.copy())
        return self.net(blob)


def quantized(src: Path, batches: list[np.ndarray], made_by: str) -> Path:
    """Writes ``src``'s eight-bit copy (:func:`vision.onnxnet.int8_of`), its ranges from
    ``batches`` (each a blob the network takes), stamped and credited; returns its path."""
    import onnx
    from onnx import version_converter
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    model = onnx.load(str(src))
    credit = {p.key: p.value for p in model.metadata_props}.get("training_data")
    name = model.graph.input[0].name
    if model.opset_import[0].version < OPSET:
        model = version_converter.convert_version(model, OPSET)

    class Reader(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self._feeds = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            blob = next(self._feeds, None)
            return None if blob is None else {name: blob}

    dst = int8_of(src.resolve())  # the quantiser works in a folder of its own
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        onnx.save(model, "opset.onnx")
        quant_pre_process("opset.onnx", "ready.onnx", skip_symbolic_shape=True)
        quantize_static("ready.onnx", str(dst), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, reduce_range=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
    copy = onnx.load(str(dst))
    del copy.metadata_props[:]
    onnx.helper.set_model_props(copy, ({"training_data": credit} if credit else {})
                                | {"made_by": made_by, QUANTIZED_FROM: made_from(src)})
    onnx.save(copy, str(dst))
    print(f"wrote {dst} ({dst.stat().st_size / 1e6:.2f} MB)")
    return dst


__all__ = ["OPSET", "Recording", "quantized"]
