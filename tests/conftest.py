"""Shared test set-up: paths, a free port, waiting, and the page's fixtures.

Fixtures: ``eye`` (a fake camera side), ``table`` (a King of the Dice table on a game
file in the test's folder, START played), ``app`` (the page for that table and eye),
``client`` (Flask's test client of it), ``assistant`` (``kotd serve``'s assistant in the
process, from ``servekit``), ``browser`` (headless Chromium, one per test process; what a
test opens in it is closed after it), ``screens`` (that browser's kept pages, one per kind
of screen, loaded afresh at each size) and ``served`` (``kotd serve --source sim`` on the
test's folder). The game bot that makes legal moves is ``gamebot.choose``;
the fake eye and table makers are in ``webkit``, the browser's pieces in ``browserkit``.
"""

from __future__ import annotations

import atexit
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from webkit import START, FakeEye, new_app, new_table

from rules.table import Table

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KOTD_SHARED", ROOT.parent / "shared"))
KOTD = str(Path(sys.executable).with_name("kotd"))
"""This venv's ``kotd`` command, for tests that run it as a process."""

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

T = TypeVar("T")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


TAKEN = "Address already in use"
"""What ``kotd serve`` says (after "cannot listen on HOST:PORT:") when its port is taken."""


def on_a_free_port(start: Callable[[int], T | None], tries: int = 3) -> T:
    """``start(port)`` on a port from :func:`free_port`. Another test's server may bind that
    port first; ``start`` then returns None (its ``kotd serve`` said :data:`TAKEN`) and another
    port is tried, ``tries`` in all. Any other failure ``start`` raises itself."""
    for _ in range(tries):
        started = start(free_port())
        if started is not None:
            return started
    raise AssertionError(f"kotd serve found each of {tries} free ports taken")


def wait_for(predicate: Callable[[], T], seconds: float = 8.0, what: str = "condition") -> T:
    """The first truthy value of ``predicate`` within ``seconds`` (AssertionError if none)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def unit_settings(text: str) -> dict[str, list[str]]:
    """Every ``Section.Key`` of a systemd unit's text with its values (a key may repeat)."""
    found: dict[str, list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key}", []).append(value)
    return found


def play(table: Any, *lines: str) -> Any:
    """Play action lines at a :class:`rules.table.Table` (text is the tests' edge)."""
    snapshot = table.snapshot
    for line in lines:
        snapshot = table.act(table.parse(line))
    return snapshot


@pytest.fixture
def eye() -> FakeEye:
    return FakeEye()


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return new_table(tmp_path, *START)


@pytest.fixture
def app(table: Table, eye: FakeEye) -> Flask:
    """The page of ``table`` with ``eye`` reporting to it (version 3: START, then the eye)."""
    return new_app(table, eye)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def assistant(tmp_path: Path) -> Iterator[Any]:
    """``servekit.running_assistant`` on the test's folder: (assistant, tray, pins, client)."""
    from servekit import running_assistant

    with running_assistant(tmp_path) as running:
        yield running


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for this test process (a worker of ``make test``)."""
    from browserkit import launched, need_browser

    need_browser()
    with launched() as browser:
        yield browser


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The process's Chromium; every context (phone) the test opened is closed after it
    (``screens``' own are kept)."""
    yield chromium
    for context in chromium.contexts:
        if not getattr(context, "kept", False):
            context.close()


@pytest.fixture(scope="session")
def kept_screens(chromium: Any) -> Any:
    """The process's kept pages (``browserkit.Screens``)."""
    from browserkit import Screens

    return Screens(chromium)


@pytest.fixture
def screens(kept_screens: Any) -> Iterator[Any]:
    """The process's kept pages, one per kind of screen, loaded afresh at each look; after
    the test they forget its site and go blank."""
    yield kept_screens
    kept_screens.leave()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Any]:
    """The table page of ``kotd serve --source sim`` on the test's folder (a
    ``browserkit.Served``)."""
    from browserkit import serve_page

    with serve_page(tmp_path) as page:
        yield page


COMPILED = ("pi", "rules", "web", "vision", "tools", "benchmarks")
"""The project's packages and scripts, compiled once before the tests start."""


def pytest_configure(config: pytest.Config) -> None:
    """Compile the project's modules once, in the first pytest process (not in each
    ``make test`` worker): the tests start ``kotd`` and Python about 170 times, and where
    ``PYTHONDONTWRITEBYTECODE`` is set (this machine) each of them would compile every
    module it imports again (about 0.1 s of CPU a ``kotd serve``). Python reads the
    ``__pycache__`` files whatever that variable says; git ignores them."""
    if hasattr(config, "workerinput"):
        atexit.register(_end_the_worker_at_once)
        return
    import compileall

    for name in COMPILED:
        compileall.compile_dir(ROOT / name, quiet=1)
    if (getattr(config.option, "numprocesses", None) or 0) > 1:
        _rewrite_tests_once(config)


