"""A game of Um Krone und Kragen as a fold over actions.

``new_game(players)`` starts a game; ``apply(state, action)`` returns the next state or
raises :class:`~rules.game.RuleError` naming the rule that refuses it. States are
immutable, so the history of a game is a list of states and undo takes one back.

The turn, as the (German) rulebook has it:

1. The player takes three dice, plus one for a Bauer, one for a Scharlatan and two for a
   Feldherr (compulsory), and **throws** them all.
2. After every throw at least one die is **set aside**; set-aside dice no longer change.
   The remaining active dice are thrown again, until every die is set aside.
3. At any moment the player may **use** court cards they own, each once a round (every
   player has one turn a round, so: once a turn): bring in dice, raise, share, turn or
   throw active dice again (``rules.ukuk.abilities``).
4. With every die set aside, the result **buys** one court card whose cost it meets, if
   one is left at court and the player does not own one yet (a Scharlatan needs a Hofnarr
   and sends it back to court, after which a Hofnarr may be bought again). Or ``pass``.

Rounds run clockwise; the start player moves counter-clockwise, so the last player of a
round starts the next one and plays twice in a row. Buying the König (seven equal dice)
brings the Königin too and ends the game: the round is played out, then comes the final
round (``rules.ukuk.placing``), in which everyone throws once for the highest bid and the
King's owner throws last; no card is bought.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action, Fix, Players, Rolled, Undo
from rules.dice import Roll
from rules.errors import RuleError
from rules.ukuk.abilities import Raise, Values, after_use, dice_text
from rules.ukuk.actions import Bid, Buy, Pass, SetAside, UseCard
from rules.ukuk.costs import ComesWith
from rules.ukuk.court import Court, CourtCard, load_court
from rules.ukuk.placing import FinalThrow, Place, best_group, leader, places


@dataclass(frozen=True, slots=True)
class TurnDice:
    """The dice of the turn in progress.

    ``hand``: dice taken but not thrown yet (only before the first throw). ``active``: the
    dice in play, as they lie. ``aside``: the dice set aside (the result so far).
    ``used``: court cards used this turn.
    """

    hand: int
    active: Values = ()
    aside: Values = ()
    throws: int = 0
    aside_since_throw: bool = False
    used: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        """Every die is set aside: the result is complete."""
        return self.throws > 0 and self.hand == 0 and not self.active


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything on the table at one moment of a game.

    ``owned[i]``: player i's court cards in the order bought. ``left``: copies still at
    court, one count per card of ``court.cards``. ``order``: this round's players (seat
    indices) in turn order; ``at``: whose turn it is in ``order``. ``king_owner``: who
    bought the König first (and holds the Königin). ``throws``: the bids so far.
    """

    court: Court
    players: tuple[str, ...]
    owned: tuple[tuple[str, ...], ...]
    left: tuple[int, ...]
    order: tuple[int, ...]
    dice: TurnDice
    round: int = 1
    at: int = 0
    turn: int = 1
    king_round: int | None = None
    king_owner: int | None = None
    final: bool = False
    throws: tuple[FinalThrow, ...] = ()
    over: bool = False
    last: str = "new game"

    # ---- what the table shows -----------------------------------------------------------

    @property
    def current(self) -> int:
        return self.order[self.at]

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def phase(self) -> str:
        return "over" if self.over else ("final" if self.final else "turn")

    def copies_left(self, card_id: str) -> int:
        return self.left[_index(self.court, card_id)]

    def start_dice(self, player: int) -> int:
        """Dice a player takes at the start of a turn: three plus what their court gives."""
        return self.court.dice + sum(self.court.card(c).ability.start_dice
                                     for c in self.owned[player])

    def unused(self) -> tuple[CourtCard, ...]:
        """The current player's court cards that can still be used this turn."""
        return tuple(self.court.card(c) for c in self.owned[self.current]
                     if c not in self.dice.used and self.court.card(c).ability.usable)

    def why_not_buy(self, card: CourtCard, player: int | None = None) -> RuleError | None:
        """Why ``player`` (default: the current one) may not buy this card, ignoring the
        dice (the refusal, not raised); None if they may."""
        p = self.current if player is None else player
        name = card.label("de")
        if isinstance(card.cost, ComesWith):
            return RuleError("comes_with", "the {card} is not bought: she comes with the first "
                             "{first}", card=name,
                             first=self.court.card(card.cost.card).label("de"))
        if card.id in self.owned[p]:
            return RuleError("already_owned", "{player} already has a {card}; each court card "
                             "once", player=self.players[p], card=name)
        if self.copies_left(card.id) == 0:
            return RuleError("none_left", "no {card} is left at court", card=name)
        if card.needs and card.needs not in self.owned[p]:
            return RuleError("needs_card", "the {card} needs a {needed} of your own, which it "
                             "replaces", card=name,
                             needed=self.court.card(card.needs).label("de"))
        return None

    def buyable(self) -> tuple[CourtCard, ...]:
        """Cards the current player may buy, whatever the dice (available, not owned)."""
        return tuple(c for c in self.court if self.why_not_buy(c) is None)

    def affordable(self) -> tuple[CourtCard, ...]:
        """Buyable cards whose cost the dice as they lie now (active and set aside) meet."""
        if self.final or self.over or self.dice.throws == 0:
            return ()
        result = self.dice.aside + self.dice.active
        return tuple(c for c in self.buyable() if c.cost.met_by(result))

    def holder(self) -> int | None:
        """Who holds the King now: its first buyer, or the best bid of the final round."""
        best = leader(self.throws, self.king_owner)
        return None if best is None else best.player

    def places(self) -> list[Place]:
        """Everyone's place once the final round is over (else the standing now)."""
        return places(self.throws, self.king_owner, len(self.players))


