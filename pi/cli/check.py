"""``kotd check``: which cards a roll satisfies, with the dice that do it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from rules.dice import Roll
from rules.errors import RollSyntaxError
from rules.games import GAMES
from rules.inputs import bounded_lines
from rules.kotd.cards import Card, load_box
from rules.kotd.check import check_roll, parse_card_ids

T = TypeVar("T")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help="which cards a roll satisfies")
    p.add_argument("--dice", metavar="ROLL",
                   help='the roll, e.g. "3r 3g 5b 1r 6g 2b"; without it, one roll per line '
                        "is read from standard input")
    p.add_argument("--cards", metavar="IDS",
                   help="comma-separated card ids (the face-up row); default: every citizen")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--box", metavar="FILE", help="card data file (default: the built-in box)")
    p.add_argument("--game", choices=GAMES, default="kotd",
                   help="the game (default kotd; ukuk: ordinary dice, any number; board: "
                        "one JSON request a line, see pi/cli/board.py)")
    p.add_argument("--jokers", metavar="DICE", help='--game board: the concrete jokers you '
                   'own, e.g. "6r 6r 3b"')
    p.add_argument("--super", metavar="N", type=int, default=0,
                   help="--game board: how many super jokers (cards face down) you own")
    p.set_defaults(handler=cmd_check)


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
    if args.game == "ukuk":
        return check_court(args)
    if args.game == "board":
        from pi.cli.board import check_board

        return check_board(args)
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

    def answer(roll: Roll) -> None:
        report = check_roll(roll, cards)
        if args.json:
            print(json.dumps(report))
        else:
            _print_line(roll, report, sys.stdout)

    return _check_lines(lambda line: Roll.parse(line, box.dice), answer, args.json)


def _check_lines(parse: Callable[[str], T], answer: Callable[[T], None], as_json: bool) -> int:
    """One roll per line of standard input, each parsed by ``parse`` and answered by
    ``answer``; blank lines are passed over. A line that is no roll is refused on standard
    error (and as ``{"line": n, "error": ...}`` with ``--json``) and the next line is read;
    the exit status is 2 when any line was refused."""
    status = 0
    for line_no, line in enumerate(bounded_lines(sys.stdin), start=1):
        if not line.strip():
            continue
        try:
            parsed = parse(line)
        except RollSyntaxError as err:
            print(f"kotd: error: line {line_no}: {err}", file=sys.stderr)
            if as_json:
                print(json.dumps({"line": line_no, "error": str(err)}))
            status = 2
            continue
        answer(parsed)
    return status


def check_court(args: argparse.Namespace) -> int:
    """``--game ukuk``: which court cards' dice costs each result meets."""
    from rules.ukuk import check
    from rules.ukuk.court import load_court

    court = load_court(args.box)
    cards = check.parse_card_ids(court, args.cards) if args.cards else list(court)
    if args.dice is not None:
        report = check.check_result(court, check.parse_result(court, args.dice), cards)
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
            return 0
        print(f"dice {report['dice']}  (sum {report['sum']})")
        for r in report["cards"]:
            print(f"  {'YES' if r['satisfied'] else 'no '} {r['id']:<12} {r['cost']}")
        print(f"satisfied: {', '.join(report['satisfied']) or 'nothing'}")
        return 0

    def answer(values: tuple[int, ...]) -> None:
        report = check.check_result(court, values, cards)
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            print(f"{report['dice']}: {', '.join(report['satisfied']) or 'nothing'}")

    return _check_lines(lambda line: check.parse_result(court, line), answer, args.json)