def _end_the_worker_at_once() -> None:
    """A ``make test`` worker ends here, after its tests have run and been reported, its
    threads joined and every exit handler registered after this one (the tests' own) has run:
    without tearing its interpreter down. With a whole run's modules, frames, networks and
    thread pools in memory that took 3-10 s, and the first process waits for every worker to
    end (killing one after 10 s) before it reports, the two cores idle meanwhile."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _rewrite_tests_once(config: pytest.Config) -> None:
    """Rewrite the test modules' asserts once, here, into the pyc files pytest keeps in
    ``__pycache__``, for the workers to read: every worker collects every test module, and
    where ``PYTHONDONTWRITEBYTECODE`` is set (this machine) pytest writes none, so each
    worker rewrote them all again (about 2.6 s of CPU a worker). The pyc is keyed by the
    source's hash, as pytest's own are. Uses pytest's private rewriting functions: should
    they change, the workers rewrite for themselves as before."""
    try:
        from _pytest.assertion import rewrite
        from _pytest.assertion.rewrite import assertstate_key

        state = config.stash[assertstate_key]
        here = Path(__file__)
        for path in [here, *sorted(here.parent.glob("test_*.py"))]:
            cache = rewrite.get_cache_dir(path)
            cache.mkdir(exist_ok=True)
            pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc, state.trace) is None:
                source_hash, code = rewrite._rewrite_test(path, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
    except (ImportError, AttributeError, KeyError, OSError, TypeError):
        return


def _files_sharing_a_fixture() -> frozenset[str]:
    """Test files (as pytest names them) that define a fixture set up once per module,
    class or package (the Pi venv, a served page, rendered frames). The browser is one per
    process (``chromium``), so the page tests need not keep to one worker."""
    shared = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        if re.search(r"@pytest\.fixture\(\s*scope=\"(module|class|package)\"", source):
            shared.add(f"{path.parent.name}/{path.name}")
    return frozenset(shared)


LONG_FIRST = ("test_board_jokers.py", "test_ukuk_whole_game.py", "test_faults_live.py",
              "test_faults_start.py", "test_bench_tools.py", "test_render_standard.py",
              "test_dicenet.py", "test_faults_requests.py", "test_faults_store.py",
              "test_pipcount.py", "test_faults_camera.py", "test_web_browser.py",
              "test_board_game.py", "test_onnxnet.py")
"""Files with tests of 5-18 s each (``--durations`` of a fresh-clone run, longest first).
Their tests are handed out right after the files kept to one worker, so that none of them
is the last a worker runs while the other worker idles. ``test_onnxnet.py`` reads the
frames ``test_vision_gate.py`` (kept to one worker, so handed out at the start) has drawn
by then."""


def _files_using_the_browser() -> frozenset[str]:
    """Test files (as pytest names them) that drive Chromium (they call ``need_browser``)."""
    here = Path(__file__).parent
    return frozenset(f"{here.name}/{path.name}" for path in here.glob("test_*.py")
                     if "need_browser()" in path.read_text(encoding="utf-8"))


BROWSER_WORKER = "gw0"
"""The worker that takes the page tests, before anything else: each worker that drives
Chromium starts its own (about 1.3 s of CPU) and its own kept pages (0.7-0.9 s each, up to
five kinds), and the page tests mostly wait on the page, so one worker does them beside the
others' work. Another worker takes a page test only when nothing else is left, so none
idles."""


def _handed_out_first(scope: str) -> int:
    """Where a work unit goes in the queue: shared-fixture files, ``LONG_FIRST``, the rest."""
    file = scope.split("::", 1)[0].rpartition("/")[2]
    if "::" not in scope:
        return -1
    return LONG_FIRST.index(file) if file in LONG_FIRST else len(LONG_FIRST)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``make test`` (``-n 3 --dist loadgroup``): the tests of a file that shares a fixture
    set up once per module run in one worker, so it is set up once; every other test may
    go to any worker, so no long file holds one worker alone at the end, and the long
    ones (``LONG_FIRST``) go early; the page tests go to ``BROWSER_WORKER``.
    (pytest-xdist's own ``loadgroup`` reads ``xdist_group`` marks, which it cannot see
    under pytest 9.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    together = _files_sharing_a_fixture()
    browser = _files_using_the_browser()

    class ByFileWhereShared(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return file if file in together else nodeid

        def _assign_work_unit(self, node: Any) -> None:
            if not getattr(self, "_ordered", False):  # the queue is complete by now
                ordered = sorted(self.workqueue.items(),
                                 key=lambda item: _handed_out_first(item[0]))
                self.workqueue.clear()
                self.workqueue.update(ordered)
                self._ordered = True
            takes_pages = node.gateway.id == BROWSER_WORKER
            for scope in self.workqueue:  # a page test first there, one without elsewhere
                if (scope.split("::", 1)[0] in browser) == takes_pages:
                    self.workqueue.move_to_end(scope, last=False)
                    break
            super()._assign_work_unit(node)

    return ByFileWhereShared(config, log)
