"""The Um Krone und Kragen table as data: one JSON-able picture for the page, panel and CLI.

Nothing here decides a rule; it reads the state and asks the rules (costs, the reach
solver, the final round's standing). Card names are German, the game's own words; the
English name comes beside them (``Edelmann (Nobleman)``) unless the page is in German.
"""

from __future__ import annotations

from typing import Any

from rules.ukuk.abilities import Add, CopyAside, Raise, Reroll, Share, Turn
from rules.ukuk.costs import Beats, Cost
from rules.ukuk.court import Court, CourtCard
from rules.ukuk.game import GameState
from rules.ukuk.reach import Plan, Step, reach


def card_name(card: CourtCard, lang: str = "en") -> str:
    """``Edelmann (Nobleman)``; German pages just ``Edelmann``."""
    de = card.label("de")
    if lang == "de":
        return de
    en = card.label("en")
    return de if en == de else f"{de} ({en})"


def _dice(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(v) for v in values)


def step_text(court: Court, step: Step, lang: str = "en") -> str:
    """One step in words: ``Edelmann: 1 1 → 3 3``, ``Handwerker → 1``, ``set aside 3``."""
    if step.card is None:
        return ("lege beiseite " if lang == "de" else "set aside ") + _dice(step.before)
    name = court.card(step.card).label("de")
    if not step.before:
        return f"{name} → {_dice(step.after)}"
    return f"{name}: {_dice(step.before)} → {_dice(step.after)}"


def plan_text(court: Court, plan: Plan, goal: str, lang: str = "en") -> str:
    """The whole plan: ``Handwerker → 1; Edelmann: 1 1 → 3 3; … ⇒ Ritter``."""
    steps = "; ".join(step_text(court, s, lang) for s in plan.steps)
    return f"{steps} ⇒ {goal}" if steps else f"⇒ {goal}"


PLAN_WORDS = {
    "en": {"use": "use your {card} ({what})", "brings": "it brings in a {value}",
           "aside": "set {dice} aside", "then": ", then ",
           "buy": "set every die aside: that buys the {goal}",
           "bid": "set every die aside: that makes the bid {goal}"},
    "de": {"use": "setze die Karte {card} ein ({what})", "brings": "sie bringt eine {value}",
           "aside": "lege {dice} heraus", "then": ", dann ",
           "buy": "lege alle Würfel heraus: das kauft die Karte {goal}",
           "bid": "lege alle Würfel heraus: das ergibt das Gebot {goal}"},
}


def plan_said(court: Court, plan: Plan, goal: str, lang: str = "en",
              bid: bool = False) -> str:
    """The plan as a person says it: "Use your Handwerker (it brings in a 1), then set
    every die aside: that buys the Wachmann." (every step, the set-aside to buy last)."""
    w = PLAN_WORDS.get(lang, PLAN_WORDS["en"])
    clauses = []
    for step in plan.steps:
        if step.card is None:
            clauses.append(w["aside"].format(dice=_dice(step.before)))
            continue
        what = (w["brings"].format(value=_dice(step.after)) if not step.before
                else f"{_dice(step.before)} → {_dice(step.after)}")
        clauses.append(w["use"].format(card=court.card(step.card).label("de"), what=what))
    clauses.append(w["bid" if bid else "buy"].format(goal=goal))
    text = w["then"].join(clauses)
    return text[:1].upper() + text[1:] + "."


def _card(state: GameState, card: CourtCard, lang: str) -> dict[str, Any]:
    return {
        "id": card.id, "row": card.row, "name": card_name(card, lang),
        "names": dict(card.name), "cost": state.court.cost_label(card, lang),
        "ability": card.ability.describe(lang), "left": state.copies_left(card.id),
        "copies": state.court.copies(card.id, len(state.players)),
    }


def reach_goals(state: GameState) -> dict[str, Cost]:
    """What the reach plans for now: the cards the player may buy, or, in the final
    round, a bid that takes the King (the owner only needs to equal)."""
    if state.over or state.dice.throws == 0 or state.dice.hand:
        return {}
    if not state.final:
        return {c.id: c.cost for c in state.buyable()}
    best = None
    owner = state.king_owner
    others = [t for t in state.throws if t.player != state.current]
    if others:
        best = max(others, key=lambda t: (t.count, t.number, t.player == owner, -t.order))
    if best is None:
        return {}
    return {"bid": Beats(best.count, best.number, ties=state.current == owner)}


def reach_view(state: GameState, lang: str = "en") -> list[dict[str, Any]]:
    """The reach of the current dice, shortest plans first."""
    goals = reach_goals(state)
    if not goals:
        return []
    unused = {c.id: c.ability for c in state.unused()}
    plans = reach(state.dice.active, state.dice.aside, unused, goals)
    out = []
    for cid, plan in sorted(plans.items(), key=lambda kv: (kv[1].uses, kv[0])):
        if cid == "bid":
            goal = goals["bid"].describe(lang)
            name = goal
        else:
            card = state.court.card(cid)
            name, goal = card_name(card, lang), card.label("de")
        out.append({
            "card": cid, "name": name, "uses": plan.uses,
            "steps": [{"card": s.card, "before": list(s.before), "after": list(s.after),
                       "text": step_text(state.court, s, lang), "action": s.action}
                      for s in plan.steps],
            "text": plan_text(state.court, plan, goal, lang),
            "said": plan_said(state.court, plan, goal, lang, bid=cid == "bid"),
        })
    return out


