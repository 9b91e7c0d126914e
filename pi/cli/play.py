"""``kotd play``: play a game script through the table, one action a line; print the table."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterator
from typing import Any

from rules.errors import KotdError, UsageError
from rules.games import GAMES, game_pack
from rules.inputs import bounded_lines, read_text
from rules.store import EventStore
from rules.table import Table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play", help="play a game from a script of actions",
        description="Replay a game script (one action a line, '#' comments). Without "
                    "--data-dir the game lives in memory; with it, the newest game there is "
                    "resumed and every action is stored as it is played. A stored game that "
                    "can no longer be replayed is reported (exit status 2), not changed.",
    )
    p.add_argument("--script", metavar="FILE", required=True, help="the script ('-' = stdin)")
    p.add_argument("--data-dir", metavar="DIR", help="store the game in DIR/kotd.sqlite3")
    p.add_argument("--game", choices=GAMES, default="kotd", help="the game (default kotd)")
    p.add_argument("--json", action="store_true", help="print the final table as JSON")
    p.set_defaults(handler=cmd_play)


def _lines(script: str) -> Iterator[str]:
    if script == "-":
        yield from bounded_lines(sys.stdin)
        return
    try:
        text = read_text(script, what="the script")
    except OSError as err:
        raise UsageError("script", "{script}: cannot read the script: {why}", script=script,
                         why=err.strerror or str(err)) from None
    yield from bounded_lines(io.StringIO(text), what=script)


def cmd_play(args: argparse.Namespace) -> int:
    store = EventStore.in_dir(args.data_dir) if args.data_dir else EventStore(None)
    table = Table(store, game_pack(args.game))
    status = 0
    if table.problem:
        print(f"kotd: game {table.game_id}: {table.problem}", file=sys.stderr)
        status = 2
    for line_no, raw in enumerate(_lines(args.script), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            table.act(table.parse(line))
        except KotdError as err:
            print(f"kotd: line {line_no}: '{line}' refused: {err}", file=sys.stderr)
            status = 2
        else:
            if args.script == "-":
                print(f"ok {line_no}", flush=True)
    if table.record is None:
        if not table.problem and status == 0:  # a refused 'players' line said why already
            print("kotd: no game: the script has no 'players' line", file=sys.stderr)
        return 2
    view = table.pack.view(table.record, "en")
    if args.json:
        print(json.dumps(view, ensure_ascii=False))
    else:
        print_table(view)
    return status


def print_table(view: dict[str, Any]) -> None:
    if view.get("game") == "ukuk":
        print_court(view)
        return
    if view.get("game") == "board":
        from pi.cli.board import print_board

        print_board(view)
        return
    print(f"turn {view['turn']}: {view['current_player']} ({view['phase']}), "
          f"roll {view['rolls_used']}/{view['max_rolls']}")
    for slot in view["row"]:
        card = slot["card"]
        label = "(empty)" if card is None else f"{card['id']}  {card['label']}"
        mark = " *" if card and card.get("satisfied") else ""
        print(f"  slot {slot['slot']} [{slot['village']['color']:<6}] {label}{mark}")
    if view["dice"]:
        print(f"  dice: {view['dice']['text']} (sum {view['dice']['sum']})")
    if view["question"]:
        print(f"  waiting for: {view['question']['ask']}")
    print(f"  last: {view['last']}")
    print("over: " + view["ended_by"] if view["over"] else "scores:")
    for s in view["scores"]:
        tie = f"  ({s['tie_break']})" if s["tie_break"] else ""
        print(f"  {s['place']}. {s['player']:<12} {s['total']:>4}  (citizens {s['citizens']}, "
              f"villages {s['villages']}, fairies {s['fairy_points']}, penalties "
              f"{s['penalties']}, dragons {s['dragons']}){tie}")


def print_court(view: dict[str, Any]) -> None:
    """An Um Krone und Kragen table in a few lines: turn, dice, what they buy, the reach,
    every player's court, the final round's bids and places."""
    d = view["dice"]
    if view["over"]:
        print(f"over after round {view['round']}")
    else:
        print(f"round {view['round']}{' (final round)' if view['final'] else ''}, turn "
              f"{view['turn']}: {view['current_player']}")
        dice = (f"{d['hand']} dice in hand" if d["hand"] else
                f"active {' '.join(map(str, d['active'])) or '-'}, set aside "
                f"{' '.join(map(str, d['aside'])) or '-'}")
        print(f"  dice: {dice} (throws {d['throws']})")
        if view["can_buy"]:
            print(f"  buys now: {', '.join(view['can_buy'])}")
        if view["unused"]:
            print(f"  unused: {', '.join(u['name'] for u in view['unused'])}")
        for r in view["reach"]:
            if r["uses"]:
                print(f"  reach: {r['text']}")
    print(f"  last: {view['last']}")
    for p in view["players"]:
        marks = (" [King]" if p["king"] else "") + (" [Queen]" if p["queen"] else "")
        cards = ", ".join(c["id"] for c in p["cards"]) or "-"
        print(f"  {p['name']:<12}{marks} {cards}")
    for b in view["bids"]:
        print(f"  bid: {b['player']} {b['count']} × {b['number']}"
              f"{' (the King bought)' if b['first'] else ''}")
    for p in view["places"]:
        print(f"  {p['place']}. {p['player']}{'  holds the King' if p['king'] else ''}")
