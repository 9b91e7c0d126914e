"""``kotd cards|check|play --game ukuk`` through the real console entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from ukukkit import ANN_EQUALS, GAME, ORACLE, every_result

KOTD = [str(Path(sys.executable).with_name("kotd"))]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(KOTD + list(args), input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_check_agrees_with_the_oracle_line_by_line_on_many_results():
    """Every seventh multiset of 1 to 12 dice (2,652) through ``kotd check --json`` on
    standard input: one line each, in order, with the oracle's cards. Every multiset's
    costs against the oracle, in the process: ``test_ukuk_costs.py`` (the command prints
    what ``rules.ukuk.check`` says)."""
    results = list(every_result(12))[::7]
    stdin = "\n".join(" ".join(map(str, dice)) for dice in results) + "\n"
    out = run("check", "--game", "ukuk", "--json", stdin=stdin)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(results) == 2652
    met: Counter[str] = Counter()
    for dice, line in zip(results, lines, strict=True):
        report = json.loads(line)
        expected = [cid for cid, oracle in ORACLE.items() if oracle(dice, Counter(dice))]
        assert report["dice"] == " ".join(map(str, dice))
        assert report["satisfied"] == expected, dice
        met.update(expected)
    # the sample meets every card but the queen (no 12 dice pay her) and misses every card
    # but the two that any die pays
    assert set(ORACLE) - set(met) == {"koenigin"}
    assert {card for card, n in met.items() if n == len(results)} == {"hofnarr", "scharlatan"}


def test_check_one_result_in_words_and_json():
    out = run("check", "--game", "ukuk", "--dice", "1 3 3 6 6")
    assert out.returncode == 0, out.stderr
    assert "satisfied: hofnarr, scharlatan, bauer, handwerker, astronom" in out.stdout
    out = run("check", "--game", "ukuk", "--dice", "5 5 5 5 5", "--cards", "ritter,koenig",
              "--json")
    assert json.loads(out.stdout)["satisfied"] == ["ritter"]


def test_check_refuses_with_one_line():
    for args, why in ((("--dice", "1 3r"), "ordinary dice"),
                      (("--dice", "1 7"), "value must be 1-6"),
                      (("--dice", "1", "--cards", "ritter,koenigg"), "did you mean koenig")):
        out = run("check", "--game", "ukuk", *args)
        assert out.returncode == 2 and why in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
    out = run("check", "--game", "ukuk", "--json", stdin="1 2\n9\n3 3 3\n")
    assert out.returncode == 2
    assert [json.loads(x).get("satisfied", "error") for x in out.stdout.splitlines()][1] == \
        "error"


def test_cards_lists_the_court():
    out = run("cards", "--game", "ukuk", "--json")
    assert out.returncode == 0, out.stderr
    cards = json.loads(out.stdout)
    assert len(cards) == 20
    by_id = {c["id"]: c for c in cards}
    assert by_id["hofnarr"]["copies"] == {"2": 2, "3": 3, "4": 4, "5": 5}
    assert by_id["edelmann"]["cost"] == {"kind": "groups", "sizes": [3, 3]}
    assert by_id["jaeger"]["name"] == {"de": "Jäger", "en": "Hunter"}
    text = run("cards", "--game", "ukuk").stdout
    assert "Königin (Queen)" in text and "20 court cards" in text


def test_play_a_whole_game(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(GAME + ANN_EQUALS)
    out = run("play", "--game", "ukuk", "--script", str(script), "--json")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert view["game"] == "ukuk" and view["over"]
    assert [(p["place"], p["player"], p["king"]) for p in view["places"]] == [
        (1, "Ann", True), (2, "Ben", False)]
    text = run("play", "--game", "ukuk", "--script", str(script)).stdout
    assert "1. Ann  holds the King" in text


def test_play_reports_a_refused_line_and_goes_on(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text("players Ann Ben\nroll 1 2 3\nbuy ritter\naside 1 2 3\nbuy bauerr\n"
                      "buy hofnarr\n")
    out = run("play", "--game", "ukuk", "--script", str(script), "--data-dir",
              str(tmp_path))
    assert out.returncode == 2
    assert "line 3: 'buy ritter' refused: cannot buy yet: set every die aside" in out.stderr
    assert "line 5: 'buy bauerr' refused: unknown court card 'bauerr'" in out.stderr
    assert "Ben" in out.stdout
    # the game was stored: play on from where it stopped
    more = tmp_path / "more.txt"
    more.write_text("roll 4 4 4\naside 4 4 4\nbuy wachmann\n")
    out = run("play", "--game", "ukuk", "--script", str(more), "--data-dir", str(tmp_path),
              "--json")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert [c["id"] for c in view["players"][1]["cards"]] == ["wachmann"]
