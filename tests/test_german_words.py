"""Everything the German page can say, said in German: every word of the page (each template
filled, with one and with several), every refusal King of the Dice meets (a brute force over
played positions; Um Krone und Kragen's are checked with the same ``problems`` in
tests/test_ukuk_refusals.py, where their brute force runs), every sentence of three whole
games (the board game's from tests/boardkit.py) as they are played and as the history tells
them, and the view's prose (card labels, costs, abilities, the reach, why the game ended).
Each text must hold no English word and no broken German (an article before a name that
brings its own, "1 Karten", a word said twice, a template left unfilled)."""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boardkit import LINES as BOARD_GAME
from flask.testing import FlaskClient
from gamebot import choose
from germankit import problems
from ukukkit import ANN_FAILS, lines
from ukukkit import GAME as UKUK_GAME
from webkit import TOKEN, new_app, new_table

from rules.errors import KotdError
from rules.games import game_pack
from rules.kotd.words import WORDS as KOTD_WORDS
from rules.store import EventStore
from rules.table import Table
from web.i18n import ERRORS, STRINGS, say_error

AUTH = {"X-Table-Token": TOKEN}
PROSE = {"last_said", "said", "ended_by", "label", "cost", "ability", "text", "name",
         "de"}
"""The view's keys whose strings the page shows as words (``de``: a card's German text)."""
NOT_SHOWN = {"message", "warning", "tie_break", "last", "english", "en"}
"""Strings the German page does not show (the camera's English note, the HABA clash's
English warning and the tie-break's English words are said from templates instead;
``last`` is the rules' log line; ``english``: the refusal's English for the log)."""


# ---- the page's own words -----------------------------------------------------------------

def fmt(key: str, n: int) -> str:
    """What app.js's fmt says for ``key`` with n = ``n`` (the singular key where there is
    one) and every other name filled with a German-neutral sample."""
    strings = STRINGS["de"]
    if n == 1:
        stem = re.sub(r"_n$", "", key) + "_1"
        key = key + "_1" if key + "_1" in strings else (stem if stem in strings else key)
        key = {"fits_n": "fits_one"}.get(key, key)  # the page says S.fits_one itself
    names = {name for _, name, _, _ in string.Formatter().parse(strings[key]) if name}
    sample = {name: "Ann" if name in ("player", "winner", "other", "name") else "3"
              for name in names}
    sample["n"] = str(n)
    return strings[key].format(**sample)


def test_every_word_of_the_page_is_german() -> None:
    wrong = {}
    for key in STRINGS["de"]:
        for n in (1, 2):
            text = fmt(key, n)
            if problems(text):
                wrong[(key, n)] = (text, problems(text))
    assert wrong == {}


def test_the_checks_find_english_and_broken_german() -> None:
    """The checks themselves: each finds what the issue found on the page."""
    assert problems("Ben takes the The hypnotist")
    assert problems("Ben nimmt Der Hypnotiseur (Summe ≤ 12)")
    assert problems("Gleichstand: Gleichstand bei 13 Punkten")
    assert problems("1 Karten")
    assert problems("Der Wurf 6r erfüllt hypnotist (The hypnotist: sum ≤ 12) nicht.")
    assert problems("Würfel {n}")
    assert problems("Ben nimmt: Hypnotiseur (Summe ≤ 12)") == []
    assert problems("Sag „bid“, um zu bieten.") == []  # a word to type is not prose


def test_a_penalty_card_has_one_name_in_each_language() -> None:
    """The rulebooks call the card a penalty card (Strafkarte) when it is taken and
    counted; the page, the rules' sentences and the card data say that word alone, never
    also "scoundrel" (Schurke) for the same card."""
    catalogue = game_pack("kotd").catalogue
    said = {lang: [*STRINGS[lang].values(), *ERRORS.get(lang, {}).values(),
                   *KOTD_WORDS[lang].values(),
                   *(str(card["name"]) for card in catalogue(lang)["cards"].values()),
                   *(str(name) for name in catalogue(lang)["kinds"].values())]
            for lang in ("en", "de")}
    assert [t for t in said["en"] if "scoundrel" in t.lower()] == []
    assert [t for t in said["de"] if "schurke" in t.lower()] == []
    assert any("penalty card" in t.lower() for t in said["en"])
    assert any("Strafkarte" in t for t in said["de"])


