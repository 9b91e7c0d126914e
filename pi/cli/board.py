"""``--game board`` of ``kotd check``, ``kotd score`` and ``kotd cards``: King of the Dice:
The Board Game (:mod:`rules.board`).

``kotd check --game board`` reads one request a line on standard input::

    {"dice": "4r 4g 4b 1r 2g 6b", "condition": {"pips": ["6"]}, "jokers": ["6r", "6r"],
     "super": 1}

and answers each on one line: ``{"satisfied": ..., "jokers": null | {"adds": [...],
"discards": [...]}}`` (the fewest dice the cards can add when the roll alone does not
meet the condition; ``null`` when it does or when no discards can). A request with
``"row"`` (card ids of the deck file, or conditions) instead of ``"condition"`` gets the
whole labour market's check (:func:`rules.board.check.check_row`). ``--dice`` checks one
roll against ``--cards`` (default: every card known) with ``--jokers`` and ``--super``.
A bad line gets ``{"line": n, "error": ...}`` and the exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from rules.board.check import Hand, check_row
from rules.board.conditions import Condition, die, from_json
from rules.board.deck import Deck, load_deck
from rules.board.jokers import fewest
from rules.board.score import score_json, verdict
from rules.dice import Die, Roll
from rules.errors import KotdError, UsageError
from rules.inputs import bounded_lines, read_text

DICE = 6
REQUEST_KEYS = {"dice", "condition", "row", "jokers", "super", "lang"}


def roll_of(text: Any) -> tuple[Die, ...]:
    """The six coloured dice of a roll (``"4r 4g 4b 1r 2g 6b"``)."""
    if not isinstance(text, str):
        raise UsageError('dice must be a string like "4r 4g 4b 1r 2g 6b"')
    roll = Roll.parse(text, DICE)
    for position, d in enumerate(roll, start=1):
        if d.color is None:
            raise UsageError(f"die {position} '{d}' needs its colour (r, g or b)")
    return roll.dice


def hand_of(jokers: Any, supers: Any) -> Hand:
    """The player's cards as jokers: concrete jokers' dice and how many super jokers."""
    if isinstance(jokers, str):
        jokers = jokers.split()
    if not isinstance(jokers, Sequence):
        raise UsageError('jokers is a list of dice, e.g. ["6r", "6r"]')
    if not isinstance(supers, int) or isinstance(supers, bool) or not 0 <= supers <= 60:
        raise UsageError(f"super is how many super jokers (0-60), not {supers!r}")
    dice = [die(j) for j in jokers]
    if len(dice) + supers > 60:
        raise UsageError("more cards than the box has (60)")
    return Hand(tuple((f"{d} joker", d) for d in dice), supers)


def answer_condition(condition: Condition, dice: tuple[Die, ...], hand: Hand) -> dict[str, Any]:
    """The request's answer: met, and the fewest jokers when not."""
    stars = condition.stars(dice)
    out: dict[str, Any] = {"satisfied": stars > 0}
    if condition.tiers > 1:
        out["stars"] = stars
    found = None if stars else fewest(condition, dice, hand.dice, hand.supers)
    out["jokers"] = found.to_json() if found is not None else None
    return out


def _row(deck: Deck, row: Any) -> dict[str, Condition]:
    if isinstance(row, str) or not isinstance(row, Sequence) or not 1 <= len(row) <= 5:
        raise UsageError("row lists 1-5 face-up cards (ids or conditions)")
    cards = {}
    for i, entry in enumerate(row, start=1):
        if isinstance(entry, str) and entry in deck:
            cards[entry] = deck.card(entry).condition
        else:
            cards[f"{i}"] = from_json(entry)
    return cards


def answer(deck: Deck, request: Any) -> dict[str, Any]:
    """One request line answered (KotdError for a bad one)."""
    if not isinstance(request, Mapping):
        raise UsageError("a request is a JSON object with dice and a condition")
    extra = set(request) - REQUEST_KEYS
    if extra:
        raise UsageError(f"unknown key(s) {', '.join(sorted(extra))}")
    if ("condition" in request) == ("row" in request):
        raise UsageError("a request has a condition or a row (not both)")
    dice = roll_of(request.get("dice"))
    hand = hand_of(request.get("jokers", []), request.get("super", 0))
    if "row" in request:
        return check_row(_row(deck, request["row"]), dice, hand, str(request.get("lang", "en")))
    return answer_condition(from_json(request["condition"]), dice, hand)


def check_board(args: argparse.Namespace) -> int:
    deck = load_deck(args.box)
    if args.dice is not None:
        return _check_one(args, deck)
    status = 0
    for line_no, line in enumerate(bounded_lines(sys.stdin), start=1):
        if not line.strip():
            continue
        try:
            out = answer(deck, json.loads(line))
        except json.JSONDecodeError as err:
            out, status = {"line": line_no, "error": f"not JSON: {err.msg}"}, 2
        except KotdError as err:
            out, status = {"line": line_no, "error": str(err), "code": err.code}, 2
        if "error" in out:
            print(f"kotd: error: line {line_no}: {out['error']}", file=sys.stderr)
        if args.json:
            print(json.dumps(out, ensure_ascii=False), flush=True)
        elif "error" not in out:
            print(_said(out), flush=True)
    return status


