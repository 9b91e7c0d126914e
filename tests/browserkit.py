"""Shared pieces of the page tests in a real Chromium: the browser, a served page, phones,
screenshots and the overflow check.

Chromium is Debian's (``tools/ensure-chromium.sh``, run by ``make test``); Playwright only
drives it. ``conftest.py`` launches one browser per test process (the ``browser`` fixture
closes what each test opened), so a page test may run in any worker (``make test`` gives
them to one, ``conftest.BROWSER_WORKER``, and to the others only when nothing else is left).
A test module that needs the browser calls :func:`need_browser` first: without Playwright or
Chromium the module is skipped with the reason."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from webkit import FakeEye, new_app, new_table

CHROMIUM = os.environ.get("KOTD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
VIEWPORTS = {"360x740": (360, 740), "390x844": (390, 844), "800x480": (800, 480),
             "1280x800": (1280, 800)}
"""Every screen at the table: two phones, the Pi's 7" screen, a laptop."""
PHONES = ("360x740", "390x844")
TOKEN = "browser-test-token"
"""The token of :func:`serve_page`'s ``kotd serve``."""


def need_browser() -> Any:
    """Playwright's ``expect``; the calling test module is skipped, with the reason, when
    Playwright or Chromium is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: run tools/ensure-chromium.sh (as root) to install "
                    "Debian's chromium", allow_module_level=True)
    return sync_api.expect


@contextlib.contextmanager
def launched() -> Iterator[Any]:
    """A headless Chromium (Playwright's ``Browser``)."""
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Served:
    """A running table page: where it is, its token, and a way to post as the tray does."""

    url: str
    token: str
    kind: str  # "kotd serve" or "in-thread"
    stop: Any = field(repr=False, default=None)

    def post(self, line: str, token: str | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.url + "api/action", data=json.dumps({"action": line}).encode(),
            headers={"Content-Type": "application/json",
                     "X-Table-Token": self.token if token is None else token}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "api/state", timeout=10) as response:
            return json.loads(response.read())


def _kotd() -> str | None:
    found = shutil.which("kotd") or str(Path(sys.executable).with_name("kotd"))
    if not Path(found).exists():
        return None
    try:
        out = subprocess.run([found, "serve", "--help"], capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if out.returncode == 0 and "--source" in out.stdout else None


def _started(kotd: str, data_dir: Path) -> tuple[subprocess.Popen[str], list[str], int]:
    """``kotd serve --source sim`` on a free port, once it says it listens there (what it
    writes kept, read all the while so its pipe never fills). A port another test's server
    took between :func:`conftest.free_port` and the bind is given up for another
    (:func:`conftest.on_a_free_port`): a page that answered on it would be that server's."""
    from conftest import on_a_free_port

    return on_a_free_port(lambda port: _started_on(kotd, data_dir, port))


def _started_on(kotd: str, data_dir: Path, port: int
                ) -> tuple[subprocess.Popen[str], list[str], int] | None:
    """:func:`_started` on ``port``; None when another server took it."""
    from conftest import TAKEN
    from served import STARTED

    proc = subprocess.Popen([kotd, "serve", "--source", "sim", "--port", str(port),
                             "--data-dir", str(data_dir), "--token", TOKEN],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said: list[str] = []
    serving = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            said.append(line)
            if STARTED in line:
                serving.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 30
    while not serving.wait(0.1) and proc.poll() is None and time.monotonic() < deadline:
        pass
    if serving.is_set():
        return proc, said, port
    proc.kill()
    proc.wait(10)
    reader.join(5)  # what it wrote last: why it ended
    if TAKEN in "".join(said):
        return None
    raise RuntimeError("kotd serve did not start: " + "".join(said))


@contextlib.contextmanager
def _kotd_serve(kotd: str, data_dir: Path) -> Iterator[Served]:
    proc, _, port = _started(kotd, data_dir)
    served = Served(f"http://127.0.0.1:{port}/", TOKEN, "kotd serve")
    try:
        yield served
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextlib.contextmanager
def in_thread(data_dir: Path) -> Iterator[Served]:
    """The page's own waitress server in a thread, on a King of the Dice table in
    ``data_dir`` with a fake camera."""
    from web.server import make_server

    app = new_app(new_table(data_dir), FakeEye(), TOKEN)
    with make_server(app, threads=12) as server:
        yield Served(server.url, TOKEN, "in-thread")


@contextlib.contextmanager
def table_in_thread(data_dir: Path, token: str, game: str = "kotd",
                    eye: FakeEye | None = None) -> Iterator[tuple[Served, Any]]:
    """The page's own waitress server in a thread on a fresh table of ``game`` (no game
    started yet) in ``data_dir``, acting for ``token``, with ``eye`` (default: a fake
    camera); and that table, for the test to act on and read."""
    from rules.games import game_pack
    from rules.store import EventStore
    from rules.table import Table
    from web.server import make_server

    table = Table(EventStore(data_dir / "kotd.sqlite3"), game_pack(game))
    app = new_app(table, eye or FakeEye(), token)
    with make_server(app, threads=12) as server:
        yield Served(server.url, token, "in-thread"), table


@contextlib.contextmanager
def serve_page(data_dir: Path) -> Iterator[Served]:
    """``kotd serve --source sim`` on ``data_dir`` when that command exists (and
    ``KOTD_WEB_IN_THREAD`` is not set), otherwise :func:`in_thread`."""
    kotd = None if os.environ.get("KOTD_WEB_IN_THREAD") else _kotd()
    with (_kotd_serve(kotd, data_dir) if kotd else in_thread(data_dir)) as served:
        yield served


class Screens:
    """Chromium pages kept for the test process, one per kind of screen (a phone or not, a
    colour scheme) and slot (a second phone at the table): each look
    sets the page to a size of :data:`VIEWPORTS` and loads its address afresh, with no
    cookie or stored token from before, as a new phone would. A new Chromium context and
    page per look cost about 0.7 s of the browser's CPU each time. Every test takes the
    light scheme (the page's script never asks which), so a worker keeps one context per
    kind of screen and slot; the dark scheme's colours are axe's to check, on the same pages
    (``test_web_table.axe_problems``). conftest's ``screens`` fixture hands them out and has
    them :meth:`leave` after each test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.pages: dict[tuple[bool, str, int], Any] = {}
        self.used: list[Any] = []

    def page(self, size: str = "390x844", scheme: str = "light", slot: int = 0) -> Any:
        """The kept page of this kind at ``size``, clean, not yet loaded; ``page.errors``
        collects the script errors from here on."""
        width, height = VIEWPORTS[size]
        phone = size in PHONES
        page = self.pages.get((phone, scheme, slot))
        if page is None:
            context = self.browser.new_context(
                device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone,
                color_scheme=scheme)
            context.kept = True  # the ``browser`` fixture leaves it open
            page = self.pages[(phone, scheme, slot)] = context.new_page()
            page.errors = []
            page.on("pageerror", lambda err: page.errors.append(str(err)))
        page.errors.clear()
        page.set_viewport_size({"width": width, "height": height})
        self.used.append(page)
        return page

    def phone(self, url: str, slot: int = 0) -> Any:
        """A phone (390×844, the light scheme a phone starts in) on ``url``, once the page
        is ready."""
        page = self.page("390x844", "light", slot=slot)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        return page

    @contextlib.contextmanager
    def opened(self, url: str, size: str = "390x844", scheme: str = "light") -> Iterator[Any]:
        """``url`` on a screen of :data:`VIEWPORTS`, in a colour scheme; no script error on
        it by the end."""
        page = self.page(size, scheme)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        yield page
        assert page.errors == [], page.errors
        self.leave()

    def leave(self) -> None:
        """Every page used since the last call forgets its site (cookies, stored token) and
        goes blank (its live stream ends)."""
        for page in self.used:
            page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); }"
                          " catch (e) { /* an error page has no storage */ } }")
            page.context.clear_cookies()
            page.goto("about:blank")
        self.used.clear()


SHOTS = os.environ.get("KOTD_SHOTS") == "1"
"""Screenshots are for people reviewing the pages (``make shots``); the tests' checks never
read them, so ``make test`` takes none."""


def shot(page: Any, name: str, full: bool = False, settle: int = 150) -> None:
    """A screenshot to ``test-artifacts/NAME.png`` (``name`` may hold a folder), the toast
    hidden and the page scrolled to its top (as the tests go on from there), after ``settle``
    ms for the last render; the picture itself only with ``KOTD_SHOTS=1``."""
    if settle:
        page.wait_for_timeout(settle)
    page.evaluate("document.getElementById('toast').hidden = true; window.scrollTo(0, 0)")
    if SHOTS:
        path = ARTIFACTS / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full)


# Everything that shows text must keep it inside: its own box (no text wider than the
# element), the box drawn around it (card, button, tile, chip) and the screen's width;
# neighbours in one line (village name and points, card name and points) must not overlap.
OVERFLOWS = "\n".join(  # the function, without its heading comment
    line for line in (Path(__file__).resolve().parent / "overflows.js").read_text().splitlines()
    if not line.startswith("//"))


def overflows(page: Any) -> list[str]:
    """Every way text leaves its box on the page, in words (none: ``[]``)."""
    return list(page.evaluate(OVERFLOWS))


SCREEN_KINDS = {"phone": PHONES, "screen": tuple(s for s in VIEWPORTS if s not in PHONES)}
"""The screens by the kept page that shows them (:class:`Screens`): a phone's page (touch,
device scale 2) and a big screen's; a layout test checks each page at both its sizes in
German, at one of them in English (:func:`layout_sizes`)."""
ENGLISH_SIZE = {"phone": "360x740", "screen": "800x480", "screen scores": "1280x800"}
"""The one size of each kind of screen (and page) the English layout checks look at, where
English fits worst. German's words are longer, the harder case: it is looked at every size.
English has its own longer strings (49 of 254: the title, "Throw the dice", "Penalty
cards", ...), so every page is still looked at in English: on the narrower phone (360 and
390 wide take the same rules, ``max-width: 419px``), on the Pi's 7" screen (five cards of
160 px at a 16 px font, where the laptop has 240 px at 19 px), and the scores on the laptop
(its three columns of the scoreboard are narrower, in letters, than the Pi's two). Found by
making every English word longer: what overflowed at 390×844 overflowed at 360×740 too, and
on the big screens each page's first overflows were at the size named here. (The Pi's
screen hides the dice that satisfy a card and the bonus hint: no string of theirs is longer
in English; German looks at them on the laptop.)"""


def layout_sizes(kind: str, lang: str, page: str = "table") -> tuple[str, ...]:
    """The sizes of ``kind`` (a key of :data:`SCREEN_KINDS`) a layout test looks at
    ``page`` ("table", "scores", ...) in ``lang``: every one in German, the one of
    :data:`ENGLISH_SIZE` in English."""
    if lang == "de":
        return SCREEN_KINDS[kind]
    return (ENGLISH_SIZE.get(f"{kind} {page}", ENGLISH_SIZE[kind]),)


NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => done()))"


def look_at_each_size(page: Any, sizes: Sequence[str], shot_name: str,
                      problems: dict[str, list[str]], look: Callable[[Any], list[str]] = overflows,
                      also: dict[str, Callable[[Any], None]] | None = None) -> None:
    """The page as it stands, resized in place to each of ``sizes``: what ``look`` finds at
    each, kept in ``problems`` under the size and ``shot_name`` (the screenshot's name, with
    ``{size}`` for the size); ``also[size]`` (if given) runs on the page at that size, after
    the look. Resizing lays the page out again and runs its resize handler (the top line is
    drawn again) before the next frame, which is awaited: the same layout as a page loaded at
    that size, for one game played instead of one per size. The page is looked at first at
    the size it stands at, if that is one of ``sizes``, and left at the last: a resize costs
    Chromium about 60 ms, so two looks in a row cost two resizes, not four."""
    now = page.viewport_size
    first = [s for s in sizes if now and VIEWPORTS[s] == (now["width"], now["height"])]
    for size in first + [s for s in sizes if s not in first]:
        if size not in first:
            width, height = VIEWPORTS[size]
            page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)
        name = shot_name.format(size=size)
        problems[name] = look(page)
        shot(page, name, settle=0)
        if also and size in also:
            also[size](page)
