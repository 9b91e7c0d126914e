"""``kotd cards``: every card of the box, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from rules.kotd.cards import load_box


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("cards", help="list every card of the box")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--box", metavar="FILE", help="card data file (default: the built-in box)")
    p.set_defaults(handler=cmd_cards)


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
