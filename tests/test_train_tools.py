"""The training tool's pruning of the pip reader and its draws of photo sources (needs
PyTorch: ``pip install -e '.[train]'``; skipped without it, as the assistant never needs it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="PyTorch (.[train]) is not installed")
pytest.importorskip("onnx", reason="onnx (.[train]) is not installed")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import numpy as np  # noqa: E402
from dice_data import Photo  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from torch import nn  # noqa: E402
from torch_parts import export, load_exported  # noqa: E402
from train_dice_net import PipNet, pruned, weighed, widths_of  # noqa: E402


def _exported(tmp_path: Path, widths: tuple[int, int, int, int]) -> PipNet:
    """A randomly initialised reader of ``widths``, exported and loaded back (batch norms
    folded, as :func:`pruned` is given a shipped reader)."""
    torch.manual_seed(3)
    net = PipNet(widths)
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):  # not the identity: folding must be real
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.1, 0.1)
    path = tmp_path / "pips.onnx"
    export(net, (1, 3, 48, 48), path, 13)
    assert widths_of(path) == widths
    return load_exported(PipNet(widths), path).eval()


def test_pruned_to_its_own_widths_is_the_same_network(tmp_path: Path) -> None:
    big = _exported(tmp_path, (24, 48, 64, 96))
    x = torch.rand(4, 3, 48, 48)
    with torch.no_grad():
        assert torch.equal(pruned(big, (24, 48, 64, 96)).eval()(x), big(x))


def test_pruning_keeps_the_heaviest_channels_and_what_feeds_on_them(tmp_path: Path) -> None:
    big = _exported(tmp_path, (24, 48, 64, 96))
    small = pruned(big, (16, 32, 64, 96))
    bigs = [m for m in big.body if isinstance(m, nn.Sequential)]
    smalls = [m for m in small.body if isinstance(m, nn.Sequential)]
    keep = list(range(3))
    for b, s in zip(bigs, smalls, strict=True):
        w = b[0].weight.detach()[:, keep]
        n = s[0].out_channels
        # brute force: the n channels of largest L1 weight, in their order
        heavy = sorted(sorted(range(w.shape[0]), key=lambda c: -float(w[c].abs().sum()))[:n])
        assert torch.equal(s[0].weight.detach(), w[heavy])
        assert torch.equal(s[1].bias.detach(), b[1].bias.detach()[heavy])
        keep = heavy
    assert torch.equal(small.body[-1].weight.detach(), big.body[-1].weight.detach()[:, keep])


@given(st.lists(st.sampled_from("abc"), min_size=1, max_size=30),
       st.floats(0.1, 10.0), st.floats(0.1, 10.0))
def test_a_weighed_source_is_drawn_that_many_times_as_often(
        sources: list[str], wa: float, wb: float) -> None:
    """Whatever the number of photos per source, each source present is drawn in proportion
    to its weight (1 unless given), and the chances add up to one."""
    blank = np.zeros((1, 1, 3), np.uint8)
    photos = [Photo(blank, np.zeros((0, 4)), np.zeros(0), f"{i}", s)
              for i, s in enumerate(sources)]
    weigh = {"a": wa, "b": wb}
    chances = weighed(photos, weigh)
    assert abs(chances.sum() - 1.0) < 1e-9
    share = {s: chances[[p.source == s for p in photos]].sum() for s in set(sources)}
    total = sum(weigh.get(s, 1.0) for s in share)
    for s, got in share.items():
        assert abs(got - weigh.get(s, 1.0) / total) < 1e-9, (s, got)
