"""The card data file: every card of the box, as the reference lists it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

from rules.errors import UnknownCardError
from rules.kotd.cards import CardDataError, load_box
from rules.kotd.requirements import ColorCount, Colors, Groups, Parity, Run, SameColor, Value

BOX = load_box()
REFERENCE = SHARED / "reference" / "king-of-the-dice-box.md"


def reference_citizen_rows() -> list[tuple[str, str]]:
    rows = []
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| ([a-z0-9+\-]+) \| [^|]+ \| [^|]+ \| ([^|]+) \|$", line)
        if m and m.group(1) != "id":
            rows.append((m.group(1), m.group(2).strip()))
    return rows


def test_the_box_has_65_cards_with_unique_ids() -> None:
    assert (len(BOX.citizens), len(BOX.villages), len(BOX.penalties)) == (40, 15, 10)
    assert len({c.id for c in BOX}) == 65


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared reference not beside the repo")
def test_citizen_ids_and_points_match_the_reference() -> None:
    rows = reference_citizen_rows()
    assert [cid for cid, _ in rows] == [c.id for c in BOX.citizens]
    for cid, vp in rows:
        card = BOX.card(cid)
        if vp == "special":
            assert card.points is None and card.effect == "fairy_points"
        else:
            assert card.points == int(re.match(r"[−-]?\d+", vp).group().replace("−", "-")), cid


def test_requirements_follow_the_card_ids() -> None:
    """The id names the requirement: dwarf-4x6 is four 6s, fairy-3r2b is 3 red + 2 blue."""
    colors = {"r": "red", "g": "green", "b": "blue"}
    for card in BOX.citizens:
        kind, _, rest = card.id.partition("-")
        req = card.requirement
        if kind == "dwarf":
            n, v = rest.split("x")
            assert req == Value(int(v), int(n))
        elif kind == "orc":
            assert req == Groups(tuple(int(s) for s in rest.split("+")))
        elif kind == "elf":
            assert req == Run(int(rest))
        elif kind == "snob":
            assert req == Parity(rest)
        elif kind == "gnome":
            assert req == ColorCount(rest[1:], int(rest[0]))
        elif kind == "goblin":
            assert req == SameColor(int(rest))
        elif kind in ("fairy", "apprentice"):
            want = {colors[c]: int(n) for n, c in re.findall(r"(\d)([rgb])", rest)}
            assert isinstance(req, Colors) and {c.value: n for c, n in req.counts} == want


def test_villages_effects_and_penalties() -> None:
    assert BOX.village_colors_by_slot == ("yellow", "brown", "blue", "green", "purple")
    for color in BOX.village_colors_by_slot:
        assert [v.points for v in BOX.village_stack(color)] == [2, 3, 4]
    assert Counter(p.points for p in BOX.penalties) == {-1: 4, -2: 3, -3: 2, -4: 1}
    village_of = {c.kind: c.village for c in BOX.citizens}
    assert village_of == {
        "dwarf": "brown", "orc": "green", "elf": "yellow", "snob": "yellow", "gnome": "blue",
        "goblin": "purple", "fairy": "purple", "apprentice": "purple",
        "hypnotist": None, "dragon": None,
    }
    effects = {c.kind: c.effect for c in BOX.citizens if c.effect}
    assert effects == {"elf": "four_rolls", "fairy": "fairy_points", "apprentice": "extra_turn",
                       "hypnotist": "bonus_card", "dragon": "give_away"}
    assert [BOX.card(f"dragon-{t}").points for t in (25, 28, 30)] == [-2, -4, -6]
    assert BOX.card("hypnotist").name == {"en": "The hypnotist", "de": "Der Hypnotiseur"}


def test_unknown_card_names_close_matches() -> None:
    with pytest.raises(UnknownCardError, match="did you mean orc-3"):
        BOX.card("ork-3")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('id = "orc-3"', 'id = "orc-2+2"'),
         r"citizen 10: duplicate card id 'orc-2\+2'"),
        (lambda t: t.replace('kind = "elf"', 'kind = "elve"', 1),
         r"citizen 16 \(elf-4\): unknown kind"),
        (lambda t: t.replace("value = 1, count = 3", "value = 9, count = 3"),
         r"citizen 1 \(dwarf-3x1\): requirement: value must be 1-6"),
        (lambda t: t.replace("[[citizen]]", "[[citizen]", 1), "not valid TOML"),
        (lambda t: t.replace("points = -4\n", "points = 4\n"), "must be negative"),
    ],
)
def test_a_broken_data_file_is_reported_by_card(tmp_path: Path, edit, message) -> None:
    src = ROOT / "rules" / "kotd" / "data" / "king-of-the-dice.toml"
    broken = tmp_path / "box.toml"
    broken.write_text(edit(src.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(CardDataError, match=message):
        load_box(broken)


def test_the_box_describes_its_dice_for_the_camera(tmp_path: Path) -> None:
    """The box's dice are HABA's unless its data file paints them otherwise; the pack hands
    that look to whoever composes the table (the dice reader's default palette)."""
    from rules.dice import HABA_LOOK, Color
    from rules.kotd import KingOfTheDice
    from vision.palette import Palette

    assert BOX.look == HABA_LOOK and KingOfTheDice(BOX).dice.look == HABA_LOOK
    text = (ROOT / "rules/kotd/data/king-of-the-dice.toml").read_text(encoding="utf-8")
    odd = tmp_path / "odd.toml"
    odd.write_text(text.replace("[game]", '[dice]\npips = "#ffffff"\npaint = { red = "#ff0000", '
                                'green = "#00ff00", blue = "#0000ff" }\n\n[game]', 1),
                   encoding="utf-8")
    look = KingOfTheDice(load_box(odd)).dice.look
    assert look is not None and look.pips == "#ffffff" and look.paint[Color.GREEN] == "#00ff00"
    assert Palette.of_look(look) != Palette.default()
    assert Palette.of_look(HABA_LOOK) == Palette.default()
