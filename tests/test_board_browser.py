"""The board game on the real page in headless Chromium: choose it at setup, play a turn by
taps (a card entered, a throw, a card met, a joker suggestion taken, the effects done),
fill in the final scoring sheet, read the game told in sentences on the history page, and
find the entered card again in the next game.

The server is the page's own waitress server in a thread over a real table and store;
throws are posted through the API, as the camera does. Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browserkit import Served, need_browser, shot, table_in_thread
from webkit import TOKEN

from rules.table import Table

expect = need_browser()

# Ann takes the scoundrel and the land developer (both a red 6); Ben takes face down.
BEFORE = [
    "tiles 5", "top 4 scoundrel-red-6", "roll 6r 6g 6b 5r 5g 2b", "take 4",
    "done", "roll 1r 1g 1b 2r 2g 2b", "down 1", "done",
    "top 5 land-developer-red-6", "roll 6r 6g 6b 5r 5g 2b", "take 5", "done",
    "roll 1r 1g 1b 2r 2g 2b", "down 2", "done",
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Table]]:
    with table_in_thread(tmp_path, TOKEN) as page_and_table:
        yield page_and_table


def start_board_game(screens, site: Served):
    """Ann and Ben's board game, chosen and started on a phone's setup page."""
    page = screens.phone(site.url + f"setup?token={TOKEN}")
    page.click("#game-choice [data-game='board']")
    expect(page.locator("#game-choice [data-game='board']")).to_have_attribute(
        "aria-pressed", "true")
    page.fill("#player-list input[data-player='0']", "Ann")
    page.fill("#player-list input[data-player='1']", "Ben")
    page.click("#start-game")
    page.wait_for_url(site.url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#b-ask")).to_contain_text("Ann: throw the dice")
    return page


def test_a_turn_by_taps_with_a_joker_suggestion_and_the_final_sheet(screens, served) -> None:
    site, table = served
    page = start_board_game(screens, site)
    assert table.pack.id == "board"
    for line in BEFORE:
        status, body = site.post(line)
        assert status == 200, body
    expect(page.locator("#b-players [data-player='Ann'] .kcard")).to_have_count(2)

    # a new dragon trainer comes up on deck 3: entered by kind, then numbers and its joker
    page.click("#b-market [data-enter='3']")
    page.select_option("#b-new-kind-3", "pips")
    page.fill("#b-new-numbers-3", "6 1 3")
    page.fill("#b-new-joker-3", "1g")
    # another phone changes the table while Ann types: the page is drawn again, her typing stays
    assert site.post("card d5-1 5 2b sum 25")[0] == 200
    assert site.post("top 5 d5-1")[0] == 200
    expect(page.locator("#b-market [data-deck='5'] .b-condition")).to_contain_text("25")
    expect(page.locator("#b-new-numbers-3")).to_have_value("6 1 3")
    expect(page.locator("#b-new-kind-3")).to_have_value("pips")
    page.click("#b-new-add-3")
    expect(page.locator("#b-market [data-deck='3'] .b-condition")).to_contain_text("1, 3, 6")
    assert table.state.market[2] == "d3-1" and "d3-1" in table.state.deck
    expect(page.locator("#b-market [data-deck='3'] .b-picture .die")).to_have_count(3)
    # a card entered before is chosen from the list (deck 1: Nelli's red merchant)
    page.click("#b-market [data-enter='1']")
    page.click("#b-pick-1 [data-card='merchant-red']")
    expect(page.locator("#b-market [data-deck='1'] .b-condition")).to_contain_text("4 × red")
    site.post("roll 1g 3b 2r 2g 4b 5r")  # the camera saw Ann's throw: no 6
    plan = page.locator("#b-market [data-deck='3'] .b-plan")
    expect(plan).to_contain_text("discard the scoundrel and the land developer, both a red 6, "
                                 "to add a red 6")
    shot(page, "board-turn-jokers", full=True)
    plan.locator("button[data-jokers]").click()
    expect(page.locator("#b-roll .added")).to_have_count(1)
    page.click("#b-market [data-take='3']")
    expect(page.locator("#b-effects")).to_be_visible()
    page.click("#b-fire")
    page.click("#b-done")
    expect(page.locator("#b-ask")).to_contain_text("Ben: throw the dice")
    ann = table.state.players[0]
    assert ann.cards == ("d3-1",) and ann.fires == 1
    assert [str(a) for a in table.record.actions][-4:] == [
        "discard scoundrel-red-6 land-developer-red-6", "take 3", "fire", "done"]

    # Ben's face-down card takes the last castle tile: the game ends, the sheet is filled
    site.post("roll 1r 1g 1b 2r 2g 2b")
    page.click("#b-market [data-down='4']")
    page.click("#b-done")
    expect(page.locator("#b-sheet")).to_be_visible()
    page.fill("#b-area-0", "3")
    page.fill("#b-outside-0", "1")
    page.fill("#b-area-1", "1")
    page.fill("#b-outside-1", "0")
    page.click("#b-count")
    expect(page.locator("#b-winner")).to_contain_text("Ann wins with")
    shot(page, "board-final-sheet", full=True)
    assert page.errors == []

    with urllib.request.urlopen(site.url + "api/stats", timeout=10) as response:
        stats = {p["name"]: p for p in json.loads(response.read())["players"]}
    assert (stats["Ann"]["wins"], stats["Ann"]["best"], stats["Ben"]["wins"]) == (1, 16, 0)

    # the history tells the game in sentences, never in the stored action words
    history = screens.phone(site.url + "history", slot=1)
    with urllib.request.urlopen(site.url + "api/history", timeout=10) as response:
        stored = json.loads(response.read())["events"]
    expect(history.locator("#events li .ev-said")).to_have_count(len(stored))
    expect(history.locator("#events li code")).to_have_count(0)
    expect(history.locator("#events li .ev-said").first).to_have_text("New game: Ann, Ben")
    expect(history.locator("#events li .ev-said").last).to_contain_text("Ann wins with")
    shot(history, "board-history", full=True)
    assert history.errors == []

    # the next game: the card entered in this one is offered again
    status, body = site.post("players Cem Dora")
    assert status == 200, body
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.click("#b-market [data-enter='3']")
    page.click("#b-pick-3 [data-earlier='d3-1']")
    expect(page.locator("#b-market [data-deck='3'] .b-condition")).to_contain_text("1, 3, 6")
    assert table.state.market[2] == "d3-1" and table.state.players[0].name == "Cem"
    assert page.errors == []


def test_a_tap_while_an_action_is_on_its_way_waits_for_its_answer(screens, served) -> None:
    """The live stream often brings the new state before the action's own answer: the
    buttons it draws meanwhile are disabled too, so a tap waits instead of being lost."""
    site, table = served
    page = start_board_game(screens, site)
    for line in ["tiles 5", "top 4 scoundrel-red-6", "roll 6r 6g 6b 5r 5g 2b"]:
        assert site.post(line)[0] == 200
    held: list = []

    def hold(route) -> None:  # Ann's tap leaves, its answer waits
        held.append(route)

    page.route("**/api/action*", hold)
    page.click("#b-market [data-take='4']")
    # another phone changes the table meanwhile: the page is drawn again from the stream
    assert site.post("top 5 land-developer-red-6")[0] == 200
    expect(page.locator("#b-market [data-deck='5'] button[data-take='5']")).to_have_count(1)
    expect(page.locator("#court-game button")).not_to_have_count(0)
    expect(page.locator("#court-game button:enabled")).to_have_count(0)
    assert len(held) == 1 and table.state.players[0].cards == ()
    held[0].continue_()
    page.unroute("**/api/action*", hold)
    expect(page.locator("#b-done")).to_be_enabled()
    assert table.state.players[0].cards == ("scoundrel-red-6",)
    page.click("#b-done")
    expect(page.locator("#b-ask")).to_contain_text("Ben: throw the dice")
    assert page.errors == []
