"""Um Krone und Kragen's refusals are said in German too: a brute force over the real game
(every court card used every way on many dice, every buy, throw, set-aside, fix, pass and
bid) meets almost every refusal the rules have, and each comes with a code whose German
template fills, in German without an English word or broken German (``germankit.problems``:
the brute force runs once a ``make test`` here, not again in ``test_german_words.py``); a
refusal met through ``kotd serve``'s page API over HTTP comes back in German when the page
asks in German, in English otherwise."""

from __future__ import annotations

import ast
import json
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

from germankit import problems
from servekit import TOKEN
from ukukkit import COURT, refusals

from rules.errors import RuleError
from rules.ukuk.actions import parse_action
from rules.ukuk.game import TurnDice, apply, new_game
from web.i18n import ERRORS, say_error

ROOT = Path(__file__).resolve().parents[1]
UNREACHABLE = {"rule.ukuk_unknown_action", "rule.die_value", "rule.raise_to_over_six",
               "rule.reroll_count"}
"""Refusals no action line can reach with the box's court: an action the game does not
know is caught by the parser; a use names dice 1-6 only (an ``after`` above 6 is refused
by the parser, a raise above 6 by the ability first); no card throws exactly two or more
dice again (the Hofnarr throws one, the Händler any number). Kept for other court data."""

def test_every_refusal_the_game_meets_is_coded_and_said_in_german() -> None:
    met = refusals()
    codes = {err.code for err in met}
    assert "rule.said" not in codes  # no one-line English refusal is left
    found: dict[str, list[str]] = {}  # each sentence is read once: most are met many times
    for err in met:
        german = say_error(err.code, err.params, err.message, "de")
        assert err.code in ERRORS["de"], (err.code, err.message)
        assert german != err.message and "{" not in german, (err.code, german)
        assert json.loads(json.dumps(err.params)) == err.params  # plain JSON for the API
        if german not in found:
            found[german] = problems(german)
    assert {german: said for german, said in found.items() if said} == {}
    # and the brute force reaches every refusal the UKUK source raises but two
    assert _raised_in("rules/ukuk") - codes == UNREACHABLE


def _raised_in(folder: str) -> set[str]:
    """The codes of every RuleError raised (or returned) in ``folder``, read with ast."""
    codes = set()
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "RuleError" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                codes.add(f"rule.{node.args[0].value}")
    return codes


def test_no_refusal_in_the_rules_is_one_english_line() -> None:
    """Every ``RuleError(...)`` in rules/, web/ and pi/ names a code and a template: a
    one-string RuleError would show in English on a German page."""
    bare = []
    for folder in ("rules", "web", "pi"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "RuleError" and len(node.args) < 2):
                    bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bare == []
    assert len(_raised_in("rules/ukuk")) > 40


def test_the_same_refusal_in_both_languages_with_a_card_name() -> None:
    s = new_game(["Ann", "Ben"], COURT)
    s = replace(s, owned=(("hofnarr",), ()), dice=TurnDice(0, (2, 5), throws=1,
                                                           used=("hofnarr",)))
    try:
        apply(s, parse_action("use hofnarr 2 -> 4"))
    except RuleError as err:
        assert err.message == ("the Hofnarr was already used this round; each court card "
                               "once a round")
        assert say_error(err.code, err.params, err.message, "de") == (
            "Die Karte Hofnarr wurde in dieser Runde schon eingesetzt; jede Karte nur einmal "
            "pro Runde.")
    else:  # pragma: no cover - the rule is broken
        raise AssertionError("a second use of the Hofnarr in one round was allowed")


def _refused(port: int, action: str, query: str = "",
             headers: dict[str, str] | None = None) -> dict:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/action{query}",
        data=json.dumps({"action": action}).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-Table-Token": TOKEN,
                 **(headers or {})})
    try:
        urllib.request.urlopen(req, timeout=10)
    except urllib.error.HTTPError as err:
        assert err.code == 400
        return json.loads(err.read())
    raise AssertionError(f"{action!r} was not refused")


def test_a_refusal_over_http_comes_in_the_pages_language(assistant) -> None:
    a, _tray, _factory, client = assistant
    client.act("game ukuk")
    client.act("players Ann Ben")
    english = "cannot end the turn yet: Ann has not thrown"
    german = "Noch nicht: Ann hat noch nicht gewürfelt."
    for query, headers, said in (("?lang=de", {}, german),
                                 ("", {"Accept-Language": "de-DE,de;q=0.9"}, german),
                                 ("", {}, english), ("?lang=en", {}, english),
                                 ("", {"Accept-Language": "fr"}, english)):
        body = _refused(a.port, "pass", query, headers)
        assert body["error"] == said, (query, headers)
        assert body["english"] == english and body["code"] == "rule.not_thrown"
        assert body["params"] == {"what": "end the turn", "player": "Ann"}
    client.act("roll 2 2 5")
    client.act("aside 2 2")
    body = _refused(a.port, "buy koenig", "?lang=de")
    assert body["english"] == "cannot buy yet: set every die aside first (still active: 5)"
    assert body["error"] == "Noch nicht: zuerst alle Würfel herauslegen (noch aktiv: 5)."
    client.act("aside 5")
    body = _refused(a.port, "buy koenig", "?lang=de")
    assert body["code"] == "rule.cost_not_met"
    assert body["error"].startswith("Das Würfelergebnis 2 2 5 reicht nicht für die Karte "
                                    "König (")
    assert client.get("/api/state")["current_player"] == "Ann"  # nothing changed
