"""The board game told as sentences (rules/board/words.py): a whole scripted game that uses
every action word, narrated in English and German, and the history page that shows it."""

from __future__ import annotations

import re

import pytest
from boardkit import LINES, NAMES
from germankit import problems

from rules.actions import Undo
from rules.board import BoardGame
from rules.board.actions import VERBS, SheetLine
from rules.board.deck import load_deck
from rules.board.words import narrate
from rules.errors import KotdError
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table
from web import create_app

PACK = BoardGame.default()
CARD_IDS = {line.split()[2] for line in LINES if line.startswith("top ")} - {"-"}


def whose(lines: list[str]) -> list[str]:
    """For each line after ``players``, the player the sentence must name: the one whose
    turn it is (replayed through the rules), or the sheet line's player."""
    states = [PACK.new_game(NAMES)]
    out = []
    for line in lines[1:]:
        action = PACK.parse_action(line)
        out.append(action.player if isinstance(action, SheetLine) else states[-1].current_player)
        if isinstance(action, Undo):
            states.pop()
        else:
            states.append(PACK.apply(states[-1], action))
    return out


def test_the_script_uses_every_action_word_and_plays_to_the_end():
    verbs = {line.split()[0] for line in LINES}
    assert verbs == set(VERBS)
    assert len(whose(LINES)) == len(LINES) - 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_whole_board_game_is_told_one_sentence_a_line(lang):
    said = narrate(PACK.deck, LINES, lang)
    assert len(said) == len(LINES)
    assert said == PACK.narrate(LINES, lang)
    for line, sentence, player in zip(LINES[1:], said[1:], whose(LINES), strict=True):
        if line != "undo":
            assert player in sentence, (line, sentence)
    for name in NAMES:
        assert name in said[0] and sum(name in s for s in said[1:]) > 10
    undo = LINES.index("undo")
    taken_back = {"en": "Taken back: ", "de": "Zurückgenommen: "}[lang]
    assert said[undo] == taken_back + said[undo - 1]
    assert said[undo + 1] != said[undo - 1]  # the card taken after the undo is another deck's
    assert len(set(said)) > 40  # sentences, not one template
    text = " ".join(said)
    assert not any(card in text for card in CARD_IDS)  # cards by name, not by the typed id
    assert {"en": "Kriszti wins with 22 points", "de": "Kriszti gewinnt mit 22 Punkten"}[
        lang] in said[-1]


def test_the_sentences_say_what_the_table_did():
    said = dict(zip(LINES, narrate(PACK.deck, LINES, "en"), strict=False))
    assert said["discard land-developer-red-6 super"] == (
        "Kriszti discards the land developer and a super joker for a red 6")
    assert said["discard super super 2b"] == "Miki discards two super jokers for a blue 2"
    assert said["take 1"].endswith("with 3 stars; with it a gold gem from the supply")
    assert said["steal Norbi gold"] == "Kriszti steals a gold gem from Norbi"
    assert said["tiles 1"] == "Kriszti counts 1 castle tile left"
    german = dict(zip(LINES, narrate(PACK.deck, LINES, "de"), strict=False))
    assert german["discard land-developer-red-6 super"] == (
        "Kriszti wirft den Landentwickler und einen Superjoker ab und bekommt eine rote 6")
    assert german["take 4"] == "Norbi nimmt den Halunken (3 + 2 gleiche)"
    assert german["steal Kriszti trainer-6-1-3"] == (
        "Miki stiehlt Kriszti den Drachentrainer (1, 3, 6)")


def test_no_action_word_or_english_is_left_in_the_german_story():
    words = set(VERBS) | {"super", "white", "gold", "deck", "tiles", "card"}  # Joker is German
    for sentence in narrate(PACK.deck, LINES, "de"):
        assert problems(sentence) == [], sentence
        found = {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", sentence)} & words
        assert found == set(), sentence


def test_a_line_the_rules_refuse_ends_the_story_there():
    """Wherever a refused line is stored, the story stops before it (what follows could not
    be told truly); an undo with nothing to take back ends it too."""
    rolled = PACK.apply(PACK.new_game(NAMES), PACK.parse_action("roll 1r 2g 3b 4r 5g 1b"))
    for bad in ("steal Zed gold", "take 9"):
        with pytest.raises(KotdError):
            PACK.apply(rolled, PACK.parse_action(bad))  # no card taken; no deck 9
        for at in range(1, len(LINES) + 1):
            told = narrate(PACK.deck, [*LINES[:at], bad, *LINES[at:]], "en")
            assert told == narrate(PACK.deck, LINES[:at], "en") and len(told) == at
    assert narrate(PACK.deck, ["players A B", "undo", "tiles 3"], "de") == [
        "Neues Spiel: A, B"]


def test_the_history_page_tells_the_board_game(tmp_path):
    table = Table(EventStore.in_dir(tmp_path), game_pack("board"))
    for line in LINES:
        table.act(table.parse(line))
    client = create_app(table, None, "t").test_client()
    for lang in ("en", "de"):
        events = client.get(f"/api/history?lang={lang}").get_json()["events"]
        assert [e["action"] for e in events] == LINES
        assert [e["said"] for e in events] == narrate(PACK.deck, LINES, lang)
    client.post("/api/action", json={"action": "undo"}, headers={"X-Table-Token": "t"})
    last = client.get("/api/history").get_json()["events"][-1]["said"]
    assert last == "Taken back: " + narrate(PACK.deck, LINES, "en")[-1]


def test_the_17th_marker_win_is_said_with_the_move_that_forced_it():
    rows = [{"id": f"dev-{i}", "deck": 5, "joker": "6r", "condition": "sum 6"}
            for i in range(1, 10)]
    pack = BoardGame(load_deck().with_cards(rows))
    throw = "roll 6r 6g 6b 6r 6g 6b"
    lines = ["players A B", "tiles 28"]
    for i in range(1, 10):  # A places 2 markers a turn; B takes face down
        lines += [f"top 5 dev-{i}", throw, "take 5", "done"]
        lines += ["roll 1r 1g 2b 3r 4g 2b", "down 1", "done"] if i < 9 else []
    for lang, wins in (("en", "A takes the land developer (sum ≥ 6); A had to place a 17th "
                              "marker and wins at once"),
                       ("de", "A nimmt den Landentwickler (Summe ≥ 6); A musste einen 17. "
                              "Marker legen und gewinnt sofort")):
        told = pack.narrate(lines, lang)
        assert len(told) == len(lines) - 1  # the last "done" is refused: the game is over
        assert told[-1] == wins