def _said(out: Mapping[str, Any]) -> str:
    if "cards" in out:
        met = ", ".join(out["met"]) or "nothing: take a card face down"
        return f"{out['dice']}: {met}"
    if out["satisfied"]:
        return "met" + (f" ({out['stars']} stars)" if "stars" in out else "")
    j = out["jokers"]
    if j is None:
        return "not met; no jokers can make it"
    return f"not met; add {' '.join(j['adds'])} by discarding {' '.join(j['discards'])}"


def _check_one(args: argparse.Namespace, deck: Deck) -> int:
    dice = roll_of(args.dice)
    hand = hand_of(args.jokers or "", args.super)
    ids = args.cards.split(",") if args.cards else [c.id for c in deck]
    cards = {cid.strip(): deck.card(cid.strip()).condition for cid in ids}
    report = check_row(cards, dice, hand)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"roll {report['dice']}  (sum {sum(d.value for d in dice)})")
    for r in report["cards"]:
        card = deck.card(r["id"])
        stars = f" {'★' * r['stars']}" if "stars" in r else ""
        mark = "YES" if r["satisfied"] else "no "
        witness = " ".join(str(dice[i]) for i in r["witness"])
        print(f"  {mark} {r['id']:<22} {card.condition.describe():<40} {witness}{stars}")
        if r["jokers"]:
            print(f"      jokers: {r['jokers']['words']}")
        for more in r.get("more_stars", ()):
            print(f"      {'★' * more['stars']}: {more['words']}")
    print("must take one of: " + ", ".join(report["met"]) if report["must_take"]
          else "nothing met: take any card face down and alarm the dragon")
    return 0


def score_board(args: argparse.Namespace) -> int:
    """``kotd score --game board``: the scoring sheet (JSON) from standard input or a file."""
    source = args.sheet or "-"
    text = sys.stdin.read(1 << 20) if source == "-" else read_text(source, what="the sheet")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"the sheet is not JSON: {err.msg} (line {err.lineno})") from None
    result = score_json(data)
    if args.json:
        print(json.dumps({**result.to_json(), "said": verdict(result)}, ensure_ascii=False))
        return 0
    for s in sorted(result.scores, key=lambda s: s.place):
        print(f"{s.place}. {s.sheet.name:<12} {s.total:>3}  (castles {s.castles}, outside "
              f"{s.outside}, dragon fires {s.dragon_bonus}, gold {s.gold}, white {s.white})")
    print(verdict(result))
    return 0


def cards_board(args: argparse.Namespace) -> int:
    """``kotd cards --game board``: the decks and every card known."""
    deck = load_deck(args.box)
    if args.json:
        out = [{**c.to_data(), "deck_name": deck.deck_name(c.deck),
                "effect": deck.effect(c), "condition_json": c.condition.to_json(),
                "text": {lang: c.condition.describe(lang) for lang in ("en", "de")}}
               for c in deck]
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    print(f"{'id':<22} {'deck':<24} {'joker':<6} condition")
    for c in deck:
        print(f"{c.id:<22} {f'{c.deck} {deck.deck_name(c.deck)}':<24} {c.joker!s:<6} "
              f"{c.condition.words()}")
    print(f"{len(deck)} cards known of 60 (5 decks of 12); the rest are entered at the table")
    return 0



def print_board(view: Mapping[str, Any]) -> None:
    """The board game's table in a few lines (``kotd play --game board``)."""
    t = view["turn"]
    print(f"{view['phase']}: {view['ask']}")
    for m in view["market"]:
        card = m["card"]
        shown = "(used up)" if m["used_up"] else (
            f"{card['id']}  {card['text']}  [joker {card['joker']}]" if card else "(not entered)")
        print(f"  deck {m['deck']} {m['name']:<28} {shown}")
    if t["dice"]:
        added = f" + {' '.join(t['added'])}" if t["added"] else ""
        print(f"  dice: {' '.join(t['dice'])}{added} (throw {t['throws']} of {t['max_throws']})")
    for item in t["checklist"]:
        print(f"  [{'x' if item['done'] else ' '}] {item['text']}")
    print(f"  castle tiles left: {view['tiles']}; last: {view['last']}")
    for p in view["players"]:
        cards = ", ".join(c["id"] for c in p["cards"]) or "-"
        print(f"  {'>' if p['current'] else ' '} {p['name']:<10} cards {cards}; super "
              f"{p['supers']}; gems {p['white']} white {p['gold']} gold; dragon fires "
              f"{p['fires']}; markers {p['markers']}")
    if view["won_markers"]:
        print(view["won_markers"])
    if view["result"]:
        for s in sorted(view["result"]["players"], key=lambda s: s["place"]):
            print(f"  {s['place']}. {s['name']:<10} {s['total']:>3}")
        print(view["result"]["said"])
