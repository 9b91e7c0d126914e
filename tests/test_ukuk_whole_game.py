"""A whole game of Um Krone und Kragen on a phone (390×844) in headless Chromium, through the
final round: the camera sees each throw (the table's ``saw``, as the eye calls it), the
players tap everything else (set aside, court cards, buy, bid). One throw the camera is
unsure of is confirmed with one tap, one is fixed by tapping the die; one held throw is
never confirmed: the turn moves on, it is dropped and never enters later. After every
set-aside and every throw no die is selected.

The game is the hand-checked script of tests/test_ukuk_game.py (two players, seven rounds,
the King, the final round, Ben's bid takes the King). The first round and everything from
round 7 (the King bought, the final round, the end) are tapped: every kind of move the game
has, each at least once (:data:`KINDS`); rounds 2 to 6 repeat those kinds (throws, set-asides,
buys, one card used) and are played through the table, as another phone would, while the
page follows them live. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    SCREEN_KINDS,
    Screens,
    Served,
    layout_sizes,
    look_at_each_size,
    need_browser,
    shot,
    table_in_thread,
)
from ukukkit import ANN_FAILS, GAME, lines
from webkit import TOKEN, FakeEye

from rules.actions import Seen
from rules.dice import Roll
from rules.table import Table

expect = need_browser()
expect.set_options(timeout=15_000)  # a shared machine: renders may wait for a core

CONFIRM_AT = 2  # the 2nd throw: the camera is unsure of die 1; one tap says it is right
FIX_AT = 20  # the 20th (Ann's King): the camera misreads die 2 as a 1 (unsure); a tap fixes it
DROP_AT = 21  # the 21st (Ben's): held, never confirmed; the table types the throw instead
SCRIPT = lines(GAME + ANN_FAILS)[1:]  # after "players Ann Ben", which the setup page starts
TAPPED = range(1, 7), range(SCRIPT.index("roll 2 2 2 2 2") + 1, len(SCRIPT) + 1)
"""The moves (counted from 1) made by taps: round 1, and round 7 to the end of the game."""
KINDS = {"throw seen", "throw confirmed", "throw fixed", "throw held, typed", "aside", "buy",
         "use", "use with values", "bid"}
"""Every kind of move of the game, each tapped at least once."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Table]]:
    with table_in_thread(tmp_path, TOKEN, "ukuk", FakeEye(camera="ok")) as page_and_table:
        yield page_and_table


def seen(values: list[int], *unsure: int) -> Seen:
    return Seen(Roll.parse(" ".join(map(str, values)), None), unsure=unsure)


def in_step(page: Any, table: Table, count: int) -> None:
    """Wait until the table holds ``count`` moves and the page shows its dice as they lie;
    then no die is selected (after every set-aside and throw)."""
    deadline = time.monotonic() + 15
    while len(table.record.actions) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(table.record.actions) == count, [str(a) for a in table.record.actions][-3:]
    d = table.state.dice
    if not table.state.over:
        expect(page.locator("#u-active [data-active]")).to_have_count(len(d.active))
        expect(page.locator("#u-aside .die")).to_have_count(len(d.aside))
    expect(page.locator("#u-active .die.picked")).to_have_count(0)


def tap_dice(page: Any, values: list[int]) -> None:
    for v in values:
        page.locator(f"#u-active button.die[data-n='{v}']:not(.picked)").first.tap()


def type_throw(page: Any, values: list[int]) -> None:
    """The throw entered by taps: each die tapped until it shows its number."""
    page.tap("#u-enter-throw")
    for k, v in enumerate(values, start=1):
        die = page.locator(f"#throw-values [data-die='{k}']")
        for _ in range(6):
            if die.get_attribute("data-n") == str(v):
                break
            die.tap()
    page.tap("#throw-apply")


def camera_throw(page: Any, table: Table, values: list[int], throws: int) -> str:
    """The camera sees the throw; the held ones are confirmed, fixed or left alone. The
    kind of throw it was."""
    before = len(table.record.actions)
    kind = "throw seen"
    if throws == CONFIRM_AT:
        kind = "throw confirmed"
        table.saw(seen(values, 1))
        expect(page.locator("#held")).to_contain_text("check die 1")
        expect(page.locator("#u-held")).to_be_visible()
        expect(page.locator("#held .die.pips")).to_have_count(len(values))
        shot(page, "ukuk-held-check", full=True)
        page.tap("#held-confirm")
    elif throws == FIX_AT:
        kind = "throw fixed"
        wrong = [1 if i == 1 else v for i, v in enumerate(values)]
        table.saw(seen(wrong, 2))
        page.tap("#held button.die[data-pos='2']")
        expect(page.locator("#fix-colors")).to_be_hidden()  # ordinary dice: no colour
        page.locator("#fix-values button", has_text=str(values[1])).tap()
        page.tap("#fix-apply")
    elif throws == DROP_AT:
        kind = "throw held, typed"
        table.saw(seen(values, 3))
        expect(page.locator("#held-confirm")).to_be_visible()
        type_throw(page, values)  # the table types it; the held reading goes
    else:
        assert sorted(values) != sorted(table.state.dice.active)  # the camera tells them apart
        table.saw(seen(values))
    expect(page.locator("#held")).to_be_hidden()
    in_step(page, table, before + 1)  # one throw, entered once
    return kind


