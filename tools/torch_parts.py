"""What the two training tools share: the network's building block, the ONNX export and
loading an exported network back to fine-tune it.

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


def load_exported(net: nn.Module, path: Path) -> nn.Module:
    """``net`` with the weights of its exported form ``path``. On export each convolution's
    batch norm was folded into it (an unnamed weight and bias, in the network's order); the
    batch norms start as identities here, to be kept in eval mode while fine-tuning (batch
    statistics would make them another function than the one loaded). Layers without a
    batch norm keep their names."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t).copy() for t in graph.initializer}
    state = net.state_dict()
    folded = [w for name, w in weights.items() if name not in state]
    blocks = [m for m in net.modules() if isinstance(m, nn.Sequential) and len(m) == 3
              and isinstance(m[0], nn.Conv2d) and isinstance(m[1], nn.BatchNorm2d)]
    if len(folded) != 2 * len(blocks):
        raise ValueError(f"{path}: {len(folded)} folded tensors for {len(blocks)} convolutions")
    with torch.no_grad():
        for block, w, b in zip(blocks, folded[0::2], folded[1::2], strict=True):
            conv_, bn = block[0], block[1]
            conv_.weight.copy_(torch.from_numpy(w))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for name, w in weights.items():
            if name in state:
                state[name].copy_(torch.from_numpy(w))
    return net


def freeze_norms(net: nn.Module) -> None:
    """Keep the batch norms of a loaded network as loaded (see :func:`load_exported`)."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
