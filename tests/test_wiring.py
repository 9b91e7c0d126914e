"""The wiring diagram in hardware.md is the one the pin configuration draws."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import ROOT

from pi.config import RESERVED_PINS, SCREEN_PINS, Pins, load_config
from pi.wiring import BCM_TO_HEADER, GROUND_PINS, HEADER, conflicts, main, update, wires


def test_hardware_md_shows_the_wiring_of_the_default_pins() -> None:
    text = (ROOT / "hardware.md").read_text(encoding="utf-8")
    assert update(text) == text, "run: python -m pi.wiring --write hardware.md"
    assert main([str(ROOT / "hardware.md"), "--check"]) == 0


def test_a_changed_pin_makes_the_diagram_stale(tmp_path) -> None:
    doc = tmp_path / "hardware.md"
    doc.write_text((ROOT / "hardware.md").read_text(encoding="utf-8"), encoding="utf-8")
    moved = update(doc.read_text(encoding="utf-8"), replace(Pins(), penalty=18))
    assert "| LED: penalty (nothing claimable) | `pins.penalty` | 18 | 12 |" in moved
    doc.write_text(moved, encoding="utf-8")
    assert main([str(doc), "--check"]) == 1
    assert main([str(doc), "--write"]) == 0 and main([str(doc), "--check"]) == 0
    with pytest.raises(ValueError, match="markers"):
        update("no markers here")


def test_every_device_has_its_own_gpio_and_header_pin() -> None:
    ws = wires(Pins())
    assert len(ws) == len(Pins().all()) == 15
    assert sorted(w.bcm for w in ws) == sorted(Pins().all())
    assert len({w.header for w in ws}) == 15
    assert all(HEADER[w.header] == f"GPIO{w.bcm}" for w in ws)
    assert set(BCM_TO_HEADER) == set(range(28)) and len(GROUND_PINS) == 8


def test_default_pins_leave_spi_screens_i2c_and_the_hat_eeprom_alone() -> None:
    assert conflicts(Pins()) == []
    assert not set(Pins().all()) & (set(SCREEN_PINS) | set(RESERVED_PINS))
    old = Pins(rolls=(17, 27, 22, 10), slots=(23, 24, 25, 8, 7), penalty=12, status=16)
    assert len(conflicts(old)) == 6   # the old defaults sat on the SPI screens' pins


def test_the_example_config_is_the_defaults() -> None:
    cfg = load_config(ROOT / "pi" / "config.example.toml")
    assert cfg.pins == Pins()
    assert (cfg.source, cfg.dice, cfg.port, cfg.settle_seconds) == ("auto", "haba", 8000, 0.4)
