"""The board game's table as data for the page, the panel and ``kotd play`` (English or
German): the labour market with the check of the roll (met, stars, jokers in words), the
turn, the card's effects as a checklist, every player's area and the scoring sheet."""

from __future__ import annotations

from typing import Any

from rules.board.check import check_row
from rules.board.conditions import die_words
from rules.board.deck import BoardCard, Deck
from rules.board.game import MARKERS, THROWS, GameState
from rules.board.score import verdict

WORDS = {
    "en": {
        "merchant": "Draw {n} castle tile(s), place 1 with a marker (counted)",
        "thief_card": "Draw 2 castle tiles, place 1 with a marker (counted)",
        "thief_gem": "Draw 1 castle tile and place it with a marker (counted)",
        "land_developer": "Draw 2 castle tiles and place both with markers (counted)",
        "gem:gold": "A gold gem from the supply (counted)",
        "gem:white": "A white gem from the supply (counted)",
        "steal_card": "Steal a face-up card from another player: steal PLAYER CARD",
        "steal_gem": "Steal a gem from another player: steal PLAYER white|gold",
        "fire": "Replace a dragon fire on the map with your marker: fire",
        "replace": "Replace another player's nearest marker with yours: replace PLAYER",
        "dragon": "Draw a castle tile, place it and put a dragon fire on it (counted)",
        "field_gem": "A gem on a field you took? gem white|gold",
        "throw": "{player}: throw the dice ({n} of {most})",
        "check": "{player}: take a card the dice meet",
        "must": "The roll meets a card: one of them must be taken",
        "nothing": "Nothing is met: take any card face down and alarm the dragon",
        "effects": "{player}: carry out the card's effects, then done",
        "sheet": "The game is over: enter each player's castles and fields",
        "won_markers": "{player} had to place a 17th marker and wins at once",
    },
    "de": {
        "merchant": "{n} Burgplättchen ziehen, 1 mit einem Marker legen (gezählt)",
        "thief_card": "2 Burgplättchen ziehen, 1 mit einem Marker legen (gezählt)",
        "thief_gem": "1 Burgplättchen ziehen und mit einem Marker legen (gezählt)",
        "land_developer": "2 Burgplättchen ziehen und beide mit Markern legen (gezählt)",
        "gem:gold": "Ein goldener Edelstein aus dem Vorrat (gezählt)",
        "gem:white": "Ein weißer Edelstein aus dem Vorrat (gezählt)",
        "steal_card": "Eine offene Karte eines Mitspielers stehlen: steal SPIELER KARTE",
        "steal_gem": "Einen Edelstein eines Mitspielers stehlen: steal SPIELER white|gold",
        "fire": "Ein Drachenfeuer auf der Karte durch deinen Marker ersetzen: fire",
        "replace": "Den nächsten Marker eines Mitspielers durch deinen ersetzen: replace "
                   "SPIELER",
        "dragon": "Ein Burgplättchen ziehen, legen und ein Drachenfeuer daraufsetzen (gezählt)",
        "field_gem": "Ein Edelstein auf einem genommenen Feld? gem white|gold",
        "throw": "{player}: würfeln ({n} von {most})",
        "check": "{player}: nimm eine Karte, die die Würfel erfüllen",
        "must": "Der Wurf erfüllt eine Karte: eine davon muss genommen werden",
        "nothing": "Nichts erfüllt: nimm eine beliebige Karte verdeckt und wecke den Drachen",
        "effects": "{player}: führe die Wirkung der Karte aus, dann done",
        "sheet": "Das Spiel ist aus: tragt Burgen und Felder jedes Spielers ein",
        "won_markers": "{player} musste einen 17. Marker legen und gewinnt sofort",
    },
}


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def card_data(deck: Deck, card: BoardCard, lang: str) -> dict[str, Any]:
    """A card as the page shows it: deck name, joker, condition in words and as data."""
    return {"id": card.id, "deck": card.deck, "name": deck.deck_name(card.deck, lang),
            "joker": str(card.joker), "joker_text": die_words(card.joker, lang),
            "condition": card.condition.words(), "condition_json": card.condition.to_json(),
            "text": card.condition.describe(lang), "tiers": card.condition.tiers,
            "picture": list(card.condition.picture()),
            "effect": deck.effect(card)}


def discard_lines(state: GameState, plan: dict[str, Any]) -> list[str]:
    """A joker plan (``adds``, ``discards``) as the action lines that carry it out, naming
    the current player's cards (``discard scoundrel-red-6 land-developer-red-6``)."""
    pool = [(c, str(state.deck.card(c).joker)) for c in state.player.cards]

    def card_for(joker: str) -> str:
        if joker == "super":
            return "super"
        for i, (cid, shown) in enumerate(pool):
            if shown == joker:
                del pool[i]
                return cid
        raise ValueError(f"no card with joker {joker}")  # pragma: no cover - plans use the hand

    lines = []
    for i, die in enumerate(plan["adds"]):
        a, b = (card_for(x) for x in plan["discards"][2 * i: 2 * i + 2])
        lines.append(f"discard {a} {b}" + (f" {die}" if a == b == "super" else ""))
    return lines


