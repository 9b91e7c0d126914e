"""Um Krone und Kragen on the real page in headless Chromium: choose the game at setup,
play a turn with two court cards by tapping, follow the reach's plan.

The server is the page's own waitress server in a thread over a real table and store;
throws are posted through the API, as the camera does. Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browserkit import Served, need_browser, shot, table_in_thread
from webkit import TOKEN

from rules.table import Table

expect = need_browser()

# Two rounds: Ann buys the Handwerker (sum 16) and the Philosoph (all even); Ben passes.
# Round 3 begins with Ann (the last player of round 2).
BEFORE = [
    "roll 5 5 6", "aside 5 5 6", "buy handwerker",
    "roll 1 2 3", "aside 1 2 3", "pass",
    "roll 1 2 3", "aside 1 2 3", "pass",
    "roll 2 4 6", "aside 2 4 6", "buy philosoph",
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Table]]:
    with table_in_thread(tmp_path, TOKEN) as page_and_table:
        yield page_and_table


def test_choose_the_game_and_play_a_turn_with_two_court_cards(screens, served) -> None:
    site, table = served
    page = screens.phone(site.url + f"setup?token={TOKEN}")
    page.click("#game-choice [data-game='ukuk']")
    expect(page.locator("#game-choice [data-game='ukuk']")).to_have_attribute("aria-pressed",
                                                                              "true")
    page.fill("#player-list input[data-player='0']", "Ann")
    page.fill("#player-list input[data-player='1']", "Ben")
    page.click("#start-game")
    page.wait_for_url(site.url)  # no row to lay: straight to the table
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#u-hand")).to_contain_text("Ann takes 3 dice")
    assert table.pack.id == "ukuk"
    for line in BEFORE:
        status, body = site.post(line)
        assert status == 200, body
    expect(page.locator("#whose-turn")).to_contain_text("Ann")
    site.post("roll 1 3 5")  # the camera saw Ann's throw
    expect(page.locator("#u-active [data-active]")).to_have_count(3)
    # the reach: the Wachmann (3 of a kind) without luck: the Philosoph makes 1 5 into 3 3
    plan = page.locator("#u-reach li[data-reach='wachmann']")
    expect(plan).to_contain_text("Use your Philosoph (1 5 → 3 3), then set every die aside: "
                                 "that buys the Wachmann.")
    shot(page, "ukuk-turn-reach", full=True)

    # first card: the Handwerker brings in a 1
    page.click("#u-cards [data-card='handwerker']")
    expect(page.locator("#u-active [data-active]")).to_have_count(4)
    # second card: tap the 5 and the new 1, then the Philosoph, and make them 3 3
    page.click("#u-active [data-active='3']")
    page.click("#u-active [data-active='4']")
    page.click("#u-cards [data-card='philosoph']")
    expect(page.locator("#use-title")).to_contain_text("Philosoph (Philosopher): 5 1")
    page.click("#use-values [data-die='1'][data-value='3']")
    page.click("#use-values [data-die='2'][data-value='3']")
    page.click("#use-apply")
    expect(page.locator("#u-active [data-n='3']")).to_have_count(3)
    assert sorted(table.state.dice.active) == [1, 3, 3, 3]
    expect(page.locator("#u-cards")).to_have_count(0)  # both cards used this round
    page.click("#u-all-aside")
    expect(page.locator("#u-buy [data-buy='wachmann']")).to_be_visible()
    shot(page, "ukuk-turn-buy", full=True)
    page.click("#u-buy [data-buy='wachmann']")
    expect(page.locator("#whose-turn")).to_contain_text("Ben")
    assert table.state.owned[0] == ("handwerker", "philosoph", "wachmann")
    actions = [str(a) for a in table.record.actions][-5:]
    assert actions[:3] == ["roll 1 3 5", "use handwerker", "use philosoph 5 1 -> 3 3"]
    assert sorted(actions[3].split()[1:]) == ["1", "3", "3", "3"]
    assert actions[4] == "buy wachmann"
    assert page.errors == []


def test_the_reach_plan_is_done_with_one_tap(screens, served) -> None:
    site, table = served
    table.act(table.parse("game ukuk"))
    for line in ["players Ann Ben", *BEFORE, "roll 1 3 5"]:
        table.act(table.parse(line))
    page = screens.phone(site.url + f"?token={TOKEN}&lang=de")
    plan = page.locator("#u-reach li[data-reach='wachmann']")
    expect(plan).to_contain_text("Wachmann")
    plan.locator("button[data-plan]").click()
    expect(page.locator("#u-buy [data-buy='wachmann']")).to_be_visible()
    assert table.state.dice.done and table.state.dice.used == ("philosoph",)
    assert sorted(table.state.dice.aside) == [3, 3, 3]
    assert page.errors == []
