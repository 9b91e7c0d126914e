"""The table panel: four buttons and a row of LEDs, through gpiozero.

Buttons (to ground, internal pull-ups): *claim / next slot* moves the selection through the
claimable citizens (the selected slot's LED blinks), *confirm* claims the selected one
(a long press leaves its village card and the hypnotist's bonus card; while a roll waits
to be checked, *confirm* says the dice are right),
*undo* takes back the last action, *re-read* reads the dice in the tray again.

LEDs: one per roll used (the 4th blinks while an elf's extra roll is still to come), one
per citizen slot lit while that card is claimable, a penalty LED lit when the player must
take a penalty (nothing fits and no roll is left), a status LED: on while the camera reads,
blinking when it is away, a short flash each second while the game cannot be saved, and an
optional check LED lit while a roll waits for the table to check a die the camera is
unsure of.

The panel is handed typed actions to send (``act``, e.g. the table's) and shows each
snapshot the table publishes (:meth:`Panel.show`, from the pack's :class:`rules.pack.Lights`).

Off the Pi, gpiozero's mock pins stand in (``pin_factory="mock"``), so tests press buttons
(``factory.pin(n).drive_low()``) and read LEDs (``led.is_lit``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero import LED, Button

from pi.config import Pins
from rules.actions import Action, Undo
from rules.errors import KotdError
from rules.games import game_pack
from rules.pack import Lights
from rules.store import SaveError

log = logging.getLogger(__name__)

LONG_PRESS = 0.8
"""Seconds the confirm button is held for "take it, but leave the village / bonus card"."""


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def make_pin_factory(name: str) -> Any:
    """gpiozero's pin factory: the real one on a Pi, mock pins elsewhere (or when asked)."""
    if name == "mock" or (name == "auto" and not on_raspberry_pi()):
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "auto":
        return None  # gpiozero picks lgpio (Pi 5) or another real factory itself
    from importlib.metadata import entry_points

    factories = {e.name: e for e in entry_points(group="gpiozero_pin_factories")}
    if name not in factories:
        raise ValueError(f"unknown pin factory {name!r} (known: auto, {', '.join(factories)})")
    return factories[name].load()()


