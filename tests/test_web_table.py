"""The table page at every screen at the table, in English and German, in a real Chromium.

One server for the whole module; the test process's one browser and its kept pages (``screens``)

* every page in German at 360×740, 390×844 (phones), 800×480 (the Pi's 7" screen) and
  1280×800 (a laptop), in English at one size of each kind, where it fits worst
  (``browserkit.ENGLISH_SIZE``), in the states a game goes through, and each page's
  header at its widest ("reconnecting…", the QR button shown): nothing may overflow its
  box, stick out of its card or overlap its neighbour (one game per kind of screen and
  language, the page resized in place to each of the kind's sizes); screenshots with
  ``make shots``;
* axe-core (vendored from npm under tests/vendor, for the tests only) finds no serious or
  critical accessibility problem on any page, light and dark (on the pages the German
  overflow check has loaded: all of axe in the light scheme, its colour rules again in the
  dark; axe's other rules do not depend on the language), and each page, English and German,
  says its language and shows its own strings;
* a whole game played with taps only on a phone, counting taps per turn.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    ARTIFACTS,
    PHONES,
    SCREEN_KINDS,
    Screens,
    layout_sizes,
    look_at_each_size,
    need_browser,
    overflows,
    shot,
)
from webkit import FakeEye, new_app, new_table

from rules.actions import Seen
from rules.dice import Roll
from rules.errors import KotdError

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"


@functools.cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


TOKEN = "layout-test-token"
LIVE = 2000  # ms

expect = need_browser()

# German names are the longest: the row shows Tüftlerwerkstatt, Pilzkobold, Zauberlehrling
ROW = ["goblin-4", "hypnotist", "apprentice-2r2g2b", "orc-4+2", "fairy-2r2g"]
FITS = "1g 2r 1b 2g 1r 2b"  # slots 2, 3 and 5 fit
NOTHING = "3b 4b 6b 5g 4g 6r"  # nothing in ROW fits
GAMES = {
    # rolling: roll 1 of 3 (HABA dice: two of each pair), three cards fit (the hypnotist:
    # sum 9 ≤ 12; the apprentice: 2 of each colour; the fairy: 2 red + 2 green)
    "rolling": ["players Annabell Benedikt Cem", "row " + " ".join(ROW), "roll " + FITS],
    # a roll with rolls left and nothing fitting: no question, a small "stop" instead
    "nothing": ["players Annabell Benedikt", "row " + " ".join(ROW), "roll " + NOTHING],
    # the refill after the hypnotist took its neighbour: two new cards to draw
    "draw": ["players Annabell Benedikt", "row " + " ".join(ROW), "roll " + FITS, "claim 2"],
    # a new game waiting for its first roll
    "start": ["players Annabell Benedikt", "row " + " ".join(ROW)],
    # a game to its end: the last green village card is taken (Ann 9, Ben 6)
    "over": ["players Ann Ben", "row snob-even orc-2+2 orc-4 orc-3 fairy-2r2g",
             "roll 4r 4g 4b 4r 1g 2b", "claim 4", "draw elf-4",
             "roll 4r 4g 4b 4r 1g 2b", "claim 4", "draw elf-5",
             "roll 4r 4g 1b 1r 2g 2b", "claim 4"],
}


class ScriptedTray(FakeEye):
    """The simulated tray with its throws scripted: each throw reads the next roll."""

    def __init__(self) -> None:
        super().__init__(camera="simulated")
        self.rolls: list[str] = []
        self.thrown = 0

    def throw(self) -> bool:
        roll = self.rolls.pop(0) if self.rolls else "1r 2g 3b 4r 5g 6b"
        self.thrown += 1
        self.set(seeing="settled", dice_seen=6)
        assert self.table is not None
        # "3b?" is a die the camera is unsure of, "3b?side" one it says why it doubts
        words = [w.partition("?") for w in roll.split()]
        unsure = tuple(i for i, (_, q, _) in enumerate(words, start=1) if q)
        why = tuple((i, w) for i, (_, _, w) in enumerate(words, start=1) if w)
        with contextlib.suppress(KotdError):  # a roll the rules refuse changes nothing
            self.table.saw(Seen(Roll.parse(" ".join(d for d, _, _ in words)),
                                unsure=unsure, why=why))
        return True


@dataclass
class Served:
    url: str
    referee: Any
    tray: ScriptedTray
    lock: threading.Lock = field(default_factory=threading.Lock)

    def post(self, line: str) -> dict:
        request = urllib.request.Request(
            self.url + "api/action", data=json.dumps({"action": line}).encode(),
            headers={"Content-Type": "application/json", "X-Table-Token": TOKEN},
            method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as err:
            raise AssertionError(f"{line!r} refused: {err.read()!r}") from None

    def state(self, lang: str = "en") -> dict:
        with urllib.request.urlopen(self.url + f"api/state?lang={lang}", timeout=10) as r:
            return json.loads(r.read())

    def play(self, name: str) -> dict:
        state = {}
        for line in GAMES[name]:
            state = self.post(line)
        return state


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    from web.server import make_server

    referee = new_table(tmp_path_factory.mktemp("table"))
    tray = ScriptedTray()
    app = new_app(referee, tray, TOKEN)
    with make_server(app, threads=12) as server:
        yield Served(server.url, referee, tray)


COLOUR_RULES = ("color-contrast", "link-in-text-block")
"""axe's rules whose findings depend on the colours (the other rules' do not): run again in
the dark scheme on a page the whole of axe has checked in the light one."""


def axe_problems(page: Any, rules: tuple[str, ...] = ()) -> list[str]:
    """axe's serious and critical findings on the page (only ``rules``, if given). The
    script is evaluated through
    Playwright, which the page's CSP does not govern, so the page is the one phones get and
    the worker's kept pages serve (a <script> tag would need a context that bypasses the
    CSP: about 0.7 s of the browser's CPU for each new one); axe finds the same either way.
    Evaluated once per page load."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    result = page.evaluate("""async (rules) => {
      const options = {resultTypes: ["violations"]};
      if (rules.length) options.runOnly = rules;
      const r = await axe.run(document, options);
      return r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
        .map((v) => v.impact + " " + v.id + ": " + v.help + " @ " +
             v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
    }""", list(rules))
    return list(result)


def axe_in_both_schemes(page: Any) -> list[str]:
    """:func:`axe_problems` on the page in the light scheme, then its :data:`COLOUR_RULES`
    with the page switched to the dark one in place (the page's colours follow
    ``prefers-color-scheme``; about 40 ms of Chromium's CPU against 0.7 s for a context of
    its own), and back."""
    light = axe_problems(page)
    page.emulate_media(color_scheme="dark")
    try:
        dark = axe_problems(page, COLOUR_RULES)
    finally:
        page.emulate_media(color_scheme="light")
    return [f"light: {p}" for p in light] + [f"dark: {p}" for p in dark]


def wait_for(page: Any, state: str) -> None:
    """Wait until the page shows ``state`` (it arrives over the live stream)."""
    selectors = {
        "none": "#go-setup",
        "rolling": "#dice .die",
        "nothing": "#stop-early",
        "draw": "#draw-picker .kind-tile",
        "held": "#held .held-note",
        "check": "#held-confirm",
        "over": "#rematch",
    }
    page.wait_for_selector(selectors[state], timeout=LIVE * 3)


HEADER_AT_ITS_WIDEST = """() => {
  const live = document.getElementById("live");
  live.textContent = document.documentElement.lang === "de" ? "verbinde neu…" : "reconnecting…";
  document.getElementById("qr-button").hidden = false;
}"""


def header_overflows(page: Any) -> list[str]:
    """The page's header while the live badge says "reconnecting…" (its longest word, as
    the page first arrives) with the QR button shown: what leaves its box (the title keeps
    its whole word, "Würfelkönig")."""
    page.evaluate(HEADER_AT_ITS_WIDEST)
    return overflows(page)


AXE_STATES = ("rolling", "nothing", "draw", "over")
"""The table's states axe looks at on a phone (:data:`AXE_PHONE`); the other pages it sees on
a laptop (:data:`AXE_SCREEN`); in German (:data:`AXE_LANG`)."""
AXE_LANG = "de"
AXE_PHONE, AXE_SCREEN = "390x844", "1280x800"


def axe_at(size: str, name: str, found: dict[str, list[str]]) -> dict[str, Any]:
    """For :func:`look_at_each_size`: axe's findings on the page at ``size`` in both schemes,
    kept in ``found`` under ``name``."""
    return {size: lambda page: found.__setitem__(name, axe_in_both_schemes(page))}


SPOKEN = """() => [document.documentElement.lang,
  document.querySelector("header .brand").textContent.trim(),
  [...document.querySelectorAll("nav.tabs a")].map((a) => a.textContent.trim()),
  JSON.parse(document.getElementById("strings").textContent)]"""
"""What says a page's language: its ``lang``, the title in its header, its tabs and the
strings its script writes the page with."""


def speaks(page: Any, lang: str) -> list[str]:
    """What of :data:`SPOKEN` is not ``lang``'s own on the page (nothing if all is)."""
    from web.i18n import STRINGS

    said, title, tabs, strings = page.evaluate(SPOKEN)
    own = STRINGS[lang]
    want = [own[k] for k in ("nav_table", "nav_scores", "nav_setup", "nav_history")]
    wrong = [f"{what}: {got!r}, not {lang}'s {wanted!r}"
             for what, got, wanted in (("lang", said, lang), ("title", title, own["title"]),
                                       ("tabs", tabs, want)) if got != wanted]
    return wrong + [f"strings: {k}={v!r}" for k, v in strings.items() if own.get(k) != v]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("kind", list(SCREEN_KINDS))