def _checklist(state: GameState, lang: str) -> list[dict[str, Any]]:
    t, w = state.turn, _w(lang)
    if t.taken is None:
        return []
    if t.face_down:
        return [{"text": w["dragon"], "done": True}]
    effect = state.deck.effect(state.deck.card(t.card)) if t.card else ""
    first = {"merchant": w["merchant"].format(n=t.stars), "steal_card": w["thief_card"],
             "steal_gem": w["thief_gem"], "land_developer": w["land_developer"]}.get(effect)
    items = [{"text": first, "done": True}] if first else []
    if "steal" in t.todo or effect in ("steal_card", "steal_gem"):
        items.append({"text": w[effect], "done": "steal" not in t.todo, "action": "steal"})
    for item in ("fire", "replace"):
        if item in t.todo or effect == {"fire": "dragon_trainer",
                                        "replace": "scoundrel"}[item]:
            items.append({"text": w[item], "done": item not in t.todo, "action": item})
    items += [{"text": w[x], "done": True} for x in t.todo if x.startswith("gem:")]
    items.append({"text": w["field_gem"], "done": False, "optional": True})
    return items


def _players(state: GameState, lang: str) -> list[dict[str, Any]]:
    return [{"name": p.name, "current": i == state.current and not state.over,
             "cards": [card_data(state.deck, state.deck.card(c), lang) for c in p.cards],
             "supers": p.supers, "white": p.white, "gold": p.gold, "fires": p.fires,
             "markers": p.markers, "markers_left": MARKERS - p.markers}
            for i, p in enumerate(state.players)]


def _phase(state: GameState) -> str:
    if state.over:
        return "over" if state.winner or state.result() else "sheet"
    t = state.turn
    return "effects" if t.taken is not None else ("check" if t.throws else "throw")


def table_view(state: GameState, lang: str = "en") -> dict[str, Any]:
    """The whole table as JSON-able data."""
    w, t = _w(lang), state.turn
    market = [{"deck": d, "name": state.deck.deck_name(d, lang),
               "card": (card_data(state.deck, state.deck.card(cid), lang)
                        if cid is not None and cid in state.deck else None),
               "used_up": state.used_up[d - 1]}
              for d, cid in enumerate(state.market, start=1)]
    check = None
    phase = _phase(state)
    if phase == "check":
        cards = {str(d): c.condition for d, c in state.face_up().items()}
        check = check_row(cards, (*t.dice, *t.added), state.hand(lang=lang), lang)
        check["must_take"] = bool(state.met_by_roll())
        for result in check["cards"]:
            for plan in [result["jokers"], *result.get("more_stars", ())]:
                if plan:
                    plan["actions"] = discard_lines(state, plan)
    result = state.result()
    ask = {"throw": w["throw"].format(player=state.current_player, n=t.throws + 1,
                                      most=THROWS),
           "check": w["check"].format(player=state.current_player),
           "effects": w["effects"].format(player=state.current_player),
           "sheet": w["sheet"], "over": ""}[phase]
    if phase == "check" and check is not None:
        ask = w["must"] if check["must_take"] else (
            w["nothing"] if not check["met"] else ask)
    return {
        "game": "board", "title": state.deck.name.get(lang) or state.deck.name["en"],
        "phase": phase, "ask": ask, "current_player": state.current_player,
        "players": _players(state, lang), "market": market,
        "turn": {"throws": t.throws, "max_throws": THROWS,
                 "dice": [str(d) for d in t.dice], "added": [str(d) for d in t.added],
                 "taken": t.taken, "face_down": t.face_down, "stars": t.stars,
                 "checklist": _checklist(state, lang)},
        "check": check, "tiles": state.tiles,
        "supply": dict(state.supply), "over": state.over,
        "winner": state.winner,
        "won_markers": w["won_markers"].format(player=state.winner) if state.winner else None,
        "sheet": [{"player": n, "largest_area": a, "outside": o} for n, a, o in state.sheet],
        "result": ({**result.to_json(), "said": verdict(result, lang)} if result else None),
        "scores": _standings(state),
        "last": state.last,
        "cards": [card_data(state.deck, c, lang) for c in state.deck],
    }


def _standings(state: GameState) -> list[dict[str, Any]]:
    """The standings the history and the statistics read: the final scoring's places and
    points, or the 17th-marker winner first; empty while the game runs."""
    result = state.result()
    if result is not None:
        return [{"player": x["name"], **{k: v for k, v in x.items() if k != "name"}}
                for x in result.to_json()["players"]]
    if state.winner:
        return [{"player": p.name, "place": 1 if p.name == state.winner else 2, "total": None}
                for p in state.players]
    return []


def deck_catalogue(deck: Deck, lang: str) -> dict[str, Any]:
    """Every deck and every card known, for the page's pickers."""
    return {"game": "board",
            "decks": [{"deck": d, "name": deck.deck_name(d, lang),
                       "effect": deck.decks[d]["effect"]} for d in sorted(deck.decks)],
            "cards": [card_data(deck, c, lang) for c in deck]}