def test_a_whole_game_by_taps_with_held_throws(screens, served) -> None:
    site, table = served
    page = screens.phone(site.url + f"setup?token={TOKEN}")
    page.tap("#game-choice [data-game='ukuk']")
    page.fill("#player-list input[data-player='0']", "Ann")
    page.fill("#player-list input[data-player='1']", "Ben")
    page.tap("#start-game")
    page.wait_for_url(site.url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#u-hand")).to_contain_text("Ann takes 3 dice")
    expect(page.locator("#u-camera #camera-status")).to_be_visible()  # the camera's view
    throws = 0
    dropped_turn = None
    tapped: set[str] = set()
    for count, line in enumerate(SCRIPT, start=1):
        verb, *words = line.split()
        throws += verb == "roll"
        if not any(count in part for part in TAPPED):
            table.act(table.parse(line))  # another phone's move; the page follows it live
            continue
        if not any(count - 1 in part for part in TAPPED):
            in_step(page, table, count - 1)  # the page has caught up with those moves
        if verb == "roll":
            if throws == DROP_AT:
                dropped_turn = table.state.turn
            tapped.add(camera_throw(page, table, [int(w) for w in words], throws))
        elif verb == "aside":
            tap_dice(page, [int(w) for w in words])
            page.tap("#u-set-aside")
            tapped.add(verb)
        elif verb == "use":
            card = words[0]
            before = [int(w) for w in words[1:words.index("->")]] if "->" in words else []
            tap_dice(page, before)
            page.tap(f"#u-cards [data-card='{card}']")
            if "->" in words:
                after = words[words.index("->") + 1:]
                for k, v in enumerate(after, start=1):
                    page.tap(f"#use-values [data-die='{k}'][data-value='{v}']")
                page.tap("#use-apply")
            tapped.add("use with values" if "->" in words else "use")
        elif verb == "buy":
            page.tap(f"#u-buy [data-buy='{words[0]}']")
            tapped.add(verb)
        else:
            assert verb == "bid", line
            page.tap("#u-bid")
            tapped.add(verb)
        in_step(page, table, count)
        assert str(table.record.actions[-1]) == line
        if dropped_turn is not None and table.state.turn > dropped_turn:
            # the turn moved on: the throw held then is gone and never entered
            assert table.snapshot.held is None
            expect(page.locator("#held")).to_be_hidden()
            dropped_turn = None
    assert tapped == KINDS  # every kind of move was tapped
    assert dropped_turn is None  # the dropped throw's turn did move on
    expect(page.locator("#u-final .winner")).to_contain_text("Ben holds the King and wins")
    shot(page, "ukuk-whole-game-over", full=True)
    stored = [str(a) for a in table.record.actions]
    assert stored == SCRIPT  # exactly the game, each throw once
    time.sleep(1.0)  # nothing held enters later
    assert [str(a) for a in table.record.actions] == stored
    assert page.errors == []


# the page in both languages, at every screen size in German and at one size of each kind in
# English, where it fits worst (browserkit.layout_sizes; one game per kind of screen and
# language, resized in place to each size): a turn with the reach, a throw held for checking,
# the end; nothing leaves its box and no word breaks inside itself (tests/overflows.js, as
# the King of the Dice layout test uses it)
MID_TURN = lines(GAME)[:lines(GAME).index("use wachmann")]  # Ann's King turn, dice aside


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("kind", list(SCREEN_KINDS))
def test_nothing_overflows_on_the_page_at_any_size(screens: Screens, served, kind: str,
                                                    lang: str) -> None:
    _site, table = served
    sizes = layout_sizes(kind, lang)
    table.act(table.parse("game ukuk"))
    for line in MID_TURN:
        table.act(table.parse(line))
    problems: dict[str, list[str]] = {}
    with screens.opened(_site.url + f"?lang={lang}&token={TOKEN}", sizes[0]) as page:
        expect(page.locator("#u-reach li[data-reach]").first).to_be_visible()
        look_at_each_size(page, sizes, f"table/ukuk-{{size}}-{lang}-reach", problems)
        for line in lines(GAME)[len(MID_TURN):]:
            if table.state.final:
                break
            table.act(table.parse(line))
        table.saw(seen([3, 3, 3, 3, 3], 2, 4))  # Ben's final throw, two dice unsure
        expect(page.locator("#held-confirm")).to_be_visible()
        look_at_each_size(page, sizes, f"table/ukuk-{{size}}-{lang}-check", problems)
        page.tap("#held-confirm") if kind == "phone" else page.click("#held-confirm")
        expect(page.locator("#held")).to_be_hidden()
        assert table.snapshot.held is None and table.state.dice.throws == 1
        for line in lines(GAME + ANN_FAILS)[len(table.record.actions) + 1:]:
            table.act(table.parse(line))
        expect(page.locator("#u-final .winner")).to_be_visible()
        look_at_each_size(page, sizes, f"table/ukuk-{{size}}-{lang}-over", problems)
        page.goto(_site.url + f"scores?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        look_at_each_size(page, layout_sizes(kind, lang, "scores"),
                          f"table/ukuk-{{size}}-{lang}-scores", problems)
    bad = {k: v for k, v in problems.items() if v}
    assert not bad, bad
