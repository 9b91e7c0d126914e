"""The panel's wiring diagram, drawn from the pin configuration so it never drifts.

:func:`wiring_block` makes the table and the picture of the 40-pin header for a
:class:`~pi.config.Pins`; hardware.md holds the block for the default pins between two
marker lines, and a test fails when it is out of date. Redraw it with::

    python -m pi.wiring --write hardware.md      # or --check to only compare
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, fields
from pathlib import Path

from pi.config import RESERVED_PINS, SCREEN_PINS, Pins

BEGIN = "<!-- wiring: made by `python -m pi.wiring --write hardware.md`; do not edit -->"
END = "<!-- end of wiring -->"

HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}
"""The 40-pin header of every Raspberry Pi since the B+ (Pi 4 and Pi 5 alike)."""

BCM_TO_HEADER: dict[int, int] = {int(name[4:]): pin for pin, name in HEADER.items()
                                 if name.startswith("GPIO")}
GROUND_PINS = tuple(pin for pin, name in HEADER.items() if name == "GND")


@dataclass(frozen=True, slots=True)
class Wire:
    """One panel device: what it is, its config key, its BCM number and header pin."""

    device: str       # "button: confirm", "LED: slot 2 claimable"
    key: str          # "pins.confirm", "pins.slots[1]"
    bcm: int

    @property
    def header(self) -> int:
        return BCM_TO_HEADER[self.bcm]

    @property
    def is_button(self) -> bool:
        return self.device.startswith("button")


def wires(pins: Pins) -> list[Wire]:
    """Every device of the panel in the order of :class:`Pins`' fields."""
    out = []
    for f in fields(pins):
        value = getattr(pins, f.name)
        if value is None:  # an optional device not wired
            continue
        doc = f.metadata.get("doc", f"LED: {f.name}")
        if isinstance(value, tuple):
            for i, bcm in enumerate(value):
                text = doc.format(n=i + 1)
                if i == len(value) - 1 and "last" in f.metadata and len(value) == 4:
                    text = f.metadata["last"]
                out.append(Wire(text, f"pins.{f.name}[{i}]", bcm))
        else:
            out.append(Wire(doc, f"pins.{f.name}", value))
    return out


def conflicts(pins: Pins) -> list[str]:
    """Pins of the panel that an SPI screen, I2C or the HAT EEPROM may need."""
    taken = {**RESERVED_PINS, **SCREEN_PINS}
    return [f"GPIO {w.bcm} ({w.device}) is also {taken[w.bcm]}" for w in wires(pins)
            if w.bcm in taken]


def wiring_table(pins: Pins) -> str:
    rows = ["| device | config key | BCM | header pin | wire to |", "|---|---|---|---|---|"]
    for w in wires(pins):
        to = ("button, other leg to GND" if w.is_button
              else "330 Ω → LED anode (long leg); cathode to GND")
        rows.append(f"| {w.device} | `{w.key}` | {w.bcm} | {w.header} | {to} |")
    rows.append(f"| ground for buttons and LEDs | | GND | "
                f"{', '.join(map(str, GROUND_PINS))} | |")
    return "\n".join(rows)


def _short(device: str) -> str:
    kind, _, what = device.partition(": ")
    what = what.split(" (")[0]
    return f"[{what}]" if kind == "button" else f"LED {what}"


def _bcm(pin: int) -> int | None:
    name = HEADER[pin]
    return int(name[4:]) if name.startswith("GPIO") else None


def header_picture(pins: Pins) -> str:
    """The header seen from above, USB/Ethernet ports at the bottom, each used pin labelled."""
    by_bcm = {w.bcm: w for w in wires(pins)}
    reserved = {**RESERVED_PINS, **SCREEN_PINS}

    def label(pin: int) -> str:
        name = HEADER[pin]
        if name.startswith("GPIO"):
            bcm = int(name[4:])
            if bcm in by_bcm:
                return _short(by_bcm[bcm].device)
            if bcm in SCREEN_PINS:
                return "(screen)"
            if bcm in reserved:
                return "(keep free)"
            return ""
        return "ground" if name == "GND" else ""

    width = max(len(label(p)) for p in HEADER) + 1
    lines = ["SD card edge".center(2 * width + 34).rstrip()]
    for odd in range(1, 41, 2):
        even = odd + 1
        used_odd = "●" if _bcm(odd) in by_bcm else "○"
        used_even = "●" if _bcm(even) in by_bcm else "○"
        lines.append(f"{label(odd):>{width}} {HEADER[odd]:>6} {odd:>2} {used_odd} "
                     f"{used_even} {even:<2} {HEADER[even]:<6} {label(even)}".rstrip())
    lines.append("USB / Ethernet edge".center(2 * width + 34).rstrip())
    return "\n".join(lines)


def wiring_block(pins: Pins | None = None) -> str:
    """The generated part of hardware.md: the table and the header picture."""
    pins = pins or Pins()
    return "\n".join([
        BEGIN, "", wiring_table(pins), "", "```text", header_picture(pins), "```",
        "", "● a wire of the panel, ○ not used by the panel; `(screen)` pins are kept "
        "free for an SPI screen, `(keep free)` ones for I2C (a clock module) and the HAT "
        "EEPROM.", END])


def update(text: str, pins: Pins | None = None) -> str:
    """``text`` with the block between the markers replaced by a fresh one."""
    try:
        start = text.index(BEGIN)
        end = text.index(END, start) + len(END)
    except ValueError:
        raise ValueError("the wiring markers are missing (see pi/wiring.py)") from None
    return text[:start] + wiring_block(pins) + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pi.wiring", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", type=Path, help="the markdown file (hardware.md)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="redraw the block in the file")
    group.add_argument("--check", action="store_true", help="fail if the block is stale")
    args = parser.parse_args(argv)
    if args.file is None:
        print(wiring_block())
        return 0
    text = args.file.read_text(encoding="utf-8")
    fresh = update(text)
    if args.check:
        if fresh != text:
            print(f"{args.file}: the wiring diagram is out of date: "
                  f"python -m pi.wiring --write {args.file}", file=sys.stderr)
            return 1
        return 0
    if args.write and fresh != text:
        args.file.write_text(fresh, encoding="utf-8")
    elif not args.write:
        print(wiring_block())
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