def test_nothing_overflows_at_any_screen_size(screens: Screens, served: Served, kind: str,
                                              lang: str) -> None:
    """Every page in each state a game goes through, and every page's header at its
    widest (:func:`header_overflows`): nothing leaves its box. German at every screen size
    of :data:`VIEWPORTS`; English at the size of each kind where it fits worst
    (:func:`browserkit.layout_sizes`): 49 of the 254 strings are longer in English than in
    German, the title in every header and the throw button among them.

    In German, on the same pages, axe-core finds no serious or critical accessibility
    problem (:func:`axe_in_both_schemes`: light and dark): the table in each of
    :data:`AXE_STATES` on the phone (at 390×844, after its overflow check) and the scores,
    set-up and history pages on the laptop (1280×800). In either language every page says
    it (:func:`speaks`). The schemes differ in colours only, so the overflow checks find the
    same in either: they look in the light one."""
    sizes = layout_sizes(kind, lang)
    axed = lang == AXE_LANG
    problems: dict[str, list[str]] = {}
    found: dict[str, list[str]] = {}  # axe's findings
    url = served.url + f"?lang={lang}&token={TOKEN}"
    with served.lock, screens.opened(url, sizes[0]) as page:
        problems["table-speaks"] = speaks(page, lang)
        if served.referee.record is None:  # the very first page: no game yet
            wait_for(page, "none")
            look_at_each_size(page, sizes, f"table/{{size}}-{lang}-none", problems)
        for state in ("rolling", "nothing", "draw", "held", "check", "over"):
            if state == "held":  # a throw during the refill: kept for the next turn
                served.tray.rolls = [NOTHING]
                served.tray.throw()
            elif state == "check":  # a die the camera is unsure of
                served.play("start")
                served.tray.rolls = ["1g 2r 1b?side 2g 1r 2b"]
                served.tray.throw()
            else:
                served.play(state)
            wait_for(page, state)
            page.wait_for_timeout(100)
            look_at_each_size(page, sizes, f"table/{{size}}-{lang}-table-{state}", problems,
                              also=axe_at(AXE_PHONE, f"table-{state}", found)
                              if axed and kind == "phone" and state in AXE_STATES else None)
        look_at_each_size(page, sizes, f"table/{{size}}-{lang}-table-header", problems,
                          header_overflows)
        for other in ("scores", "setup", "history"):
            page.goto(served.url + f"{other}?lang={lang}")
            page.wait_for_selector("body[data-ready='1']")
            page.wait_for_timeout(150)
            problems[f"{other}-speaks"] = speaks(page, lang)
            at = layout_sizes(kind, lang, other)
            look_at_each_size(page, at, f"table/{{size}}-{lang}-{other}", problems,
                              also=axe_at(AXE_SCREEN, other, found)
                              if axed and kind == "screen" else None)
            look_at_each_size(page, at, f"table/{{size}}-{lang}-{other}-header",
                              problems, header_overflows)
    assert sorted(found) == (sorted(("scores", "setup", "history") if kind == "screen"
                                    else [f"table-{s}" for s in AXE_STATES]) if axed else [])
    bad = {k: v for k, v in problems.items() if v}
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)
    assert {k: v for k, v in found.items() if v} == {}, f"axe: {found}"