def _index(court: Court, card_id: str) -> int:
    for i, c in enumerate(court.cards):
        if c.id == card_id:
            return i
    court.card(card_id)  # an unknown id: UnknownCardError with close matches
    raise AssertionError  # pragma: no cover


def new_game(players: tuple[str, ...] | list[str], court: Court | None = None) -> GameState:
    """A new game: the whole court for this many players; the first player starts."""
    court = court or load_court()
    names = tuple(players)
    if not court.min_players <= len(names) <= court.max_players:
        raise RuleError("ukuk_player_count", "Um Krone und Kragen is for {low}-{high} "
                        "players, not {count}", low=court.min_players, high=court.max_players,
                        count=len(names))
    folded = [n.casefold() for n in names]
    if len(set(folded)) != len(folded):
        raise RuleError("player_names", "every player needs a different name")
    state = GameState(
        court=court, players=names, owned=((),) * len(names),
        left=tuple(court.copies(c.id, len(names)) for c in court.cards),
        order=tuple(range(len(names))), dice=TurnDice(court.dice),
    )
    return replace(state, last=f"{names[0]} starts")


def _card(state: GameState, card_id: str) -> CourtCard:
    return state.court.card(card_id)  # an unknown id is an UnknownCardError


def _playing(state: GameState, what: str) -> None:
    if state.over:
        raise RuleError("game_over", "cannot {what}: the game is over", what=what)