# ---- refusals ------------------------------------------------------------------------------

KOTD_LINES = ["claim 1", "claim 9", "claim 2 no-bonus", "penalty -2", "penalty -9", "give Ann",
              "give Zed", "draw elf-4", "draw nothing", "fix 1 5r", "fix 9 5r", "roll 1r 2g",
              "roll 1r 1g 1b 2r 2g 3b", "row snob-even hypnotist gnome-3green orc-3 fairy-2r2g",
              "undo", "players Ann", "players Ann ann", "bid", "claim", "roll 7r 1g 1b 2r 2g 3b"]


def kotd_refusals() -> Iterator[KotdError]:
    """Every refusal of KOTD_LINES in every position of a few played games."""
    for seed in range(3):
        rng = random.Random(seed)
        state = game_pack("kotd").new_game(("Ann", "Ben", "Cem"))
        pack = game_pack("kotd")
        for _ in range(60):
            if state.phase == "over":
                break
            for line in KOTD_LINES:
                try:
                    pack.apply(state, pack.parse_action(line))
                except KotdError as err:
                    yield err
            state = pack.apply(state, pack.parse_action(choose(state, rng)))


def test_every_refusal_is_german() -> None:
    met = list(kotd_refusals())
    codes = Counter(err.code for err in met)
    assert len(codes) > 15  # the brute force meets refusals at all
    wrong = {}
    found: dict[str, list[str]] = {}  # each sentence is read once: most are met many times
    for err in met:
        german = say_error(err.code, err.params, err.message, "de")
        if german not in found:
            found[german] = problems(german)
        if err.code not in ERRORS["de"] or found[german]:
            wrong[err.code] = (german, found[german])
    assert wrong == {}


# ---- three whole games: the sentences, the history, the view -----------------------------

def prose(view: Any, key: str = "") -> Iterator[str]:
    if isinstance(view, dict):
        for k, v in view.items():
            if k not in NOT_SHOWN:
                yield from prose(v, k)
    elif isinstance(view, list):
        for v in view:
            yield from prose(v, key)
    elif isinstance(view, str) and key in PROSE:
        yield view


def play(client: FlaskClient, table: Table, next_line: Any, most: int) -> set[str]:
    said: set[str] = set(prose(client.get("/api/state?lang=de").get_json()))
    for _ in range(most):
        state = table.state
        if client.get("/api/state").get_json()["over"]:
            break
        r = client.post("/api/action?lang=de", json={"action": next_line(state)},
                        headers=AUTH)
        assert r.status_code == 200, r.get_json()
        said |= set(prose(r.get_json()))
    assert client.get("/api/state").get_json()["over"]  # the whole game, to its end
    said |= {e["said"] for e in client.get("/api/history?lang=de").get_json()["events"]}
    client.post("/api/action?lang=de", json={"action": "undo"}, headers=AUTH)
    said |= {e["said"] for e in client.get("/api/history?lang=de").get_json()["events"]}
    return said


def test_three_whole_games_are_told_in_german(tmp_path: Path) -> None:
    (tmp_path / "k").mkdir()
    kotd = new_table(tmp_path / "k", "players Ann Ben Cem")
    rng = random.Random(5)
    said = play(new_app(kotd).test_client(), kotd, lambda s: choose(s, rng), 3000)
    (tmp_path / "u").mkdir()
    ukuk = Table(EventStore(tmp_path / "u" / "kotd.sqlite3"), game_pack("ukuk"))
    script = iter(lines(UKUK_GAME + ANN_FAILS))  # court cards used, the King, the final round
    said |= play(new_app(ukuk).test_client(), ukuk, lambda s: next(script), 3000)
    (tmp_path / "b").mkdir()
    board = Table(EventStore(tmp_path / "b" / "kotd.sqlite3"), game_pack("board"))
    script = iter(BOARD_GAME)  # every action word of the board game, to its end
    said |= play(new_app(board).test_client(), board, lambda s: next(script), 3000)
    assert len(said) > 200 and any(text.startswith("Zurückgenommen") for text in said)
    assert any(text.startswith("Zurückgenommen: Kriszti ist fertig") for text in said)
    wrong = {text: problems(text) for text in said if problems(text)}
    assert wrong == {}