# The top line's parts (whose turn, which roll, the badge, what fits) in rows: a part
# starts a new row when it lies wholly below the row before.
TOPLINE_ROWS = """() => {
  const parts = [...document.querySelectorAll(
    "#topline .tl-who, #topline .roll-count, #topline .badge, #topline .fits")]
    .map((el) => [el.getBoundingClientRect(), el.textContent.trim()])
    .filter(([r]) => r.width > 0 && r.height > 0)
    .sort(([a], [b]) => a.top - b.top);
  const rows = [];
  for (const [r, text] of parts) {
    const row = rows[rows.length - 1];
    if (row && r.top < row.bottom - 1) {
      row.texts.push(text);
      row.bottom = Math.max(row.bottom, r.bottom);
    } else rows.push({ bottom: r.bottom, texts: [text] });
  }
  return rows.map((row) => row.texts.join(" | "));
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_top_line_is_one_line_on_a_phone(screens: Screens, served: Served,
                                             lang: str) -> None:
    """Whose turn, which roll and three cards that fit (the longest top line of a turn,
    with the longest name) stay one line on both phones, in English and in German (the
    page resized in place from one phone to the other; its resize handler draws the top
    line again)."""
    rows: dict[str, list[str]] = {}
    with served.lock, screens.opened(served.url + f"?lang={lang}&token={TOKEN}",
                             PHONES[0]) as page:
        served.play("rolling")
        wait_for(page, "rolling")
        page.wait_for_selector("#fits .jump")
        page.wait_for_timeout(100)
        look_at_each_size(page, PHONES, f"{{size}}-{lang}-topline", rows,
                          lambda page: list(page.evaluate(TOPLINE_ROWS)))
    assert sorted(rows) == sorted(f"{size}-{lang}-topline" for size in PHONES)
    for size, row in rows.items():
        assert len(row) == 1, (size, row)
        assert row[0].count("|") >= 2  # the name, the roll and what fits are all there


def test_the_row_is_above_the_fold_on_the_pis_screen(screens: Screens, served: Served) -> None:
    with served.lock:
        served.play("rolling")
        with screens.opened(served.url + "?lang=de", "800x480") as page:
            wait_for(page, "rolling")
            bottom = page.evaluate(
                "Math.max(...[...document.querySelectorAll('#row .card-rule')]"
                ".map((e) => e.getBoundingClientRect().bottom))")
            assert bottom <= 480, f"the row's requirements end at {bottom}px, below 480"
            # and the five cards stand side by side
            tops = page.evaluate("[...document.querySelectorAll('#row .slot')]"
                                 ".map((e) => Math.round(e.getBoundingClientRect().top))")
            assert len(set(tops)) == 1, tops


# A whole game as a new group plays it on one phone: the tray throws (the simulated tray's
# button), everything else is a tap. Ben stops early once; Ann takes a penalty after her
# third roll; Ben's dragon goes to Ann; Ben takes the last purple village card.
TAP_ROW = ["fairy-2b2g", "fairy-2r2g", "fairy-3r2b", "snob-even", "dwarf-3x1"]
BLANK = "3g 4g 5g 6g 1r 2b"  # fits nothing in the row all game long
TURNS: list[dict[str, Any]] = [
    {"player": "Ann", "rolls": [BLANK] * 3, "penalty": -1, "draw": ["orc-5"]},
    {"player": "Ben", "rolls": [BLANK], "stop": -1, "draw": ["dwarf-5x6"]},
    {"player": "Ann", "rolls": ["1r 2r 3r 4b 5b 6g"], "claim": 5, "draw": ["dragon-25"]},
    {"player": "Ben", "rolls": ["6r 6g 6b 5r 5g 4b"], "claim": 1, "give": "Ann",
     "draw": ["gnome-6blue"]},
    {"player": "Ann", "rolls": ["1r 2r 3g 4g 5b 6b"], "claim": 5, "draw": ["elf-6"]},
    {"player": "Ben", "rolls": ["1b 2b 3g 4g 5r 6r"], "claim": 5, "draw": []},
]


class Taps:
    """Taps on the phone, counted; every target must be on screen without scrolling."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, selector: str) -> None:
        target = self.page.locator(selector)
        expect(target).to_be_enabled(timeout=LIVE)
        box = target.bounding_box()
        height = self.page.viewport_size["height"]
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, \
            f"{selector} is off-screen (y={box and box['y']}): the player would have to scroll"
        target.tap()
        self.count += 1


