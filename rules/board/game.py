"""A game of the board game as a fold over actions (the map itself is not modelled).

The turn, as the rulebook has it:

1. **Throw** the six dice up to three times, keeping any between throws (the dice of the
   third throw are kept).
2. **Check** the roll against the labour market (each deck's top card). Before checking,
   the player may **discard** pairs of their cards, each pair adding one die. If the roll
   itself meets a card, the player **must** take one (jokers never oblige).
3. a. **Take** a card the dice meet face up and carry out its effects; or b. when the roll
   meets nothing, take any face-up card **face down** (a super joker from now on), draw a
   castle tile and place it with a dragon fire on it.

What the map decides (which field, a gem lying there, whose marker is nearest) the players
enter with a tap: ``gem``, ``steal``, ``fire``, ``replace``. The table counts the rest:
castle tiles left, markers placed (a player who has placed all 16 and must place another
wins at once), gems and dragon fires. The game ends at the end of phase 3 when no castle
tile is left; then the players enter their areas (``sheet``) and :mod:`rules.board.score`
counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action, Fix, Players, Rolled
from rules.board.actions import (
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
)
from rules.board.check import Hand
from rules.board.deck import BoardCard, Deck
from rules.board.score import Result, Sheet, score
from rules.dice import Die, Roll
from rules.errors import RuleError

MARKERS = 16
THROWS = 3
START_TILES = 24
"""Castle tiles in the supply after set-up: 30, less 2 put back unseen, less those under
the dragon fires of the set-up (their number depends on the players; ``tiles N`` sets the
count the table shows)."""
SUPPLY_GEMS = {"white": 12, "gold": 2}
"""Gems in the supply: 18 white and 6 gold, less 6 white and 4 gold on the map (the
players' first white gems come out of the white ones)."""


@dataclass(frozen=True, slots=True)
class Player:
    """One player's area: cards face up (ids), cards face down, gems, dragon fires and
    markers placed on the map."""

    name: str
    cards: tuple[str, ...] = ()
    supers: int = 0
    white: int = 1
    gold: int = 0
    fires: int = 0
    markers: int = 0


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn in progress: throws so far, the dice, the dice the jokers added, the card
    taken (its deck, face down or not, the merchant's stars) and what is left to do."""

    throws: int = 0
    dice: tuple[Die, ...] = ()
    added: tuple[Die, ...] = ()
    taken: int | None = None
    card: str | None = None
    """The card taken face up (its id)."""
    face_down: bool = False
    stars: int = 0
    todo: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameState:
    deck: Deck
    players: tuple[Player, ...]
    market: tuple[str | None, ...] = (None,) * 5
    """Each deck's face-up card (id), None when not entered yet or used up."""
    used_up: tuple[bool, ...] = (False,) * 5
    current: int = 0
    turn: Turn = Turn()
    number: int = 1
    """The turn's number in the game, from 1."""
    tiles: int = START_TILES
    supply: tuple[tuple[str, int], ...] = tuple(SUPPLY_GEMS.items())
    over: bool = False
    winner: str | None = None
    """A player who won at once (the 17th marker)."""
    sheet: tuple[tuple[str, int, int], ...] = ()
    last: str = "new game"

    @property
    def player(self) -> Player:
        return self.players[self.current]

    @property
    def current_player(self) -> str:
        return self.player.name

    def gems_left(self, kind: str) -> int:
        return dict(self.supply)[kind]

    def index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name.lower() == name.lower():
                return i
        raise RuleError("board_no_player", "no player {name!r}", name=name)

    def hand(self, player: int | None = None, lang: str = "en") -> Hand:
        """A player's cards as jokers (face-up cards by their deck's short name)."""
        p = self.players[self.current if player is None else player]
        return Hand(tuple((self.deck.deck_name(self.deck.card(c).deck, lang, short=True),
                           self.deck.card(c).joker) for c in p.cards), p.supers)

    def face_up(self) -> dict[int, BoardCard]:
        """The labour market's entered cards, by deck."""
        return {d: self.deck.card(c) for d, c in enumerate(self.market, start=1)
                if c is not None and c in self.deck}

    def met_by_roll(self) -> tuple[int, ...]:
        """Decks whose face-up card the roll itself meets (jokers left out)."""
        if not self.turn.throws:
            return ()
        return tuple(d for d, c in self.face_up().items() if c.condition.meets(self.turn.dice))

    def result(self) -> Result | None:
        """The final scoring once every player's sheet line is in."""
        if not self.over or self.winner or len(self.sheet) < len(self.players):
            return None
        lines = {n: (a, o) for n, a, o in self.sheet}
        return score([Sheet(p.name, *lines[p.name], p.fires, p.gold, p.white)
                      for p in self.players])


def new_game(players: tuple[str, ...], deck: Deck) -> GameState:
    if not 2 <= len(players) <= 4:
        raise RuleError("board_players", "the board game is for 2-4 players, not {n}",
                        n=len(players))
    if len({p.lower() for p in players}) != len(players):
        raise RuleError("board_same_name", "two players have the same name")
    return GameState(deck, tuple(Player(p) for p in players))


def _with_player(state: GameState, i: int, **changes: object) -> GameState:
    players = list(state.players)
    players[i] = replace(players[i], **changes)  # type: ignore[arg-type]
    return replace(state, players=tuple(players))


def _place(state: GameState, i: int, markers: int) -> GameState:
    """Player i places markers on the map; the 17th wins at once."""
    p = state.players[i]
    if p.markers + markers > MARKERS:
        return replace(_with_player(state, i, markers=MARKERS), over=True, winner=p.name)
    return _with_player(state, i, markers=p.markers + markers)


def _gem_from_supply(state: GameState) -> tuple[GameState, str | None]:
    """The merchant's third star: a gem from the supply, gold while any is left."""
    for kind in ("gold", "white"):
        if state.gems_left(kind):
            supply = tuple((k, n - (k == kind)) for k, n in state.supply)
            p = state.player
            changed = _with_player(state, state.current, **{kind: getattr(p, kind) + 1})
            return replace(changed, supply=supply), kind
    return state, None


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; RuleError (nothing changed) if the rules refuse."""
    if isinstance(action, Players):
        raise RuleError("board_game_running", "a game is running; start a new one from the page")
    if isinstance(action, Enter):
        return _enter(state, action)
    if isinstance(action, Top):
        return _top(state, action)
    if isinstance(action, Tiles):
        return replace(state, tiles=action.count, last=f"tiles {action.count}")
    if isinstance(action, SheetLine):
        return _sheet(state, action)
    if state.over:
        raise RuleError("board_over", "the game is over")
    if isinstance(action, Rolled):
        return _roll(state, action.roll)
    if isinstance(action, Fix):
        return _fix(state, action)
    if isinstance(action, Discard):
        return _discard(state, action)
    if isinstance(action, Take):
        return _take(state, action)
    if isinstance(action, Gem | Steal | Fire | Replace):
        return _effect(state, action)
    if isinstance(action, Done):
        return _done(state)
    raise RuleError("board_unknown_action", "the board game has no {verb!r}",
                    verb=getattr(action, "verb", "?"))


def _enter(state: GameState, action: Enter) -> GameState:
    """A card the players typed in joins the game's cards (it is kept with the game)."""
    if action.id in state.deck:
        raise RuleError("board_card_known", "a card {id} is known already; choose another id",
                        id=action.id)
    deck = state.deck.with_cards([action.data()])  # KotdError names a bad condition
    return replace(state, deck=deck, last=f"card {action.id} entered")


def _top(state: GameState, action: Top) -> GameState:
    if action.card is not None:
        state.deck.card(action.card)  # UnknownCardError names the known ones
        card = state.deck.card(action.card)
        if card.deck != action.deck:
            raise RuleError("board_wrong_deck", "{card} belongs to deck {deck}, not {to}",
                            card=card.id, deck=card.deck, to=action.deck)
        taken = [c for p in state.players for c in p.cards]
        if action.card in taken or action.card in state.market:
            raise RuleError("board_card_in_play", "{card} is already in play", card=card.id)
    market = list(state.market)
    market[action.deck - 1] = action.card
    used = list(state.used_up)
    used[action.deck - 1] = action.card is None
    return replace(state, market=tuple(market), used_up=tuple(used), last=str(action))


def _roll(state: GameState, roll: Roll) -> GameState:
    t = state.turn
    if t.taken is not None:
        raise RuleError("board_taken", "a card is taken: carry out its effects, then done")
    if t.added:
        raise RuleError("board_jokers_used", "jokers were discarded: no more throws")
    if t.throws >= THROWS:
        raise RuleError("board_no_throws", "three throws are the most")
    if any(d.color is None for d in roll):
        raise RuleError("board_colours", "the board game's dice have colours: write 4r, 4g, 4b")
    return replace(state, turn=replace(t, throws=t.throws + 1, dice=roll.dice),
                   last=f"throw {t.throws + 1}: {roll}")


def _fix(state: GameState, action: Fix) -> GameState:
    t = state.turn
    if not t.throws or t.taken is not None:
        raise RuleError("board_no_roll", "there is no roll to correct")
    dice = list(t.dice)
    for position, d in action.dice:
        if not 1 <= position <= len(dice) or d.color is None:
            raise RuleError("board_fix", "fix names a die 1-{n} and its colour", n=len(dice))
        dice[position - 1] = d
    return replace(state, turn=replace(t, dice=tuple(dice)), last=str(action))


def _discard(state: GameState, action: Discard) -> GameState:
    t, p = state.turn, state.player
    if not t.throws or t.taken is not None:
        raise RuleError("board_discard_when", "jokers are discarded after throwing, before taking")
    cards = list(p.cards)
    supers = p.supers
    jokers = []
    for cid in action.cards:
        if cid == "super":
            supers -= 1
            if supers < 0:
                raise RuleError("board_no_super", "{player} has no super joker left",
                                player=p.name)
        else:
            if cid not in cards:
                raise RuleError("board_not_owned", "{player} has no card {card}", player=p.name,
                                card=cid)
            cards.remove(cid)
            jokers.append(state.deck.card(cid).joker)
    if len(jokers) == 2 and jokers[0] != jokers[1]:
        raise RuleError("board_jokers_differ", "two concrete jokers must show the same die "
                        "({a} and {b} differ)", a=str(jokers[0]), b=str(jokers[1]))
    if jokers and action.die is not None and action.die != jokers[0]:
        raise RuleError("board_joker_die", "a concrete joker adds its own die, {die}",
                        die=str(jokers[0]))
    if not jokers and action.die is None:
        raise RuleError("board_name_die", "two super jokers: name the die they add (e.g. 6r)")
    added = jokers[0] if jokers else action.die
    assert added is not None
    state = _with_player(state, state.current, cards=tuple(cards), supers=supers)
    return replace(state, turn=replace(t, added=(*t.added, added)),
                   last=f"{p.name} adds {added}")


TODO = {"merchant": ("place",), "steal_card": ("place", "steal"),
        "steal_gem": ("place", "steal"), "dragon_trainer": ("fire",),
        "scoundrel": ("replace",), "land_developer": ("place", "place")}
"""What each card asks the player to do on the map (the checklist; ``place`` the table
counts at once: a tile from the supply and a marker)."""


def _take(state: GameState, action: Take) -> GameState:
    t = state.turn
    if not t.throws:
        raise RuleError("board_no_throw", "throw the dice first")
    if t.taken is not None:
        raise RuleError("board_taken", "a card is taken already this turn")
    cid = state.market[action.deck - 1]
    if state.used_up[action.deck - 1]:
        raise RuleError("board_used_up", "deck {deck} is used up", deck=action.deck)
    p = state.player
    if action.face_down:  # the card's condition does not matter: it may be unentered
        met = state.met_by_roll()
        if met:
            raise RuleError("board_must_take", "the roll meets deck {decks}: a card it meets must "
                            "be taken", decks=", ".join(map(str, met)))
        state = _with_player(state, state.current, supers=p.supers + 1)
        state = replace(state, tiles=max(0, state.tiles - 1))
        return _taken(state, action.deck, replace(t, taken=action.deck, face_down=True,
                                                  todo=("dragon",)),
                      f"{p.name} takes deck {action.deck} face down; the dragon wakes")
    if cid is None:
        raise RuleError("board_no_card", "deck {deck}'s card is not entered (top {deck} CARD)",
                        deck=action.deck)
    card = state.deck.card(cid)
    stars = card.condition.stars((*t.dice, *t.added))
    if not stars:
        raise RuleError("board_not_met", "the dice do not meet {card}: {condition}", card=cid,
                        condition=card.condition.describe())
    state = _with_player(state, state.current, cards=(*p.cards, cid))
    effect = state.deck.effect(card)
    todo = TODO[effect]
    placed = sum(x == "place" for x in todo)
    placed = min(placed, state.tiles)
    state = _place(replace(state, tiles=state.tiles - placed), state.current, placed)
    gem = None
    if effect == "merchant" and stars == card.condition.tiers and not state.over:
        state, gem = _gem_from_supply(state)
    todo = tuple(x for x in todo if x != "place") + (("gem:" + gem,) if gem else ())
    return _taken(state, action.deck, replace(t, taken=action.deck, card=cid, stars=stars,
                                              todo=todo), f"{p.name} takes {cid}")


def _taken(state: GameState, deck: int, turn: Turn, said: str) -> GameState:
    market = list(state.market)
    market[deck - 1] = None  # the next card comes up: enter it with ``top``
    return replace(state, market=tuple(market), turn=turn, last=said)


def _effect(state: GameState, action: Action) -> GameState:
    t, me = state.turn, state.current
    if t.taken is None:
        raise RuleError("board_not_yet", "take a card first")
    if isinstance(action, Gem):
        p = state.player
        return replace(_with_player(state, me, **{action.kind: getattr(p, action.kind) + 1}),
                       last=f"{p.name} finds a {action.kind} gem")
    if isinstance(action, Steal):
        return _steal(state, action)
    if isinstance(action, Fire):
        if "fire" not in t.todo:
            raise RuleError("board_no_fire", "only the dragon trainer chases a dragon fire away")
        state = _with_player(state, me, fires=state.player.fires + 1)
        state = _place(state, me, 1)
        return replace(state, turn=_done_item(state.turn, "fire"),
                       last=f"{state.player.name} chases a dragon fire away")
    assert isinstance(action, Replace)
    if "replace" not in t.todo:
        raise RuleError("board_no_replace", "only the scoundrel replaces a marker")
    other = state.index(action.player)
    if other == me or not state.players[other].markers:
        raise RuleError("board_replace_whom", "replace a marker of another player who has one")
    state = _with_player(state, other, markers=state.players[other].markers - 1)
    state = _place(state, me, 1)
    return replace(state, turn=_done_item(state.turn, "replace"),
                   last=f"{state.player.name} replaces a marker of {action.player}")


def _done_item(turn: Turn, item: str) -> Turn:
    todo = list(turn.todo)
    todo.remove(item)
    return replace(turn, todo=tuple(todo))


def _steal(state: GameState, action: Steal) -> GameState:
    t, me = state.turn, state.current
    if "steal" not in t.todo:
        raise RuleError("board_no_steal", "only the thief steals")
    effect = state.deck.effect(state.deck.card(t.card)) if t.card else ""
    other = state.index(action.player)
    victim = state.players[other]
    if other == me:
        raise RuleError("board_steal_self", "steal from another player")
    if effect == "steal_gem":
        if action.what not in ("white", "gold") or not getattr(victim, action.what):
            raise RuleError("board_steal_gem", "{player} has no {what} gem", player=victim.name,
                            what=action.what)
        state = _with_player(state, other, **{action.what: getattr(victim, action.what) - 1})
        p = state.player
        state = _with_player(state, me, **{action.what: getattr(p, action.what) + 1})
    else:
        if action.what not in victim.cards:
            raise RuleError("board_steal_card", "{player} has no face-up card {card} (super jokers "
                            "cannot be stolen)", player=victim.name, card=action.what)
        cards = tuple(c for c in victim.cards if c != action.what)
        state = _with_player(state, other, cards=cards)
        state = _with_player(state, me, cards=(*state.player.cards, action.what))
    return replace(state, turn=_done_item(state.turn, "steal"),
                   last=f"{state.player.name} steals {action.what} from {victim.name}")


def _done(state: GameState) -> GameState:
    t = state.turn
    if t.taken is None:
        raise RuleError("board_not_done", "take a card (face up or face down) first")
    name = state.player.name
    if state.tiles == 0:
        return replace(state, over=True, turn=Turn(), last=f"{name} is done; no castle tile "
                       "is left: the game ends")
    nxt = (state.current + 1) % len(state.players)
    return replace(state, current=nxt, turn=Turn(), number=state.number + 1,
                   last=f"{name} is done; {state.players[nxt].name} throws")


def _sheet(state: GameState, action: SheetLine) -> GameState:
    if not state.over or state.winner:
        raise RuleError("board_sheet_when", "the scoring sheet is filled in when the game ends")
    i = state.index(action.player)
    name = state.players[i].name
    line = (name, action.largest_area, action.outside)
    lines = (*(x for x in state.sheet if x[0] != name), line)
    return replace(state, sheet=lines, last=f"{name}: {action.largest_area} castles, "
                   f"{action.outside} fields outside")
