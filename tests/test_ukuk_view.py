"""Um Krone und Kragen: the table as data — what the dice buy, unused cards, the reach."""

from __future__ import annotations

import json

from ukukkit import GAME, lines

from rules.record import GameRecord, replay
from rules.ukuk import UmKroneUndKragen
from rules.ukuk.actions import parse_action
from rules.ukuk.game import apply
from rules.ukuk.view import table_view

PACK = UmKroneUndKragen.default()


def at(text_lines: list[str], before: str) -> GameRecord:
    return replay(PACK, text_lines[:text_lines.index(before)])


def test_the_king_turn_shows_buys_unused_cards_and_the_reach():
    record = at(lines(GAME), "use wachmann")  # Ann has set aside five 2s
    view = table_view(record.state, [str(a) for a in record.actions])
    json.dumps(view)  # JSON-able
    assert view["current_player"] == "Ann" and view["dice"]["aside"] == [2, 2, 2, 2, 2]
    assert set(view["can_buy"]) == {"hofnarr", "philosoph", "jaeger", "astronom", "hofdame",
                                    "ritter"}
    assert [u["id"] for u in view["unused"]] == ["handwerker", "wachmann", "dienstmagd"]
    assert view["unused"][0]["name"] == "Handwerker (Craftsman)"
    reach = {r["card"]: r for r in view["reach"]}
    assert reach["ritter"]["uses"] == 0
    assert reach["feldherr"]["text"] == "Wachmann → 2 ⇒ Feldherr"
    assert reach["feldherr"]["said"] == ("Use your Wachmann (it brings in a 2), then set "
                                         "every die aside: that buys the Feldherr.")
    king = reach["koenig"]
    assert king["uses"] == 3 and king["text"].endswith("⇒ König")
    s = record.state
    for step in king["steps"]:
        s = apply(s, parse_action(step["action"]))
    s = apply(s, parse_action("aside " + " ".join(map(str, s.dice.active))))
    s = apply(s, parse_action("buy koenig"))
    assert "koenigin" in s.owned[0]
    assert view["reach"] == sorted(view["reach"], key=lambda r: (r["uses"], r["card"]))


def test_german_page_names_cards_in_german_only():
    record = at(lines(GAME), "use wachmann")
    view = table_view(record.state, lang="de")
    assert view["unused"][0]["name"] == "Handwerker"
    assert any(r["text"].startswith("Handwerker → 1") or "Dienstmagd" in r["text"]
               for r in view["reach"])


def test_the_final_round_reach_plans_the_bid_that_takes_the_king():
    text = [*lines(GAME), "roll 3 3 3 3 3", "aside 3 3 3 3 3"]
    s = replay(PACK, text).state
    assert s.current_player == "Ann" and s.final
    view = table_view(s)
    assert view["holder"] == "Ben"
    assert [(b["player"], b["count"], b["number"], b["first"]) for b in view["bids"]] == [
        ("Ann", 7, 2, True), ("Ben", 7, 3, False)]
    (bid,) = view["reach"]
    assert bid["card"] == "bid" and bid["name"] == "equals 7 × 3" and bid["uses"] == 3
    for step in bid["steps"]:
        s = apply(s, parse_action(step["action"]))
    s = apply(s, parse_action("aside " + " ".join(map(str, s.dice.active))))
    s = apply(s, parse_action("bid"))
    assert s.over and "Ann wins" in s.last
    over = table_view(s)
    assert [(p["place"], p["player"], p["king"]) for p in over["places"]] == [
        (1, "Ann", True), (2, "Ben", False)]
    assert over["reach"] == [] and over["current_player"] is None


def test_no_reach_before_the_first_throw():
    s = replay(PACK, ["players Ann Ben"]).state
    view = table_view(s)
    assert view["reach"] == [] and view["can_buy"] == [] and view["dice"]["hand"] == 3
    assert [r["row"] for r in view["court"]] == ["0", "I", "II", "III", "IV", "V"]
    assert view["court"][0]["cards"][0]["left"] == 2