def test_a_whole_game_by_taps_on_a_phone(screens: Screens, served: Served) -> None:
    per_turn: list[dict[str, Any]] = []
    served.play("over")  # the last group's game is over: starting one asks no question
    with served.lock, screens.opened(served.url + f"setup?token={TOKEN}", "390x844") as page:
        tap = Taps(page)
        names = page.locator("#player-list input")
        names.nth(0).fill("Ann")  # names are typed; actions are only tapped
        names.nth(1).fill("Ben")
        page.click("#start-game")
        for card in TAP_ROW:
            page.click(f"#picker button.kind-tile[data-kind='{card.split('-')[0]}']")
            page.click(f"#picker button.pick[data-card='{card}']")
        page.click("#picked-lay")
        page.wait_for_url(served.url)
        page.wait_for_selector("body[data-ready='1']")

        for n, turn in enumerate(TURNS, start=1):
            expect(page.locator("#whose-turn")).to_contain_text(turn["player"], timeout=LIVE)
            served.tray.rolls = list(turn["rolls"])
            for i in range(len(turn["rolls"])):
                version = served.state()["version"]
                tap("#throw")
                expect(page.locator("#roll-count")).to_have_text(
                    f"roll {i + 1} of 3", timeout=LIVE)
                assert served.state()["version"] > version
                if i < len(turn["rolls"]) - 1 or "stop" in turn:
                    # rolls left and nothing fits: the page asks nothing, throwing stays big
                    expect(page.locator("#question")).to_be_hidden()
                    expect(page.locator("#stop-early")).to_be_visible()
            tap.count = 0
            if "stop" in turn:
                tap("#stop-early")
                tap(f"#stop button[data-penalty='{turn['stop']}']")
            if "penalty" in turn:
                expect(page.locator("#question")).to_have_attribute("data-ask", "penalty")
                tap(f"#question button[data-penalty='{turn['penalty']}']")
            if "claim" in turn:
                # the top line says what fits; its number jumps to the card
                expect(page.locator(f"#fits a[data-jump='{turn['claim']}']")).to_be_visible()
                page.click(f"#fits a[data-jump='{turn['claim']}']")  # a look, not an action
                page.wait_for_timeout(400)
                tap(f"#slot-{turn['claim']} button.claim")
            if "give" in turn:
                tap(f"#question button[data-give='{turn['give']}']")
            answer = tap.count
            for card in turn["draw"]:
                expect(page.locator("#question")).to_have_attribute("data-ask", "draw")
                before = tap.count
                tap(f"#draw-picker button.kind-tile[data-kind='{card.split('-')[0]}']")
                tap(f"#draw-picker button.pick[data-card='{card}']")
                assert tap.count - before <= 2
            per_turn.append({"turn": n, "player": turn["player"], "answer": answer,
                             "with draw": tap.count,
                             "kind": "penalty" if {"stop", "penalty"} & turn.keys()
                             else "claim"})

        expect(page.locator("#over")).to_contain_text("Ann wins with 6 points", timeout=LIVE)
        expect(page.locator("#throw")).to_be_hidden()
        state = served.state()
        assert state["over"] and [(s["player"], s["total"]) for s in state["scores"]] == [
            ("Ann", 6), ("Ben", 4)]
        shot(page, "table/game-by-taps-over", settle=0)
        (ARTIFACTS / "table").mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "table" / "taps-per-turn.json").write_text(json.dumps(per_turn, indent=1))
        # a rematch: the same players, the next seat starts
        tap("#rematch")
        expect(page.locator("#whose-turn")).to_contain_text("Ben", timeout=LIVE)
        assert served.state()["players"][0]["name"] == "Ben"

    for turn in per_turn:
        if turn["kind"] == "claim":
            assert turn["answer"] <= 2, turn  # claim (and give the dragon), after the throw
        else:
            assert turn["with draw"] <= 4, turn  # penalty and the drawn card


