"""``kotd advise``: the odds for each face-up card and the keep worth the most points."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from rules.dice import Roll, haba_roll_problem
from rules.errors import UsageError
from rules.kotd.cards import Box, Card, load_box
from rules.kotd.check import parse_card_ids
from rules.kotd.game import MAX_ROLLS_LEFT

if TYPE_CHECKING:  # the advisor (and NumPy) is imported when the command runs
    from rules.kotd.advisor import Advice


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "advise",
        help="exact odds for each face-up card and the best dice to keep",
        description="Exact odds (dynamic programming, not sampling) for each face-up card "
                    "by the end of the turn, playing for that card, and the keep that "
                    "maximises expected points.",
    )
    p.add_argument("--row", metavar="IDS", required=True,
                   help="comma-separated card ids of the face-up row, left to right")
    p.add_argument("--dice", metavar="ROLL", required=True,
                   help='the dice on the table, e.g. "4r 4g 4b 1r 2g 6b"')
    p.add_argument("--rolls-left", metavar="N", type=int, required=True,
                   help=f"rolls still allowed this turn, 0-{MAX_ROLLS_LEFT} "
                        "(2 after the first roll of a normal turn, 3 with an elf)")
    p.add_argument("--penalty", metavar="P", type=float,
                   help="value of the top penalty card (default: the mean of the pile)")
    p.add_argument("--fairies", metavar="N", type=int, default=0,
                   help="fairies already in your kingdom (default 0)")
    p.add_argument("--villages", metavar="TOPS",
                   help="points of the top village card above each slot, e.g. 2,3,2,4,0 "
                        "(0 for an empty stack; default 2 everywhere)")
    p.add_argument("--dragon-gift", action=argparse.BooleanOptionalAction, default=True,
                   help="value a dragon as the points it takes off the leader it is given "
                        "to (default); --no-dragon-gift values it 0")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--box", metavar="FILE", help="card data file (default: the built-in box)")
    p.set_defaults(handler=cmd_advise)


def _usage(message: str) -> UsageError:
    return UsageError("advise", "{message}", message=message)


def _row(box: Box, ids: str) -> list[Card]:
    cards = parse_card_ids(box, ids, "--row")
    if len(cards) > box.row_size:
        raise _usage(f"--row: a row has at most {box.row_size} cards, got {len(cards)}")
    seen: set[str] = set()
    for position, card in enumerate(cards, start=1):
        if card.id in seen:
            raise _usage(f"--row: card {position}: {card.id} is twice in the row "
                             "(the box has one of each)")
        seen.add(card.id)
    return cards


def _villages(text: str | None, size: int, box: Box) -> tuple[int | None, ...] | None:
    if text is None:
        return None
    worths = sorted({v.points or 0 for v in box.villages} | {0})
    tops = []
    for position, token in enumerate(text.split(","), start=1):
        try:
            tops.append(int(token))
        except ValueError:
            raise _usage(f"--villages: slot {position}: {token.strip()!r} is not a "
                             "number") from None
        if tops[-1] not in worths:
            raise _usage(f"--villages: slot {position}: no village card is worth "
                             f"{tops[-1]} (one of {', '.join(map(str, worths))})")
    if len(tops) != size:
        raise _usage(f"--villages: give one number per slot ({size}), got {len(tops)}")
    return tuple(tops)


def _print_human(advice: Advice, row: list[Card], out: TextIO) -> None:
    print(f"dice {advice.dice}, {advice.rolls_left} roll(s) left", file=out)
    print(f"  {'slot':<4} {'card':<18} {'chance':>7} {'worth':>5}  keep", file=out)
    for odds, card in zip(advice.cards, row, strict=True):
        chance = "now" if odds.satisfied_now else f"{odds.probability * 100:.1f}%"
        if advice.rolls_left == 0 and not odds.satisfied_now:
            keep = "-"
        else:
            keep = odds.keep_dice or "nothing (reroll all)"
        print(f"  {odds.slot:<4} {card.id:<18} {chance:>7} {odds.worth:>5g}  {keep}", file=out)
    if advice.expected_points is None:
        print(f"most points: not computed ({'; '.join(advice.notes)})", file=out)
    elif advice.stop:
        print(f"most points: stop now, {advice.stop_points:g} points", file=out)
    else:
        keep = advice.keep_dice or "nothing (reroll all)"
        print(f"most points: keep {keep}, expect {advice.expected_points:.2f} points "
              f"(stopping now: {advice.stop_points:g})", file=out)


def cmd_advise(args: argparse.Namespace) -> int:
    from rules.kotd.advisor import Scoring, advise

    box = load_box(args.box)
    row = _row(box, args.row)
    roll = Roll.parse(args.dice, box.dice)
    if not 0 <= args.rolls_left <= MAX_ROLLS_LEFT:
        raise _usage(f"--rolls-left must be 0-{MAX_ROLLS_LEFT}, not {args.rolls_left}")
    if args.fairies < 0:
        raise _usage(f"--fairies must be 0 or more, not {args.fairies}")
    if args.penalty is not None and not -100 <= args.penalty <= 0:  # also refuses NaN
        raise _usage(f"--penalty is negative (e.g. -2), not {args.penalty:g}")
    scoring = Scoring(
        village_tops=_villages(args.villages, len(row), box),
        fairies=args.fairies,
        penalty=args.penalty,
        dragon_gift=args.dragon_gift,
    )
    advice = advise(row, roll, args.rolls_left, box=box, scoring=scoring)
    problem = haba_roll_problem(roll)  # a misread: the odds are for the dice as written
    if args.json:
        print(json.dumps({**advice.to_dict(), "warning": problem}))
    else:
        _print_human(advice, row, sys.stdout)
    if problem:
        print(f"kotd: warning: {problem}: check the dice", file=sys.stderr)
    return 0
