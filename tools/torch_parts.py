"""What the two training tools share: the network's building block and the ONNX export.

Needs PyTorch (``pip install -e '.[train]'``); the assistant itself never imports it.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm, ReLU: every layer of both tools' networks."""
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


def export(net: nn.Module, shape: tuple[int, ...], path: Path, opset: int) -> None:
    """``net`` in inference mode as an ONNX file OpenCV's DNN module reads (any batch,
    height and width; the input is named ``image``, the output ``out``)."""
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.zeros(shape),), str(path), input_names=["image"],
                      output_names=["out"], opset_version=opset, dynamo=False,
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n"}})
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
