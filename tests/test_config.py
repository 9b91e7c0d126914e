"""The config file: defaults, overrides, and one clear line for every mistake."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import KOTD

from pi.config import ConfigError, Pins, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_and_overrides(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, 'source = "sim"\nport = 9000\n[pins]\nclaim = 18\n'),
                      port=9100, data_dir=str(tmp_path))
    assert (cfg.source, cfg.port, cfg.pins.claim, cfg.pins.undo) == ("sim", 9100, 18, 13)
    assert cfg.data_dir == tmp_path
    assert load_config(write(tmp_path, "")).pins == Pins()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('source = "webcam"', "source 'webcam' is not one of"),
        ('source = "replay"', "source replay needs a path"),
        ("port = 70000", "port must be 1-65535"),
        ('port = "80"', "port must be a int"),
        ("colour = 3", "unknown key 'colour'"),
        ("[pins]\nclaim = 6", "pin 6 is used twice"),
        ("[pins]\nslots = [1, 2, 3]", "pins.slots needs 5 pins"),
        ("[pins]\nbeeper = 4", "unknown pin 'beeper'"),
        ("[pins]\nstatus = 40", "pin 40 is not a BCM GPIO number"),
        ("port = ", "not valid TOML"),
        ('dice = "d20"', "dice must be 'haba' or 'standard'"),
        ("storage_check_seconds = 0", "storage_check_seconds must be 0.1-60"),
    ],
)
def test_config_mistakes_are_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")) as err:
        load_config(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_serve_reports_a_config_error_in_one_line_at_start(tmp_path: Path) -> None:
    path = write(tmp_path, "[pins]\nundo = 5\n")
    out = subprocess.run([KOTD, "serve", "--config", str(path), "--data-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == f"kotd: config error: {path} + flags: pin 5 is used twice " \
                                 "in [pins]"
