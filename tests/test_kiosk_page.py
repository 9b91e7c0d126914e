"""The table page as ``kotd kiosk`` opens it on the Pi's 7" screen (800 x 480): while players
join, the join QR code stands in a corner beside the page; during play the page has the whole
screen; the token leaves the address bar; phones never get the corner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserkit import need_browser, shot
from conftest import play
from webkit import START, SUM10, TOKEN, FakeEye, new_app, new_table

from pi.kiosk import kiosk_url

expect = need_browser()


def test_kiosk_page_shows_the_join_code_in_a_corner(screens: Any, tmp_path: Path) -> None:
    from web.server import make_server

    table = new_table(tmp_path, "players Ann Ben")
    app = new_app(table, FakeEye())
    with make_server(app, threads=8) as server:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        page = screens.page("800x480")  # the worker's kept screen, clean (a new context
        # costs about 0.7 s of the browser's CPU)
        page.goto(kiosk_url(port, TOKEN))
        page.wait_for_selector("body[data-ready='1']")
        join = page.locator("#join")
        expect(join).to_be_visible()
        page.wait_for_function("document.getElementById('join-qr').naturalWidth > 0")
        assert "token" not in page.url and "kiosk=1" in page.url
        box = join.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 800 and \
            box["y"] + box["height"] <= 480 and box["width"] >= 120   # big enough to scan
        src = page.get_attribute("#join-qr", "src")
        assert src == f"/qr.svg?token={TOKEN}"
        main = page.locator("main").bounding_box()
        assert main is not None and main["x"] + main["width"] <= box["x"]  # beside it
        shot(page, "kiosk-800x480-join", settle=0)
        play(table, START[1])   # the row is laid: play starts, the corner goes
        play(table, SUM10)
        expect(join).to_be_hidden()
        main = page.locator("main").bounding_box()
        assert main is not None and main["width"] > 760
        shot(page, "kiosk-800x480-play", settle=0)
        phone = screens.phone(server.url + f"?token={TOKEN}")
        expect(phone.locator("#join")).to_be_hidden()