def _need_result(state: GameState, what: str) -> None:
    d = state.dice
    if d.throws == 0 or d.hand:
        raise RuleError("not_thrown", "cannot {what} yet: {player} has not thrown", what=what,
                        player=state.current_player)
    if d.active:
        raise RuleError("dice_still_active", "cannot {what} yet: set every die aside first "
                        "(still active: {active})", what=what, active=dice_text(d.active))


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``, or RuleError naming the rule that forbids it."""
    match action:
        case Players() | Undo():
            raise RuleError("not_a_move", "'{action}' is handled by the game record, not by "
                            "a turn", action=str(action))
        case Rolled():
            return _throw(state, action)
        case SetAside():
            return _set_aside(state, action)
        case UseCard():
            return _use(state, action)
        case Fix():
            return _fix(state, action)
        case Buy():
            return _buy(state, action)
        case Pass():
            _playing(state, "pass")
            if state.final:
                raise RuleError("final_no_pass", "in the final round the result is a bid: "
                                "say 'bid'")
            _need_result(state, "end the turn")
            return _end_turn(state, f"{state.current_player} passed")
        case Bid():
            return _bid(state)
    raise RuleError("ukuk_unknown_action", "unknown action {action}",  # pragma: no cover
                    action=repr(action))


def _throw(state: GameState, action: Rolled) -> GameState:
    _playing(state, "throw")
    values = plain_values(action.roll)
    d = state.dice
    name = state.current_player
    if d.throws == 0:
        expected = d.hand + len(d.active)
        if len(values) != expected:
            parts = [f"{state.court.dice}"] + [
                f"{c.ability.start_dice} {c.label('de')}"
                for c in map(state.court.card, state.owned[state.current])
                if c.ability.start_dice
            ]
            if d.active:
                raise RuleError("throw_count_brought", "{player} throws {expected} dice "
                                "({parts} + {brought} brought in), not {count}", player=name,
                                expected=expected, parts=" + ".join(parts),
                                brought=len(d.active), count=len(values))
            raise RuleError("throw_count", "{player} throws {expected} dice ({parts}), not "
                            "{count}", player=name, expected=expected, parts=" + ".join(parts),
                            count=len(values))
    else:
        if not d.active:
            raise RuleError("all_aside", "every die is set aside: no die is left to throw")
        if not d.aside_since_throw:
            raise RuleError("aside_first", "after every throw at least one die must be set "
                            "aside before the next throw")
        expected = len(d.active)
        if len(values) != expected:
            raise RuleError("throw_again_count", "{player} throws the {expected} active dice "
                            "again, not {count}", player=name, expected=expected,
                            count=len(values))
    dice = replace(d, hand=0, active=values, throws=d.throws + 1,
                   aside_since_throw=False)
    return replace(state, dice=dice, last=f"{name} threw {dice_text(values)}")


def _set_aside(state: GameState, action: SetAside) -> GameState:
    _playing(state, "set dice aside")
    d = state.dice
    rest = take_dice(action.values, d.active)
    dice = replace(d, active=tuple(rest), aside=d.aside + action.values,
                   aside_since_throw=True)
    return replace(state, dice=dice,
                   last=f"{state.current_player} set aside {dice_text(action.values)}")


def take_dice(values: Values, active: Values) -> list[int]:
    """The active dice left after setting ``values`` aside; RuleError if they are not
    there."""
    rest = list(active)
    for v in values:
        if v not in rest and not active:
            raise RuleError("aside_no_active_dice", "cannot set aside a {value}: no active "
                            "die shows it (active dice: none)", value=v)
        if v not in rest:
            raise RuleError("aside_no_such_die", "cannot set aside a {value}: no active die "
                            "shows it (active dice: {active})", value=v,
                            active=dice_text(active))
        rest.remove(v)
    return rest


def _use(state: GameState, action: UseCard) -> GameState:
    _playing(state, "use a court card")
    card = _card(state, action.card)
    p, d = state.current, state.dice
    name = card.label("de")
    if card.id not in state.owned[p]:
        raise RuleError("not_owned", "{player} has no {card} to use",
                        player=state.current_player, card=name)
    ability = card.ability
    if not ability.usable:
        ability.check(name, (), (), d.active, d.aside)  # raises the reason
    if card.id in d.used:
        raise RuleError("used_this_round", "the {card} was already used this round; each "
                        "court card once a round", card=name)
    before, after = ability.complete(action.before, action.after)
    ability.check(name, before, after, d.active, d.aside)
    for v in after:
        if not 1 <= v <= 6:
            raise RuleError("die_value", "a die shows 1 to 6, not {value}", value=v)
    if isinstance(ability, Raise) and len(ability.by) == 1:
        after = tuple(v + ability.by[0] for v in before)  # each die keeps its place
    dice = replace(d, active=after_use(d.active, before, after), used=(*d.used, card.id))
    what = f"{dice_text(before)} -> {dice_text(after)}" if before else dice_text(after)
    return replace(state, dice=dice, last=f"{state.current_player} used the {name}: {what}")


def _fix(state: GameState, action: Fix) -> GameState:
    """Dice misread: ``fix 3 5`` says die 3 shows 5, counting the active dice first and
    then the set-aside ones, as the table lists them."""
    _playing(state, "correct a die")
    d = state.dice
    dice = list(d.active + d.aside)
    words = []
    for position, die in action.dice:
        if not 1 <= position <= len(dice):
            raise RuleError("no_die_here", "there is no die {position}; the dice are "
                            "1-{dice} (active first, then set aside)", position=position,
                            dice=len(dice))
        (value,) = plain_values(Roll((die,)))
        words.append(f"die {position} from {dice[position - 1]} to {value}")
        dice[position - 1] = value
    n = len(d.active)
    return replace(state, dice=replace(d, active=tuple(dice[:n]), aside=tuple(dice[n:])),
                   last="corrected " + ", ".join(words))


def plain_values(roll: Roll) -> Values:
    """The values of ordinary dice; a die read with a face colour is refused."""
    for die in roll:
        if die.color is not None:
            raise RuleError("plain_dice", "Um Krone und Kragen is played with ordinary dice: "
                            "{die} has a face colour; write its number only", die=str(die))
    return roll.values


def _buy(state: GameState, action: Buy) -> GameState:
    _playing(state, "buy a court card")
    if state.final:
        raise RuleError("final_no_buy", "no court card is bought in the final round: say "
                        "'bid'")
    card = _card(state, action.card)
    refusal = state.why_not_buy(card)
    if refusal is not None:
        raise refusal
    _need_result(state, "buy")
    result = state.dice.aside
    if not card.cost.met_by(result):
        raise RuleError("cost_not_met", "the result {result} does not pay the {card} "
                        "({cost})", result=dice_text(sorted(result)), card=card.label("de"),
                        cost=state.court.cost_label(card),
                        cost_de=state.court.cost_label(card, "de"))
    p = state.current
    court = state.court
    owned = [*list(state.owned[p]), card.id]
    left = list(state.left)
    left[_index(court, card.id)] -= 1
    words = f"{state.current_player} bought the {card.label('de')}"
    if card.replaces and card.replaces in owned:
        owned.remove(card.replaces)
        left[_index(court, card.replaces)] += 1
        words += f"; the {court.card(card.replaces).label('de')} goes back to court"
    changes: dict[str, object] = {}
    if card.id == court.king and state.king_owner is None:
        queen = _index(court, court.queen)
        if left[queen]:
            owned.append(court.queen)
            left[queen] -= 1
            words += f" and the {court.card(court.queen).label('de')}"
        count, number = best_group(result)
        changes = {"king_round": state.round, "king_owner": p,
                   "throws": (FinalThrow(p, count, number, 0),)}
        words += f"; first bid {count} × {number}; the final round follows this round"
    all_owned = list(state.owned)
    all_owned[p] = tuple(owned)
    s = replace(state, owned=tuple(all_owned), left=tuple(left), **changes)  # type: ignore[arg-type]
    return _end_turn(s, words)


def _bid(state: GameState) -> GameState:
    _playing(state, "bid")
    if not state.final:
        raise RuleError("bid_not_final", "bids are made in the final round; now buy a card "
                        "or pass")
    _need_result(state, "bid")
    count, number = best_group(state.dice.aside)
    throw = FinalThrow(state.current, count, number, len(state.throws))
    s = replace(state, throws=(*state.throws, throw))
    holder = s.holder()
    words = f"{state.current_player} bid {count} × {number}"
    if holder is not None:
        words += f"; {state.players[holder]} holds the King"
    return _end_turn(s, words)


def _end_turn(state: GameState, words: str) -> GameState:
    """The next player's turn, the next round, the final round or the end."""
    n = len(state.players)
    at = state.at + 1
    s = state
    if at == len(state.order):
        start = state.order[-1]  # the last player of a round starts the next
        clockwise = tuple((start + i) % n for i in range(n))
        if state.final:
            return _game_over(replace(state, last=words))
        if state.king_round == state.round and state.king_owner is not None:
            owner = state.king_owner
            order = (*tuple(p for p in clockwise if p != owner), owner)
            s = replace(state, order=order, final=True, round=state.round + 1)
            words += "; the final round begins"
        else:
            s = replace(state, order=clockwise, round=state.round + 1)
        at = 0
    s = replace(s, at=at, turn=state.turn + 1)
    player = s.order[at]
    return replace(s, dice=TurnDice(s.start_dice(player)), last=words)


def _game_over(state: GameState) -> GameState:
    """The final round is over: the King goes to the best bid; the game ends."""
    holder = state.holder()
    owner = state.king_owner
    owned = list(state.owned)
    words = state.last
    if holder is not None and owner is not None and holder != owner:
        king = state.court.king
        owned[owner] = tuple(c for c in owned[owner] if c != king)
        owned[holder] = (*owned[holder], king)
        words += f"; the King goes to {state.players[holder]}"
    if holder is not None:
        words += f"; {state.players[holder]} wins"
    return replace(state, owned=tuple(owned), over=True, dice=TurnDice(0), last=words)
