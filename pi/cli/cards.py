"""``kotd cards``: every card of the box (or, ``--game ukuk``, of the court), as a table
or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from rules.games import GAMES
from rules.kotd.cards import load_box


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("cards", help="list every card of the box")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--box", metavar="FILE", help="card data file (default: the built-in box)")
    p.add_argument("--game", choices=GAMES, default="kotd", help="the game (default kotd)")
    p.set_defaults(handler=cmd_cards)


def cmd_cards(args: argparse.Namespace) -> int:
    if args.game == "ukuk":
        return court_cards(args)
    if args.game == "board":
        from pi.cli.board import cards_board

        return cards_board(args)
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


def court_cards(args: argparse.Namespace) -> int:
    """Um Krone und Kragen's court: id, row, copies for 2-5 players, cost, ability."""
    from rules.ukuk.court import load_court

    court = load_court(args.box)
    if args.json:
        out = [{**c.to_dict(), "copies": {str(n): court.copies(c.id, n) for n in
                                           range(court.min_players, court.max_players + 1)},
                "cost_text": court.cost_label(c), "ability_text": c.ability.describe()}
               for c in court]
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    players = range(court.min_players, court.max_players + 1)
    print(f"{'id':<12} {'name':<28} {'row':<4} {'copies 2-5':<11} {'cost':<28} ability")
    for c in court:
        copies = "/".join(str(court.copies(c.id, n)) for n in players)
        name = f"{c.label('de')} ({c.label('en')})"
        print(f"{c.id:<12} {name:<28} {c.row:<4} {copies:<11} {court.cost_label(c):<28} "
              f"{c.ability.describe()}")
    print(f"{len(court)} court cards in rows {', '.join(dict.fromkeys(c.row for c in court))}")
    return 0
