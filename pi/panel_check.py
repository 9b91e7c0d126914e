"""``kotd doctor --panel``: press each button and look at each LED, one at a time.

Each LED is lit alone and the person at the table answers whether they see it; each button
must be pressed within a few seconds. Every device gets a plain verdict with the header pin
to check when it fails. The pins must be free (the assistant stopped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi.checks import Finding
from pi.config import Pins
from pi.wiring import wires


def walk_panel(pins: Pins, factory: Any, ask: Callable[[str], bool],
               say: Callable[[str], None], wait_seconds: float = 10.0) -> list[Finding]:
    """Test every device of the panel with the person at the table.

    ``say`` tells them what to do (a button: press it now); ``ask`` asks a yes/no
    question (an LED: is it lit?) and returns the answer.
    """
    from gpiozero import LED, Button

    found = []
    for wire in wires(pins):
        where = f"GPIO {wire.bcm}, header pin {wire.header}"
        if wire.is_button:
            button = Button(wire.bcm, pin_factory=factory, bounce_time=0.03)
            try:
                say(f"press {wire.device.removeprefix('button: ')!r} now "
                    f"(within {wait_seconds:g} s)")
                pressed = button.wait_for_press(timeout=wait_seconds)
            finally:
                button.close()
            found.append(Finding("ok", "panel", f"{wire.device}: pressed") if pressed else
                         Finding("fail", "panel", f"{wire.device}: no press seen: check the "
                                 f"wire to {where} and the other leg to a ground pin"))
        else:
            led = LED(wire.bcm, pin_factory=factory)
            try:
                led.on()
                lit = ask(f"is the {wire.device.removeprefix('LED: ')!r} LED lit?")
            finally:
                led.close()
            found.append(Finding("ok", "panel", f"{wire.device}: lit") if lit else
                         Finding("fail", "panel", f"{wire.device}: not lit: check {where}, "
                                 "the 330 Ω resistor, and the LED's way round (long leg "
                                 "towards the pin)"))
    return found
