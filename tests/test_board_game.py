"""The board game's turn as a fold, its pack, the final scoring and its command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from rules.board import BoardGame
from rules.board.deck import load_deck
from rules.board.score import score_json, verdict
from rules.errors import KotdError, RuleError
from rules.games import GAMES, game_pack

KOTD = [str(Path(sys.executable).with_name("kotd"))]
PACK = BoardGame.default()

GAME = """\
players Kriszti Miki
top 3 trainer-6-1-3
top 4 scoundrel-red-6
top 5 land-developer-red-6
tiles 4
roll 3r 3g 2b 5r 1g 4b
roll 6r 6g 5b 5r 1g 4b
take 5
done
roll 1g 2g 2b 5b 3g 4b
down 3
done
top 1 merchant-run
roll 1r 2g 3b 4r 5g 6b
take 1
gem white
done
sheet Kriszti 2 1
sheet Miki 0 1
"""


def play(script: str):
    lines = [x for x in script.splitlines() if x.strip()]
    state = PACK.new_game(PACK.parse_action(lines[0]).names)  # type: ignore[attr-defined]
    for line in lines[1:]:
        state = PACK.apply(state, PACK.parse_action(line))
    return state


def kotd(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(KOTD + list(args), input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_the_pack_is_listed_and_plays_a_whole_game():
    assert "board" in GAMES and game_pack("board").id == "board"
    state = play(GAME)
    kriszti, miki = state.players
    assert kriszti.cards == ("land-developer-red-6", "merchant-run")
    assert (kriszti.markers, kriszti.gold, kriszti.white) == (3, 1, 2)  # 3 stars: gold
    assert (miki.supers, miki.cards, state.tiles, state.over) == (1, (), 0, True)
    result = state.result()
    assert result is not None and result.winners == ("Kriszti",)
    standings = PACK.view(SimpleNamespace(state=state), "en")["scores"]
    assert [(x["player"], x["place"], x["total"]) for x in standings] == [
        ("Kriszti", 1, 14), ("Miki", 2, 3)]
    assert [s.total for s in result.scores] == [3 * 2 + 1 + 3 + 2 * 2, 0 + 1 + 2]


def test_a_roll_that_meets_a_card_must_take_one_jokers_never_oblige():
    state = play("players A B\ntop 3 trainer-6-1-3\ntop 5 land-developer-red-6\n"
                 "roll 6r 1g 3b 2r 2g 2b")
    with pytest.raises(RuleError, match="must be taken"):
        PACK.apply(state, PACK.parse_action("down 5"))
    assert PACK.apply(state, PACK.parse_action("take 3")).players[0].cards == ("trainer-6-1-3",)
    with pytest.raises(RuleError, match="do not meet"):
        PACK.apply(state, PACK.parse_action("take 5"))


def test_miki_discards_the_scoundrel_and_the_land_developer_for_a_red_6():
    state = play("players Norbi Miki\ntiles 20\n"
                 "top 4 scoundrel-red-6\nroll 6r 6g 6b 5r 5g 2b\ntake 4\ndone\n"
                 "roll 1r 1g 1b 2r 2g 2b\ndown 1\ndone\n"  # deck 1 not entered: allowed
                 "top 5 land-developer-red-6\nroll 6r 6g 6b 5r 5g 2b\ntake 5\ndone\n"
                 "roll 1r 1g 1b 2r 2g 2b\ndown 4\ndone\n"
                 "top 3 trainer-6-1-3\nroll 1g 3b 2r 2g 4b 5r")
    view = PACK.view(SimpleNamespace(state=state), "en")
    trainer = view["check"]["cards"][0]
    assert not trainer["satisfied"]
    assert trainer["jokers"]["words"] == ("discard the scoundrel and the land developer, both "
                                          "a red 6, to add a red 6")
    with pytest.raises(RuleError, match="do not meet"):
        PACK.apply(state, PACK.parse_action("take 3"))
    state = PACK.apply(state, PACK.parse_action(
        "discard scoundrel-red-6 land-developer-red-6"))
    state = PACK.apply(state, PACK.parse_action("take 3"))
    assert state.players[0].cards == ("trainer-6-1-3",)
    state = PACK.apply(state, PACK.parse_action("fire"))
    assert state.players[0].fires == 1


def test_the_player_who_must_place_a_17th_marker_wins_at_once():
    rows = [{"id": f"dev-{i}", "deck": 5, "joker": "6r", "condition": "sum 6"}
            for i in range(1, 10)]
    rows += [{"id": f"trn-{i}", "deck": 3, "joker": "1g", "condition": "sum 6"}
             for i in range(1, 10)]
    pack = BoardGame(load_deck().with_cards(rows))
    state = pack.new_game(("A", "B"))
    throw = "roll 6r 6g 6b 6r 6g 6b"
    for i in range(1, 9):  # A places 2 markers a turn, B 1 (the trainer: no tile)
        for line in (f"top 5 dev-{i}", throw, "take 5", "done",
                     f"top 3 trn-{i}", throw, "take 3", "fire", "done"):
            state = pack.apply(state, pack.parse_action(line))
    assert [p.markers for p in state.players] == [16, 8] and state.tiles == 24 - 16
    for line in ("top 5 dev-9", throw, "take 5"):
        state = pack.apply(state, pack.parse_action(line))
    assert state.over and state.winner == "A"
    assert "A had to place a 17th marker" in pack.view(SimpleNamespace(state=state),
                                                       "en")["won_markers"]
    with pytest.raises(RuleError, match="over"):
        pack.apply(state, pack.parse_action("done"))


def test_the_rulebooks_final_scoring():
    sheet = {"players": [
        {"name": "Kriszti", "largest_area": 3, "outside": 5, "dragon_fires": 0, "gold": 1,
         "white": 0},
        {"name": "Miki", "largest_area": 3, "outside": 3, "dragon_fires": 1, "gold": 0,
         "white": 4},
        {"name": "Norbi", "largest_area": 5, "outside": 1, "dragon_fires": 2, "gold": 0,
         "white": 0},
        {"name": "Nelli", "largest_area": 2, "outside": 4, "dragon_fires": 1, "gold": 3,
         "white": 2}]}
    result = score_json(sheet)
    assert [s.total for s in result.scores] == [17, 20, 20, 23]
    assert result.winners == ("Nelli",)
    assert [s.place for s in result.scores] == [4, 3, 2, 1]  # Norbi's fires break 20 = 20
    out = kotd("score", "--game", "board", "--json", stdin=json.dumps(sheet))
    assert out.returncode == 0, out.stderr
    assert [p["total"] for p in json.loads(out.stdout)["players"]] == [17, 20, 20, 23]


def test_ties_go_to_the_most_dragon_fires_then_are_shared():
    a = {"name": "A", "largest_area": 2, "outside": 0, "dragon_fires": 1, "gold": 0,
         "white": 0}
    b = {**a, "name": "B", "dragon_fires": 0, "largest_area": 3, "white": 0, "outside": 0}
    # A: 6 + 4 (most fires) = 10; B: 9 + 0 ... one more point for B
    b["outside"] = 1
    result = score_json({"players": [a, b]})
    assert [s.total for s in result.scores] == [10, 10]
    assert result.winners == ("A",) and result.tie == "dragon_fires"
    assert "A has the most dragon fires" in verdict(result)
    c = {**a, "name": "C"}
    shared = score_json({"players": [a, c]})
    assert shared.winners == ("A", "C") and shared.tie == "shared"
    assert [s.dragon_bonus for s in shared.scores] == [4, 4]
    assert "teilen sich den Sieg" in verdict(shared, "de")


def test_check_json_answers_each_line_and_names_bad_ones():
    lines = [
        {"dice": "4r 4g 4b 1r 2g 6b", "condition": {"pips": ["6r"]}, "jokers": ["6r", "6r"],
         "super": 1},
        {"dice": "4r 4g 4b 1r 2g 6b", "condition": {"colours": {"r": 2, "b": 1}}},
        {"dice": "4r 4g 4b 1r 2g 6b", "condition": {"rainbow": 1}},
        {"dice": "4r 4g 4b 1r 2g 7r", "condition": {"straight": 4}},
        {"dice": "4r 4g 4b 1r 2g 6b", "condition": {"groups": [-2]}},
        {"dice": "4r 4g 4b 1r 2g 6b", "condition": {"straight": 6}, "super": 1},
    ]
    out = kotd("check", "--game", "board", "--json",
               stdin="\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    assert out.returncode == 2
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert answers[0] == {"satisfied": False, "jokers": {"adds": ["6r"],
                                                          "discards": ["6r", "6r"]}}
    assert answers[1] == {"satisfied": True, "jokers": None}
    assert "unknown condition kind 'rainbow'" in answers[2]["error"]
    assert "value must be 1-6" in answers[3]["error"]
    assert "not -2" in answers[4]["error"]
    assert answers[5] == {"satisfied": False, "jokers": None}
    assert answers[6]["line"] == 7 and "not JSON" in answers[6]["error"]


def test_check_and_cards_in_words_and_a_bad_flag_in_one_line():
    out = kotd("check", "--game", "board", "--dice", "1g 3b 2r 2g 4b 5r", "--cards",
               "trainer-6-1-3,merchant-run", "--jokers", "6r 6r")
    assert out.returncode == 0, out.stderr
    assert "jokers: discard the 6r joker and the 6r joker" in out.stdout
    assert "must take one of: merchant-run" in out.stdout
    out = kotd("cards", "--game", "board")
    assert out.returncode == 0 and "merchant-run" in out.stdout
    for args, says in ((("check", "--game", "board", "--dice", "1g 3b 2r 2g 4b 9r"),
                        "value must be 1-6"),
                       (("check", "--game", "board", "--dice", "1g 3b 2r 2g 4b 5r",
                         "--cards", "nobody"), "no card 'nobody'")):
        out = kotd(*args)
        assert out.returncode == 2 and says in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
    out = kotd("score", "--game", "board", stdin='{"players": [{"name": "A", "gold": -1}]}')
    assert out.returncode == 2 and "gold must be a whole number 0-6, not -1" in out.stderr


def test_play_script_prints_the_table(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(GAME)
    out = kotd("play", "--game", "board", "--script", str(script))
    assert out.returncode == 0, out.stderr
    assert "Kriszti wins with 14 points." in out.stdout


def test_a_card_entered_at_the_table_joins_the_game_and_bad_ones_are_refused():
    state = play("players A B\ncard d3-1 3 1g pips 6 1 3\ntop 3 d3-1\n"
                 "card d2-1 2 5g steal_gem sum r 12")
    assert state.market[2] == "d3-1" and state.deck.card("d2-1").effect == "steal_gem"
    assert str(PACK.parse_action("card d2-1 2 5g steal_gem sum r 12")) == \
        "card d2-1 2 5g steal_gem sum r 12"
    for line, says in (("card d3-1 3 1g pips 6", "known already"),
                       ("card d3-2 3 1g pips 7", "'7' is no die"),
                       ("card d3-3 3 1g rainbow 3", "unknown condition kind"),
                       ("card d3-4 3 9g pips 6", "'9g' is no die"),
                       ("card d3-5 3 1g straight 4 | straight 5", "only the merchant")):
        with pytest.raises(KotdError, match=says):
            PACK.apply(state, PACK.parse_action(line))
    german = PACK.view(SimpleNamespace(state=state), "de")
    assert german["market"][2]["card"]["text"] == "1, 3, 6"
    assert any(c["id"] == "d2-1" for c in german["cards"])


def test_the_panel_lights_and_what_the_camera_saw():
    from rules.actions import Fix, Rolled, Seen
    from rules.dice import Roll

    state = play("players A B\ntop 3 trainer-6-1-3\ntop 5 land-developer-red-6")
    roll = Roll.parse("6r 1g 3b 2r 2g 2b")
    assert PACK.seen(state, Seen(roll)) == Rolled(roll)
    state = PACK.apply(state, Rolled(roll))
    lights = PACK.lights(state)
    assert (lights.rolls_used, lights.slots, lights.penalty) == (1, (3,), False)
    assert PACK.take_in(state, 3) == PACK.parse_action("take 3")
    again = Roll.parse("6r 1g 3b 2r 2g 5b")
    assert PACK.seen(state, Seen(again, reread=True)) == Fix(((6, again[5]),))
    state = PACK.apply(state, PACK.parse_action("roll 1r 1g 1b 2r 2g 2b"))
    assert PACK.lights(state).penalty and PACK.take_in(state, 5) == PACK.parse_action("down 5")
    state = PACK.apply(state, PACK.parse_action("roll 1r 1g 1b 2r 2g 2b"))
    assert PACK.seen(state, Seen(roll)) is None  # three throws are the most


def test_the_thief_steals_a_gem_or_a_face_up_card_never_a_super_joker():
    state = play("players A B\ntiles 20\ntop 4 scoundrel-red-6\n"
                 "roll 1r 2g 3b 4r 5g 1b\ndown 4\ndone\n"  # A: a super joker
                 "top 4 scoundrel-red-6\nroll 6r 6g 6b 5r 5g 2b\ntake 4\n"
                 "gem gold\ndone\n"  # B: the scoundrel, a gold gem found on a field
                 "top 2 thief-red-sum\nroll 6r 6r 2b 3b 1g 4g")
    with pytest.raises(RuleError, match="take a card first"):
        PACK.apply(state, PACK.parse_action("steal B gold"))
    state = PACK.apply(state, PACK.parse_action("take 2"))
    with pytest.raises(RuleError, match="only the dragon trainer"):
        PACK.apply(state, PACK.parse_action("fire"))
    assert state.tiles == 20 - 1 - 1 and state.players[0].markers == 1
    with pytest.raises(RuleError, match="another player"):
        PACK.apply(state, PACK.parse_action("steal A white"))
    stolen = PACK.apply(state, PACK.parse_action("steal B gold"))
    assert (stolen.players[0].gold, stolen.players[1].gold) == (1, 0)
    with pytest.raises(RuleError, match="only the thief"):
        PACK.apply(stolen, PACK.parse_action("steal B white"))  # once
    cards = play("players A B\ntiles 20\ntop 4 scoundrel-red-6\n"
                 "roll 6r 6g 6b 5r 5g 2b\ntake 4\ndone\nroll 1r 2g 3b 4r 5g 1b\ndown 1\ndone\n"
                 "roll 1r 2g 3b 4r 5g 1b\ndown 3\ndone\n"
                 "top 2 thief-descending\nroll 6r 6r 2b 3b 1g 4r")
    cards = PACK.apply(cards, PACK.parse_action("take 2"))
    with pytest.raises(RuleError, match="super jokers cannot be stolen"):
        PACK.apply(cards, PACK.parse_action("steal A super"))
    cards = PACK.apply(cards, PACK.parse_action("steal A scoundrel-red-6"))
    assert cards.players[1].cards == ("thief-descending", "scoundrel-red-6")
    assert cards.players[0].cards == ()
