"""Faults as a phone sees them, in headless Chromium (Debian's, driven by Playwright).

* The game file cannot be written (the SQLite file is made full): every phone shows the
  banner at once, the game goes on unchanged, the banner goes when saving works again.
* A reply lost on the Wi-Fi: the page sends the same action again with the same id, and
  the assistant applies it once (an ``undo`` applied twice would take back two actions).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import need_browser
from webkit import START, SUM10, TOKEN, FakeEye, new_app, new_table

from web.server import make_server

expect = need_browser()


@pytest.fixture
def table_and_url(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    table = new_table(tmp_path, *START, SUM10)
    with make_server(new_app(table, FakeEye()), threads=12) as server:
        yield table, server.url


def _post(url: str, line: str) -> int:
    request = urllib.request.Request(
        url + "api/action", data=json.dumps({"action": line}).encode(),
        headers={"Content-Type": "application/json", "X-Table-Token": TOKEN}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as err:
        return err.code


def test_every_phone_shows_that_the_game_cannot_be_saved(screens: Any, table_and_url) -> None:
    table, url = table_and_url
    phones = [screens.phone(f"{url}?token={TOKEN}", slot=slot) for slot in range(2)]
    for phone in phones:
        expect(phone.locator("#storage")).to_be_hidden()
    db = table.store._db  # the fault: SQLite may not grow the file by one more page
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    before = [e.action for e in table.history()]
    for _ in range(40):  # fill the last free page; then the next action cannot be saved
        if _post(url, "undo") == 503 or _post(url, SUM10) == 503:
            break
    else:
        pytest.fail("the full file never refused an action")
    for phone in phones:
        banner = phone.locator("#storage")
        expect(banner).to_be_visible(timeout=2000)
        expect(banner).to_contain_text("cannot be saved")
        expect(banner).to_have_class("banner alarm")
    assert [e.action for e in table.history()][: len(before)] == before
    db.execute("PRAGMA max_page_count = 1000000")  # room again
    table.check_storage()
    for phone in phones:
        expect(phone.locator("#storage")).to_be_hidden(timeout=2000)
        assert phone.errors == []


def test_a_lost_reply_is_sent_again_and_the_action_applied_once(screens: Any,
                                                               table_and_url) -> None:
    table, url = table_and_url
    phone = screens.phone(f"{url}?token={TOKEN}")  # the worker's kept phone (a new
    # context costs about 0.7 s of the browser's CPU); its route goes with the test
    lost: list[dict] = []
    again: list[dict] = []

    def lose_the_first_reply(route: Any) -> None:
        response = route.fetch()  # the request reaches the assistant and is applied
        if not lost:
            lost.append({**response.json(), "sent": route.request.post_data_json})
            route.abort("connectionreset")  # ...but the phone never hears the answer
        else:
            again.append({**response.json(), "sent": route.request.post_data_json})
            route.fulfill(response=response)

    phone.route("**/api/action*", lose_the_first_reply)
    try:
        _undo_once(phone, table, lost, again)
    finally:
        phone.unroute("**/api/action*")


def _undo_once(phone: Any, table: Any, lost: list[dict], again: list[dict]) -> None:
    actions = [e.action for e in table.history()]
    assert actions[-1] == SUM10
    phone.click("#undo")
    expect(phone.locator("#roll-count")).to_contain_text("Throw the dice", timeout=5000)
    phone.wait_for_timeout(1500)  # time for a second (wrong) undo to arrive, if it were sent
    assert lost and lost[0]["done"] == "undo"
    assert len(again) == 1 and again[0]["sent"] == lost[0]["sent"]  # the same id again
    assert again[0].get("repeated") is True
    assert [e.action for e in table.history()] == [*actions, "undo"]  # once, not twice
    assert table.state.roll is None and table.state.row  # the row was not taken back
    assert phone.errors == []


def test_a_die_the_camera_cannot_see_is_said_with_what_to_check(screens: Any,
                                                                tmp_path: Path) -> None:
    """The camera sees fewer dice than the roll needs (one under a hand, or outside the
    picture), or more: the page says how many it sees, how many the roll needs (the number
    the camera waits for, here 4, not the box's six) and what to check; in German too. A
    camera the dice show to look at an angle, with no tray marked, is advised to mark it."""
    eye = FakeEye(camera="ok")
    with make_server(new_app(new_table(tmp_path, *START), eye), threads=12) as server:
        page = screens.phone(f"{server.url}?token={TOKEN}")
        eye.set(seeing="too few dice", dice_seen=3, dice_wanted=4)
        expect(page.locator("#camera-status")).to_contain_text(
            "I see 3 dice; a roll needs 4: is one covered or outside the picture? If not, tap "
            "“Read again”.")
        eye.set(seeing="too many dice", dice_seen=7, dice_wanted=6)
        expect(page.locator("#camera-status")).to_contain_text(
            "I see 7 dice; a roll needs 6: is something in the tray that looks like a die?")
        german = screens.phone(f"{server.url}?token={TOKEN}&lang=de", slot=1)  # kept too
        expect(german.locator("#camera-status")).to_contain_text(
            "Ich sehe 7 Würfel; ein Wurf braucht 6: liegt etwas in der Schale")
        expect(page.locator("#camera-tilted")).to_have_count(0)
        eye.set(tilted=True)
        expect(page.locator("#camera-tilted")).to_contain_text(
            "at an angle: mark the tray in the camera picture")
        expect(german.locator("#camera-tilted")).to_contain_text("Markiert die Schale")
        eye.set(tilted=False)
        expect(page.locator("#camera-tilted")).to_have_count(0)
        assert not page.errors and not german.errors
        screens.leave()
