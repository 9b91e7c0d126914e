"""The panel on gpiozero's mock pins: LEDs follow the table, buttons send actions."""

from __future__ import annotations

import time

import pytest
from conftest import play
from gpiozero.pins.mock import MockFactory

from pi.config import Pins
from pi.panel import Panel
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table


@pytest.fixture
def table(tmp_path):
    factory = MockFactory()
    game = Table(EventStore(None), game_pack("kotd"))
    rereads = []
    panel = Panel(Pins(), game.act, lambda: rereads.append(1), factory)

    def refresh(camera_ok: bool = True) -> None:
        panel.show(game.snapshot.lights, camera_ok)

    game.subscribe(lambda _snapshot: refresh())
    yield game, panel, factory, rereads, refresh
    panel.close()
    factory.reset()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    time.sleep(0.06)
    factory.pin(pin).drive_high()
    time.sleep(0.06)


def lit(leds) -> list[bool]:
    return [bool(led.is_lit) for led in leds]


def test_leds_follow_rolls_and_claimable_slots_and_buttons_claim(table) -> None:
    game, panel, factory, _, _ = table
    play(game, "players Ann Ben")
    play(game, "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    assert lit(panel.roll_leds) == [False] * 4 and not panel.penalty_led.is_lit
    play(game, "roll 1b 1b 4b 6g 6r 3b")          # satisfies nothing, but rolls are left
    assert lit(panel.roll_leds) == [True, False, False, False]
    assert lit(panel.slot_leds) == [False] * 5 and not panel.penalty_led.is_lit
    play(game, "roll 4r 4g 4b 1r 2g 6b")          # orc-3 (slot 2) and fairy (slot 5)
    assert lit(panel.roll_leds) == [True, True, False, False]
    assert not panel.penalty_led.is_lit
    assert [i for i, on in enumerate(lit(panel.slot_leds), 1) if on] == [2, 5]
    press(factory, Pins().claim)                   # select slot 2
    assert panel.selected == 2
    press(factory, Pins().claim)                   # next: slot 5
    assert panel.selected == 5
    press(factory, Pins().confirm)
    state = game.state
    assert state.kingdoms[0][-1] == "fairy-2r2g" and state.phase == "draw"
    assert lit(panel.slot_leds) == [False] * 5 and lit(panel.roll_leds) == [False] * 4


def test_undo_and_reread_buttons(table) -> None:
    game, _panel, factory, rereads, _ = table
    play(game, "players Ann Ben")
    play(game, "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    play(game, "roll 4r 4g 4b 1r 2g 6b")
    press(factory, Pins().undo)
    assert game.state.roll is None and game.state.rolls_used == 0
    press(factory, Pins().reread)
    assert rereads == [1]


def test_a_refused_button_action_changes_nothing_and_says_why(table) -> None:
    game, panel, factory, _, _ = table
    play(game, "players Ann Ben")
    before = game.record
    press(factory, Pins().undo)
    press(factory, Pins().undo)   # nothing left to undo: refused
    assert game.record.actions == () and "nothing to undo" in panel.message
    assert before.players == game.record.players


def test_elf_fourth_roll_led_and_camera_status_led(table) -> None:
    game, panel, _, _, refresh = table
    for line in ["players Ann Ben", "row elf-4 orc-3 dwarf-3x1 gnome-3green fairy-2r2g",
                 "roll 1r 2g 3b 4r 6g 6b", "claim 1", "draw orc-4",
                 "roll 1b 2b 4b 6g 6r 3b", "penalty -1", "draw elf-5"]:
        play(game, line)
    assert game.state.max_rolls == 4  # Ann: elf on top
    assert panel.roll_leds[3]._blink_thread is not None  # blinking: a 4th roll is there
    refresh(camera_ok=False)
    assert panel.status_led._blink_thread is not None
    refresh(camera_ok=True)
    assert panel.status_led.is_lit and panel.status_led._blink_thread is None


def test_the_penalty_led_lights_only_when_no_roll_is_left(table) -> None:
    game, panel, _, _, _ = table
    play(game, "players Ann Ben")
    play(game, "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    for n in (1, 2, 3):
        play(game, "roll 1b 1b 4b 6g 6r 3b")      # satisfies nothing
        assert bool(panel.penalty_led.is_lit) == (n == 3), n


def hold(factory: MockFactory, pin: int, seconds: float) -> None:
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()
    time.sleep(0.06)


def test_a_long_press_on_confirm_leaves_the_village_card(table) -> None:
    game, panel, factory, _, _ = table
    play(game, "players Ann Ben")
    play(game, "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    play(game, "roll 4r 4g 4b 1r 2g 6b")          # orc-3 (slot 2) and fairy (slot 5)
    press(factory, Pins().claim)                   # slot 2: the orc; its village is brown
    press(factory, Pins().claim)                   # slot 5: the fairy under the purple village
    assert panel.selected == 5
    hold(factory, Pins().confirm, 1.2)
    assert game.state.kingdoms[0] == ("fairy-2r2g",)  # no village card came along
    assert str(game.record.actions[-1]) == "claim 5 no-village no-bonus"
    game.act(game.parse("undo"))
    press(factory, Pins().claim)
    press(factory, Pins().claim)
    press(factory, Pins().confirm)                 # a short press takes the village too
    assert game.state.kingdoms[0] == ("enchanted-forest-2", "fairy-2r2g")


def test_the_check_led_and_confirm_for_a_roll_with_an_unsure_die(tmp_path) -> None:
    from rules.actions import Seen
    from rules.dice import Roll

    factory = MockFactory()
    game = Table(EventStore(None), game_pack("kotd"))
    panel = Panel(Pins(check=18), game.act, lambda: None, factory,
                  confirm_held=game.confirm_held)
    game.subscribe(lambda snap: panel.show(
        snap.lights, True, check=snap.held is not None and snap.held.why == "check"))
    try:
        play(game, "players Ann Ben")
        play(game, "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
        game.saw(Seen(Roll.parse("4r 4g 4b 1r 2g 6b"), unsure=(3,)))
        assert game.state.roll is None and panel.check_led.is_lit
        press(factory, Pins().confirm)             # the table looked: the dice are right
        assert str(game.state.roll) == "4r 4g 4b 1r 2g 6b" and not panel.check_led.is_lit
        assert game.snapshot.held is None and len(game.record.actions) == 2
    finally:
        panel.close()
        factory.reset()
