"""The tray marked on the real page in headless Chromium: four taps on the live camera view
of ``kotd serve --source sim``, kept in the data dir, a crossing mark refused in words,
cleared again."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import Screens, Served, need_browser, shot
from webkit import START

expect = need_browser()


def _tray_now(served: Served, corners: int, seconds: float = 10.0) -> list:
    end = time.monotonic() + seconds
    while True:
        tray = served.state()["eye"]["tray"]
        if len(tray) == corners or time.monotonic() > end:
            return tray
        time.sleep(0.1)


def _tap(page: Any, points: list[tuple[float, float]]) -> None:
    box = page.locator("#photo").bounding_box()
    for fx, fy in points:
        page.click("#photo", position={"x": fx * box["width"], "y": fy * box["height"]})


def test_the_tray_is_marked_by_four_taps_on_the_live_view(screens: Screens, served: Served,
                                                          tmp_path: Path) -> None:
    if served.kind != "kotd serve":
        pytest.skip("needs kotd serve with the simulated tray")
    for line in START:  # two players and a row
        assert served.post(line)[0] == 200
    page = screens.phone(served.url + "?token=" + served.token)
    # opened at once: on a loaded machine the camera may still be starting, and the view
    # offers the tray's buttons as soon as it is up (the click waits for them)
    page.click("#photo-button")
    page.wait_for_function("() => document.getElementById('photo').naturalWidth > 0")
    page.click("#tray-mark")
    expect(page.locator("#tray-hint")).to_contain_text("corner 1 of 4")
    _tap(page, [(0.1, 0.1), (0.9, 0.12), (0.88, 0.9)])
    expect(page.locator("#photo-tray ellipse.tray-tap")).to_have_count(3)
    _tap(page, [(0.12, 0.88)])
    tray = _tray_now(served, 4)
    assert [[round(x, 1), round(y, 1)] for x, y in tray] == \
        [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]
    assert (tmp_path / "tray.json").is_file()
    expect(page.locator("#toast")).to_contain_text("from straight down")  # the camera's tilt
    expect(page.locator("#photo-tray polygon.tray-kept")).to_have_count(1, timeout=5000)
    shot(page, "tray-marked")
    page.click("#tray-mark")  # across the tray instead of around it: refused, nothing lost
    _tap(page, [(0.1, 0.1), (0.9, 0.12), (0.12, 0.88), (0.88, 0.9)])
    expect(page.locator("#toast")).to_contain_text("cross")
    assert len(served.state()["eye"]["tray"]) == 4
    page.click("#tray-clear")
    assert _tray_now(served, 0) == []
    assert not (tmp_path / "tray.json").exists()
    expect(page.locator("#photo-tray polygon.tray-kept")).to_have_count(0, timeout=5000)
    assert page.errors == []
