"""The board game in words: each stored action as a sentence for the players, English or
German (the history page).

``said(before, action, after, lang)`` tells what ``action`` did, naming the player whose turn
it is ("Miki discards the scoundrel and the land developer for a red 6"); :func:`narrate`
tells a whole stored game line by line, replaying it through :func:`rules.board.game.apply`:
an ``undo`` says what it took back, and a line the rules refuse ends the story there. A card
is named by its deck and its condition as the page shows them ("the land developer (sum ≥
25)"), never by the id typed for it. Nothing here decides a rule; it reads two states.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.actions import Action, Fix, Rolled
from rules.board.actions import (
    SUPER,
    Discard,
    Done,
    Enter,
    Fire,
    Gem,
    Replace,
    SheetLine,
    Steal,
    Take,
    Tiles,
    Top,
    parse_action,
)
from rules.board.conditions import colour_word, die_words
from rules.board.deck import Deck
from rules.board.game import THROWS, GameState, apply, new_game
from rules.board.score import verdict
from rules.dice import Color, Die
from rules.story import tell

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "players": "New game: {players}",
        "enter": "{player} enters {card} as a new card; joker: {joker}",
        "top": "{player} turns up {card} on deck {deck}",
        "used_up": "{player}: deck {deck} is used up",
        "tiles": "{player} counts {tiles} left",
        "rolled": "{player} throws {dice} (throw {n} of {most})",
        "fix": "{player}'s dice corrected: {dice}",
        "fixed": "die {position} → {die}",
        "discard": "{player} discards {cards} for {a_die}",
        "take": "{player} takes {card}",
        "stars": "{player} takes {card} with {stars}",
        "down": "{player} takes deck {deck}'s card face down as a super joker and alarms "
                "the dragon",
        "gem": "{player} finds a {kind} gem",
        "steal_gem": "{player} steals a {kind} gem from {other}",
        "steal_card": "{player} steals {card} from {other}",
        "fire": "{player} chases a dragon fire away with a marker",
        "replace": "{player} replaces a marker of {other} with one of their own",
        "done": "{player} is done; {next} throws next",
        "last": "{player} is done; no castle tile is left: the game ends",
        "sheet": "{player}'s sheet: {area} in the largest area, {outside} outside it",
        "undo": "Taken back: {what}",
        "supply_gem": "with it a {kind} gem from the supply",
        "won_markers": "{player} had to place a 17th marker and wins at once",
        "card": "the {deck} ({condition})",
        "a_card": "the {deck}",
        "super": "a super joker",
        "supers": "two super jokers",
        "a_die": "a {die}",
        "and": "and",
        "star": "1 star", "star_n": "{n} stars",
        "castle": "1 castle", "castle_n": "{n} castles",
        "field": "1 field", "field_n": "{n} fields",
        "tile": "1 castle tile", "tile_n": "{n} castle tiles",
        "white": "white", "gold": "gold",
    },
    "de": {
        "players": "Neues Spiel: {players}",
        "enter": "{player} gibt {card} als neue Karte ein; Joker: {joker}",
        "top": "{player} deckt {card} auf Stapel {deck} auf",
        "used_up": "{player}: Stapel {deck} ist aufgebraucht",
        "tiles": "{player} zählt {tiles} übrig",
        "rolled": "{player} würfelt {dice} (Wurf {n} von {most})",
        "fix": "Würfel von {player} korrigiert: {dice}",
        "fixed": "Würfel {position} → {die}",
        "discard": "{player} wirft {cards} ab und bekommt {a_die}",
        "take": "{player} nimmt {card}",
        "stars": "{player} nimmt {card} mit {stars}",
        "down": "{player} nimmt die Karte von Stapel {deck} verdeckt als Superjoker und weckt "
                "den Drachen",
        "gem": "{player} findet einen {kind} Edelstein",
        "steal_gem": "{player} stiehlt {other} einen {kind} Edelstein",
        "steal_card": "{player} stiehlt {other} {card}",
        "fire": "{player} vertreibt ein Drachenfeuer mit einem Marker",
        "replace": "{player} ersetzt einen Marker von {other} durch einen eigenen",
        "done": "{player} ist fertig; {next} ist am Zug",
        "last": "{player} ist fertig; kein Burgplättchen ist mehr übrig: das Spiel ist aus",
        "sheet": "Schlusswertung von {player}: {area} im größten Gebiet, {outside} außerhalb",
        "undo": "Zurückgenommen: {what}",
        "supply_gem": "dazu ein {kind} Edelstein aus dem Vorrat",
        "won_markers": "{player} musste einen 17. Marker legen und gewinnt sofort",
        "card": "den {deck} ({condition})",
        "a_card": "den {deck}",
        "super": "einen Superjoker",
        "supers": "zwei Superjoker",
        "a_die": "eine {die}",
        "and": "und",
        "star": "1 Stern", "star_n": "{n} Sternen",
        "castle": "1 Burg", "castle_n": "{n} Burgen",
        "field": "1 Feld", "field_n": "{n} Felder",
        "tile": "1 Burgplättchen", "tile_n": "{n} Burgplättchen",
        "white": "weißen", "gold": "goldenen",
    },
}
"""German: the page's words for this game (Stapel, Burgplättchen, Superjoker, Edelstein,
Drachenfeuer, Marker, Schlusswertung, Burgen im größten Gebiet); a card after ``den`` is
in the accusative (:func:`_accusative`)."""
SUPPLY_GEM = {"en": {"white": "white", "gold": "gold"}, "de": {"white": "weißer",
                                                               "gold": "goldener"}}
"""The gem's colour after ``a``/``ein`` in the nominative (``ein goldener Edelstein``)."""


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _count(w: dict[str, str], key: str, n: int) -> str:
    return w[key] if n == 1 else w[key + "_n"].format(n=n)