def standing(state: GameState) -> list[dict[str, Any]]:
    """Places after the final round (or the standing of the bids so far)."""
    out = []
    for p in state.places():
        out.append({
            "place": p.place, "player": state.players[p.player], "king": p.king,
            "bid": None if p.bid is None else {"count": p.bid.count, "number": p.bid.number,
                                               "first": p.bid.order == 0},
            "cards": len(state.owned[p.player]),
        })
    return out


def scores(state: GameState) -> list[dict[str, Any]]:
    """Each player's standing for the scoreboard and the stats: once the game is over the
    places (the King's holder first); before, by number of court cards. ``total`` is the
    number of court cards."""
    if state.over:
        return [{"player": state.players[p.player], "place": p.place,
                 "total": len(state.owned[p.player]), "king": p.king} for p in state.places()]
    counts = [len(cards) for cards in state.owned]
    holder = state.holder()
    return [{"player": name, "place": 1 + sum(c > counts[i] for c in counts),
             "total": counts[i], "king": holder == i} for i, name in enumerate(state.players)]


def table_view(state: GameState, actions: list[str] | None = None,
               lang: str = "en") -> dict[str, Any]:
    """The whole table: players and their court, the court left, the dice, what the dice
    buy now, the cards still unused this round, the reach, the final round's bids."""
    court = state.court
    d = state.dice
    holder = state.holder()
    players = []
    for i, name in enumerate(state.players):
        players.append({
            "name": name, "current": i == state.current and not state.over,
            "cards": [{**_card(state, court.card(c), lang),
                       "used": i == state.current and c in d.used} for c in state.owned[i]],
            "start_dice": state.start_dice(i),
            "king": holder == i, "queen": court.queen in state.owned[i],
        })
    rows: dict[str, list[dict[str, Any]]] = {}
    for card in court:
        rows.setdefault(card.row, []).append(_card(state, card, lang))
    unused = state.unused()
    return {
        "game": "ukuk",
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "current_player": None if state.over else state.current_player,
        "order": [state.players[p] for p in state.order],
        "players": players,
        "court": [{"row": r, "cards": cards} for r, cards in rows.items()],
        "dice": {
            "hand": d.hand, "active": list(d.active), "aside": list(d.aside),
            "throws": d.throws, "done": d.done,
            "must_set_aside": d.throws > 0 and bool(d.active) and not d.aside_since_throw,
            "sum": sum(d.active) + sum(d.aside),
        },
        "can_buy": [c.id for c in state.affordable()],
        "unused": [{"id": c.id, "name": card_name(c, lang), "ability": c.ability.describe(lang),
                    "planned": c.ability.deterministic, **use_shape(c)} for c in unused],
        "reach": reach_view(state, lang),
        "final": state.final,
        "bids": [{"player": state.players[t.player], "count": t.count, "number": t.number,
                  "first": t.order == 0} for t in state.throws],
        "holder": None if holder is None else state.players[holder],
        "places": standing(state) if state.over else [],
        "scores": scores(state),
        "last": state.last,
        "last_said": state.last if actions else None,
        "over": state.over,
        "actions": actions or [],
        "can_undo": bool(actions),
    }


def use_shape(card: CourtCard) -> dict[str, Any]:
    """How the page asks for a use: ``takes`` active dice (None: one or more, 0: none) and
    whether the rule decides what they show afterwards (``decides``); ``choices``: the
    numbers the result may show (None: any)."""
    a = card.ability
    if isinstance(a, Add):
        return {"takes": 0, "decides": a.value is not None, "choices": None}
    if isinstance(a, Raise):
        return {"takes": a.dice, "decides": len(a.by) == 1, "choices": None}
    if isinstance(a, Share):
        return {"takes": a.dice, "decides": False, "choices": None}
    if isinstance(a, Reroll):
        return {"takes": a.dice, "decides": False, "choices": None}
    if isinstance(a, CopyAside | Turn):
        return {"takes": 1, "decides": False, "choices": None}
    return {"takes": 0, "decides": True, "choices": None}


def court_catalogue(court: Court, lang: str) -> dict[str, Any]:
    """Every court card with its names, cost and ability in ``lang`` (the page's pickers)."""
    cards = {}
    for card in court:
        cards[card.id] = {
            "id": card.id, "row": card.row, "name": card_name(card, lang),
            "names": dict(card.name), "cost": court.cost_label(card, lang),
            "ability": card.ability.describe(lang), "ability_kind": card.ability.kind,
            "usable": card.ability.usable, "planned": card.ability.deterministic,
            **use_shape(card),
        }
    return {"lang": lang, "game": "ukuk", "cards": cards, "rows": list(dict.fromkeys(
        c.row for c in court))}