def test_held_rolls_on_the_page(screens: Screens, served: Served) -> None:
    """A throw during the refill waits and becomes the next player's roll; a roll with an
    unsure die waits until one tap says it is right or corrects the die."""
    with served.lock, screens.opened(served.url + f"?token={TOKEN}", "390x844") as page:
        for line in ["players Ann Ben", "row " + " ".join(ROW), "roll " + FITS, "claim 5"]:
            served.post(line)
        expect(page.locator("#question")).to_have_attribute("data-ask", "draw", timeout=LIVE)
        served.tray.rolls = ["3b 4b 6b 5g 4g 6r"]
        served.tray.throw()  # Ben throws while Ann still enters the drawn card
        expect(page.locator("#held")).to_contain_text("Ben's roll is kept", timeout=LIVE)
        page.tap("#draw-picker button.kind-tile[data-kind='elf']")
        page.tap("#draw-picker button.pick[data-card='elf-4']")
        expect(page.locator("#whose-turn")).to_contain_text("Ben", timeout=LIVE)
        expect(page.locator("#roll-count")).to_have_text("roll 1 of 3")
        expect(page.locator("#held")).to_be_hidden()
        assert served.state()["dice"]["text"] == "3b 4b 6b 5g 4g 6r"

        served.tray.rolls = ["1g 2r 1b?side 2g 1r 2b"]
        page.tap("#throw")
        expect(page.locator("#held")).to_contain_text("check die 3", timeout=LIVE)
        expect(page.locator("#held .why-unsure")).to_have_text(
            "Die 3: it may be a leaning die's side, not its top")
        expect(page.locator("#held .die.unsure")).to_have_count(1)
        expect(page.locator("#throw")).to_be_hidden()  # first the table checks the die
        assert served.state()["rolls_used"] == 1  # not in the game yet
        shot(page, "table/held-check", settle=0)
        page.tap("#held button.die[data-pos='3']")  # it is really a green 2
        page.tap("#fix-values button:text-is('2')")
        page.tap("#fix-colors button[data-color='green']")
        page.tap("#fix-apply")
        expect(page.locator("#roll-count")).to_have_text("roll 2 of 3", timeout=LIVE)
        assert served.state()["dice"]["text"] == "1g 2r 2g 2g 1r 2b"

        served.tray.rolls = ["1g 2r 1b 2g? 1r 2b"]
        page.tap("#throw")
        expect(page.locator("#held-confirm")).to_be_visible(timeout=LIVE)
        expect(page.locator("#throw")).to_be_hidden()
        page.tap("#held-confirm")  # one tap: the dice are right
        expect(page.locator("#roll-count")).to_have_text("roll 3 of 3", timeout=LIVE)
        expect(page.locator("#held")).to_be_hidden()

        # the live camera view labels each die with the page's number, where it lies
        served.tray.set(dice_at=tuple((0.1 + 0.15 * i, 0.5) for i in range(6)))
        page.tap("#photo-button")
        expect(page.locator("#photo-labels .photo-label")).to_have_count(6, timeout=LIVE)
        expect(page.locator("#photo-labels .photo-label").nth(2)).to_have_text("3")
        left = page.locator("#photo-labels .photo-label").nth(2).evaluate(
            "e => e.style.left")
        assert left == "40%", left
