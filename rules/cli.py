"""Sub-commands about the cards and the rules: ``kotd cards`` and ``kotd check``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from rules.cards import Box, Card, load_box
from rules.dice import Roll, RollSyntaxError
from rules.inputs import bounded_lines


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cards", help="list every card of the box")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--box", metavar="FILE", help="card data file (default: the built-in box)")
    p.set_defaults(handler=cmd_cards)

    p = sub.add_parser("check", help="which cards a roll satisfies")
    p.add_argument("--dice", metavar="ROLL",
                   help='the roll, e.g. "3r 3g 5b 1r 6g 2b"; without it, one roll per line '
                        "is read from standard input")
    p.add_argument("--cards", metavar="IDS",
                   help="comma-separated card ids (the face-up row); default: every citizen")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--box", metavar="FILE", help="card data file (default: the built-in box)")
    p.set_defaults(handler=cmd_check)


def cmd_cards(args: argparse.Namespace) -> int:
    box = load_box(args.box)
    if args.json:
        json.dump([c.to_dict() for c in box], sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    print(f"{'id':<20} {'kind':<11} {'points':>6}  {'village':<7} {'effect':<13} requirement")
    for c in box:
        points = "n²" if c.points is None else str(c.points)
        req = c.requirement.describe() if c.requirement else ""
        print(f"{c.id:<20} {c.kind:<11} {points:>6}  {c.village or '-':<7} "
              f"{c.effect or '-':<13} {req}")
    print(f"{len(box.citizens)} citizens, {len(box.villages)} villages, "
          f"{len(box.penalties)} penalties")
    return 0


def parse_card_ids(box: Box, ids: str, flag: str = "--cards") -> list[Card]:
    """Citizen cards from a comma-separated id list; errors name the flag and position."""
    cards = []
    for position, cid in enumerate((s.strip() for s in ids.split(",")), start=1):
        if not cid:
            raise KeyError(f"{flag}: card {position} is empty")
        try:
            cards.append(box.citizen(cid))
        except KeyError as err:
            raise KeyError(f"{flag}: card {position}: {err.args[0]}") from None
    return cards


def check_roll(roll: Roll, cards: list[Card]) -> dict[str, Any]:
    """The verdict of every card for one roll, as the JSON the CLI and the page share."""
    results = []
    for card in cards:
        verdict = card.check(roll)
        results.append({"id": card.id, **verdict.to_dict()})
    return {
        "dice": str(roll),
        "satisfied": [r["id"] for r in results if r["satisfied"]],
        "cards": results,
    }


def _print_human(roll: Roll, report: dict[str, Any], cards: list[Card], out: TextIO) -> None:
    print(f"roll {roll}  (sum {roll.total})", file=out)
    for card, r in zip(cards, report["cards"], strict=True):
        mark = "YES" if r["satisfied"] else "no "
        witness = " ".join(str(roll[i]) for i in r["witness"])
        miss = "" if r["satisfied"] else f"  ({r['missing']} missing)"
        print(f"  {mark} {card.id:<18} {card.describe():<44} {witness}{miss}", file=out)
    names = ", ".join(report["satisfied"]) or "nothing: take a penalty"
    print(f"satisfied: {names}", file=out)


def _print_line(roll: Roll, report: dict[str, Any], out: TextIO) -> None:
    """One line per roll (rolls read from standard input): each satisfied card with its
    witness dice."""
    found = [f"{r['id']} ({' '.join(str(roll[i]) for i in r['witness'])})"
             for r in report["cards"] if r["satisfied"]]
    print(f"{roll}: {', '.join(found) or 'nothing: take a penalty'}", file=out)


def cmd_check(args: argparse.Namespace) -> int:
    box = load_box(args.box)
    cards = parse_card_ids(box, args.cards) if args.cards else list(box.citizens)
    if args.dice is not None:
        roll = Roll.parse(args.dice, box.dice)
        report = check_roll(roll, cards)
        if args.json:
            print(json.dumps(report))
        else:
            _print_human(roll, report, cards, sys.stdout)
        return 0
    status = 0
    for line_no, line in enumerate(bounded_lines(sys.stdin), start=1):
        if not line.strip():
            continue
        try:
            roll = Roll.parse(line, box.dice)
        except RollSyntaxError as err:
            print(f"kotd: error: line {line_no}: {err}", file=sys.stderr)
            if args.json:
                print(json.dumps({"line": line_no, "error": str(err)}))
            status = 2
            continue
        report = check_roll(roll, cards)
        if args.json:
            print(json.dumps(report))
        else:
            _print_line(roll, report, sys.stdout)
    return status
