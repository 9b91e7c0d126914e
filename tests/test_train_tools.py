"""The training tool's pruning and widening of the pip reader, its draws of photo sources
and of mined dice (needs PyTorch: ``pip install -e '.[train]'``; skipped without it, as the
assistant never needs it)."""

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
from train_dice_net import (  # noqa: E402
    MINE_BELOW,
    MINE_LABEL_ERROR,
    PipNet,
    hard_dice,
    pip_samples,
    pruned,
    weighed,
    widened,
    widths_of,
)


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


@pytest.mark.parametrize("widths", [(24, 48, 64, 96), (24, 48, 64, 192), (32, 64, 96, 128)])
def test_widened_reads_as_the_network_it_grew_from(tmp_path: Path,
                                                   widths: tuple[int, int, int, int]) -> None:
    small = _exported(tmp_path, (24, 48, 64, 96))
    wide = widened(small, widths, seed=5).eval()
    assert [m[0].out_channels for m in wide.body if isinstance(m, nn.Sequential)] == list(widths)
    x = torch.rand(6, 3, 48, 48)
    with torch.no_grad():
        torch.testing.assert_close(wide(x), small(x), rtol=1e-4, atol=1e-4)
        # the copies' own weights set apart (noise): another function, close to the first
        noisy = widened(small, widths, noise=0.01, seed=5).eval()(x)
        assert torch.allclose(noisy, small(x), atol=0.5)
        assert widths == (24, 48, 64, 96) or not torch.allclose(noisy, small(x), atol=1e-4)


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


def _photos_of_values(values: list[list[int]]) -> list[Photo]:
    """Grey photos with one 30-pixel box a die, side by side (nothing to read: the labels
    are what the test follows)."""
    out = []
    for i, vals in enumerate(values):
        boxes = np.array([[10 + 60 * j, 20, 40 + 60 * j, 50] for j in range(len(vals))],
                         np.float32).reshape(-1, 4)
        image = np.full((80, 60 * max(len(vals), 1) + 20, 3), 128, np.uint8)
        out.append(Photo(image, boxes, np.array(vals, np.int64), f"p{i}", "a"))
    return out


@given(st.integers(0, 2**16), st.sampled_from([0.0, 1.0]))
def test_mined_dice_are_drawn_at_their_share(seed: int, share: float) -> None:
    """With every photo die drawn from the mined ones (share 1), the labelled crops are the
    mined dice's values only (the rest are negatives, class 0); with share 0 the mined list
    changes nothing: the other dice are drawn too."""
    photos = _photos_of_values([[1, 2, 6], [3, 4, 6], [5, 6, 1]])
    mined = [(0, 2), (1, 2), (2, 1)]  # the sixes
    rng = np.random.default_rng(seed)
    crops, labels = pip_samples(photos, [], [], [], rng, 60, mined=(mined, share))
    assert crops.shape == (60, 48, 48, 3)
    drawn = set(labels.tolist()) - {0}
    if share == 1.0:
        assert drawn == {6}
    else:
        assert drawn - {6}


@given(st.lists(st.tuples(st.lists(st.floats(0.001, 1.0), min_size=7, max_size=7),
                          st.integers(1, 6)), max_size=20))
def test_hard_dice_are_the_unsure_ones_but_likely_label_errors(
        rows: list[tuple[list[float], int]]) -> None:
    """A die is mined exactly when the reader gives its label less than MINE_BELOW, unless
    it gives the label almost nothing and another value almost all (then the label is
    suspect); the count of those left out is returned."""
    probs = np.array([r for r, _ in rows], np.float64).reshape(-1, 7)
    probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)
    values = np.array([v for _, v in rows], np.int64)
    chosen, doubtful = hard_dice(probs, values)
    want, suspect = [], 0
    for i, (p, v) in enumerate(zip(probs, values, strict=True)):
        if p[v] >= MINE_BELOW:
            continue
        if p[v] < MINE_LABEL_ERROR[0] and max(p[1:]) > MINE_LABEL_ERROR[1]:
            suspect += 1
        else:
            want.append(i)
    assert chosen.tolist() == want and doubtful == suspect