class Panel:
    """The buttons and LEDs, driven by the game state and the camera's sight."""

    def __init__(self, pins: Pins, act: Callable[[Action], object], reread: Callable[[], None],
                 factory: Any = None, take: Callable[[int], Action] | None = None,
                 take_leaving: Callable[[int], Action] | None = None,
                 confirm_held: Callable[[], object] | None = None) -> None:
        """``act`` sends a typed action (the table's); ``take(slot)`` is the action that
        takes the selected slot (the game pack's, King of the Dice's ``claim`` by default)."""
        self.pins = pins
        self._act = act
        kotd = game_pack("kotd")
        self._take = take or (lambda slot: kotd.take_in(None, slot))
        self._take_leaving = take_leaving or (lambda slot: kotd.take_leaving(None, slot))
        self._confirm_held = confirm_held
        self._reread = reread
        self.factory = factory
        kw = {"pin_factory": factory} if factory is not None else {}
        self.claim_button = Button(pins.claim, bounce_time=0.03, **kw)
        self.confirm_button = Button(pins.confirm, bounce_time=0.03, hold_time=LONG_PRESS,
                                     **kw)
        self.undo_button = Button(pins.undo, bounce_time=0.03, **kw)
        self.reread_button = Button(pins.reread, bounce_time=0.03, **kw)
        self.roll_leds = [LED(p, **kw) for p in pins.rolls]
        self.slot_leds = [LED(p, **kw) for p in pins.slots]
        self.penalty_led = LED(pins.penalty, **kw)
        self.status_led = LED(pins.status, **kw)
        self.check_led = None if pins.check is None else LED(pins.check, **kw)
        self._check = False
        self._lock = threading.Lock()
        self._claimable: tuple[int, ...] = ()
        self.selected: int | None = None
        self.message = ""
        self.claim_button.when_pressed = self._next_slot
        self.confirm_button.when_held = self._confirm_long
        self.confirm_button.when_released = self._confirm_released
        self._long = False
        self.undo_button.when_pressed = lambda: self._do(Undo())
        self.reread_button.when_pressed = self._reread_pressed

    # ---- buttons -------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        try:
            self._act(action)
            self.message = ""
        except (KotdError, SaveError) as err:  # refused, or not saved: say so, blink
            self.message = str(err)
            log.info("button action '%s' not taken: %s", action, err)
            self.penalty_led.blink(on_time=0.1, off_time=0.1, n=3)

    def _next_slot(self) -> None:
        with self._lock:
            if not self._claimable:
                self.selected = None
                return
            if self.selected not in self._claimable:
                self.selected = self._claimable[0]
            else:
                i = self._claimable.index(self.selected)
                self.selected = self._claimable[(i + 1) % len(self._claimable)]
            self._show_slots()

    def _confirm_released(self) -> None:
        """A short press: take the selected card (with its village and bonus card), or,
        while a roll waits to be checked, say the dice are right."""
        if self._long:  # the long press has acted already
            self._long = False
            return
        with self._lock:
            slot, check = self.selected, self._check
        if check and self._confirm_held is not None:
            self._do_held()
        elif slot is not None:
            self._do(self._take(slot))

    def _confirm_long(self) -> None:
        """A long press: take the selected card but leave its village card and the
        hypnotist's bonus card (the rules allow it)."""
        self._long = True
        with self._lock:
            slot = self.selected
        if slot is not None:
            self._do(self._take_leaving(slot))

    def _do_held(self) -> None:
        try:
            self._confirm_held()  # type: ignore[misc]
            self.message = ""
        except KotdError as err:
            self.message = str(err)
            self.penalty_led.blink(on_time=0.1, off_time=0.1, n=3)

    def _reread_pressed(self) -> None:
        self._reread()

    # ---- LEDs ----------------------------------------------------------------------

    def _show_slots(self) -> None:
        for slot, led in enumerate(self.slot_leds, start=1):
            if slot == self.selected:
                led.blink(on_time=0.25, off_time=0.25)
            elif slot in self._claimable:
                led.on()
            else:
                led.off()

    def show(self, lights: Lights, camera_ok: bool, check: bool = False,
             saving_ok: bool = True) -> None:
        """Light the LEDs as the game's pack says (:class:`rules.pack.Lights`); ``check``:
        a roll waits for the table to check a die (the check LED, or the status LED
        flickering when no check LED is wired). The status LED is on while all is well,
        blinks while the camera is away and flashes briefly once a second while the game
        cannot be saved (the card is full or read-only: the page says which)."""
        with self._lock:
            self._check = check
            if self.check_led is not None:
                if check:
                    self.check_led.on()
                else:
                    self.check_led.off()
            claimable = lights.slots
            used, most, penalty = lights.rolls_used, lights.max_rolls, lights.penalty
            if claimable != self._claimable:
                self.selected = claimable[0] if len(claimable) == 1 else None
            self._claimable = claimable
            if self.selected not in claimable:
                self.selected = None
            for i, led in enumerate(self.roll_leds):
                if i < used:
                    led.on()
                elif i < most and i >= 3:
                    led.blink(on_time=0.5, off_time=1.0)  # the elf's 4th roll is there
                else:
                    led.off()
            self._show_slots()
            if penalty:
                self.penalty_led.on()
            else:
                self.penalty_led.off()
            if not saving_ok:
                self.status_led.blink(on_time=0.1, off_time=0.9)
            elif check and self.check_led is None:
                self.status_led.blink(on_time=0.08, off_time=0.08)
            elif camera_ok:
                self.status_led.on()
            else:
                self.status_led.blink(on_time=0.2, off_time=0.2)

    def close(self) -> None:
        """Close every button and LED. A gpiozero button's hold thread looks for its stop
        only every 0.1 s, so all four are told to stop first and end together: a close
        takes one such wait at most, not one per button."""
        buttons = [self.claim_button, self.confirm_button, self.undo_button,
                   self.reread_button]
        for button in buttons:
            hold = getattr(button, "_hold_thread", None)  # gpiozero's HoldMixin
            if hold is not None:
                hold.stopping.set()
                hold.holding.set()  # its wait for a press ends now, and it sees the stop
        for device in [*buttons, *self.roll_leds, *self.slot_leds, self.penalty_led,
                       self.status_led, *([self.check_led] if self.check_led else [])]:
            device.close()

