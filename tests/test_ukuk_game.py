"""Um Krone und Kragen: whole games worked out by hand, the turn's rules, undo, parsing.

The scripted game: Ann and Ben both buy Hofnarr, Scharlatan (the Hofnarr goes back to
court), Bauer, Handwerker, Wachmann and Dienstmagd. Ann buys the König with seven 2s
(five thrown 2s, the Wachmann's 2, the Handwerker's 1 raised by the Dienstmagd) and gets
the Königin: her first bid is 7 × 2. Ben finishes the round by buying a Hofnarr again.
In the final round Ben throws first (the owner throws last) and bids 7 × 3. Then either
Ann fails (the King goes to Ben) or she equals with the Königin's die (she keeps it).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ukukkit import ANN_EQUALS, ANN_FAILS, GAME, lines

from rules.actions import Players
from rules.errors import ActionSyntaxError, RuleError
from rules.record import GameRecord, replay
from rules.ukuk import UmKroneUndKragen
from rules.ukuk.actions import UseCard, parse_action
from rules.ukuk.game import GameState, TurnDice, apply, new_game

PACK = UmKroneUndKragen.default()

def play(text: str) -> GameRecord:
    return replay(PACK, lines(text))


def test_the_scripted_game_up_to_the_final_round():
    record = play(GAME)
    s = record.state
    assert s.final and not s.over
    assert s.current_player == "Ann"  # the owner throws last
    assert set(s.owned[0]) == {"scharlatan", "bauer", "handwerker", "wachmann",
                               "dienstmagd", "koenig", "koenigin"}
    assert set(s.owned[1]) == {"scharlatan", "bauer", "handwerker", "wachmann",
                               "dienstmagd", "hofnarr"}
    assert s.copies_left("hofnarr") == 1  # two copies, both sent back, one bought again
    assert s.copies_left("koenig") == 0 and s.copies_left("koenigin") == 0
    assert s.holder() == 1  # Ben's 7 × 3 beats Ann's first bid 7 × 2
    assert [(t.player, t.count, t.number) for t in s.throws] == [(0, 7, 2), (1, 7, 3)]
    assert s.dice.hand == 5  # three + Bauer + Scharlatan


def test_the_king_changes_hands_in_the_final_round():
    s = play(GAME + ANN_FAILS).state
    assert s.over
    assert "the King goes to Ben" in s.last and "Ben wins" in s.last
    assert "koenig" in s.owned[1] and "koenig" not in s.owned[0]
    assert "koenigin" in s.owned[0]  # the queen stays with the first buyer
    places = [(p.place, s.players[p.player], p.bid.count, p.bid.number, p.king)
              for p in s.places() if p.bid]
    assert places == [(1, "Ben", 7, 3, True), (2, "Ann", 7, 2, False)]


def test_the_owner_defends_the_king_by_equalling():
    s = play(GAME + ANN_EQUALS).state
    assert s.over and "Ann wins" in s.last
    assert "koenig" in s.owned[0]
    places = [(p.place, s.players[p.player], p.bid.count, p.bid.number)
              for p in s.places() if p.bid]
    assert places == [(1, "Ann", 7, 3), (2, "Ben", 7, 3)]


def test_no_action_after_the_end():
    record = play(GAME + ANN_FAILS)
    for line in ("roll 1 2 3", "buy bauer", "bid", "pass"):
        with pytest.raises(RuleError, match="game is over"):
            record.act(parse_action(line))


def test_undo_walks_back_through_the_whole_game():
    record = play(GAME + ANN_EQUALS)
    n = len(record.actions)
    for _ in range(n):
        record = record.act(parse_action("undo"))
    assert record.state == GameRecord.start(PACK, Players(("Ann", "Ben"))).state
    with pytest.raises(RuleError, match="nothing to undo"):
        record.act(parse_action("undo"))


def test_rounds_move_the_start_player_counter_clockwise():
    s = new_game(["A", "B", "C"])
    seen = []
    for _ in range(9):
        seen.append(s.current_player)
        for line in ("roll 1 1 1", "aside 1 1 1", "pass"):
            s = apply(s, parse_action(line))
    assert "".join(seen) == "ABCCABBCA"


def test_final_round_order_puts_the_owner_last():
    s = new_game(["A", "B", "C"])
    # give A a Feldherr, a Bauer and a Scharlatan: seven dice
    owned = (("feldherr", "bauer", "scharlatan"), (), ())
    s = with_cards(s, owned)
    s = apply(s, parse_action("roll 1 1 1 1 1 1 1"))  # 3 + 2 + 1 + 1 = 7 dice
    s = apply(s, parse_action("aside 1 1 1 1 1 1 1"))
    s = apply(s, parse_action("buy koenig"))
    assert "final round follows" in s.last
    order = []
    while not s.final:
        order.append(s.current_player)
        for line in ("roll 2 2 2", "aside 2 2 2", "pass"):
            s = apply(s, parse_action(line))
    assert order == ["B", "C"]
    final = []
    while not s.over:
        final.append(s.current_player)
        n = s.dice.hand
        for line in (f"roll {' '.join(['6'] * n)}", f"aside {' '.join(['6'] * n)}", "bid"):
            s = apply(s, parse_action(line))
    # round 1 was A B C, so C starts the final round; A, the owner, throws last
    assert final == ["C", "B", "A"]
    assert [s.players[p.player] for p in s.places()] == ["A", "C", "B"]  # 7 × 6 for A


@pytest.mark.parametrize("line, reason", [
    ("roll 1 2", "throws 3 dice"),
    ("aside 4", "no active die shows it"),
    ("buy bauer", "has not thrown"),
    ("use hofnarr 1 -> 2", "has no Hofnarr"),
    ("bid", "final round"),
])
def test_refused_before_the_first_throw(line, reason):
    s = new_game(["Ann", "Ben"])
    with pytest.raises(RuleError, match=reason):
        apply(s, parse_action(line))


def test_turn_rules_are_enforced_with_reasons():
    record = play(GAME)
    undo_to = lines(GAME).index("use wachmann")  # Ann's King turn, dice all set aside
    record = replay(PACK, lines(GAME)[:undo_to])
    s = record.state
    assert s.current_player == "Ann" and s.dice.aside == (2, 2, 2, 2, 2)
    refusals = {
        "roll 1 2 3": "every die is set aside",
        "buy koenig": "does not pay the König",
        "buy koenigin": "comes with the first König",
        "buy bauer": "already has a Bauer",
        "buy hofnarr": "",  # allowed: the Hofnarr went back to court
        "use bauer": "not used during a turn",
        "use astronom 2 -> 2": "has no Astronom",
        "use ritter": "has no Ritter",
        "bid": "bids are made in the final round",
        "use dienstmagd 2 -> 3": "no active die showing 2",
    }
    for line, reason in refusals.items():
        if reason:
            with pytest.raises(RuleError, match=reason):
                record.act(parse_action(line))
        else:
            record.act(parse_action(line))
    s = record.act(parse_action("use wachmann")).state
    with pytest.raises(RuleError, match="already used this round"):
        apply(s, parse_action("use wachmann"))
    with pytest.raises(RuleError, match="set every die aside first"):
        apply(s, parse_action("buy koenig"))


def test_a_die_may_not_go_above_six():
    s = new_game(["Ann", "Ben"])
    s = with_cards(s, (("edelmann", "hofdame", "dienstmagd"), ()))
    s = apply(s, parse_action("roll 5 6 1"))
    with pytest.raises(RuleError, match="cannot raise a 5: 5 \\+ 2 is more than 6"):
        apply(s, parse_action("use edelmann 5 1"))
    with pytest.raises(RuleError, match="cannot raise a 6"):
        apply(s, parse_action("use hofdame 6"))
    with pytest.raises(RuleError, match="adds 1, 2 or 3 to a die, so 1 cannot become 5"):
        apply(s, parse_action("use dienstmagd 1 -> 5"))
    s = apply(s, parse_action("use edelmann 1"))
    assert s.dice.active == (5, 6, 3)


def test_the_feldherrs_dice_must_be_taken():
    s = new_game(["Ann", "Ben"])
    s = with_cards(s, (("feldherr",), ()))
    with pytest.raises(RuleError, match="Ann throws 5 dice \\(3 \\+ 2 Feldherr\\), not 3"):
        apply(s, parse_action("roll 1 2 3"))
    apply(s, parse_action("roll 1 2 3 4 5"))


def with_cards(s: GameState, owned: tuple[tuple[str, ...], ...]) -> GameState:
    """The game with these court cards owned (copies taken from court), at turn start."""
    left = list(s.left)
    for cards in owned:
        for cid in cards:
            left[[c.id for c in s.court].index(cid)] -= 1
    s = replace(s, owned=owned, left=tuple(left))
    return replace(s, dice=TurnDice(s.start_dice(s.current)))


def test_one_die_must_be_set_aside_after_every_throw():
    s = apply(new_game(["Ann", "Ben"]), parse_action("roll 1 2 3"))
    with pytest.raises(RuleError, match="at least one die must be set aside"):
        apply(s, parse_action("roll 4 5 6"))
    s = apply(s, parse_action("aside 3"))
    with pytest.raises(RuleError, match="throws the 2 active dice again, not 3"):
        apply(s, parse_action("roll 4 5 6"))
    s = apply(s, parse_action("roll 4 5"))
    assert s.dice.active == (4, 5) and s.dice.aside == (3,)


def test_dice_brought_in_before_the_first_throw_are_thrown_too():
    s = new_game(["Ann", "Ben"])
    s = with_cards(s, (("handwerker",), ()))
    s = apply(s, parse_action("use handwerker"))
    with pytest.raises(RuleError, match="throws 4 dice \\(3 \\+ 1 brought in\\)"):
        apply(s, parse_action("roll 1 2 3"))
    s = apply(s, parse_action("roll 1 2 3 6"))
    assert s.dice.active == (1, 2, 3, 6)


def test_fix_corrects_a_misread_die():
    s = apply(new_game(["Ann", "Ben"]), parse_action("roll 1 2 3"))
    s = apply(s, parse_action("aside 3"))
    s = apply(s, parse_action("fix 2 5"))
    assert s.dice.active == (1, 5)
    s = apply(s, parse_action("fix 3 4 1 6"))  # die 3 is the set-aside one
    assert s.dice.active == (6, 5) and s.dice.aside == (4,)
    with pytest.raises(RuleError, match="there is no die 4"):
        apply(s, parse_action("fix 4 1"))
    with pytest.raises(RuleError, match="ordinary dice"):
        apply(s, parse_action("fix 1 3r"))


@pytest.mark.parametrize("line", [
    "players Ann Ben", "roll 1 3 3 6", "aside 3 3", "use edelmann 1 1 -> 3 3",
    "use handwerker", "use koenigin -> 5", "use hofdame 2 3", "fix 3 5", "buy ritter",
    "pass", "bid", "undo",
])
def test_actions_read_back_their_own_text(line):
    assert str(parse_action(line)) == line


@pytest.mark.parametrize("line, message", [
    ("roll 1 7", "value must be 1-6"),
    ("aside 7", "not a die"),
    ("use", "wrong number of words"),
    ("use edelmann 1 -> 3 -> 5", "one arrow"),
    ("buy", "wrong number"),
    ("jump", "unknown action"),
    ("pass now", "wrong number"),
    ("fix 3", "wrong number"),
    ("roll", "at least one die"),
])
def test_bad_lines_are_named(line, message):
    with pytest.raises(ActionSyntaxError, match=message):
        parse_action(line)


def test_arrows_and_commas_are_accepted():
    assert parse_action("use edelmann 1,1 → 3,3") == UseCard("edelmann", (1, 1), (3, 3))
    assert parse_action("USE Philosoph 5 1 to 3 3") == UseCard("philosoph", (5, 1), (3, 3))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_legal_play_never_loses_a_die(data):
    """Whatever legal actions are taken, the dice of a turn are never lost or doubled and
    every copy of every card is somewhere (at court or owned)."""
    s = new_game(["Ann", "Ben", "Cem"])
    court = s.court
    for _ in range(60):
        if s.over:
            break
        d = s.dice
        n_before = d.hand + len(d.active) + len(d.aside)
        options = []
        if d.hand or (d.active and (d.throws == 0 or d.aside_since_throw)):
            k = d.hand + len(d.active) if d.throws == 0 else len(d.active)
            options.append(f"roll {' '.join(str(data.draw(st.integers(1, 6))) for _ in range(k))}")
        if d.active:
            options.append(f"aside {d.active[0]}")
        for card in s.unused():
            if card.ability.deterministic:
                for before, after in card.ability.moves(
                        tuple([0] + [d.active.count(v) for v in range(1, 7)]),
                        tuple([0] + [d.aside.count(v) for v in range(1, 7)])):
                    options.append(str(UseCard(card.id, before, after)))
                    break
        if d.done:
            options += [f"buy {c.id}" for c in s.affordable()]
            options.append("bid" if s.final else "pass")
        line = data.draw(st.sampled_from(options))
        nxt = apply(s, parse_action(line))
        if nxt.turn == s.turn:
            d2 = nxt.dice
            added = 1 if line.startswith("use") and "->" in line and \
                line.split("->")[0].split()[2:] == [] else 0
            assert d2.hand + len(d2.active) + len(d2.aside) == n_before + added, line
        s = nxt
        players = len(s.players)
        for card in court:
            held = sum(c == card.id for owned in s.owned for c in owned)
            assert held + s.copies_left(card.id) == court.copies(card.id, players), card.id
