"""Um Krone und Kragen: the court data and the costs, against an independent oracle.

The oracle below is written from the rulebook's words, card by card, without the cost
classes; it must agree with them on every multiset of 1-12 dice.
"""

from __future__ import annotations

from collections import Counter

import pytest
from ukukkit import ORACLE, every_result

from rules.ukuk.costs import Capacity, CostError, Groups, Straight, cost_from_dict, counts_of
from rules.ukuk.court import CourtDataError, load_court, parse_court

COURT_IDS = [
    "hofnarr", "scharlatan", "bauer", "dienstmagd", "philosoph", "handwerker", "wachmann",
    "jaeger", "haendler", "astronom", "hofdame", "pfandleiher", "ritter", "zauberer",
    "alchemist", "bischof", "edelmann", "feldherr", "koenigin", "koenig",
]


def test_court_has_the_twenty_cards_in_rows_0_to_v():
    court = load_court()
    assert [c.id for c in court] == COURT_IDS
    rows = {c.id: c.row for c in court}
    assert rows["hofnarr"] == rows["scharlatan"] == "0"
    assert {rows[c] for c in ("bauer", "dienstmagd", "philosoph", "handwerker",
                              "wachmann")} == {"I"}
    assert {rows[c] for c in ("jaeger", "haendler", "astronom")} == {"II"}
    assert {rows[c] for c in ("hofdame", "pfandleiher", "ritter", "zauberer")} == {"III"}
    assert {rows[c] for c in ("alchemist", "bischof", "edelmann", "feldherr")} == {"IV"}
    assert rows["koenigin"] == rows["koenig"] == "V"


@pytest.mark.parametrize("players, expected", [
    (2, {"0": 2, "I": 2, "II": 1, "III": 1, "IV": 1, "V": 1}),
    (3, {"0": 3, "I": 2, "II": 2, "III": 2, "IV": 2, "V": 1}),
    (4, {"0": 4, "I": 3, "II": 3, "III": 2, "IV": 2, "V": 1}),
    (5, {"0": 5, "I": 4, "II": 3, "III": 3, "IV": 3, "V": 1}),
])
def test_copies_follow_the_seed_table(players, expected):
    court = load_court()
    for card in court:
        assert court.copies(card.id, players) == expected[card.row], card.id


def test_every_cost_agrees_with_the_oracle_on_every_multiset_of_1_to_12_dice():
    court = load_court()
    cards = [(c.id, c.cost, ORACLE[c.id]) for c in court]
    checked = 0
    for dice in every_result(12):
        c = Counter(dice)
        counts = counts_of(dice)
        for cid, cost, oracle in cards:
            assert cost.met(counts) == oracle(dice, c), (cid, dice)
        checked += 1
    assert checked == 18563  # C(18, 6) - 1 multisets of 1-12 dice


def test_the_examples_of_the_rulebook():
    court = load_court()

    def pays(cid: str, dice: str) -> bool:
        return court.card(cid).cost.met_by(int(v) for v in dice.split())

    assert pays("astronom", "4 4 4 4 1")  # four of a kind pays two pairs
    assert pays("hofdame", "2 2 2 2 2")  # five of a kind pays 3 + 2
    assert pays("bischof", "5 5 5 5 3 3") and pays("bischof", "6 6 6 6 6 6")
    assert pays("edelmann", "1 1 1 1 1 1") and not pays("edelmann", "1 1 1 2 2 3")
    assert pays("ritter", "3 3 3 3 3")  # the tactics example's end
    assert pays("zauberer", "2 3 4 5 6") and not pays("zauberer", "1 2 3 4 6 6")
    assert not pays("koenigin", "6 6 6 6 6 6 6 6")


def test_labels_in_both_languages():
    court = load_court()
    assert court.cost_label(court.card("hofdame"), "de") == "3 + 2 gleiche"
    assert court.cost_label(court.card("bischof")) == "3 × 2 of a kind"
    assert court.cost_label(court.card("koenigin")) == "comes with the King"
    assert court.cost_label(court.card("scharlatan"), "de") == "jedes Ergebnis + Hofnarr"
    assert court.card("jaeger").label("de") == "Jäger"
    assert court.card("jaeger").label("en") == "Hunter"


@pytest.mark.parametrize("data, message", [
    ({"kind": "groups", "sizes": []}, "one to three"),
    ({"kind": "groups", "sizes": [2, "x"]}, "whole number"),
    ({"kind": "sum", "at_least": 0}, "1-200"),
    ({"kind": "straight", "length": 7}, "2-6"),
    ({"kind": "parity", "parity": "red"}, "odd"),
    ({"kind": "lucky"}, "unknown cost kind"),
])
def test_broken_costs_are_named(data, message):
    with pytest.raises(CostError, match=message):
        cost_from_dict(data)


def test_broken_court_files_name_the_card(tmp_path):
    with pytest.raises(CourtDataError, match=r"card 1 .*unknown ability kind"):
        parse_court({
            "game": {"name": {"de": "x", "en": "x"}, "king": "a", "queen": "a"},
            "copies": {"0": [1, 1, 1, 1]},
            "card": [{"id": "a", "row": "0", "name": {"de": "A", "en": "A"},
                      "cost": {"kind": "sum", "at_least": 1}, "ability": {"kind": "x"}}],
        })
    with pytest.raises(CourtDataError, match="copies: row I needs 4 counts"):
        parse_court({"copies": {"I": [1, 2]}})
    bad = tmp_path / "court.toml"
    bad.write_text("[game\n")
    with pytest.raises(CourtDataError, match="not valid TOML"):
        load_court(bad)
    with pytest.raises(CourtDataError, match="cannot read"):
        load_court(tmp_path / "missing.toml")
    big = tmp_path / "big.toml"
    big.write_text("#" * (2 << 20) + "\n", encoding="utf-8")
    with pytest.raises(CourtDataError, match=r"big\.toml.*larger than 1 MiB"):
        load_court(big)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"# K\xf6nig\n")
    with pytest.raises(CourtDataError, match=r"latin\.toml: not UTF-8"):
        load_court(latin)


def test_optimistic_bound_never_refuses_what_is_met():
    """A cost met by dice is possible for a capacity that holds exactly those dice."""
    for dice in every_result(7):
        counts = [0] * 7
        for v in dice:
            counts[v] += 1
        cap = Capacity(tuple(counts), (0,) * 7, 0, len(dice), sum(dice),
                       (0 if all(v % 2 == 0 for v in dice) else None,
                        0 if all(v % 2 == 1 for v in dice) else None))
        for cost in load_court().cards:
            if cost.cost.met(tuple(counts)):
                assert cost.cost.possible(cap), (cost.id, dice)


def test_groups_and_straights_describe_themselves():
    assert Groups((2, 3)).sizes == (3, 2)
    assert Groups((7,)).describe("de") == "7 gleiche"
    assert Straight(6).describe() == "straight 1–6"