def _accusative(name: str, lang: str) -> str:
    """The decks' German short names are masculine; a weak one ending in -e takes -n in
    the accusative and dative (der Halunke → den Halunken), the others stay as they are."""
    return name + "n" if lang == "de" and name.endswith("e") else name


def card_words(deck: Deck, cid: str, lang: str, condition: bool = True) -> str:
    """A card as sentences name it: its deck's short name and its condition as the page
    shows it ("the land developer (sum ≥ 25)", "den Landentwickler (Summe ≥ 25)")."""
    card = deck.card(cid)
    name = _accusative(deck.deck_name(card.deck, lang, short=True), lang)
    if not condition:
        return _w(lang)["a_card"].format(deck=name)
    return _w(lang)["card"].format(deck=name, condition=card.condition.describe(lang))


def dice_words(dice: Iterable[Die], lang: str) -> str:
    """A throw by colour, as the box's dice lie: "red 3 5, green 3 1, blue 2 4"."""
    dice = tuple(dice)
    parts = [f"{colour_word(c, lang)} " + " ".join(str(d.value) for d in dice if d.color == c)
             for c in Color if any(d.color == c for d in dice)]
    plain = [str(d.value) for d in dice if d.color is None]
    return ", ".join(parts + plain)


def _and(items: list[str], lang: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + \
        f" {_w(lang)['and']} {items[-1]}"


def _discard(before: GameState, action: Discard, after: GameState, lang: str) -> str:
    w = _w(lang)
    cards = [card_words(before.deck, c, lang, condition=False) for c in action.cards
             if c != SUPER]
    supers = sum(c == SUPER for c in action.cards)
    if supers == 2:
        cards = [w["supers"]]
    elif supers:
        cards.append(w["super"])
    added = after.turn.added[-1]
    return w["discard"].format(player=before.current_player, cards=_and(cards, lang),
                               a_die=w["a_die"].format(die=die_words(added, lang)))


def _take(before: GameState, action: Take, after: GameState, lang: str) -> str:
    w, player = _w(lang), before.current_player
    if action.face_down:
        return w["down"].format(player=player, deck=action.deck)
    cid = after.turn.card
    assert cid is not None
    card = card_words(before.deck, cid, lang)
    if before.deck.card(cid).condition.tiers > 1:
        text = w["stars"].format(player=player, card=card,
                                 stars=_count(w, "star", after.turn.stars))
    else:
        text = w["take"].format(player=player, card=card)
    gems = [x.split(":")[1] for x in after.turn.todo if x.startswith("gem:")]
    if gems:
        text += "; " + w["supply_gem"].format(kind=SUPPLY_GEM.get(lang, SUPPLY_GEM["en"])[
            gems[0]])
    return text


def _steal(before: GameState, action: Steal, lang: str) -> str:
    w = _w(lang)
    other = before.players[before.index(action.player)].name
    if action.what in ("white", "gold"):
        return w["steal_gem"].format(player=before.current_player, other=other,
                                     kind=w[action.what])
    return w["steal_card"].format(player=before.current_player, other=other,
                                  card=card_words(before.deck, action.what, lang))


def _table(before: GameState, action: Action, after: GameState, lang: str) -> str | None:
    """The lines that set the table (a card entered, a card turned up, the tiles counted,
    a sheet line); None for a move of the turn."""
    w, player = _w(lang), before.current_player
    match action:
        case Enter():
            return w["enter"].format(player=player, card=card_words(after.deck, action.id, lang),
                                     joker=die_words(after.deck.card(action.id).joker, lang))
        case Top(card=None):
            return w["used_up"].format(player=player, deck=action.deck)
        case Top(card=str(cid)):
            return w["top"].format(player=player, deck=action.deck,
                                   card=card_words(before.deck, cid, lang))
        case Tiles():
            return w["tiles"].format(player=player, tiles=_count(w, "tile", action.count))
        case SheetLine():
            text = w["sheet"].format(player=before.players[before.index(action.player)].name,
                                     area=_count(w, "castle", action.largest_area),
                                     outside=_count(w, "field", action.outside))
            result = after.result()
            return text + ("; " + verdict(result, lang).rstrip(".") if result else "")
    return None


def _move(before: GameState, action: Action, after: GameState, lang: str) -> str:
    """A move of the turn, by the player whose turn it is."""
    w, player = _w(lang), before.current_player
    match action:
        case Rolled():
            return w["rolled"].format(player=player, dice=dice_words(action.roll.dice, lang),
                                      n=after.turn.throws, most=THROWS)
        case Fix():
            return w["fix"].format(player=player, dice=", ".join(
                w["fixed"].format(position=p, die=die_words(d, lang)) for p, d in action.dice))
        case Discard():
            return _discard(before, action, after, lang)
        case Take():
            return _take(before, action, after, lang)
        case Gem():
            return w["gem"].format(player=player, kind=w[action.kind])
        case Steal():
            return _steal(before, action, lang)
        case Fire():
            return w["fire"].format(player=player)
        case Replace():
            return w["replace"].format(player=player,
                                       other=before.players[before.index(action.player)].name)
        case Done() if after.over:
            return w["last"].format(player=player)
        case Done():
            return w["done"].format(player=player, next=after.current_player)
    return str(action)  # pragma: no cover - every action of the game is named above


def said(before: GameState, action: Action, after: GameState, lang: str = "en") -> str:
    """What ``action`` did, taking ``before`` to ``after``, as one sentence."""
    text = _table(before, action, after, lang) or _move(before, action, after, lang)
    if after.winner and not before.winner:
        text += "; " + _w(lang)["won_markers"].format(player=after.winner)
    return text


def narrate(deck: Deck, lines: list[str], lang: str = "en") -> list[str]:
    """A stored game's lines as sentences, one a line; an ``undo`` says what it took back,
    and a line the rules refuse (or an undo with nothing to take back) ends the story
    (:func:`rules.story.tell`)."""
    return tell(lines, parse_action, lambda names: new_game(names, deck), apply, said,
                _w(lang), lang)
