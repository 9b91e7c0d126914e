"""Whole games through ``kotd play --script``, with scores worked out by hand."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from conftest import KOTD
from gamebot import choose

from rules.games import game_pack
from rules.kotd.actions import parse_action
from rules.record import replay

GAME = game_pack("kotd")



def play(script: str, tmp_path: Path, *extra: str) -> tuple[dict, str, int]:
    path = tmp_path / "game.txt"
    path.write_text(script, encoding="utf-8")
    out = subprocess.run([KOTD, "play", "--script", str(path), "--json", *extra],
                         capture_output=True, text=True, timeout=60)
    assert "Traceback" not in out.stderr, out.stderr
    return json.loads(out.stdout), out.stderr, out.returncode


def score_of(view: dict, player: str) -> dict:
    return next(s for s in view["scores"] if s["player"] == player)


EFFECTS_GAME = """
players Ann Ben
# villages above slots 1-5: yellow, brown, blue, green, purple
row snob-even hypnotist gnome-3green orc-3 fairy-2r2g
roll 1r 1g 1b 2r 2g 3b      # sum 10: the hypnotist is satisfied
claim 2                     # hypnotist + gnome-3green to its right, with workshop-2 (blue)
draw dragon-25              # two new cards after a hypnotist bonus: first lands in slot 2
draw apprentice-3r3b
roll 6r 6b 5r 5b 4r 4b      # Ben: 3 red + 3 blue
claim 1                     # apprentice (purple, under the yellow city: no village)
draw elf-5
roll 6r 6g 6b 5r 5g 4b      # Ben again (apprentice's extra turn): sum 32
claim 2                     # dragon-25 ...
give Ann                    # ... goes to Ann
draw orc-4
roll 2r 2g 4b 4r 6g 6b      # Ann: fairy-2r2g in slot 5 under the purple forest
claim 5
draw fairy-3b2g
roll 1r 2r 4r 6r 3r 1b      # Ben: satisfies nothing in the row
claim 1
penalty -2                  # penalty-2a; orc-3 (rightmost) is discarded
draw dwarf-3x1
roll 1b 2b 3b 2g 4g 6r      # Ann: 3 blue + 2 green, her second fairy
claim 2
"""


def test_a_game_with_every_effect(tmp_path: Path) -> None:
    view, err, status = play(EFFECTS_GAME, tmp_path)
    # 'claim 1' with nothing satisfied is refused, the rest of the script goes on
    assert status == 2 and "claim 1' refused: the roll" in err and "does not satisfy" in err
    ann, ben = score_of(view, "Ann"), score_of(view, "Ben")
    # Ann: hypnotist 1 + gnome 1 + workshop-2 + fairies 2² + forest-2 - dragon 2 = 8
    assert (ann["citizens"], ann["villages"], ann["fairies"], ann["fairy_points"],
            ann["dragons"], ann["total"]) == (2, 4, 2, 4, -2, 8)
    # Ben: apprentice 3, penalty -2 = 1
    assert (ben["citizens"], ben["penalties"], ben["total"]) == (3, -2, 1)
    kingdoms = {p["name"]: p["kingdom"] for p in view["players"]}
    assert kingdoms["Ann"] == ["hypnotist", "workshop-2", "gnome-3green", "dragon-25",
                               "enchanted-forest-2", "fairy-2r2g", "fairy-3b2g"]
    assert kingdoms["Ben"] == ["apprentice-3r3b", "penalty-2a"]
    assert view["phase"] == "draw" and view["question"]["ask"] == "draw"
    assert view["question"]["slots"] == [1]
    assert "orc-3" not in view["question"]["choices"]  # discarded, not back in the pile
    assert view["penalty_pile"] == 9 and view["draw_pile"] == 35 - 6


def test_hypnotist_in_the_rightmost_slot_brings_no_bonus(tmp_path: Path) -> None:
    view, _, status = play("players Ann Ben\nrow orc-3 elf-4 dwarf-3x1 gnome-3green hypnotist\n"
                           "roll 1r 1g 1b 2r 2g 3b\nclaim 5\ndraw orc-4\n", tmp_path)
    assert status == 0
    assert view["players"][0]["kingdom"] == ["hypnotist"]
    assert view["current_player"] == "Ben"


def test_elf_on_top_gives_four_rolls_and_a_dragon_on_top_takes_them(tmp_path: Path) -> None:
    base = (
        "players Ann Ben\nrow elf-4 dragon-25 orc-3 dwarf-3x1 gnome-3green\n"
        "roll 1r 2g 3b 4r 6g 6b\nclaim 1\ndraw orc-4\n"          # Ann takes elf-4 (+ city-2)
        "roll 6r 6g 6b 5r 5g 5b\nclaim 2\ngive Ann\ndraw elf-6\n"  # Ben's dragon to Ann
    )
    rolls = "roll 1r 2g 3b 4r 6g 5b\n" * 4
    view, err, status = play(base + rolls, tmp_path)
    assert status == 2 and "no rolls left: at most 3 rolls" in err  # dragon now on top
    assert view["rolls_used"] == 3 and view["max_rolls"] == 3

    elf_on_top = (
        "players Ann Ben\nrow elf-4 dragon-25 orc-3 dwarf-3x1 gnome-3green\n"
        "roll 1r 2g 3b 4r 6g 6b\nclaim 1\ndraw orc-4\n"
        "roll 6r 6g 6b 5r 5g 5b\nclaim 3\ndraw elf-6\n"            # Ben takes orc-3
    )
    view, err, status = play(elf_on_top + rolls, tmp_path)
    assert status == 0, err
    assert view["rolls_used"] == 4 and view["max_rolls"] == 4
    view, err, status = play(elf_on_top + rolls + rolls[:23], tmp_path)
    assert status == 2 and "no rolls left: at most 4 rolls" in err


def test_a_dragon_cannot_be_kept_and_must_be_given_before_anything_else(tmp_path: Path) -> None:
    view, err, status = play(
        "players Ann Ben Cem\nrow dragon-30 orc-3 elf-4 dwarf-3x1 gnome-3green\n"
        "roll 6r 6g 6b 6r 6g 6b\nclaim 1\ngive Ann\ndraw orc-4\ngive Dan\ngive cem\n",
        tmp_path,
    )
    assert status == 2  # the refused lines make the script fail
    assert "a dragon must be given to another player" in err
    assert "cannot draw a card now: Ann must first give the dragon" in err
    assert "there is no player 'Dan'" in err
    assert score_of(view, "Cem")["dragons"] == -6 and score_of(view, "Ann")["total"] == 0
    assert view["question"]["ask"] == "draw"


def test_penalty_only_when_nothing_is_satisfied(tmp_path: Path) -> None:
    view, err, status = play(
        "players Ann Ben\nrow orc-3 elf-4 dwarf-3x1 gnome-3green fairy-2r2g\n"
        "penalty -1\nroll 4r 4g 4b 1r 2g 6b\npenalty -1\npenalty -9\n", tmp_path)
    assert status == 2  # the refused lines make the script fail
    assert "roll the dice first" in err
    assert "a penalty is taken only when no face-up citizen is satisfied" in err
    assert view["phase"] == "rolling" and view["players"][0]["kingdom"] == []


def test_cards_already_out_cannot_be_drawn_or_laid_twice(tmp_path: Path) -> None:
    view, err, status = play(
        "players Ann Ben\nrow orc-3 orc-3 elf-4 dwarf-3x1 gnome-3green\n"
        "row orc-3 elf-5 elf-4 dwarf-3x1 gnome-3green\n"
        "roll 4r 4g 4b 1r 2g 6b\nclaim 1\ndraw orc-3\ndraw elf-4\ndraw ork-4\ndraw orc-4\n",
        tmp_path)
    assert status == 2  # the refused lines make the script fail
    assert "orc-3 is listed twice" in err
    assert "orc-3 is already out of the pile" in err and "elf-4 is already out" in err
    assert "unknown card id 'ork-4'; did you mean orc-4" in err
    assert view["row"][0]["card"]["id"] == "orc-4"


def test_village_stack_running_out_ends_the_game_at_once(tmp_path: Path) -> None:
    script = (
        "players Ann Ben\nrow snob-even orc-2+2 orc-4 orc-3 fairy-2r2g\n"
        "roll 4r 4g 4b 4r 1g 2b\nclaim 4\ndraw elf-4\n"      # Ann: orc-3 + orc-village-2
        "roll 4r 4g 4b 4r 1g 2b\nclaim 4\ndraw elf-5\n"      # Ben: orc-4 + orc-village-3
        "roll 4r 4g 1b 1r 2g 2b\nclaim 4\n"                  # Ann: orc-2+2 + orc-village-4
        "draw elf-6\nroll 1 2 3 4 5 6\n"
    )
    view, err, status = play(script, tmp_path)
    assert status == 2  # the refused lines make the script fail
    assert view["over"] and view["ended_by"] == "the last green village card was taken"
    assert "cannot draw a card now: the game is over" in err
    assert "cannot roll now: the game is over" in err
    # Ann: orc-3 2 + village 2 + orc-2+2 1 + village 4 = 9; Ben: orc-4 3 + village 3 = 6
    assert [(s["player"], s["total"], s["place"]) for s in view["scores"]] == [
        ("Ann", 9, 1), ("Ben", 6, 2)]


def test_penalty_pile_running_out_ends_the_game(tmp_path: Path) -> None:
    lines = ["players Ann Ben Cem", "row dwarf-5x1 dwarf-5x6 orc-5 elf-6 gnome-6blue"]
    nothing = "roll 1r 2r 4r 6g 6b 3g"
    refill = ["goblin-6", "dragon-30", "apprentice-3r3b", "orc-4+2", "orc-2+2+2",
              "dwarf-4x4", "dwarf-4x3", "gnome-5blue", "gnome-5red", "dwarf-4x6"]
    values = [-1, -2, -1, -3, -1, -2, -4, -1, -2, -3]
    for value, card in zip(values, refill, strict=True):
        lines += [nothing, f"penalty {value}", f"draw {card}"]
    view, err, status = play("\n".join(lines) + "\n", tmp_path)
    assert status == 2  # the refused lines make the script fail
    assert view["over"] and view["ended_by"] == "the last penalty card was taken"
    assert "cannot draw a card now: the game is over" in err  # the last refill never happens
    # seats take turns: Ann -1 -3 -4 -3 = -11, Ben -2 -1 -1 = -4, Cem -1 -2 -2 = -5
    assert [(s["player"], s["total"]) for s in view["scores"]] == [
        ("Ben", -4), ("Cem", -5), ("Ann", -11)]


def test_citizen_pile_running_out_ends_the_game(tmp_path: Path) -> None:
    rng = random.Random(7)
    record = replay(GAME, ["players Ann Ben Cem Dan"])
    lines = ["players Ann Ben Cem Dan"]
    while record.state.phase != "over":
        line = choose(record.state, rng, safe=True)
        record = record.act(parse_action(line))
        lines.append(line)
    view, err, status = play("\n".join(lines) + "\n", tmp_path)
    assert status == 0, err
    assert view["ended_by"] == "the last citizen was drawn" and view["draw_pile"] == 0


TIE_SCRIPT = (
    "players Ann Ben\nrow snob-odd dwarf-4x3 orc-4+2 elf-4 gnome-3green\n"
    "roll 3r 3g 3b 3r 1g 2b\nclaim 2\ndraw snob-even\n"   # Ann: dwarf-4x3 6 + mine-2 2 = 8
    "roll 5r 5g 5b 5r 1g 1b\nclaim 3\ndraw orc-3\n"       # Ben: orc-4+2 8 (no village)
)
TIE_SCRIPT_2 = (
    "roll 2r 2g 2b 4r 4g 1b\nclaim 1\ndraw dragon-25\n"   # Ann: orc-3 2 -> 10
    "roll 6r 6g 6b 5r 4g 3b\nclaim 1\ngive Ann\n"         # Ben: dragon-25 to Ann -> 8, -2
)


def test_tie_break_shared_then_fewer_minus_points(tmp_path: Path) -> None:
    view, err, _ = play(TIE_SCRIPT, tmp_path)
    assert [(s["player"], s["total"], s["place"], s["shared"]) for s in view["scores"]] == [
        ("Ann", 8, 1, True), ("Ben", 8, 1, True)], err
    assert view["scores"][0]["tie_break"] == "tied on points and minus points: shared"
    view, err, status = play(TIE_SCRIPT + TIE_SCRIPT_2, tmp_path)
    assert status == 0, err
    assert [(s["player"], s["total"], s["minus"], s["place"]) for s in view["scores"]] == [
        ("Ben", 8, 0, 1), ("Ann", 8, 2, 2)]
    assert view["scores"][0]["tie_break"] == "tied on 8 points: fewer minus points decide"


FIX_AND_UNDO_GAME = """
players Ann Ben
row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g
roll 1r 1g 2b 3r 5g 6b      # the camera misread die 3 ...
fix 3 1b                    # ... it is a blue 1: three 1s now
claim 1                     # dwarf-3x1 (brown, under the yellow city: no village)
draw elf-5
undo                        # the wrong card was typed in
draw goblin-4               # row: goblin-4 orc-3 elf-4 gnome-3green fairy-2r2g
roll 4r 4g 4b 2r 2g 6g      # Ben: three 4s and three greens
claim 2                     # orc-3 ...
undo                        # ... no: Ben takes the gnome instead
claim 4                     # gnome-3green (blue, under the green orc village: no village)
draw orc-4                  # row: orc-4 goblin-4 orc-3 elf-4 fairy-2r2g
roll 2r 2g 3b 4r 5g 5b      # Ann: two reds and two greens
claim 5                     # fairy-2r2g with enchanted-forest-2 (purple over purple)
"""


def test_a_game_with_corrections_and_undos(tmp_path: Path) -> None:
    view, err, status = play(FIX_AND_UNDO_GAME, tmp_path)
    assert status == 0, err
    ann, ben = score_of(view, "Ann"), score_of(view, "Ben")
    # Ann: dwarf 4 + one fairy 1² + forest 2 = 7; Ben: gnome 1 (the orc was taken back)
    assert (ann["citizens"], ann["fairy_points"], ann["villages"], ann["total"]) == (4, 1, 2, 7)
    assert (ben["citizens"], ben["total"]) == (1, 1)
    kingdoms = {p["name"]: p["kingdom"] for p in view["players"]}
    assert kingdoms == {"Ann": ["dwarf-3x1", "enchanted-forest-2", "fairy-2r2g"],  # village under
                        "Ben": ["gnome-3green"]}
    assert view["question"]["ask"] == "draw" and "elf-5" in view["question"]["choices"]
    assert [c["card"]["id"] for c in view["row"][1:4]] == ["orc-4", "goblin-4", "orc-3"]
    assert view["scores"][0]["player"] == "Ann"


LEAVE_GAME = """
players Ann Ben
row snob-even hypnotist gnome-3green orc-3 fairy-2r2g
roll 1r 1g 1b 2r 2g 3b      # sum 10: the hypnotist is satisfied
claim 2 no-bonus            # Ann leaves the bonus card: gnome-3green stays
draw elf-4                  # row: elf-4 snob-even gnome-3green orc-3 fairy-2r2g
roll 2r 2g 2b 4r 4g 6b      # Ben: three 2s
claim 4 no-village          # orc-3 under the green orc village, which Ben leaves
draw dwarf-3x1
"""


def test_the_village_and_the_bonus_card_may_be_left(tmp_path: Path) -> None:
    view, err, status = play(LEAVE_GAME, tmp_path)
    assert status == 0, err
    kingdoms = {p["name"]: p["kingdom"] for p in view["players"]}
    assert kingdoms == {"Ann": ["hypnotist"], "Ben": ["orc-3"]}
    assert [(s["player"], s["total"]) for s in view["scores"]] == [("Ben", 2), ("Ann", 1)]
    assert [c["card"]["id"] for c in view["row"]] == [
        "dwarf-3x1", "elf-4", "snob-even", "gnome-3green", "fairy-2r2g"]
    assert view["row"][3]["village"]["left"] == 3  # the orc village is still full
    assert "claim 2 no-bonus" in view["actions"] and "claim 4 no-village" in view["actions"]


def test_a_refused_players_line_is_said_once(tmp_path: Path) -> None:
    """A script whose 'players' line is refused says why, and not also that it has none."""
    for script, said, unsaid in (
            ("players Ann\n", "'players Ann' refused", "has no 'players' line"),
            ("# nothing\n", "has no 'players' line", "refused")):
        path = tmp_path / "game.txt"
        path.write_text(script, encoding="utf-8")
        out = subprocess.run([KOTD, "play", "--script", str(path)], capture_output=True,
                             text=True, timeout=60)
        assert out.returncode == 2 and said in out.stderr and unsaid not in out.stderr, \
            out.stderr
